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
import re
import stat
from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Final, NamedTuple

from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.limits import Limits
from gamerec.recorder.raw import Frame
from gamerec.recorder.words import plural

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


#: Folders a walk does not enter: tools' installs, caches and build output. Hidden folders
#: (a name that starts with a dot: ``.git``, ``.venv``, ``.tox``) and links to folders are
#: not entered either. A folder named on the command line is always walked.
TOOL_FOLDERS: Final = frozenset(
    {"node_modules", "__pycache__", "venv", "site-packages", "build", "dist", "htmlcov"}
)
#: How many bytes of a ``.json`` file found in a walk are read to tell whether it is a record.
_JSON_HEAD_BYTES = 4096
_NOT_AN_OBJECT = re.compile(rb'\s*[\["0-9tfn-]')
_ARRAY_OF_OBJECTS = re.compile(rb"\s*\[\s*(\{|$)")


class Walk(NamedTuple):
    """What the arguments name: the record files, and what a folder walk left out.

    Attributes:
        files: the inputs in order (each folder's record files sorted), ``-`` kept as given.
        skipped_folders: folders below a walked folder that were not entered (hidden, a
            tool's folder of :data:`TOOL_FOLDERS`, or a link).
        skipped_files: ``.json`` files found in a walk that are JSON but no game record
            (``package.json``): their first key is no field of a GameRecord.
        skipped_special: entries found in a walk with a record's extension that are no
            regular file (a named pipe, a socket, a device), each with what it is: reading
            one could wait forever (a pipe nobody writes) or never end (``/dev/zero``).
    """

    files: list[str]
    skipped_folders: list[str]
    skipped_files: list[str]
    skipped_special: list[str]

    def skipped_note(self, shown: int = 3) -> str:
        """One line saying what was skipped (``""`` when nothing was).

        At most ``shown`` names of each kind: ``skipped 1 folder: a/node_modules; 2 .json
        files that are not game records: a/package.json, a/tsconfig.json``.
        """
        parts = []
        if self.skipped_folders:
            noun = plural(len(self.skipped_folders), "folder")
            parts.append(f"{noun}: {_names(self.skipped_folders, shown)}")
        if self.skipped_files:
            noun = plural(len(self.skipped_files), ".json file")
            what = (
                "is not a game record" if len(self.skipped_files) == 1 else "are not game records"
            )
            parts.append(f"{noun} that {what}: {_names(self.skipped_files, shown)}")
        if self.skipped_special:
            noun = plural(len(self.skipped_special), "entry", "entries")
            what = (
                "is not a regular file"
                if len(self.skipped_special) == 1
                else "are not regular files"
            )
            parts.append(f"{noun} that {what}: {_names(self.skipped_special, shown)}")
        return "skipped " + "; ".join(parts) if parts else ""


def _names(names: list[str], shown: int) -> str:
    more = len(names) - shown
    return ", ".join(names[:shown]) + (f" and {more:,} more" if more > 0 else "")


def walk_inputs(arguments: Iterable[str]) -> Walk:
    """The inputs the arguments name, in order: a folder stands for every record file in it.

    A folder is searched recursively for files with a record extension (``.pb``, ``.pbs``,
    ``.json``, ``.jsonl``, ``.grn``, and Ludii's ``.trl``), in sorted order, leaving out hidden
    folders, tools' folders (:data:`TOOL_FOLDERS`), links to folders, and ``.json`` files that
    are plainly no record (:func:`looks_like_json_record`). Files named directly and ``-`` are
    kept as given, whatever their extension or content.
    """
    walk = Walk([], [], [], [])
    for argument in arguments:
        if argument != STDIN and os.path.isdir(argument):
            _walk_folder(argument, walk)
        else:
            walk.files.append(argument)
    return walk


def _walk_folder(folder: str, walk: Walk) -> None:
    found: list[str] = []
    for top, folders, names in os.walk(folder):
        entered = []
        for name in folders:
            path = os.path.join(top, name)
            if name.startswith(".") or name in TOOL_FOLDERS or os.path.islink(path):
                walk.skipped_folders.append(path)
            else:
                entered.append(name)
        folders[:] = entered
        found += (os.path.join(top, name) for name in names if encoding_for_path(name))
    for path in sorted(found):
        kind = _special_kind(path)
        if kind:
            walk.skipped_special.append(f"{path} ({kind})")
        elif encoding_for_path(path) is Encoding.JSON and not looks_like_json_record(path):
            walk.skipped_files.append(path)
        else:
            walk.files.append(path)
    walk.skipped_folders.sort()


def _special_kind(path: str) -> str:
    """What a path found in a walk is when it is no regular file (a link is followed); or ``""``.

    A path that cannot be looked at (a dangling link) counts as a file: reading it says why.
    """
    try:
        mode = os.stat(path).st_mode
    except OSError:
        return ""
    return "" if stat.S_ISREG(mode) else file_kind(mode)


def file_kind(mode: int) -> str:
    """What a file of this ``st_mode`` is, in words: ``a named pipe``, ``a folder``..."""
    kinds = (
        (stat.S_ISREG, "a regular file"),
        (stat.S_ISDIR, "a folder"),
        (stat.S_ISFIFO, "a named pipe"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a character device"),
        (stat.S_ISBLK, "a block device"),
    )
    return next((name for test, name in kinds if test(mode)), "a special file")


def looks_like_json_record(path: str) -> bool:
    """Whether a ``.json`` file may hold a record, as its first bytes tell.

    False only when they show JSON that is no record: a value that is not an object or an
    array of objects, an object whose first key is no field of GameRecord nor of Abstract
    Play's records (``package.json``), or an array whose first object's is none of Abstract
    Play's. Anything else is read, so that a broken record is reported, not skipped.
    """
    from gamerec.recorder.recognition import (  # noqa: PLC0415
        ABSTRACT_PLAY_KEYS,
        first_item_key,
        first_json_key,
        record_field_names,
    )

    try:
        with open(path, "rb") as file:
            head = file.read(_JSON_HEAD_BYTES).removeprefix(b"\xef\xbb\xbf")
    except OSError:
        return True  # reading it reports why it cannot be read
    key = first_json_key(head)
    if key is not None:
        return key in record_field_names() or key in ABSTRACT_PLAY_KEYS
    item_key = first_item_key(head)
    if item_key is not None:
        return item_key in ABSTRACT_PLAY_KEYS
    return _NOT_AN_OBJECT.match(head) is None or _ARRAY_OF_OBJECTS.match(head) is not None


def input_files(arguments: Iterable[str]) -> list[str]:
    """The files the arguments name (:func:`walk_inputs`), what was skipped left unsaid."""
    return walk_inputs(arguments).files


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
    return parsed(read_inputs(paths, encoding, limits))


def parsed(items: Iterable[InputRecord | InputFailure]) -> Iterator[ParsedRecord | InputFailure]:
    """Every item of :func:`read_inputs` decoded; a record that does not decode fails alone."""
    for item in items:
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
