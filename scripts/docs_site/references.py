"""The reference pages of the documentation site, made from the code each time it is built.

Nothing here is pasted: the command line comes from the Typer application itself, the gRPC API
from the ``.proto`` files' comments (protoc's descriptors with source info), the Python API
from the front door's ``__all__`` (rendered by mkdocstrings from the docstrings), the finding
codes from the engines and :mod:`gamerec.validator.finding_codes` (with a real sentence of
each, judged from ``fixtures/invalid/`` during the build), and the limits from the rows
``gamerec limits`` prints. A reference page cannot drift from the code: it is the code.
"""

from __future__ import annotations

import importlib
import re
import sys
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, Final

import typer
from google.protobuf import descriptor_pb2
from grpc_tools import protoc  # type: ignore[import-untyped]
from markdown.extensions.toc import slugify  # type: ignore[import-untyped]
from typer._click.core import Context
from typer.core import TyperArgument, TyperGroup

import gamerec
from gamerec.cli.limits import limit_tables
from gamerec.cli.main import app, load_command
from gamerec.recorder.codecs import read_records
from gamerec.validator.finding_codes import RECORD_CODES, SEAL_CODES
from gamerec.validator.games.registry import entries, entry_of
from gamerec.validator.judge import validate

ROOT: Final = Path(__file__).resolve().parents[2]
PROTO_ROOT: Final = ROOT / "protos"

#: Every reference page: its path under docs/ and the function that writes it.
PAGES: Final[dict[str, Callable[[], str]]] = {}

GENERATED_NOTE: Final = (
    '!!! note "Made from the code"\n'
    "    This page is generated from {source} each time the site is built "
    "(`scripts/docs_site/references.py`); it always says what this version does.\n"
)


def reference_page(path: str) -> Callable[[Callable[[], str]], Callable[[], str]]:
    """Register a function as the writer of the reference page at ``path``."""

    def register(write: Callable[[], str]) -> Callable[[], str]:
        PAGES[path] = write
        return write

    return register


def one_line(text: str) -> str:
    """Text on one line, for a table cell or a list item (``|`` escaped for tables)."""
    return " ".join(text.split()).replace("|", "\\|")


_CODE_SPAN = re.compile(r"(`+)(?:.+?)\1", re.DOTALL)


def plain_brackets(text: str) -> str:
    """Help text whose brackets outside code spans are plain text, not links (``[%clk]``)."""
    pieces = []
    last = 0
    for span in _CODE_SPAN.finditer(text):
        pieces += [_escaped(text[last : span.start()]), span.group(0)]
        last = span.end()
    return "".join([*pieces, _escaped(text[last:])])


def _escaped(text: str) -> str:
    return text.replace("[", "\\[").replace("]", "\\]")


# -- the command line ---------------------------------------------------------------------------


@reference_page("reference/cli.md")
def command_line_page() -> str:
    """Every ``gamerec`` command with its arguments and options, from the Typer app."""
    group = typer.main.get_command(app)
    assert isinstance(group, TyperGroup)
    root = Context(group, info_name="gamerec")
    lines = [
        "# Command line reference",
        "",
        GENERATED_NOTE.format(source="the Typer application (`gamerec.cli.main`)"),
        "Exit codes, for every command: **0** done (every record valid, nothing different), "
        "**1** something invalid or different, **2** the job could not be done (an input "
        "could not be read, a bad option); errors are one line on stderr, and no output file "
        "is left half-written. `gamerec COMMAND --help` prints the same text in the terminal.",
        "",
        "## `gamerec`",
        "",
        one_line(group.help or ""),
        "",
        "```text",
        "gamerec [OPTIONS] COMMAND [ARGS]...",
        "```",
        "",
        *parameter_items(group.get_params(root), root),
        "",
    ]
    for name in group.list_commands(root):
        command = load_command(name)
        lines += command_section(
            command, f"gamerec {name}", Context(command, info_name=name, parent=root)
        )
        if isinstance(command, TyperGroup):  # gamerec match new|show|...: each its own section
            for sub in command.list_commands(root):
                inner = command.commands[sub]
                context = Context(inner, info_name=sub, parent=root)
                lines += command_section(inner, f"gamerec {name} {sub}", context)
    return "\n".join(lines)


def command_section(command: Any, title: str, context: Any) -> list[str]:
    """One command's section: its help, its usage line, its arguments and options."""
    params = command.get_params(context)
    usage = "COMMAND [ARGS]..." if isinstance(command, TyperGroup) else usage_of(params)
    return [
        f"## `{title}`",
        "",
        plain_brackets((command.help or "").strip()),
        "",
        "```text",
        f"{title} {usage}",
        "```",
        "",
        *parameter_items(params, context),
        "",
    ]


def usage_of(params: list[Any]) -> str:
    """``[OPTIONS] PATH...``: the usage line of a command's parameters."""
    words = ["[OPTIONS]"]
    for param in params:
        if isinstance(param, TyperArgument):
            word = argument_word(param)
            words.append(word if param.required else f"[{word}]")
    return " ".join(words)


def argument_word(param: Any) -> str:
    """An argument as the usage line names it: ``PATH...``, ``new|show``."""
    choices = getattr(param.type, "choices", None)
    if choices:
        word = "|".join(str(getattr(choice, "value", choice)) for choice in choices)
    else:
        word = param.metavar or (param.name or "").upper()
    return f"{word}..." if param.nargs == -1 else word


def parameter_items(params: list[Any], context: Any) -> Iterator[str]:
    """One list item per argument and option (``--help`` left out: every command has it)."""
    for param in params:
        if getattr(param, "hidden", False) or "--help" in param.opts:
            continue
        if isinstance(param, TyperArgument):
            names = f"`{argument_word(param)}`"
        else:
            names = ", ".join(f"`{opt}`" for opt in [*param.opts, *param.secondary_opts])
            if not param.is_flag:
                names += f" `{param.make_metavar(context)}`"
        help_text = plain_brackets(one_line(getattr(param, "help", None) or ""))
        yield f"- {names}: {help_text}{default_note(param)}"


def default_note(param: Any) -> str:
    """`` (default: 0)`` when the option shows a default worth saying, else nothing."""
    default = param.default
    if getattr(param, "is_flag", False) or default is None or default is False:
        return ""
    if default in ("", (), []):
        return ""
    if not getattr(param, "show_default", True):
        return ""
    shown = getattr(default, "value", default)
    return f" (default: `{shown}`)"


# -- the gRPC API ---------------------------------------------------------------------------------

#: Source-code-info path numbers of descriptor.proto (FileDescriptorProto and friends).
_MESSAGES, _ENUMS, _SERVICES, _SYNTAX = 4, 5, 6, 12
_FIELDS, _NESTED, _NESTED_ENUMS = 2, 3, 4
_VALUES, _METHODS = 2, 2


#: The files the page starts with; the others follow by name.
FIRST_FILES: Final = ("service.proto", "record.proto", "verdict.proto")


def file_order(name: str) -> tuple[int, str]:
    """The service, the record and the verdict first, then the rest by name."""
    base = name.rsplit("/", 1)[-1]
    return (FIRST_FILES.index(base) if base in FIRST_FILES else len(FIRST_FILES), base)


def proto_files() -> list[Path]:
    """The schema's ``.proto`` files, in the page's order."""
    return sorted((PROTO_ROOT / "gamerec" / "v1").glob("*.proto"), key=lambda p: file_order(p.name))


def descriptor_set() -> descriptor_pb2.FileDescriptorSet:
    """The schema compiled by protoc (grpc-tools) with its comments."""
    include = Path(protoc.__file__).parent / "_proto"
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "schema.pb"
        args = [
            "protoc",
            f"-I{PROTO_ROOT}",
            f"-I{include}",
            "--include_source_info",
            f"--descriptor_set_out={out}",
            *(str(path.relative_to(PROTO_ROOT)) for path in proto_files()),
        ]
        if protoc.main(args) != 0:
            raise RuntimeError("protoc could not compile protos/ for the gRPC reference")
        return descriptor_pb2.FileDescriptorSet.FromString(out.read_bytes())


class Comments:
    """The comments of one ``.proto`` file, by the path of the element they are on."""

    def __init__(self, file: descriptor_pb2.FileDescriptorProto) -> None:
        """Index the file's source locations."""
        self._by_path = {
            tuple(location.path): " ".join(
                part for part in (location.leading_comments, location.trailing_comments) if part
            )
            for location in file.source_code_info.location
        }

    def of(self, *path: int) -> str:
        """The element's comment as markdown paragraphs (a blank ``//`` line starts one)."""
        text = self._by_path.get(path, "")
        paragraphs = [" ".join(block.split()) for block in text.split("\n\n")]
        return "\n\n".join(paragraph for paragraph in paragraphs if paragraph)

    def cell(self, *path: int) -> str:
        """The element's comment on one line, for a table cell."""
        return one_line(self.of(*path))


PACKAGE: Final = ".gamerec.v1."


def type_link(type_name: str) -> str:
    """A message or enum type as a link to its section (``google.protobuf`` types plain)."""
    if type_name.startswith(PACKAGE):
        name = type_name.removeprefix(PACKAGE)
        return f"[`{name}`](#{anchor_of(name)})"
    return f"`{type_name.lstrip('.')}`"


def anchor_of(name: str) -> str:
    """The anchor of a message or enum section (``Verdict``, ``Finding.Kind``)."""
    return "type-" + name.replace(".", "-").lower()


_SCALARS: Final = {
    value: name.removeprefix("TYPE_").lower()
    for name, value in descriptor_pb2.FieldDescriptorProto.Type.items()
}


def field_type(
    field: descriptor_pb2.FieldDescriptorProto,
    maps: dict[str, descriptor_pb2.DescriptorProto],
) -> str:
    """A field's type as the schema writes it: ``repeated Finding``, ``map<string, string>``."""
    if field.type_name in maps:
        key, value = maps[field.type_name].field
        return f"map<{field_type(key, maps)}, {field_type(value, maps)}>"
    if field.type in (field.TYPE_MESSAGE, field.TYPE_ENUM):
        shown = type_link(field.type_name)
    else:
        shown = f"`{_SCALARS[field.type]}`"
    if field.label == field.LABEL_REPEATED:
        return f"repeated {shown}"
    return f"optional {shown}" if field.proto3_optional else shown


@reference_page("reference/grpc.md")
def grpc_page() -> str:
    """The service, every message and every enum of ``gamerec.v1``, from the schema."""
    files = list(descriptor_set().file)
    ours = sorted(
        (file for file in files if file.package == "gamerec.v1"),
        key=lambda file: file_order(file.name),
    )
    lines = [
        "# gRPC API reference",
        "",
        GENERATED_NOTE.format(source="the comments of `protos/gamerec/v1/*.proto`"),
        "The package is `gamerec.v1`; the [service guide](../service.md) shows the calls "
        "from the command line, Node.js and Python. Field names are the schema's; ProtoJSON "
        "(the CLI's `--json`) writes them in lowerCamelCase.",
        "",
    ]
    for file in ours:
        comments = Comments(file)
        for index, service in enumerate(file.service):
            lines += service_section(service, comments, (_SERVICES, index))
    for file in ours:
        comments = Comments(file)
        lines += [f"## `{file.name}`", "", comments.of(_SYNTAX), ""]
        lines += file_types(file, comments)
    return "\n".join(lines)


def service_section(
    service: descriptor_pb2.ServiceDescriptorProto, comments: Comments, path: tuple[int, int]
) -> list[str]:
    """A service: its comment and one entry per RPC."""
    lines = [f"## `{service.name}`", "", comments.of(*path), ""]
    for index, method in enumerate(service.method):
        stream = "stream " if method.server_streaming else ""
        lines += [
            f"### `{method.name}` {{#rpc-{method.name.lower()}}}",
            "",
            f"`{method.name}({method.input_type.removeprefix(PACKAGE)}) returns "
            f"({stream}{method.output_type.removeprefix(PACKAGE)})`: request "
            f"{type_link(method.input_type)}, answer {type_link(method.output_type)}"
            f"{' (a stream)' if stream else ''}.",
            "",
            comments.of(*path, _METHODS, index),
            "",
        ]
    return lines


def file_types(file: descriptor_pb2.FileDescriptorProto, comments: Comments) -> list[str]:
    """Every message and enum of a file, nested ones after their parent."""
    lines: list[str] = []
    for index, message in enumerate(file.message_type):
        lines += message_section(message, message.name, comments, (_MESSAGES, index))
    for index, enum in enumerate(file.enum_type):
        lines += enum_section(enum, enum.name, comments, (_ENUMS, index))
    return lines


def message_section(
    message: descriptor_pb2.DescriptorProto,
    name: str,
    comments: Comments,
    path: tuple[int, ...],
) -> list[str]:
    """A message: its comment and a table of its fields."""
    maps = {
        f"{PACKAGE}{name}.{nested.name}": nested
        for nested in message.nested_type
        if nested.options.map_entry
    }
    lines = [f"### `{name}` {{#{anchor_of(name)}}}", "", comments.of(*path), ""]
    if message.field:
        lines += ["| field | number | type | meaning |", "| --- | --- | --- | --- |"]
        for index, field in enumerate(message.field):
            oneof = ""
            if field.HasField("oneof_index") and not field.proto3_optional:
                oneof = f" (one of `{message.oneof_decl[field.oneof_index].name}`)"
            lines.append(
                f"| `{field.name}` | {field.number} | {field_type(field, maps)}{oneof} | "
                f"{comments.cell(*path, _FIELDS, index)} |"
            )
        lines.append("")
    for index, nested in enumerate(message.nested_type):
        if not nested.options.map_entry:
            lines += message_section(
                nested, f"{name}.{nested.name}", comments, (*path, _NESTED, index)
            )
    for index, enum in enumerate(message.enum_type):
        lines += enum_section(enum, f"{name}.{enum.name}", comments, (*path, _NESTED_ENUMS, index))
    return lines


def enum_section(
    enum: descriptor_pb2.EnumDescriptorProto,
    name: str,
    comments: Comments,
    path: tuple[int, ...],
) -> list[str]:
    """An enum: its comment and a table of its values."""
    lines = [f"### `{name}` (enum) {{#{anchor_of(name)}}}", "", comments.of(*path), ""]
    lines += ["| value | number | meaning |", "| --- | --- | --- |"]
    for index, value in enumerate(enum.value):
        lines.append(
            f"| `{value.name}` | {value.number} | {comments.cell(*path, _VALUES, index)} |"
        )
    return [*lines, ""]


# -- the Python API -------------------------------------------------------------------------------


@reference_page("reference/python.md")
def python_page() -> str:
    """The front door's names (``gamerec.__all__``), grouped by the module that holds them."""
    exports: dict[str, str | tuple[str, str]] = gamerec._EXPORTS
    missing = sorted(set(gamerec.__all__) - set(exports) - {"__version__"})
    if missing:
        raise RuntimeError(f"gamerec.__all__ names {missing} that _EXPORTS does not place")
    by_module: dict[str, list[str]] = {}
    for name in gamerec.__all__:
        where = exports.get(name)
        if where is not None:
            module = where if isinstance(where, str) else where[0]
            by_module.setdefault(module, []).append(name)
    lines = [
        "# Python API reference",
        "",
        GENERATED_NOTE.format(source="the docstrings of the names in `gamerec.__all__`"),
        "Everything below is on the front door: `import gamerec`, then `gamerec.validate`, "
        "`gamerec.RecordBuilder`... (names load on first use, so the import costs nothing). "
        "The [library guide](../library.md) shows them at work. Each section is named after "
        "the module that holds its names.",
        "",
        "`gamerec.__version__` is the installed distribution's version.",
        "",
    ]
    for module, names in sorted(by_module.items(), key=lambda item: module_order(item[0])):
        lines += [f"## {module_title(module)}", "", f"In `{module}`.", ""]
        lines += [f"::: gamerec.{name}\n" for name in names]
    return "\n".join(lines)


def module_order(module: str) -> tuple[int, str]:
    """Records first, then the referee, then the rest, each by name."""
    for rank, prefix in enumerate(("gamerec.recorder", "gamerec.v1", "gamerec.validator")):
        if module.startswith(prefix):
            return rank, module
    return 3, module


def module_title(module: str) -> str:
    """The first line of a module's docstring, as a section title."""
    if module.startswith("gamerec.v1."):
        return "The record message"
    loaded = importlib.import_module(module)
    first = (loaded.__doc__ or module).strip().splitlines()[0].rstrip(".")
    return first.replace("``", "`")


# -- finding codes -------------------------------------------------------------------------------


def example_sentences() -> dict[tuple[str, str], str]:
    """A real finding per (game, code), judged now from the records of ``fixtures/invalid/``."""
    found: dict[tuple[str, str], str] = {}
    for path in sorted((ROOT / "fixtures" / "invalid").iterdir()):
        for record in read_records(path):
            entry = entry_of(record.rules.game)
            game = entry.name if entry is not None else ""
            for finding in validate(record).errors:
                found.setdefault((game, finding.code), finding.message)
    return found


def cited(file: str, sections: tuple[str, ...] | list[str]) -> str:
    """``§4.1, §4.2`` as links to those headings of a rules page."""
    return ", ".join(f"[{section}]({section_link(file, section)})" for section in sections)


def section_link(file: str, section: str) -> str:
    """The link from a reference page to a numbered heading (``§4.2``) of a docs file."""
    number = section.removeprefix("§").split("-")[0]
    heading = numbered_heading(file, number)
    return f"../{file.removeprefix('docs/')}#{slugify(heading, '-')}"


def numbered_heading(file: str, number: str) -> str:
    """The text of the heading numbered ``number`` (``4.2``) in a docs file."""
    for line in (ROOT / file).read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            text = line.lstrip("#").strip()
            if text.split(" ", 1)[0].rstrip(".") == number:
                return text
    raise LookupError(f"{file} has no heading numbered {number}")


def registry_sections(cites: str) -> str:
    """The sections of each game's rules a record finding cites (``score``: ONE §6.3, ...)."""
    parts = [part for part in cites.split("+") if part]
    if not parts:
        return ""
    return "; ".join(
        f"{entry.name} "
        + cited(
            entry.citation.file,
            [section for part in parts for section in getattr(entry.citation, part).split(", ")],
        )
        for entry in entries()
    )


@reference_page("reference/findings.md")
def findings_page() -> str:
    """Every finding code: the record's, the seals', and each game's, with a real sentence."""
    examples = example_sentences()
    lines = [
        "# Finding codes",
        "",
        GENERATED_NOTE.format(
            source="the engines' reason codes, `gamerec.validator.finding_codes` and the "
            "records of `fixtures/invalid/`, judged during the build"
        ),
        "A finding names its ply (1-based; 0 for the record as a whole), the seat, the move "
        "as written, a stable **code** and a sentence that cites the rule. The codes are "
        "stable: a platform may count and filter by them (`validate` prints the count per "
        "code under its summary; `find --finding CODE` selects records by them). The example "
        "sentences are what the referee writes for the records of `fixtures/invalid/`, which "
        "hold one record per code.",
        "",
        "## About the record",
        "",
        "These are written for any game; a sentence that cites the rules cites the game's "
        "own rules page (the section each game's registry entry names).",
        "",
        "| code | when | cites | example |",
        "| --- | --- | --- | --- |",
    ]
    for code, meaning in RECORD_CODES.items():
        example = next((text for (_, seen), text in examples.items() if seen == code), "")
        sections = registry_sections(meaning.cites) or "-"
        lines.append(
            f"| `{code}` | {one_line(meaning.meaning)} | {sections} | {one_line(example)} |"
        )
    lines += [
        "",
        "## About seals and signatures",
        "",
        "Written by `gamerec verify` and the `Verify` RPC ([seals guide](../signing.md), "
        "[specification](../seals.md)); `validate` checks the chain and the signatures only.",
        "",
        "| code | when |",
        "| --- | --- |",
    ]
    lines += [f"| `{code}` | {one_line(meaning.meaning)} |" for code, meaning in SEAL_CODES.items()]
    lines.append("")
    for entry in entries():
        file = entry.citation.file
        lines += [
            f"## {entry.name}",
            "",
            f"The moves the rules of {entry.name} refuse ([rules]"
            f"(../{file.removeprefix('docs/')})).",
            "",
            "| code | when | cites | example |",
            "| --- | --- | --- | --- |",
        ]
        citations = entry.engine.citations
        for code, description in entry.engine.reason_codes.items():
            cited_sections = [part.split(" ", 1)[1] for part in citations[code]]
            example = examples.get((entry.name, code), "")
            lines.append(
                f"| `{code}` | {one_line(description)} | {cited(file, cited_sections)} | "
                f"{one_line(example)} |"
            )
        lines.append("")
    return "\n".join(lines)


# -- limits ---------------------------------------------------------------------------------------


@reference_page("reference/limits.md")
def limits_page() -> str:
    """Every table ``gamerec limits`` prints, each limit with its default and what it bounds."""
    lines = [
        "# Limits",
        "",
        GENERATED_NOTE.format(source="the tables `gamerec limits` prints"),
        "Every reader checks each record against the first table's limits; a record over one "
        "is refused with an error naming the limit, the value found and the place. Change "
        "them with `--limit NAME=N` (repeatable) on every command that reads records, or "
        "with a `gamerec.Limits` value in the library. What they guard against, and how, "
        "is in [Limits and robustness](../robustness.md).",
        "",
    ]
    for table in limit_tables():
        said = one_line(table.title.rstrip(":")) or f"Change one with `{table.option}`"
        lines += [f"## {table.heading}", "", f"{said}; [more]({_guide(table.guide)}).", ""]
        lines += [
            "| limit | default | what it bounds |",
            "| --- | --: | --- |",
        ]
        lines += [
            f"| `{name}` | {value} | {one_line(meaning)} |" for name, value, meaning in table.rows()
        ]
        lines.append("")
    return "\n".join(lines)


def _guide(page: str) -> str:
    """A link from the reference folder to a guide page of docs/."""
    return f"../{page}"


def main() -> None:
    """``python -m scripts.docs_site.references PAGE``: print one reference page."""
    for path in sys.argv[1:] or list(PAGES):
        sys.stdout.write(PAGES[path]())


if __name__ == "__main__":
    main()
