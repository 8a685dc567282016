"""Cutting an input into records, one framer per encoding, without decoding them.

Each framer takes a stream, its name and the limits and yields :class:`~gamerec.recorder.raw.Frame`
objects (``_FRAMERS``, by encoding). May import the standard library and ``gamerec.recorder``
(``binary``, ``encoding``, ``limits``, ``raw``, ``codecs.sniffing``); the GRN splitter and the
JSON-array cutter of ``recorder.foreign`` only when their encoding is read.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator
from typing import BinaryIO, TypeAlias

from gamerec.recorder.binary import read_pb_bytes, read_pbs_frames
from gamerec.recorder.codecs.sniffing import _BOM, SNIFF_BYTES, _Prefixed
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.limits import Limits, exceeded
from gamerec.recorder.raw import Frame


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
