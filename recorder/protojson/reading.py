"""ProtoJSON reading: a ``.json`` or ``.jsonl`` record's text to a checked GameRecord.

Parses the text (orjson, refusing duplicate keys), checks the mapping and the record against the
limits, and makes the record by the fast path (``fast_read``) or, when that gives up, by
json_format, whose refusal is shortened to ``path: why``. May import the standard library,
orjson, protobuf, ``gamerec.v1`` and ``gamerec.recorder`` (codecs and the Abstract Play reader
only lazily, inside the functions that need them).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, BinaryIO

import orjson
from google.protobuf import json_format
from google.protobuf.descriptor import Descriptor

from gamerec.recorder import json_keys
from gamerec.recorder.errors import GamerecError, RecordMalformedError
from gamerec.recorder.limits import Limits, check_mapping, check_record, resolved
from gamerec.recorder.protojson.fast_read import (
    cut_main_line,
    fast_record_serialized,
    record_of_parts,
)
from gamerec.recorder.protojson_strict import check_clocks, check_seal_base64
from gamerec.v1 import record_pb2 as pb

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
    from gamerec.recorder.codecs.framing import json_frames  # noqa: PLC0415 (codecs loads this lazily)

    for frame in json_frames(stream, source, resolved(limits, max_record_bytes)):
        yield frame.parse()


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
    from gamerec.recorder.codecs.framing import jsonl_frames  # noqa: PLC0415 (codecs loads this lazily)

    for frame in jsonl_frames(stream, source, resolved(limits, max_record_bytes)):
        yield frame.parse()


def parse_json_record(
    data: bytes, source: str, first_line: int, *, limits: Limits | None = None
) -> pb.GameRecord:
    """Parse one ProtoJSON record whose text starts on line ``first_line`` of the input.

    See :func:`read_json_serialized` for what is read and raised.
    """
    return read_json_serialized(data, source, first_line, limits=limits)[0]


def read_json_serialized(
    data: bytes, source: str, first_line: int, *, limits: Limits | None = None
) -> tuple[pb.GameRecord, bytes | None]:
    """The ProtoJSON record whose text starts on line ``first_line``, and its serialization.

    The record is serialized to check its limits; a judge reads its moves from those bytes
    (``Frame.decode``), not serializing it again. None for an Abstract Play record.

    An object with a ``header`` is an Abstract Play game record, read as such
    (``gamerec.recorder.foreign.abstractplay``).

    A record written compactly has its main line looked up from its text, not parsed
    (:func:`_read_cut`), whenever that gives exactly what parsing gives; any other text, and
    any refusal, is read by parsing the whole text.

    Raises:
        RecordMalformedError: the text is not JSON, not an object, or not a GameRecord.
        LimitExceededError: the record exceeds a limit (checked before and after it becomes
            a message).
    """
    made = _read_cut(data, source, f"line {first_line}", resolved(limits))
    if made is not None:
        record, serialized = made
        check_record(
            record, limits, source=source, where=f"line {first_line}", serialized=serialized
        )
        return record, serialized
    try:
        value = orjson.loads(data)
        moves_text = _check_unique_keys(data, value)
    except orjson.JSONDecodeError as error:
        where = f"line {first_line + error.lineno - 1}, column {error.colno}"
        raise RecordMalformedError(f"not JSON: {error.msg}", source=source, where=where) from None
    except json_keys.DuplicateKeyError as error:
        raise RecordMalformedError(str(error), source=source, where=f"line {first_line}") from None
    if not isinstance(value, dict):
        raise RecordMalformedError(
            f"expected a JSON object (one GameRecord), found {type(value).__name__}",
            source=source,
            where=f"line {first_line}",
        )
    if "header" in value:  # no GameRecord field is called so: an Abstract Play record
        from gamerec.recorder.foreign.abstractplay import record_of_value  # noqa: PLC0415

        where = f"line {first_line}" if first_line > 1 else ""
        return record_of_value(value, source, where, limits=limits), None
    where = f"line {first_line}"
    check_mapping(value, limits, source=source, where=where, text=data, moves_text=moves_text)
    check_seal_base64(value, source, f"line {first_line}")
    made = fast_record_serialized(value, moves_text)
    if made is not None:
        record, serialized = made
    else:  # the fast path gives up on a clock check_clocks refuses, among others
        check_clocks(value, source, f"line {first_line}")
        record = _record_by_json_format(value, source, first_line)
        serialized = record.SerializeToString()
    # Any bytes that parse to the record bound its texts and moves as well as the bytes it was
    # parsed from would, so the limits' constant-time proof applies to them.
    check_record(record, limits, source=source, where=f"line {first_line}", serialized=serialized)
    return record, serialized


def _read_cut(
    data: bytes, source: str, where: str, limits: Limits
) -> tuple[pb.GameRecord, bytes] | None:
    """The record and its bytes read with the main line looked up, not parsed (None: parse).

    ``fast_read.cut_main_line`` gives only what parsing the whole text gives; the checks
    :func:`read_json_serialized` makes before the record becomes a message are made here on
    what it gives (the main line counted, holding no variations), and on any refusal the
    whole text is parsed, so that the refusal comes as it always did. Only a text too short
    to hold a list longer than the list-items limit (see ``limits.check_mapping``).
    """
    if len(data) > 2 * limits.max_list_items:
        return None
    cut = cut_main_line(data)
    if cut is None or cut.plies > min(limits.max_plies, limits.max_moves):
        return None
    try:
        mapping = {**cut.rest, "moves": [None] * cut.plies}  # only counted: no variations
        check_mapping(mapping, limits, source=source, where=where, text=data, moves_text=b"")
        check_seal_base64(cut.rest, source, where)
    except GamerecError:
        return None
    return record_of_parts(cut.rest, cut.entries)


def _check_unique_keys(data: bytes, value: Any) -> bytes | None:
    """Refuse a key given twice, as ``json_keys.loads`` does; the main line's text when written.

    ``json_keys`` counts the text's colons against those of ``orjson.dumps(value)``; for a
    record with a main line the same count is made of its two parts written apart, the main
    line and the rest (one colon more: the ``moves`` key's), and the main line's text is
    returned for the fast path to look its moves up by (``fast_read._split_entries``). Any
    other value, a colon's escape in the text or counts that differ: ``json_keys`` decides,
    and None is returned.

    Raises:
        json_keys.DuplicateKeyError: a key given twice, with its path.
    """
    moves = value.get("moves") if type(value) is dict else None
    if type(moves) is list and json_keys.colons_countable(data):
        try:
            moves_text = orjson.dumps(moves)
            rest = orjson.dumps({key: item for key, item in value.items() if key != "moves"})
        except orjson.JSONEncodeError:  # nested deeper than orjson writes: json_keys scans it
            pass
        else:
            if data.count(b":") == rest.count(b":") + 1 + moves_text.count(b":"):
                return moves_text
    if isinstance(value, dict | list):
        json_keys.check_unique_keys(data, value)
    return None


def _record_by_json_format(value: dict[str, Any], source: str, first_line: int) -> pb.GameRecord:
    """The record json_format makes of a mapping; its refusal, shortened, as the error.

    Raises:
        RecordMalformedError: the mapping is not a GameRecord.
    """
    twice = field_given_twice(value, pb.GameRecord.DESCRIPTOR, "")
    if twice is not None:
        raise RecordMalformedError(
            f"not a GameRecord: {twice}", source=source, where=f"line {first_line}"
        )
    record = pb.GameRecord()
    try:
        json_format.ParseDict(value, record)
    except (json_format.ParseError, ValueError, TypeError, KeyError, RecursionError) as error:
        raise RecordMalformedError(
            f"not a GameRecord: {_schema_reason(str(error))}",
            source=source,
            where=f"line {first_line}",
        ) from None
    return record


def field_given_twice(mapping: Any, message: Descriptor, path: str) -> str | None:
    """A field given under both its JSON name and its .proto name, said with its path.

    json_format would read the later of the two; ProtoJSON's readers differ on which wins, so
    the record is refused (docs/encodings.md, "Strict JSON"). Only the slow path needs this:
    the fast one gives up on such a mapping.
    """
    if type(mapping) is not dict:
        return None
    for field in message.fields:
        names = [name for name in dict.fromkeys((field.json_name, field.name)) if name in mapping]
        if len(names) > 1:
            where = f"{path}.{field.json_name}" if path else field.json_name
            return f"{where}: the field is given twice, as {names[0]!r} and {names[1]!r}"
        inner = field.message_type
        if not names or inner is None or inner.GetOptions().map_entry:
            continue
        value = mapping[names[0]]
        values = [value] if not field.is_repeated else value if type(value) is list else []
        for index, item in enumerate(values):
            step = f"{field.json_name}[{index}]" if field.is_repeated else field.json_name
            found = field_given_twice(item, inner, f"{path}.{step}" if path else step)
            if found is not None:
                return found
    return None


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
