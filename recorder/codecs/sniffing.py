"""Telling a record encoding from the first bytes of an input, and keeping those bytes.

:func:`sniff_encoding` is the rule; ``_sniffed`` reads the head of a stream and hands back a
stream that still starts there (``_Prefixed``). May import the standard library, protobuf,
``gamerec.v1`` and ``gamerec.recorder`` (``binary``, ``encoding``, ``wire``); orjson only when
JSON is sniffed.
"""

from __future__ import annotations

import io
import re
from typing import Any, BinaryIO

from google.protobuf.message import DecodeError

from gamerec.recorder.binary import DEFAULT_MAX_RECORD_BYTES
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.wire import WireError, decode_varint
from gamerec.v1 import record_pb2 as pb

#: How many bytes :func:`read_records` looks at to sniff an encoding (more for a first
#: binary frame that is longer, up to the record limit).
SNIFF_BYTES = 1 << 20

_BOM = b"\xef\xbb\xbf"
#: A JSON array of objects (or an empty one): ``[`` then ``{`` or ``]``; GRN's ``[`` is
#: followed by a tag name.
_JSON_ARRAY = re.compile(rb"\[[ \t\r\n]*[{\]]")
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


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
