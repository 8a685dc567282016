"""ProtoJSON's mappings as message constructor keywords: the plan of each message type.

The fast paths (``fast_read``, ``writing``) hand a whole parsed mapping to one constructor
call; this module says, once per message type, how each key becomes a keyword and which values
the constructor reads as ProtoJSON does (:class:`Planner`, :func:`keywords`), and gives up
(:class:`UnsureError`) on anything else, for json_format to decide. May import the standard
library, protobuf, ``gamerec.v1`` and ``gamerec.recorder`` (``protojson_strict``,
``protojson.bytes_fields``).
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from google.protobuf import duration_pb2, timestamp_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from gamerec.recorder.protojson.bytes_fields import bytes_list_of, bytes_of
from gamerec.recorder.protojson_strict import is_strict_clock
from gamerec.v1 import record_pb2 as pb

# -- reading fast: a mapping straight to the message constructor --------------------------------
#
# json_format.ParseDict is pure Python and costs tens of microseconds a ply. The fast path
# renames a mapping's lowerCamelCase keys to the constructor's keyword names and hands the
# whole tree to one ``pb.GameRecord(**keywords)`` call; upb builds nested messages from nested
# dicts and lists in C. It only ever takes values whose ProtoJSON meaning is plain and on which
# the constructor is at least as strict as json_format: ints for integer fields and enum numbers
# (the constructor refuses bools, floats and strings there), enum names, strings, lists, dicts,
# Timestamp and Duration strings (read with FromJsonString, the call json_format makes). Anything
# else that ProtoJSON allows (integral floats, numeric strings, a key in both spellings, ...) or
# refuses makes it give up, and json_format decides and words the error, as before.


class UnsureError(Exception):
    """A fast path cannot vouch for a value: json_format must decide."""


Convert = Callable[[Any], Any]


@dataclass(frozen=True, slots=True)
class _Field:
    """How one key of a mapping becomes a constructor keyword.

    Attributes:
        keyword: the field's proto name, the constructor's keyword.
        oneof: the oneof the field belongs to, if another field could conflict with it.
        convert: turns a value (never None) into what the constructor takes; None when the
            constructor either reads the value as ProtoJSON does or refuses it.
    """

    keyword: str
    oneof: str | None
    convert: Convert | None


#: A message's fields by json name and by proto name (ProtoJSON reads both).
Fields = dict[str, _Field]

TAKEN_AS_IS: Final = frozenset(
    {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_STRING}
)
#: The well-known types written as a string, which both fast paths handle.
JSON_STRING_TYPES: Final = frozenset({"google.protobuf.Timestamp", "google.protobuf.Duration"})
#: Message types whose ProtoJSON form is their own (Any, Struct, wrappers, ...), apart from the
#: two above: the fast paths leave them to json_format.
SPECIAL_PACKAGE: Final = "google.protobuf."
#: The UTC form of a timestamp that ``Timestamp.ToJsonString`` writes (ASCII digits only).
_UTC_TIME: Final = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z"
)
_UNIX_EPOCH: Final = datetime.datetime(1970, 1, 1)
_SECONDS_PER_DAY: Final = 86_400


def keywords(fields: Fields, mapping: Any) -> dict[str, Any]:
    """A message's mapping as constructor keywords (None values kept: the constructor skips them).

    Raises:
        UnsureError: not a dict, an unknown key, two members of one oneof, one field given twice.
    """
    if type(mapping) is not dict:
        raise UnsureError
    keywords: dict[str, Any] = {}
    oneofs: list[str] = []
    for key, value in mapping.items():
        field = fields.get(key)
        if field is None:
            raise UnsureError
        if value is None:
            keywords[field.keyword] = None
            continue
        if field.oneof is not None:
            if field.oneof in oneofs:
                raise UnsureError
            oneofs.append(field.oneof)
        keywords[field.keyword] = value if field.convert is None else field.convert(value)
    if len(keywords) != len(mapping):
        raise UnsureError  # a field under both its names: json_format overrides or merges
    return keywords


def keywords_list(fields: Fields, values: Any) -> list[dict[str, Any]]:
    """A repeated message field's list, each element as constructor keywords."""
    return [keywords(fields, value) for value in _list_as_is(values)]


def _list_as_is(values: Any) -> list[Any]:
    """A repeated field's value, whose elements the constructor checks as ProtoJSON would."""
    if type(values) is not list:
        raise UnsureError  # the constructor would take any iterable
    return values


def _dict_as_is(value: Any) -> dict[str, Any]:
    """A map<string, string> field's value, whose values the constructor checks."""
    if type(value) is not dict:
        raise UnsureError  # the constructor would take a list of pairs
    return value


def _duration(value: Any) -> duration_pb2.Duration:
    """A Duration read from its string, as json_format reads it."""
    if type(value) is not str or not is_strict_clock(value):
        raise UnsureError  # a dict of seconds and nanos, or a form check_clocks refuses
    duration = duration_pb2.Duration()
    duration.FromJsonString(value)
    return duration


def _timestamp(value: Any) -> timestamp_pb2.Timestamp | dict[str, int]:
    """A Timestamp read from its string, as json_format reads it.

    FromJsonString parses with ``strptime``, which costs microseconds; the UTC form that
    writers use is read here with the same arithmetic, other forms (offsets) by FromJsonString.
    """
    if type(value) is not str:
        raise UnsureError  # the constructor would take a dict of seconds and nanos
    if _UTC_TIME.fullmatch(value) is None:
        timestamp = timestamp_pb2.Timestamp()
        timestamp.FromJsonString(value)
        return timestamp
    # The pattern fixes where each number is; an impossible date or time raises ValueError.
    since = (
        datetime.datetime(
            int(value[0:4]),
            int(value[5:7]),
            int(value[8:10]),
            int(value[11:13]),
            int(value[14:16]),
            int(value[17:19]),
        )
        - _UNIX_EPOCH
    )
    fraction = value[20:-1]
    return {
        "seconds": since.days * _SECONDS_PER_DAY + since.seconds,
        "nanos": int(fraction.ljust(9, "0")) if fraction else 0,
    }


def _scalar_converters(field: FieldDescriptor) -> tuple[Convert | None, Convert]:
    """The converters of a scalar field: as is, base64 for bytes (``bytes_fields``), or none.

    A refusal of ``bytes_fields`` is an exception like any other: json_format decides.
    """
    if field.type in TAKEN_AS_IS or _open_enum(field):
        return None, _list_as_is
    if field.type == FieldDescriptor.TYPE_BYTES:
        return bytes_of, bytes_list_of
    return unsure, unsure


def unsure(value: Any) -> Any:
    """The converter of a field kind the fast path does not handle."""
    raise UnsureError


def map_converter(field: FieldDescriptor, strings: Convert) -> Convert | None:
    """The converter of a map field: ``strings`` for a map<string, string>, else :func:`unsure`.

    None when the field is no map. Both fast paths (reading and writing) take string maps
    only: ProtoJSON writes other keys and values in forms of their own.
    """
    message = field.message_type
    if message is None or not message.GetOptions().map_entry:
        return None
    key, value = message.fields_by_name["key"], message.fields_by_name["value"]
    string = FieldDescriptor.TYPE_STRING
    return strings if key.type == value.type == string else unsure


class _Planner:
    """Builds, once per message type, how its mapping becomes constructor keywords."""

    def __init__(self) -> None:
        self._fields: dict[str, Fields] = {}
        self._verbatim: dict[str, bool] = {}

    def fields(self, message: Descriptor) -> Fields:
        """The plan of a message type (filled once; a message type that holds itself shares it)."""
        plan = self._fields.get(message.full_name)
        if plan is None:
            plan = self._fields[message.full_name] = {}
            names = {name for field in message.fields for name in (field.name, field.json_name)}
            clash = not names.isdisjoint(message.oneofs_by_name)
            for field in message.fields:
                entry = _Field(field.name, _oneof(field), unsure if clash else self._convert(field))
                plan[field.json_name] = plan[field.name] = entry
        return plan

    def _convert(self, field: FieldDescriptor) -> Convert | None:
        """The converter of a field's values (see :class:`_Field`)."""
        mapped = map_converter(field, _dict_as_is)
        if mapped is not None:
            return mapped
        single, repeated = self._converters(field)
        return repeated if field.is_repeated else single

    def _converters(self, field: FieldDescriptor) -> tuple[Convert | None, Convert]:
        """The converters of one value and of a list of values of a field's type."""
        message = field.message_type
        if message is None:
            return _scalar_converters(field)
        if message.full_name in JSON_STRING_TYPES:
            is_time = message.full_name == "google.protobuf.Timestamp"
            return _timestamp if is_time else _duration, unsure
        if message.full_name.startswith(SPECIAL_PACKAGE):
            return unsure, unsure
        if self._taken_verbatim(message):
            return None, _list_as_is
        plan = self.fields(message)
        return functools.partial(keywords, plan), functools.partial(keywords_list, plan)

    def _taken_verbatim(self, message: Descriptor) -> bool:
        """Whether the constructor checks a mapping of this type exactly as ProtoJSON does.

        So it is when every field has one name, is singular, in no oneof that could conflict,
        and of a type the constructor checks (such messages inside too). A list given for a
        repeated field, or a dict for a map or a Timestamp, needs checking first.
        """
        known = self._verbatim.get(message.full_name)
        if known is None:
            self._verbatim[message.full_name] = False  # a message that holds itself is walked
            known = not message.full_name.startswith(SPECIAL_PACKAGE) and all(
                self._field_verbatim(field) for field in message.fields
            )
            self._verbatim[message.full_name] = known
        return known

    def _field_verbatim(self, field: FieldDescriptor) -> bool:
        if field.json_name != field.name or field.is_repeated or _oneof(field) is not None:
            return False
        if field.message_type is None:
            return field.type in TAKEN_AS_IS or _open_enum(field)
        return self._taken_verbatim(field.message_type)


def _oneof(field: FieldDescriptor) -> str | None:
    """The field's oneof, when it has other members (proto3 ``optional`` makes one of one)."""
    oneof = field.containing_oneof
    return oneof.name if oneof is not None and len(oneof.fields) > 1 else None


def _open_enum(field: FieldDescriptor) -> bool:
    """An open enum field: the constructor takes its names and any int32 number, as ProtoJSON."""
    enum = field.enum_type
    return enum is not None and not enum.is_closed and enum.full_name != "google.protobuf.NullValue"


_PLANNER: Final = _Planner()
RECORD_FIELDS: Final = _PLANNER.fields(pb.GameRecord.DESCRIPTOR)
MOVE_FIELDS: Final = _PLANNER.fields(pb.Move.DESCRIPTOR)
