"""Shared command arguments: inputs that name records (files, folders, -), encodings, limits."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated

import typer

from gamerec.cli.edge import fail, os_error_text
from gamerec.recorder.codecs import Encoding, Frame, encoding_for_path, read_frames
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits, limit_name
from gamerec.v1 import record_pb2 as pb


def record_files(arguments: list[str]) -> list[str]:
    """The inputs named by the arguments, in order: a folder stands for every record file in it.

    A folder is searched recursively for files with a record extension (``.pb``, ``.pbs``,
    ``.json``, ``.jsonl``, ``.grn``), in sorted order; files named directly and ``-`` are
    kept as given, whatever their extension.
    """
    files: list[str] = []
    for argument in arguments:
        path = Path(argument)
        if argument != "-" and path.is_dir():
            files += sorted(
                str(found)
                for found in path.rglob("*")
                if found.is_file() and encoding_for_path(found) is not None
            )
        else:
            files.append(argument)
    return files


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


def limits_of(settings: list[str] | None) -> Limits:
    """The limits ``--limit`` settings give (the defaults changed); exit 2 on a bad one."""
    try:
        return DEFAULT_LIMITS.with_settings(settings or [])
    except ValueError as error:
        fail(f"--limit: {error}")


@dataclass(frozen=True, slots=True)
class RecordAt:
    """A record and where it came from (``source``, 1-based ``number``)."""

    source: str
    number: int
    record: pb.GameRecord


@dataclass(frozen=True, slots=True)
class ReadFailure:
    """An input that could not be read (from its start or from some record on)."""

    source: str
    message: str


def records_of(
    paths: list[str], encoding: Encoding | None, limits: Limits | None = None
) -> Iterator[RecordAt | ReadFailure]:
    """Every record of every input (folders expanded), with a ReadFailure where one breaks.

    A record whose frame cannot be parsed or is over one of the ``limits`` (a ``.pbs``
    frame, a ``.pb`` file) is a failure of that record alone: the records after it are still
    read. Any other failure (a broken text record, a broken or oversized frame length) ends
    that input; the next input is still read.
    """
    for path in record_files(paths):
        label = "<stdin>" if path == "-" else path
        try:
            for number, frame in enumerate(read_frames(path, encoding, limits=limits), start=1):
                yield _parsed(label, number, frame)
        except GamerecError as error:
            yield ReadFailure(label, str(error))
        except BrokenPipeError:
            raise
        except OSError as error:
            yield ReadFailure(label, os_error_text(error))


def _parsed(label: str, number: int, frame: Frame) -> RecordAt | ReadFailure:
    """The record of one frame, or the failure of that record alone."""
    try:
        return RecordAt(label, number, frame.parse())
    except GamerecError as error:
        return ReadFailure(label, str(error))
