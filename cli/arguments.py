"""Shared command arguments: inputs that name records (files, folders, -), encodings, limits.

Light on purpose: every command's options are built from these when ``gamerec`` starts, so
nothing here loads a codec or an engine. The inputs themselves are read by
``gamerec.recorder.inputs``, the one reader of every command.
"""

from __future__ import annotations

import contextlib
import enum
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.edge import EXIT_FAILED, EXIT_FINDINGS, EXIT_OK, error_line, fail
from gamerec.cli.reading import input_paths, records_of, unreadable_json
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from gamerec.recorder.inputs import ParsedRecord


class Policy(enum.StrEnum):
    """How a built-in player chooses its moves (see validator/generation.py)."""

    RANDOM = "random"
    GREEDY = "greedy"


#: The ``--policy`` option of the commands that play with a built-in policy.
PolicyOption = Annotated[
    Policy, typer.Option("--policy", help="random: any legal move; greedy: the best lead.")
]


def encoding_help() -> str:
    """The encodings, for option help texts."""
    return ", ".join(encoding.value for encoding in Encoding)


#: The ``--limit NAME=N`` option of every command that reads records.
LimitOption = Annotated[
    list[str] | None,
    typer.Option(
        "--limit",
        metavar="NAME=N",
        help="Change a limit (`gamerec limits` lists them) on what one record may hold, "
        "e.g. plies=500000; repeatable.",
        show_default=False,
    ),
]
#: The ``PATH...`` argument of every command that reads many records.
PathsArgument = Annotated[
    list[str],
    typer.Argument(
        metavar="PATH",
        help="Record files, folders of them (searched recursively), or - for standard input.",
    ),
]
#: The ``--from`` option: the encoding of every input.
FromOption = Annotated[
    Encoding | None,
    typer.Option(
        "--from",
        help=f"Encoding of every input ({encoding_help()}); default: extension, else sniffed.",
    ),
]


def limits_of(settings: list[str] | None) -> Limits:
    """The limits ``--limit`` settings give (the defaults changed); exit 2 on a bad one."""
    try:
        return DEFAULT_LIMITS.with_settings(settings or [])
    except ValueError as error:
        fail(f"--limit: {error}")


#: Shows one record (with the meter's ``echo``); False when the record is not a legal game.
ShowRecord = Callable[["ParsedRecord", Callable[[str], None]], bool]


def each_record(
    paths: list[str],
    encoding: Encoding | None,
    limits: Limits,
    show: ShowRecord,
    *,
    label: str,
    as_json: bool,
) -> int:
    """Show every record of ``paths`` under a progress display; the exit code.

    What cannot be read is an error line on stderr (and, with ``as_json``, an
    UnreadableInput line on stdout in its place). The exit code is 2 when something could not
    be read, else 1 when ``show`` said some record is not a legal game, else 0.
    """
    from gamerec.cli.progress import Meter
    from gamerec.recorder.inputs import InputFailure

    files = input_paths(paths)
    failed = invalid = False
    with Meter(label, None) as meter:
        for item in records_of(files, encoding, limits, meter):
            if isinstance(item, InputFailure):
                meter.echo(error_line(item.message), err=True)
                if as_json:
                    meter.echo(unreadable_json(item))
                failed = True
            elif not show(item, meter.echo):
                invalid = True
    return EXIT_FAILED if failed else EXIT_FINDINGS if invalid else EXIT_OK


#: ``--players N``: the number of seats of a game that takes several.
PlayersOption = Annotated[
    int | None, typer.Option("--players", min=1, help="The number of seats (Players tag).")
]
#: ``--variant TAG=VALUE``: a variant option as a GRN tag (repeatable).
VariantOption = Annotated[
    list[str] | None,
    typer.Option(
        "--variant",
        metavar="TAG=VALUE",
        help="A variant option as a GRN tag, e.g. Board=6,6 or Mirror=every (repeatable).",
    ),
]


def variant_tags(options: list[str]) -> dict[str, str]:
    """``["Board=6,6", "Mirror=every"]`` -> ``{"Board": "6,6", "Mirror": "every"}``."""
    tags = {}
    for option in options:
        tag, equals, value = option.partition("=")
        if not equals or not tag.strip():
            fail(f"--variant {option!r}: write it as TAG=VALUE, e.g. Board=6,6")
        tags[tag.strip()] = value.strip()
    return tags


@contextlib.contextmanager
def naming_players(asked_for_none: bool) -> Iterator[None]:
    """A variant that needs a player count and got none: say which option gives it."""
    from gamerec.validator.games.protocol import VariantError

    try:
        yield
    except VariantError as error:
        if asked_for_none and "Players" in str(error):
            raise VariantError(f"{error}: give the number of seats with --players N") from None
        raise
