"""The gRPC API reference (``reference/grpc.md``): the schema's comments, compiled by protoc.

It imports protobuf's descriptors, grpc-tools' protoc and the package's ``common``.
"""

import tempfile
from pathlib import Path
from typing import Final

from google.protobuf import descriptor_pb2
from grpc_tools import protoc  # type: ignore[import-untyped]

from scripts.docs_site.references.common import (
    GENERATED_NOTE,
    PROTO_ROOT,
    one_line,
    reference_page,
)

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
