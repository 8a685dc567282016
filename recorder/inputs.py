"""The inputs of a job: files, folders and standard input, read record by record.

The one reader every command and batch job uses. A path may name a file of any encoding, a
folder (searched recursively for record files) or ``-`` (standard input, sniffed). Records come
out as raw frames (:class:`InputRecord`), decoded where the work is done, or decoded here
(:func:`parsed_inputs`). Whatever cannot be read is an :class:`InputFailure` in its place, and
the rest goes on: a record that cannot be decoded fails alone; a fault that ends an input (a
file that cannot be opened, a broken ``.pbs`` length prefix) fails that input from there on.
"""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.limits import Limits
from gamerec.recorder.raw import Frame

if TYPE_CHECKING:
    from gamerec.v1 import record_pb2 as pb

STDIN = "-"
STDIN_NAME = "<stdin>"


class InputRecord(NamedTuple):
    """One record of an input, not yet decoded.

    Attributes:
        source: the input's name (``<stdin>`` for standard input).
        number: the record's 1-based number in its input.
        frame: its raw bytes and how to decode them.
    """

    source: str
    number: int
    frame: Frame

    def parse(self) -> pb.GameRecord:
        """The record (see :meth:`Frame.parse` for the errors)."""
        return self.frame.parse()


class ParsedRecord(NamedTuple):
    """One record of an input, decoded.

    Attributes:
        source: the input's name.
        number: the record's 1-based number in its input.
        record: the record.
    """

    source: str
    number: int
    record: pb.GameRecord


class InputFailure(NamedTuple):
    """What could not be read: one record, or an input from some point on.

    Attributes:
        source: the input's name.
        number: the 1-based number of the record that failed; 0 when the input as a whole (or
            its rest) failed.
        message: one line naming the input, the place and the reason.
    """

    source: str
    number: int
    message: str


def input_files(arguments: Iterable[str]) -> list[str]:
    """The inputs the arguments name, in order: a folder stands for every record file in it.

    A folder is searched recursively for files with a record extension (``.pb``, ``.pbs``,
    ``.json``, ``.jsonl``, ``.grn``), in sorted order; files named directly and ``-`` are
    kept as given, whatever their extension.
    """
    files: list[str] = []
    for argument in arguments:
        path = Path(argument)
        if argument != STDIN and path.is_dir():
            files += sorted(
                str(found)
                for found in path.rglob("*")
                if found.is_file() and encoding_for_path(found) is not None
            )
        else:
            files.append(argument)
    return files


def source_name(path: str) -> str:
    """The name an input has in messages."""
    return STDIN_NAME if path == STDIN else path


def read_inputs(
    paths: Iterable[str], encoding: Encoding | None = None, limits: Limits | None = None
) -> Iterator[InputRecord | InputFailure]:
    """Every record of every input (folders expanded) as a raw frame, failures in their place.

    Args:
        paths: files, folders and ``-``.
        encoding: the encoding of every input; None takes it from each name, else sniffs it.
        limits: the limits every record is read under (carried by each frame).
    """
    for path in input_files(paths):
        yield from read_input(path, encoding, limits)


def read_input(
    path: str, encoding: Encoding | None = None, limits: Limits | None = None, name: str = ""
) -> Iterator[InputRecord | InputFailure]:
    """The records of one input (a file or ``-``), failures in their place.

    ``name``, when given, is the input's name in records and messages instead of ``path``
    (a cluster worker opens a file by its absolute path and names it as the user did).
    """
    from gamerec.recorder.codecs import read_frames  # noqa: PLC0415 (loads codecs on use)

    source = name or source_name(path)
    try:
        frames = read_frames(path, encoding, name=source, limits=limits)
        for number, frame in enumerate(frames, start=1):
            yield InputRecord(source, number, frame)
    except GamerecError as error:
        yield InputFailure(source, 0, str(error))
    except BrokenPipeError:
        raise
    except OSError as error:
        if name:
            error = OSError(error.errno, error.strerror, name)
        yield InputFailure(source, 0, os_error_text(error, source))


def parsed_inputs(
    paths: Iterable[str], encoding: Encoding | None = None, limits: Limits | None = None
) -> Iterator[ParsedRecord | InputFailure]:
    """:func:`read_inputs` with every record decoded; a record that does not decode fails alone."""
    for item in read_inputs(paths, encoding, limits):
        if isinstance(item, InputFailure):
            yield item
            continue
        try:
            yield ParsedRecord(item.source, item.number, item.parse())
        except GamerecError as error:
            yield InputFailure(item.source, item.number, str(error))


def os_error_text(error: OSError, source: str = "") -> str:
    """``<file>: <why>`` for a file that cannot be opened, read or written."""
    name = error.filename if error.filename is not None else source
    reason = error.strerror or str(error)
    return f"{os.fsdecode(name)}: {reason}" if name else reason
