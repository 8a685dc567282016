"""Shared command arguments: inputs that name records (files, folders, -), encodings, limits.

Light on purpose: every command's options are built from these when ``gamerec`` starts, so
nothing here loads a codec or an engine. The inputs themselves are read by
``gamerec.recorder.inputs``, the one reader of every command.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.edge import fail
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits, limit_name

if TYPE_CHECKING:
    from gamerec.recorder.inputs import InputFailure, ParsedRecord


def encoding_help() -> str:
    """The encodings, for option help texts."""
    return ", ".join(encoding.value for encoding in Encoding)


def _limits_help() -> str:
    defaults = ", ".join(
        f"{limit_name(field)}={getattr(DEFAULT_LIMITS, field):_}"
        for field in DEFAULT_LIMITS.__slots__
    )
    return (
        "Change a limit on what one record may hold, e.g. --limit plies=500000 (repeatable). "
        f"Defaults: {defaults}. A record over a limit is reported unreadable (exit 2)."
    )


#: The ``--limit NAME=N`` option of every command that reads records.
LimitOption = Annotated[
    list[str] | None,
    typer.Option("--limit", metavar="NAME=N", help=_limits_help(), show_default=False),
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


def records_of(
    paths: list[str], encoding: Encoding | None, limits: Limits | None = None
) -> Iterator[ParsedRecord | InputFailure]:
    """Every record of every input (folders expanded), with an InputFailure where one breaks.

    A record that cannot be decoded, or is over one of the ``limits``, fails alone: the
    records after it are still read. A fault that ends an input (a file that cannot be opened,
    a broken ``.pbs`` length prefix) fails the rest of that input; the next input is read.
    """
    from gamerec.recorder.inputs import parsed_inputs

    return parsed_inputs(paths, encoding, limits)
