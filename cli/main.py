"""The ``gamerec`` Typer application: one small module per command, loaded when it runs.

``gamerec --help`` lists the commands from the table below without importing them, and a
command's module (with the library parts it needs: codecs, engines, the renderer, grpc) is
imported only when that command runs, so start-up costs what the job needs.
"""

from __future__ import annotations

import importlib
from typing import Annotated, Any, Final, NamedTuple

import typer
from typer._click.core import Context, Parameter
from typer._click.types import FloatParamType, IntParamType, StringParamType
from typer._types import TyperChoice
from typer.core import TyperArgument, TyperCommand, TyperGroup, TyperOption

SETTINGS: Final[dict[str, Any]] = {
    "pretty_exceptions_show_locals": False,
    "rich_markup_mode": "markdown",
}


class CommandSpec(NamedTuple):
    """Where a command lives and its one-line summary (the first line of its docstring)."""

    module: str
    function: str
    summary: str


#: Every command, in the order ``--help`` lists them.
COMMANDS: Final[dict[str, CommandSpec]] = {
    "validate": CommandSpec(
        "validate", "validate", "Replay every record under its rules and judge it."
    ),
    "replay": CommandSpec(
        "replay",
        "replay",
        "Replay a record ply by ply: every move with what it did, then the position drawn.",
    ),
    "score": CommandSpec(
        "judging",
        "score",
        "Print the rules' result of every record: scores, ranks and winners per seat.",
    ),
    "adjudicate": CommandSpec(
        "judging", "adjudicate", "Rule on the result of every record, citing the rules."
    ),
    "convert": CommandSpec(
        "convert",
        "convert",
        "Convert records between encodings: .pb .pbs .json .jsonl .grn, Abstract Play, Ludii.",
    ),
    "info": CommandSpec(
        "info",
        "info",
        "Summarize every record: game, variant, seats, plies and the claimed result.",
    ),
    "serve": CommandSpec(
        "serve", "serve", "Serve gamerec.v1.RecordService over gRPC, with health and reflection."
    ),
    "render": CommandSpec(
        "render",
        "render",
        "Draw a position of a record as an SVG picture (default: after the last ply).",
    ),
    "view": CommandSpec(
        "view",
        "view",
        "Write a self-contained HTML replay viewer of a record (or of every record, with an "
        "index).",
    ),
    "analyse": CommandSpec(
        "analyse",
        "analyse",
        "Analyse a record: each seat's win chance, expected margin and best line, per ply.",
    ),
    "annotate": CommandSpec(
        "annotate",
        "annotate",
        "Annotate records: a comment or glyph at a ply, or engine facts on every ply (--auto).",
    ),
    "generate": CommandSpec(
        "generate",
        "generate",
        "Generate complete legal games for fixtures, demos and benchmarks.",
    ),
    "diff": CommandSpec(
        "diff",
        "diff",
        "Compare two records (or collections): metadata, seats, variant, result and moves.",
    ),
    "seal": CommandSpec(
        "seal",
        "seal",
        "Seal records: a hash chain over each record's canonical form, with the signers' keys.",
    ),
    "sign": CommandSpec(
        "sign", "sign", "Sign sealed records as a seat or as the host, with an Ed25519 private key."
    ),
    "verify": CommandSpec(
        "verify",
        "verify",
        "Verify sealed records: chain, signatures, what each signer covers, trust, then replay.",
    ),
    "keys": CommandSpec(
        "keys",
        "keys",
        "Make Ed25519 key pairs for signing records, or show key files' fingerprints.",
    ),
    "find": CommandSpec(
        "find",
        "find",
        "Select the records that meet every criterion (game, players, event, verdict, position).",
    ),
    "dedupe": CommandSpec(
        "dedupe",
        "dedupe",
        "Find games entered twice and matches with diverging moves; write one copy of each.",
    ),
    "stats": CommandSpec(
        "stats",
        "stats",
        "Figures per game and variant: validity, lengths, results by seat, endings, players.",
    ),
    "standings": CommandSpec(
        "standings",
        "standings",
        "The crosstable of an event: points, tie-breaks and results against each opponent.",
    ),
    "ratings": CommandSpec(
        "ratings",
        "ratings",
        "Rate every player of an archive: Glicko-2 for two seats, Weng-Lin for 3 to 6.",
    ),
    "event": CommandSpec(
        "event",
        "app",
        "Run an event on an event file: new, players, pair, start, results, standings, export.",
    ),
    "engine": CommandSpec(
        "engine",
        "engine",
        "Play as an engine on standard input and output with a built-in policy.",
    ),
    "tournament": CommandSpec(
        "tournament",
        "tournament",
        "Play engines against each other: round robin or gauntlet, records as games end.",
    ),
    "bot": CommandSpec(
        "bot",
        "bot",
        "Play one seat of a match on a server with an engine (or a built-in policy).",
    ),
    "limits": CommandSpec(
        "limits",
        "limits",
        "List the limits on what one record may hold, with their defaults and what they bound.",
    ),
    "play": CommandSpec(
        "play",
        "play",
        "Play a game at the terminal: a seat of a server's live match, or a local game vs a bot.",
    ),
    "match": CommandSpec(
        "match",
        "app",
        "Live matches on a server: new, bulk, show, list, abort; export a store's records.",
    ),
    "tables": CommandSpec(
        "tables",
        "app",
        "Exact endgame tables: build them, probe a record or a typed position (docs/tables.md).",
    ),
    "challenge": CommandSpec(
        "challenge",
        "app",
        "The lobby of a server: open a challenge, list them, take a seat, cancel.",
    ),
}

_LISTING: Final = "gamerec.listing"


def load_command(name: str) -> TyperCommand | TyperGroup:
    """The click command of ``name`` (a group, for ``match``), its module imported now."""
    spec = COMMANDS[name]
    module = importlib.import_module(f"gamerec.cli.{spec.module}")
    found = getattr(module, spec.function)
    if isinstance(found, typer.Typer):
        group = typer.main.get_group(found)
        for command in group.commands.values():
            if isinstance(command, TyperCommand):
                _plain_placeholders(command)
        return group
    single = typer.Typer(**SETTINGS, add_completion=False)  # completion is the group's
    single.command(name)(found)
    command = typer.main.get_command(single)
    assert isinstance(command, TyperCommand)
    _plain_placeholders(command)
    return command


class _Untyped(StringParamType):
    """Text whose help shows only the argument's name (``PATH``), not ``<str>`` beside it."""

    def get_metavar(self, param: Parameter, ctx: Context) -> str:
        """No type placeholder."""
        return ""


class _UntypedInt(IntParamType):
    """A whole number whose help shows only the argument's name (``N``), not ``<int>``."""

    def get_metavar(self, param: Parameter, ctx: Context) -> str:
        """No type placeholder."""
        return ""


class _PlainArgument(TyperArgument):
    """An argument whose usage reads as the docs write it: ``PATH...``, ``IN OUT``, ``[OUT]``.

    Typer's own usage writes a required argument in braces and drops the ``...`` of one
    that takes many when a metavar is given (``{PATH}``).
    """

    def make_metavar(self, ctx: Context, *, usage: bool = False) -> str:
        """The argument's word; in the usage line with ``...`` when it takes many."""
        word = self.metavar or (self.name or "").upper()
        if not usage or word.startswith("["):  # ``[N]``: optional, and says so already
            return word
        if self.nargs != 1:
            word += "..."
        return word if self.required else f"[{word}]"


#: The words of every encoding, as a choice option lists them; shown as ``ENCODING``, which the
#: option's help spells out (a list this long breaks mid-word in an 80-column help).
_ENCODINGS: Final = frozenset(("pb", "pbs", "json", "jsonl", "grn", "abstractplay", "ludii"))


def _plain_placeholders(command: TyperCommand) -> None:
    """A word where the help would show a type: ``--workers N``, ``--keep first|...``."""
    for param in command.params:
        if isinstance(param, TyperArgument):
            param.__class__ = _PlainArgument
        if isinstance(param, TyperArgument) and type(param.type) is StringParamType:
            param.type = _Untyped()
        elif isinstance(param, TyperArgument) and type(param.type) is IntParamType:
            param.type = _UntypedInt()
        elif isinstance(param, TyperOption) and param.metavar is None and not param.is_flag:
            if isinstance(param.type, TyperChoice):
                choices = [str(getattr(choice, "value", choice)) for choice in param.type.choices]
                encodings = set(choices) == _ENCODINGS
                param.metavar = "ENCODING" if encodings else "|".join(choices)
            elif isinstance(param.type, IntParamType | FloatParamType):
                param.metavar = "N"
            else:
                param.metavar = "TEXT"


class LazyCommands(TyperGroup):
    """The command group: commands are listed from :data:`COMMANDS` and loaded when they run."""

    def list_commands(self, ctx: typer.Context) -> list[str]:  # type: ignore[override]
        """Every command name, in the table's order."""
        return list(COMMANDS)

    def get_command(self, ctx: typer.Context, cmd_name: str) -> TyperCommand | TyperGroup | None:  # type: ignore[override]
        """The command (a light stand-in while only the group's help is written)."""
        if cmd_name not in COMMANDS:
            return None
        if ctx.meta.get(_LISTING):
            summary = COMMANDS[cmd_name].summary
            return TyperCommand(cmd_name, help=summary, short_help=summary)
        return load_command(cmd_name)

    def resolve_command(  # type: ignore[override]
        self, ctx: typer.Context, args: list[str]
    ) -> tuple[str | None, TyperCommand | TyperGroup | None, list[str]]:
        """The command named first in ``args``; a mistyped one is refused with the nearest."""
        name = args[0] if args else ""
        if name and name not in COMMANDS and not name.startswith("-"):
            from gamerec.recorder.words import did_you_mean

            hint = did_you_mean(name, COMMANDS, quoted=True).removeprefix("; did you mean")
            ctx.fail(f"No such command {name!r}." + (f" Did you mean{hint}" if hint else ""))
        return super().resolve_command(ctx, args)  # type: ignore[return-value]

    def format_help(self, ctx: typer.Context, formatter: Any) -> None:  # type: ignore[override]
        """The group's help, listing the commands without loading them."""
        ctx.meta[_LISTING] = True
        try:
            super().format_help(ctx, formatter)
        finally:
            ctx.meta[_LISTING] = False


app = typer.Typer(
    name="gamerec",
    cls=LazyCommands,
    help="Validate, convert, annotate, diff and render game records.",
    no_args_is_help=True,
    **SETTINGS,
)


def _print_version(asked: bool) -> None:
    """``--version``: print the version and stop."""
    if asked:
        from gamerec import __version__

        typer.echo(f"gamerec {__version__} (the gamerec-toolkit distribution)")
        raise typer.Exit


@app.callback()
def _root(
    version: Annotated[
        bool,
        typer.Option(
            "--version",
            callback=_print_version,
            is_eager=True,
            help="Print the version and exit.",
        ),
    ] = False,
) -> None:
    """Game records toolkit and referee."""


def main() -> None:
    """Run the ``gamerec`` command (:func:`gamerec.cli.entry.main`, the script's entry point)."""
    from gamerec.cli.entry import main as run_gamerec

    run_gamerec()
