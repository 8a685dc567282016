"""ProtoJSON records: ``.json`` (one record, indented) and ``.jsonl`` (one compact record a line).

The mapping is protobuf's canonical JSON (``google.protobuf.json_format``: lowerCamelCase
names, enum names, RFC 3339 times, durations such as ``"1.5s"``); orjson turns the mapping
into bytes and back, which is several times faster than the standard ``json`` module.
Extra tags are written sorted by name so the output does not depend on map order. Every
record read is checked against the limits (``gamerec.recorder.limits``): its move tree before it
becomes a message, everything else after.

json_format is pure Python and slow, so both directions take a fast path first (``fast_read``,
``writing``): a mapping goes straight to the message constructor, a message straight to its
mapping. Each gives the very record or mapping json_format would, and hands anything it cannot
vouch for to json_format, so errors read as they always did.

The package holds ``reading`` (text to a checked record), ``fast_read`` (a mapping straight to
the message constructor) and ``writing`` (a record to its mapping and bytes); this module
re-exports their public names, the import path everything uses.
"""

from __future__ import annotations

from gamerec.recorder.protojson.fast_read import fast_record
from gamerec.recorder.protojson.reading import (
    field_given_twice,
    parse_json_record,
    read_json,
    read_json_serialized,
    read_jsonl,
)
from gamerec.recorder.protojson.writing import (
    encode_json,
    encode_jsonl,
    fast_mapping,
    record_mapping,
    write_jsonl,
)

__all__ = [
    "encode_json",
    "encode_jsonl",
    "fast_mapping",
    "fast_record",
    "field_given_twice",
    "parse_json_record",
    "read_json",
    "read_json_serialized",
    "read_jsonl",
    "record_mapping",
    "write_jsonl",
]
