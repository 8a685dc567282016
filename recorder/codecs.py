"""Read and write records in every encoding: the one entry point for files, streams and bytes.

======  =========  ==============================================================
name    extension  contents
======  =========  ==============================================================
PB      ``.pb``    one binary GameRecord
PBS     ``.pbs``   binary GameRecords, each after its length as a varint
JSON    ``.json``  one record in canonical ProtoJSON, indented
JSONL   ``.jsonl`` one compact ProtoJSON record per line
GRN     ``.grn``   text records of notation.md, one or many
AP      ``.json``  Abstract Play game records: one object, or an array of them
LUDII   ``.trl``   one Ludii trial
======  =========  ==============================================================

The last two are other tools' formats (``gamerec.recorder.foreign``, docs/formats.md): a
``.json`` file is read as Abstract Play's when its content is (an array, or an object with a
``header``), and a text that starts with ``game=`` is a Ludii trial.

The encoding comes from the argument, else from the file extension, else from the content
(:func:`sniff_encoding`; always so for standard input ``-``). Collections (``.pbs``,
``.jsonl``, ``.grn``) are read and written one record at a time, in constant memory.
Every decoding failure is a :class:`~gamerec.recorder.errors.RecordMalformedError` that names the
source, the place (``line 3, column 7``; ``byte 1042``; ``record 3 at byte 1042``) and what
was expected. Every record read is checked against :class:`~gamerec.recorder.limits.Limits` (the
``limits`` argument, :data:`~.limits.DEFAULT_LIMITS` by default); a record over a limit
is a :class:`~gamerec.recorder.errors.LimitExceededError`, which names the limit. Files are written
atomically: into a temporary file in the same folder, renamed over the destination on
success, removed on any failure.
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import Any, BinaryIO, TypeAlias

from google.protobuf.message import DecodeError

from gamerec.recorder.arguments import require_record
from gamerec.recorder.binary import (
    DEFAULT_MAX_RECORD_BYTES,
    read_pb_bytes,
    read_pbs_frames,
    record_bytes,
    write_pbs,
)
from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.errors import EmptyInputError, EncodingError, RecordMalformedError
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits, exceeded, resolved
from gamerec.recorder.raw import Frame
from gamerec.recorder.wire import WireError, decode_varint
from gamerec.v1 import record_pb2 as pb

__all__ = [
    "DEFAULT_LIMITS",
    "DEFAULT_MAX_RECORD_BYTES",
    "SNIFF_BYTES",
    "Encoding",
    "Frame",
    "Limits",
    "Source",
    "decode_record",
    "encode_record",
    "encoding_for_path",
    "read_frames",
    "read_records",
    "sniff_encoding",
    "write_records",
]

#: Where records come from or go: a path, ``"-"`` (standard input or output), or a binary
#: stream.
Source: TypeAlias = str | os.PathLike[str] | BinaryIO

#: How many bytes :func:`read_records` looks at to sniff an encoding (more for a first
#: binary frame that is longer, up to the record limit).
SNIFF_BYTES = 1 << 20

_BOM = b"\xef\xbb\xbf"
#: A JSON array of objects (or an empty one): ``[`` then ``{`` or ``]``; GRN's ``[`` is
#: followed by a tag name.
_JSON_ARRAY = re.compile(rb"\[[ \t\r\n]*[{\]]")
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
_STDIN_NAME = "<stdin>"


def sniff_encoding(
    head: bytes, *, at_end: bool = False, max_record_bytes: int = DEFAULT_MAX_RECORD_BYTES
) -> Encoding:
    """Tell a record encoding from the first bytes of an input.

    The rule:

    1. Text is UTF-8 (a byte-order mark is allowed) with no control characters but tab,
       line feed and carriage return. Text whose first non-space character is ``[`` is GRN;
       ``{`` is JSON Lines when the first line is a whole JSON object, else one JSON record
       (a one-line ``.json`` file is also a valid one-record JSON Lines file).
       Text that starts as a JSON array of objects (``[`` then ``{``) is Abstract Play's
       records; text that starts with ``game=`` is a Ludii trial.
    2. Anything else is binary. It is ``.pbs`` when it starts with one or more complete
       length-delimited frames that each parse as a GameRecord with no unknown fields (a
       last frame cut off by the end of the head is allowed), and ``.pb`` otherwise. Empty
       input is ``.pbs`` (no records).

    Args:
        head: the first bytes of the input.
        at_end: True when ``head`` is the whole input.
        max_record_bytes: a frame claiming more than this is not a ``.pbs`` frame.
    """
    if not head:
        return Encoding.PBS
    text = head.removeprefix(_BOM)
    if _is_text(text):
        stripped = text.lstrip()
        if stripped.startswith(b"{"):
            return Encoding.JSONL if _first_line_is_object(stripped) else Encoding.JSON
        if _JSON_ARRAY.match(stripped):
            return Encoding.ABSTRACT_PLAY
        if stripped.startswith(b"[") or not stripped:
            return Encoding.GRN
        if stripped.startswith(b"game="):
            return Encoding.LUDII
    return Encoding.PBS if _starts_with_frames(head, max_record_bytes) else Encoding.PB


def _is_text(data: bytes) -> bool:
    if _BINARY_BYTES.search(data):
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError as error:
        # A character cut by the end of the head is still text.
        return error.reason == "unexpected end of data" and error.start >= len(data) - 3
    return True


def _orjson() -> Any:
    """orjson, imported when JSON is sniffed (fast start-up for everything else)."""
    import orjson  # noqa: PLC0415

    return orjson


def _first_line_is_object(text: bytes) -> bool:
    newline = text.find(b"\n")
    if newline < 0:
        return False
    try:
        return isinstance(_orjson().loads(text[:newline]), dict)
    except _orjson().JSONDecodeError:
        return False


def _starts_with_frames(head: bytes, max_record_bytes: int) -> bool:
    position = 0
    frames = 0
    while position < len(head):
        try:
            length, start = decode_varint(head, position, len(head), "a length")
        except WireError:
            return frames > 0 and len(head) - position < 10
        if length > max_record_bytes:
            return False
        if start + length > len(head):
            return frames > 0
        if not _parses_cleanly(head[start : start + length]):
            return False
        frames += 1
        position = start + length
    return True


def _parses_cleanly(data: bytes) -> bool:
    """Whether bytes parse as a GameRecord without any field the schema does not know."""
    record = pb.GameRecord()
    try:
        record.ParseFromString(data)
    except DecodeError:
        return False
    size = record.ByteSize()
    record.DiscardUnknownFields()
    return record.ByteSize() == size


# -- reading -----------------------------------------------------------------------------------


def read_records(
    source: Source,
    encoding: Encoding | None = None,
    *,
    name: str | None = None,
    max_record_bytes: int | None = None,
    limits: Limits | None = None,
    allow_empty: bool = False,
) -> Iterator[pb.GameRecord]:
    """Read every record of a file, standard input or binary stream, one at a time.

    Args:
        source: a path, ``"-"`` for standard input, or a binary stream (left open).
        encoding: the encoding; None takes it from the file extension, else sniffs it.
        name: the source's name in errors (default: the path, ``<stdin>``, or the stream's
            ``name``).
        max_record_bytes: the largest record accepted (a ``.pb`` or ``.json`` file, a
            ``.pbs`` frame, a JSON line, a GRN record in characters); overrides
            ``limits.max_record_bytes``.
        limits: the limits every record is checked against (default ``DEFAULT_LIMITS``).
        allow_empty: an input that holds no record yields nothing (else it is an error).

    Raises:
        EmptyInputError: the input holds no record (and ``allow_empty`` is false).
        RecordMalformedError: the input cannot be decoded (source, place and reason given).
        LimitExceededError: a record exceeds a limit (the limit, the value and the place
            are named).
        OSError: the file cannot be opened or read.
    """
    for frame in read_frames(
        source,
        encoding,
        name=name,
        max_record_bytes=max_record_bytes,
        limits=limits,
        allow_empty=allow_empty,
    ):
        yield frame.parse()


def read_frames(
    source: Source,
    encoding: Encoding | None = None,
    *,
    name: str | None = None,
    max_record_bytes: int | None = None,
    limits: Limits | None = None,
    allow_empty: bool = False,
) -> Iterator[Frame]:
    """Read every record of an input as its raw bytes, one at a time, without decoding it.

    Cutting an input into records is cheap in every encoding (a ``.pbs`` length prefix, a
    JSON line, the tag that starts the next GRN record); :meth:`Frame.parse` decodes one,
    checks it against the limits (the frame carries them) and places any fault, so a batch
    job does the decoding in its worker processes. Arguments and errors as
    :func:`read_records`; a fault found while cutting (a broken length prefix, a record over
    the size limit) ends the input.
    """
    limits = resolved(limits, max_record_bytes)
    with contextlib.ExitStack() as stack:
        stream, label, path_encoding = _open_source(source, stack)
        label = name or label
        chosen = encoding or path_encoding
        if chosen is None:
            stream, chosen = _sniffed(stream, limits.max_record_bytes)
        found = False
        for frame in _FRAMERS[chosen](stream, label, limits):
            found = True
            yield frame
        if not found and not allow_empty:
            raise EmptyInputError(
                f"the input holds no record (.{chosen.value}: {_NOTHING[chosen.is_text]})",
                source=label,
            )


#: What an input that holds no record holds, text (True) or binary.
_NOTHING = {False: "no bytes", True: "no bytes, or only white space"}


def _pb_frames(stream: BinaryIO, source: str, limits: Limits) -> Iterator[Frame]:
    data = read_pb_bytes(stream, source, limits=limits)
    if data:  # no bytes is no record (though it parses as an empty message)
        yield Frame(data, source, limits=limits)


def _pbs_frames(stream: BinaryIO, source: str, limits: Limits) -> Iterator[Frame]:
    return read_pbs_frames(stream, source, limits=limits)


def json_frames(stream: BinaryIO, source: str, limits: Limits) -> Iterator[Frame]:
    """The frames of a ``.json`` stream: the one record, or each item of a JSON array.

    A leading byte-order mark is skipped; an array (Abstract Play's records) is cut as it is
    read.

    Raises:
        LimitExceededError: the stream (an array: one item) is longer than the record-bytes
            limit.
    """
    stream, starts_array = _starts_array(stream)
    if starts_array:
        from gamerec.recorder.foreign.json_array import array_frames  # noqa: PLC0415

        yield from array_frames(stream, source, limits)
        return
    yield from _one_json_frame(stream, source, limits, Encoding.JSON)


def _starts_array(stream: BinaryIO) -> tuple[BinaryIO, bool]:
    """Whether a stream starts (after white space and a BOM) with ``[``; and the stream.

    The stream returned still starts at the beginning.
    """
    head = b""
    while len(head) < SNIFF_BYTES:
        part = stream.read(4096)
        head += part
        stripped = head.removeprefix(_BOM).lstrip()
        if stripped or not part:
            break
    rest = io.BufferedReader(_Prefixed(head, stream))
    return rest, head.removeprefix(_BOM).lstrip().startswith(b"[")


def _abstract_play_frames(stream: BinaryIO, source: str, limits: Limits) -> Iterator[Frame]:
    """Abstract Play records: an array of them, or one object."""
    stream, starts_array = _starts_array(stream)
    if starts_array:
        from gamerec.recorder.foreign.json_array import array_frames  # noqa: PLC0415

        yield from array_frames(stream, source, limits)
        return
    yield from _one_json_frame(stream, source, limits, Encoding.ABSTRACT_PLAY)


def _ludii_frames(stream: BinaryIO, source: str, limits: Limits) -> Iterator[Frame]:
    """The one trial of a ``.trl`` stream."""
    yield from _one_json_frame(stream, source, limits, Encoding.LUDII, "a Ludii trial")


def _one_json_frame(
    stream: BinaryIO,
    source: str,
    limits: Limits,
    encoding: Encoding,
    what: str = "a .json record",
) -> Iterator[Frame]:
    """The whole stream as one frame (no bytes, or only white space: none)."""
    maximum = limits.max_record_bytes
    data = stream.read(maximum + 1)
    if len(data) > maximum:
        prefix = f"{what} of at least "
        raise exceeded("max_record_bytes", prefix, len(data), "bytes", maximum, source=source)
    data = data.removeprefix(_BOM)
    if data.strip():  # only white space is no record
        yield Frame(data, source, limits=limits, encoding=encoding)


def jsonl_frames(stream: BinaryIO, source: str, limits: Limits) -> Iterator[Frame]:
    """One frame per line of a ``.jsonl`` stream that is not blank (a leading BOM skipped).

    Raises:
        LimitExceededError: a line is longer than the record-bytes limit (its line named).
    """
    maximum = limits.max_record_bytes
    number = 0
    while True:
        line = stream.readline(maximum + 2)
        if not line:
            return
        number += 1
        if len(line) > maximum + 1 or (len(line) == maximum + 1 and not line.endswith(b"\n")):
            raise exceeded(
                "max_record_bytes",
                "a JSON Lines record of at least ",
                len(line),
                "bytes",
                maximum,
                source=source,
                where=f"line {number}",
            )
        if number == 1:
            line = line.removeprefix(_BOM)
        if line.strip():
            yield Frame(line, source, limits=limits, encoding=Encoding.JSONL, line=number)


def _grn_frames(stream: BinaryIO, source: str, limits: Limits) -> Iterator[Frame]:
    from gamerec.recorder.grn_lexer import split_records  # noqa: PLC0415 (loaded when needed)

    for raw in split_records(stream, source, limits.max_record_bytes):
        yield Frame(
            raw.data,
            source,
            base=raw.byte_offset,
            limits=limits,
            encoding=Encoding.GRN,
            line=raw.line,
            column=raw.column,
            offset=raw.offset,
        )


_Framer: TypeAlias = Callable[[BinaryIO, str, Limits], Iterator[Frame]]

_FRAMERS: dict[Encoding, _Framer] = {
    Encoding.PB: _pb_frames,
    Encoding.PBS: _pbs_frames,
    Encoding.JSON: json_frames,
    Encoding.JSONL: jsonl_frames,
    Encoding.GRN: _grn_frames,
    Encoding.ABSTRACT_PLAY: _abstract_play_frames,
    Encoding.LUDII: _ludii_frames,
}


def _open_source(
    source: Source, stack: contextlib.ExitStack
) -> tuple[BinaryIO, str, Encoding | None]:
    """The stream to read, its name, and the encoding its file name says."""
    if isinstance(source, str | os.PathLike):
        if os.fspath(source) == "-":
            return sys.stdin.buffer, _STDIN_NAME, None
        stream = stack.enter_context(open(source, "rb"))  # noqa: SIM115 -- closed by the stack
        return stream, os.fspath(source), encoding_for_path(source)
    label = getattr(source, "name", None)
    return source, label if isinstance(label, str) else "<stream>", None


def _sniffed(stream: BinaryIO, max_record_bytes: int) -> tuple[BinaryIO, Encoding]:
    """Look at the start of a stream; return a stream that still starts there, and the encoding."""
    head = _read_up_to(stream, SNIFF_BYTES)
    at_end = len(head) < SNIFF_BYTES
    first_frame = _first_frame_size(head)
    if not at_end and first_frame is not None and len(head) < first_frame <= max_record_bytes:
        head += _read_up_to(stream, first_frame + 16 - len(head))
        at_end = len(head) < first_frame + 16
    encoding = sniff_encoding(head, at_end=at_end, max_record_bytes=max_record_bytes)
    return io.BufferedReader(_Prefixed(head, stream)), encoding


def _first_frame_size(head: bytes) -> int | None:
    try:
        length, start = decode_varint(head, 0, len(head), "a length")
    except WireError:
        return None
    return start + length


def _read_up_to(stream: BinaryIO, size: int) -> bytes:
    """Read ``size`` bytes, or fewer only at the end of the stream."""
    parts = []
    remaining = size
    while remaining > 0:
        part = stream.read(remaining)
        if not part:
            break
        parts.append(part)
        remaining -= len(part)
    return b"".join(parts)


class _Prefixed(io.RawIOBase):
    """A stream that yields some bytes already read, then the rest of another stream."""

    def __init__(self, prefix: bytes, rest: BinaryIO) -> None:
        self._prefix = memoryview(prefix)
        self._rest = rest

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
        target = memoryview(buffer).cast("B")
        if self._prefix:
            count = min(len(target), len(self._prefix))
            target[:count] = self._prefix[:count]
            self._prefix = self._prefix[count:]
            return count
        data = self._rest.read(len(target))
        target[: len(data)] = data
        return len(data)


def decode_record(
    data: bytes,
    encoding: Encoding | None = None,
    *,
    name: str = "<bytes>",
    max_record_bytes: int | None = None,
    limits: Limits | None = None,
    deadline: float | None = None,
) -> pb.GameRecord:
    """Decode exactly one record held in memory (the gRPC service's entry point).

    Args:
        data: the encoded record.
        encoding: the encoding; None sniffs it (:func:`sniff_encoding`).
        name: the source's name in errors.
        max_record_bytes: the largest record accepted (overrides ``limits``).
        limits: the limits the record is checked against (default ``DEFAULT_LIMITS``).
        deadline: a ``time.monotonic()`` time a long decode gives up at (None: none).

    Raises:
        RecordMalformedError: the bytes are not one record in that encoding.
        LimitExceededError: the record exceeds a limit.
        DeadlineExceededError: the deadline passed while the record was decoded.
    """
    limits = resolved(limits, max_record_bytes)
    maximum = limits.max_record_bytes
    chosen = encoding or sniff_encoding(data, at_end=True, max_record_bytes=maximum)
    frames = read_frames(io.BytesIO(data), chosen, name=name, limits=limits)
    first = next(frames).parse(deadline)
    if next(frames, None) is not None:
        raise RecordMalformedError("expected one record, found several", source=name)
    return first


# -- writing -----------------------------------------------------------------------------------

_Writer: TypeAlias = Callable[[Iterable[pb.GameRecord], BinaryIO], int]


def _write_pb(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    return _write_one(records, stream, Encoding.PB, record_bytes)


def _write_json(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    from gamerec.recorder.protojson import encode_json  # noqa: PLC0415 (loaded when needed)

    return _write_one(records, stream, Encoding.JSON, encode_json)


def _write_jsonl(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    from gamerec.recorder.protojson import write_jsonl  # noqa: PLC0415 (loaded when needed)

    return write_jsonl(records, stream)


def _write_grn(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    from gamerec.recorder.grn_writer import write_grn  # noqa: PLC0415 (loaded when needed)

    return write_grn(records, stream)


def _write_one(
    records: Iterable[pb.GameRecord],
    stream: BinaryIO,
    encoding: Encoding,
    encode: Callable[[pb.GameRecord], bytes],
) -> int:
    """Write the single record of a one-record encoding (``.pb``, ``.json``).

    Raises:
        EncodingError: there is no record, or more than one.
    """
    many = {Encoding.PB: Encoding.PBS, Encoding.JSON: Encoding.JSONL}[encoding]
    iterator = iter(records)
    first = next(iterator, None)
    if first is None:
        raise EncodingError(f"a {encoding.extension} file holds one record, and there is none")
    stream.write(encode(first))
    if next(iterator, None) is not None:
        raise EncodingError(
            f"a {encoding.extension} file holds one record and there are several; "
            f"write them to {many.extension}"
        )
    return 1


_WRITERS: dict[Encoding, _Writer] = {
    Encoding.PB: _write_pb,
    Encoding.PBS: write_pbs,
    Encoding.JSON: _write_json,
    Encoding.JSONL: _write_jsonl,
    Encoding.GRN: _write_grn,
}

#: Told what a foreign format cannot hold of a record (``convert`` prints it as a warning).
Warn: TypeAlias = Callable[[str], None]


def _writer(encoding: Encoding, warn: Warn | None) -> _Writer:
    """The writer of an encoding; a foreign format's tells ``warn`` what it cannot hold."""
    if encoding is Encoding.ABSTRACT_PLAY:
        from gamerec.recorder.foreign.abstractplay import write_abstract_play  # noqa: PLC0415

        return lambda records, stream: write_abstract_play(records, stream, warn)
    if encoding is Encoding.LUDII:
        from gamerec.recorder.foreign.ludii import write_trial  # noqa: PLC0415

        return lambda records, stream: write_trial(records, stream, warn)
    return _WRITERS[encoding]


def write_records(
    records: Iterable[pb.GameRecord],
    dest: Source,
    encoding: Encoding | None = None,
    *,
    warn: Warn | None = None,
) -> int:
    """Write records to a file (atomically), standard output ``"-"``, or a binary stream.

    Records are consumed one at a time, so a generator of any length streams through.

    Args:
        records: the records, in order.
        dest: a path, ``"-"`` for standard output, or a binary stream (left open).
        encoding: the encoding; None takes it from the file extension.
        warn: told, for a foreign format (Abstract Play, Ludii), which fields of a record
            the format has no place for (they ride in an embedded copy only gamerec reads).

    Returns:
        The number of records written.

    Raises:
        EncodingError: no encoding can be told, the encoding holds one record and there are
            none or several, or a record has no form in the encoding. A file destination is
            then left as it was.
        OSError: the file cannot be written.
        TypeError: ``records`` is one record, a path or bytes, or yields something that is no
            record (a file destination is then left as it was).
    """
    records = _records_only(records)
    if isinstance(dest, str | os.PathLike) and os.fspath(dest) != "-":
        chosen = encoding or encoding_for_path(dest)
        if chosen is None:
            raise EncodingError(
                f"cannot tell the encoding of {os.fspath(dest)!r} from its extension; "
                f"name it {', '.join(e.extension for e in Encoding)} or say the encoding"
            )
        write = _writer(chosen, warn)
        return _write_atomically(Path(dest), lambda stream: write(records, stream))
    if encoding is None:
        raise EncodingError("say which encoding to write to a stream")
    stream = sys.stdout.buffer if isinstance(dest, str | os.PathLike) else dest
    count = _writer(encoding, warn)(records, stream)
    stream.flush()
    return count


def _records_only(records: Iterable[pb.GameRecord]) -> Iterator[pb.GameRecord]:
    """``records`` checked one by one as they are written; a lone record or a path refused now."""
    if isinstance(records, pb.GameRecord):
        raise TypeError("gamerec.write_records takes an iterable of records; give [record]")
    if isinstance(records, str | bytes | bytearray | os.PathLike):
        raise TypeError(
            f"gamerec.write_records takes an iterable of records, not {type(records).__name__}: "
            "gamerec.read_records(path) reads them from a file, gamerec.decode_record(data) "
            "from bytes"
        )
    return (require_record(record, "write_records") for record in records)


def _write_atomically(path: Path, write: Callable[[BinaryIO], int]) -> int:
    """Write into a temporary file beside ``path``, then rename it over ``path``."""
    from gamerec.recorder.atomic import atomic_output  # noqa: PLC0415 (only to write)

    with atomic_output(path) as stream:
        return write(stream)


def encode_record(record: pb.GameRecord, encoding: Encoding) -> bytes:
    """One record in an encoding, as bytes (a ``.pbs`` frame, a JSON line, a GRN record).

    Raises:
        EncodingError: the record has no form in that encoding.
    """
    require_record(record, "encode_record")
    buffer = io.BytesIO()
    _writer(encoding, None)([record], buffer)
    return buffer.getvalue()
