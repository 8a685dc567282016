"""ProtoJSON records: ``.json`` (one record, indented) and ``.jsonl`` (one compact record a line).

The mapping is protobuf's canonical JSON (``google.protobuf.json_format``: lowerCamelCase
names, enum names, RFC 3339 times, durations such as ``"1.5s"``); orjson turns the mapping
into bytes and back, which is several times faster than the standard ``json`` module.
Extra tags are written sorted by name so the output does not depend on map order. Every
record read is checked against the limits (``gamerec.recorder.limits``): its move tree before it
becomes a message (that conversion is the slow part), everything else after.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

import orjson
from google.protobuf import json_format

from gamerec.recorder.errors import EncodingError, RecordMalformedError
from gamerec.recorder.limits import Limits, check_mapping, check_record, exceeded, resolved
from gamerec.v1 import record_pb2 as pb

_BOM = b"\xef\xbb\xbf"
_FIELD_CHAIN = re.compile(r"Failed to parse (\w+) field: ")
_AT_PATH = re.compile(r'\s+at "?GameRecord\.?([^"\s]*?)"?\.*$')
_MAX_REASON_CHARS = 300


def read_json(
    stream: BinaryIO,
    source: str,
    max_record_bytes: int | None = None,
    *,
    limits: Limits | None = None,
) -> Iterator[pb.GameRecord]:
    """Read a ``.json`` file: one JSON object, one record.

    ``max_record_bytes``, when given, overrides ``limits.max_record_bytes``.

    Raises:
        LimitExceededError: the file is longer than the record-bytes limit, or the record
            exceeds another limit.
        RecordMalformedError: not JSON (line and column given), or not a GameRecord.
    """
    limits = resolved(limits, max_record_bytes)
    maximum = limits.max_record_bytes
    data = stream.read(maximum + 1)
    if len(data) > maximum:
        raise exceeded(
            "max_record_bytes",
            "a .json record of at least ",
            len(data),
            "bytes",
            maximum,
            source=source,
        )
    yield parse_json_record(data.removeprefix(_BOM), source, first_line=1, limits=limits)


def read_jsonl(
    stream: BinaryIO,
    source: str,
    max_record_bytes: int | None = None,
    *,
    limits: Limits | None = None,
) -> Iterator[pb.GameRecord]:
    """Read a ``.jsonl`` stream line by line; blank lines are skipped.

    Raises:
        LimitExceededError: a line is longer than the record-bytes limit, or a record
            exceeds another limit.
        RecordMalformedError: a line is not JSON or not a GameRecord (its line is named).
    """
    limits = resolved(limits, max_record_bytes)
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
            yield parse_json_record(line, source, first_line=number, limits=limits)


def parse_json_record(
    data: bytes, source: str, first_line: int, *, limits: Limits | None = None
) -> pb.GameRecord:
    """Parse one ProtoJSON record whose text starts on line ``first_line`` of the input.

    Raises:
        RecordMalformedError: the text is not JSON, not an object, or not a GameRecord.
        LimitExceededError: the record exceeds a limit (checked before and after it becomes
            a message).
    """
    try:
        value = orjson.loads(data)
    except orjson.JSONDecodeError as error:
        where = f"line {first_line + error.lineno - 1}, column {error.colno}"
        raise RecordMalformedError(f"not JSON: {error.msg}", source=source, where=where) from None
    if not isinstance(value, dict):
        raise RecordMalformedError(
            f"expected a JSON object (one GameRecord), found {type(value).__name__}",
            source=source,
            where=f"line {first_line}",
        )
    check_mapping(value, limits, source=source, where=f"line {first_line}")
    record = pb.GameRecord()
    try:
        json_format.ParseDict(value, record)
    except (json_format.ParseError, ValueError, TypeError, KeyError, RecursionError) as error:
        raise RecordMalformedError(
            f"not a GameRecord: {_schema_reason(str(error))}",
            source=source,
            where=f"line {first_line}",
        ) from None
    check_record(record, limits, source=source, where=f"line {first_line}")
    return record


def _schema_reason(message: str) -> str:
    """Shorten json_format's nested "Failed to parse X field: ..." chain to ``path: why``."""
    fields = _FIELD_CHAIN.findall(message)
    inner = _FIELD_CHAIN.sub("", message).split("\n", 1)[0].strip()
    located = _AT_PATH.search(inner)
    if located is not None:
        path, inner = located.group(1), inner[: located.start()]
    else:
        if len(fields) > 6:
            fields = [*fields[:3], "...", *fields[-3:]]
        path = ".".join(fields)
    inner = inner.rstrip(". ")
    reason = f"{path}: {inner}" if path else inner
    if len(reason) > _MAX_REASON_CHARS:
        reason = reason[: _MAX_REASON_CHARS - 3] + "..."
    return reason


def record_mapping(record: pb.GameRecord) -> dict[str, Any]:
    """The ProtoJSON mapping of a record, extra tags sorted by name.

    Raises:
        EncodingError: a value has no JSON form (a timestamp or duration out of range).
    """
    try:
        mapping = json_format.MessageToDict(record)
    except (ValueError, TypeError, json_format.SerializeToJsonError) as error:
        raise EncodingError(f"the record has no ProtoJSON form: {error}") from None
    extra = mapping.get("metadata", {}).get("extraTags")
    if extra:
        mapping["metadata"]["extraTags"] = dict(sorted(extra.items()))
    return mapping


def encode_json(record: pb.GameRecord) -> bytes:
    """A record as an indented ``.json`` document, ending with a newline."""
    return orjson.dumps(record_mapping(record), option=orjson.OPT_INDENT_2) + b"\n"


def encode_jsonl(record: pb.GameRecord) -> bytes:
    """A record as one compact JSON line, ending with a newline."""
    return orjson.dumps(record_mapping(record)) + b"\n"


def write_jsonl(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    """Write records as JSON Lines; return how many."""
    count = 0
    for record in records:
        stream.write(encode_jsonl(record))
        count += 1
    return count
