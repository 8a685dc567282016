"""Binary records: ``.pb`` (one serialized GameRecord) and ``.pbs`` (a stream of them).

``.pbs`` is the standard protobuf stream framing: each record is preceded by its length as a
varint. The reader checks each claimed length against the ``record-bytes`` limit before
reading the record, so a frame claiming 2 GB fails at once without allocating, and it holds
one record at a time, so a collection of any size streams in constant memory. Every record
read is checked against the other limits too (``gamerec.recorder.limits``). Records are written
deterministically (map entries in key order), so one record always gives the same bytes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

from google.protobuf.message import DecodeError

from gamerec.recorder.errors import EncodingError, LimitExceededError, RecordMalformedError
from gamerec.recorder.limits import (
    DEFAULT_LIMITS,
    HARDEST_VARIATION_DEPTH,
    Limits,
    check_record,
    exceeded,
    resolved,
)
from gamerec.recorder.raw import Frame
from gamerec.recorder.well_known import check_times
from gamerec.recorder.wire import (
    MAX_MESSAGE_DEPTH,
    NestingError,
    WireError,
    decode_varint,
    encode_varint,
    locate_wire_error,
)
from gamerec.recorder.words import noun_for
from gamerec.v1 import record_pb2 as pb

#: The largest record (a ``.pb`` file or one ``.pbs`` frame) read by default: 64 MiB.
DEFAULT_MAX_RECORD_BYTES = DEFAULT_LIMITS.max_record_bytes
_MAX_VARINT_BYTES = 10
#: How much of a run of zero bytes is read at a time when counting empty frames.
_ZERO_CHUNK = 1 << 16


def parse_record(
    data: bytes, source: str, where: str = "", base: int = 0, *, limits: Limits | None = None
) -> pb.GameRecord:
    """Parse the bytes of one GameRecord and check it against the limits.

    Args:
        data: the serialized record.
        source: the input's name, for errors.
        where: the record's place for errors (e.g. ``record 3 at byte 1042``); empty for a
            ``.pb`` file, whose errors are placed by byte alone.
        base: the offset of ``data`` in the input, so error offsets are absolute.
        limits: the limits (default ``DEFAULT_LIMITS``); the size is the caller's to check.

    Raises:
        RecordMalformedError: the bytes are not a GameRecord; names the first bad byte.
        LimitExceededError: the record exceeds a limit, or nests variations deeper than
            protobuf decodes (the field path is named).
        RecordMalformedError: a Timestamp or Duration is outside its type's range
            (``gamerec.recorder.well_known``).
    """
    record = pb.GameRecord()
    try:
        record.ParseFromString(data)
    except DecodeError as error:
        fault = locate_wire_error(data, pb.GameRecord.DESCRIPTOR)
        if isinstance(fault, NestingError):
            raise _too_deep(fault, source, where, base) from None
        if fault is None:
            reason, offset = f"not a GameRecord ({error})", None
        else:
            reason, offset = f"not a GameRecord: {fault.reason}", base + fault.offset
        if where:
            reason = f"byte {offset}: {reason}" if offset is not None else reason
            raise RecordMalformedError(reason, source=source, where=where) from None
        at = f"byte {offset}" if offset is not None else ""
        raise RecordMalformedError(reason, source=source, where=at) from None
    check_record(record, limits, source=source, where=where, serialized=data)
    check_times(record, data, source=source, where=where)
    return record


def _too_deep(fault: NestingError, source: str, where: str, base: int) -> RecordMalformedError:
    """Protobuf's own nesting limit, reported as the variation-depth limit it implies.

    Groups nested too deep are no variations: they are fields no gamerec schema has, and the
    error says so.
    """
    place = f"byte {base + fault.offset}"
    if fault.group:
        reason = (
            f"not a GameRecord: unknown groups (wire type 3) of field {fault.group} are nested "
            f"more than {MAX_MESSAGE_DEPTH} deep, deeper than protobuf decodes"
        )
        return RecordMalformedError(
            f"{place}: {reason}" if where else reason, source=source, where=where or place
        )
    return LimitExceededError(
        f"{place + ': ' if where else ''}variations are nested deeper than protobuf decodes "
        f"(more than 100 nested messages; the limit variation-depth is at most "
        f"{HARDEST_VARIATION_DEPTH})",
        source=source,
        where=where or place,
        limit="variation-depth",
        maximum=HARDEST_VARIATION_DEPTH,
    )


def read_pb(
    stream: BinaryIO,
    source: str,
    max_record_bytes: int | None = None,
    *,
    limits: Limits | None = None,
) -> Iterator[pb.GameRecord]:
    """Read a ``.pb`` file: the whole input is one record.

    ``max_record_bytes``, when given, overrides ``limits.max_record_bytes``.

    Raises:
        LimitExceededError: the input is longer than the record-bytes limit, or the record
            exceeds another limit.
        RecordMalformedError: the bytes are not a GameRecord.
    """
    chosen = resolved(limits, max_record_bytes)
    yield parse_record(read_pb_bytes(stream, source, limits=chosen), source, limits=chosen)


def read_pb_bytes(
    stream: BinaryIO,
    source: str,
    max_record_bytes: int | None = None,
    *,
    limits: Limits | None = None,
) -> bytes:
    """The bytes of a ``.pb`` input, unparsed.

    Raises:
        LimitExceededError: the input is longer than the record-bytes limit.
    """
    maximum = resolved(limits, max_record_bytes).max_record_bytes
    data = stream.read(maximum + 1)
    if len(data) > maximum:
        raise exceeded(
            "max_record_bytes",
            "a .pb record of at least ",
            len(data),
            "bytes",
            maximum,
            source=source,
            where=f"byte {maximum}",
        )
    return data


def read_pbs(
    stream: BinaryIO,
    source: str,
    max_record_bytes: int | None = None,
    *,
    limits: Limits | None = None,
) -> Iterator[pb.GameRecord]:
    """Read a ``.pbs`` stream record by record.

    Raises:
        LimitExceededError: a frame claims more than the record-bytes limit, or a record
            exceeds another limit.
        RecordMalformedError: a length prefix is broken, the last frame is cut off, or a
            frame is not a GameRecord; the error names the record number and byte offset.
    """
    for frame in read_pbs_frames(stream, source, max_record_bytes, limits=limits):
        yield frame.parse()


def read_pbs_frames(
    stream: BinaryIO,
    source: str,
    max_record_bytes: int | None = None,
    *,
    limits: Limits | None = None,
    first_number: int = 1,
    offset: int = 0,
) -> Iterator[Frame]:
    """Read the frames of a ``.pbs`` stream without parsing them.

    ``first_number`` and ``offset`` say where in its input the stream starts (a shard of a
    large file read by itself: ``gamerec.recorder.index``), so that frames and errors are
    numbered and placed as in a read of the whole input.

    Raises:
        LimitExceededError: a frame claims more than the record-bytes limit.
        RecordMalformedError: a length prefix is broken, a frame is empty, or the last frame
            is cut off.
    """
    limits = resolved(limits, max_record_bytes)
    number = first_number - 1
    while True:
        header = _read_length_prefix(stream)
        if not header:
            return
        number += 1
        where = f"record {number} at byte {offset}"
        length = _frame_length(header, source, where, limits.max_record_bytes)
        if not length:
            raise _empty_frames(stream, source, number, offset)
        data = stream.read(length)
        if len(data) < length:
            raise RecordMalformedError(
                f"truncated: the frame claims {length} {noun_for(length, 'byte')} but only "
                f"{len(data)} {noun_for(len(data), 'remains', 'remain')}",
                source=source,
                where=where,
            )
        yield Frame(data, source, where, offset + len(header), limits)
        offset += len(header) + length


def _empty_frames(stream: BinaryIO, source: str, number: int, offset: int) -> RecordMalformedError:
    """The fault of an empty frame (length 0) at record ``number``, with the run it starts.

    A record always has bytes (its game at least), so an empty frame is no record: most often a
    stretch of zero bytes (a file cut, preallocated or overwritten). It ends the input as any
    fault of the framing does; the message counts the run of empty frames and says whether
    anything follows, in one pass over the run (fast however long it is).
    """
    run, following = 1, b""
    while not following:
        chunk = stream.read(_ZERO_CHUNK)
        if not chunk:
            break
        zeros = len(chunk) - len(chunk.lstrip(b"\0"))
        run += zeros
        following = chunk[zeros:]
    frames = "an empty frame" if run == 1 else f"{run:,} empty frames in a row"
    rest = "; bytes follow it, not read" if following else ""
    return RecordMalformedError(
        f"{frames} (length 0): an empty frame holds no record{rest}",
        source=source,
        where=f"record {number} at byte {offset}",
    )


def _read_length_prefix(stream: BinaryIO) -> bytes:
    """The bytes of the next varint (empty at the end of the stream)."""
    header = bytearray()
    while len(header) < _MAX_VARINT_BYTES:
        byte = stream.read(1)
        if not byte:
            break
        header += byte
        if byte[0] < 0x80:
            break
    return bytes(header)


def _frame_length(header: bytes, source: str, where: str, max_record_bytes: int) -> int:
    try:
        length, _ = decode_varint(header, 0, len(header), "the length prefix")
    except WireError as error:
        raise RecordMalformedError(error.reason, source=source, where=where) from None
    if length > max_record_bytes:
        raise LimitExceededError(
            f"the frame claims {length} {noun_for(length, 'byte')}, more than the limit of "
            f"{max_record_bytes} (limit record-bytes)",
            source=source,
            where=where,
            limit="record-bytes",
            value=length,
            maximum=max_record_bytes,
        )
    return length


def record_bytes(record: pb.GameRecord) -> bytes:
    """A record's binary form (deterministic field order).

    Raises:
        EncodingError: the record sets no field at all: its form is no bytes, which a reader
            takes for no record (an empty ``.pb`` file, an empty ``.pbs`` frame).
    """
    data = record.SerializeToString(deterministic=True)
    if not data:
        raise EncodingError(
            "a record that sets no field has no bytes, and no bytes read back as no record; "
            "give it its game at least"
        )
    return data


def write_pbs(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    """Write records as a ``.pbs`` stream; return how many.

    Raises:
        EncodingError: a record sets no field (see :func:`record_bytes`).
    """
    count = 0
    for record in records:
        data = record_bytes(record)
        stream.write(encode_varint(len(data)) + data)
        count += 1
    return count
