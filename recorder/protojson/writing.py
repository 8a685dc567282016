"""ProtoJSON writing: a record to its mapping and to ``.json`` / ``.jsonl`` bytes.

The fast writer makes ``json_format.MessageToDict``'s mapping straight from the message's
fields; anything it does not know goes to MessageToDict. May import the standard library,
orjson, protobuf, ``gamerec.v1``, ``gamerec.recorder.errors`` and ``protojson.fast_read``
(the field kinds both fast paths share).
"""

from __future__ import annotations

import functools
from collections.abc import Iterable, Mapping
from typing import Any, BinaryIO, Final

import orjson
from google.protobuf import duration_pb2, json_format, timestamp_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from gamerec.recorder.errors import EncodingError
from gamerec.recorder.protojson.keywords import (
    JSON_STRING_TYPES,
    SPECIAL_PACKAGE,
    TAKEN_AS_IS,
    Convert,
    map_converter,
    unsure,
)
from gamerec.v1 import record_pb2 as pb

# -- writing fast: a message straight to its mapping --------------------------------------------
#
# json_format.MessageToDict walks a message in Python with a dozen checks a value. The fast
# writer makes the same mapping from ``ListFields()`` (the fields MessageToDict lists, in the
# same order) with one precomputed step a field; a field kind it does not know, or any error,
# leaves the message to MessageToDict, which then words the error as before.

#: How one field's value becomes its mapping value, by field number; None: the value as it is.
_Steps = dict[int, tuple[str, Convert | None]]


def fast_mapping(record: pb.GameRecord) -> dict[str, Any] | None:
    """The mapping ``json_format.MessageToDict`` gives of a record, or None to leave it to it.

    None when the record holds a field of a kind this writer leaves to MessageToDict, or a
    value that has no JSON form (a timestamp or duration out of range). It never raises.
    """
    try:
        return _mapping(_RECORD_STEPS, record)
    except Exception:  # on any doubt MessageToDict writes it, and words the error
        return None


def _mapping(steps: _Steps, message: Message) -> dict[str, Any]:
    mapping: dict[str, Any] = {}
    for field, value in message.ListFields():
        name, convert = steps[field.number]
        mapping[name] = value if convert is None else convert(value)
    return mapping


def _to_json_string(message: timestamp_pb2.Timestamp | duration_pb2.Duration) -> str:
    return message.ToJsonString()


class _WritingPlanner:
    """Builds, once per message type, the steps that turn its fields into a mapping."""

    def __init__(self) -> None:
        self._steps: dict[str, _Steps] = {}

    def steps(self, message: Descriptor) -> _Steps:
        """The steps of a message type (made once; a message type that holds itself shares them)."""
        steps = self._steps.get(message.full_name)
        if steps is None:
            steps = self._steps[message.full_name] = {}
            for field in message.fields:
                steps[field.number] = (field.json_name, self._convert(field))
        return steps

    def _convert(self, field: FieldDescriptor) -> Convert | None:
        mapped = map_converter(field, _string_map)
        if mapped is not None:
            return mapped
        single = self._convert_one(field)
        if not field.is_repeated:
            return single
        if single is None:
            return list
        if single is unsure:
            return unsure
        return functools.partial(_each, single)

    def _convert_one(self, field: FieldDescriptor) -> Convert | None:
        message, enum = field.message_type, field.enum_type
        if message is not None:
            if message.full_name in JSON_STRING_TYPES:
                return _to_json_string
            if message.full_name.startswith(SPECIAL_PACKAGE):
                return unsure
            return functools.partial(_mapping, self.steps(message))
        if enum is not None:
            if any(value.has_options for value in enum.values):
                return unsure  # a value may carry a custom JSON name
            names = {value.number: value.name for value in enum.values}
            return lambda number: names.get(number, number)  # an unknown number stays a number
        return None if field.type in TAKEN_AS_IS else unsure


def _each(convert: Convert, values: Iterable[Any]) -> list[Any]:
    return [convert(value) for value in values]


def _string_map(values: Mapping[str, str]) -> dict[str, str]:
    return {key: values[key] for key in values}


_RECORD_STEPS: Final = _WritingPlanner().steps(pb.GameRecord.DESCRIPTOR)


def record_mapping(record: pb.GameRecord) -> dict[str, Any]:
    """The ProtoJSON mapping of a record, extra tags sorted by name.

    Raises:
        EncodingError: a value has no JSON form (a timestamp or duration out of range).
    """
    mapping = fast_mapping(record)
    if mapping is None:
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
