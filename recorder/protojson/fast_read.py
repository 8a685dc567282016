"""ProtoJSON's fast reading path: a parsed mapping straight to the message constructor.

Gives the very record ``json_format.ParseDict`` would, or None when only json_format can tell
(``reading`` then lets it decide and word the error). Also holds the field kinds both fast
paths share (``writing`` imports them). May import the standard library, orjson, protobuf,
``gamerec.v1`` and ``gamerec.recorder`` (``protojson_strict``, ``wire``, ``protojson.move_times``).
"""

from __future__ import annotations

import datetime
import functools
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, cast

import orjson
from google.protobuf import duration_pb2, timestamp_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor

from gamerec.recorder.protojson.bytes_fields import bytes_list_of, bytes_of
from gamerec.recorder.protojson.move_times import TIME_KEYS, times_bytes
from gamerec.recorder.protojson_strict import is_strict_clock
from gamerec.recorder.wire import decode_varint, encode_varint
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


class _UnsureError(Exception):
    """A fast path cannot vouch for a value: json_format must decide."""


_Convert = Callable[[Any], Any]


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
    convert: _Convert | None


#: A message's fields by json name and by proto name (ProtoJSON reads both).
_Fields = dict[str, _Field]

_TAKEN_AS_IS: Final = frozenset(
    {FieldDescriptor.TYPE_INT32, FieldDescriptor.TYPE_UINT32, FieldDescriptor.TYPE_STRING}
)
#: The well-known types written as a string, which both fast paths handle.
_JSON_STRING_TYPES: Final = frozenset({"google.protobuf.Timestamp", "google.protobuf.Duration"})
#: Message types whose ProtoJSON form is their own (Any, Struct, wrappers, ...), apart from the
#: two above: the fast paths leave them to json_format.
_SPECIAL_PACKAGE: Final = "google.protobuf."
#: The UTC form of a timestamp that ``Timestamp.ToJsonString`` writes (ASCII digits only).
_UTC_TIME: Final = re.compile(
    r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,9})?Z"
)
_UNIX_EPOCH: Final = datetime.datetime(1970, 1, 1)
_SECONDS_PER_DAY: Final = 86_400


def fast_record(mapping: dict[str, Any], moves_text: bytes | None = None) -> pb.GameRecord | None:
    """The record a ProtoJSON mapping stands for, or None when only json_format can tell.

    When it returns a record, ``json_format.ParseDict`` would return an equal one; when it
    returns None, ParseDict may still accept the mapping (it allows forms this path leaves to
    it) or refuse it. It never raises. ``moves_text``: see :func:`fast_record_serialized`.
    """
    made = fast_record_serialized(mapping, moves_text)
    return None if made is None else made[0]


def fast_record_serialized(
    mapping: dict[str, Any], moves_text: bytes | None = None
) -> tuple[pb.GameRecord, bytes] | None:
    """The record of :func:`fast_record`, with bytes that parse to it (None when it gives up).

    The bytes are the record's other fields serialized, then its main line's entries as
    ``record.SerializeToString()`` writes each move: the same record, so the limits' proof
    by size (``limits.within_by_size``) and the judge's reading of the moves hold for them.
    ``moves_text``: ``orjson.dumps(mapping["moves"])`` when the caller has written it already.
    """
    moves = mapping.get("moves")
    if type(moves) is not list:
        return record_of_parts(mapping, b"")
    try:
        entries = _moves_entries(moves, moves_text)
    except Exception:  # on any doubt json_format decides, and words the error
        return None
    return record_of_parts(
        {key: value for key, value in mapping.items() if key != "moves"}, entries
    )


def record_of_parts(rest: dict[str, Any], entries: bytes) -> tuple[pb.GameRecord, bytes] | None:
    """The record of a mapping without its main line and of that main line's entries.

    With bytes that parse to it (see :func:`fast_record_serialized`); None when the fast
    path cannot vouch for ``rest``.
    """
    try:
        record = pb.GameRecord(**_keywords(_RECORD_FIELDS, rest))
        head = record.SerializeToString()
        if entries:
            record.MergeFromString(entries)
    except Exception:  # on any doubt json_format decides, and words the error
        return None
    return record, head + entries


class MainLineCut(NamedTuple):
    """A record's text read without parsing its main line (:func:`cut_main_line`).

    Attributes:
        rest: the record's mapping without its main line (its other keys, in order).
        plies: the main line's moves.
        entries: the main line's moves as the record's bytes hold them.
    """

    rest: dict[str, Any]
    plies: int
    entries: bytes


def cut_main_line(data: bytes) -> MainLineCut | None:
    """A record's text read with its main line cut out and looked up, not parsed.

    Taken only when it is exactly what parsing the whole text gives, else None (the caller
    parses it all). The main line is the text after the first ``"moves":[{"seat":``, cut at
    each ``},{"seat":``, its last move ending at a ``}]``; every piece X must be a move
    remembered, or ``{"seat":`` X ``}`` one object as orjson writes it (so its keys are
    distinct). JSON values delimit themselves, so those pieces between ``[`` and ``]`` are
    one list of exactly those moves. The text then has that list in its place: the rest,
    read with a string in the list's place, must be an object, refuse no key given twice,
    and hold that string under ``moves``. In a text without a backslash no other string can
    hold it (a control character is written only as an escape), so the list is the
    record's own ``moves``; nor can the ``"moves"`` before it be inside a string (an
    unescaped ``moves`` outside a string would not be JSON), so that is a key and the
    string its value. The main line must hold no ``v`` (no variations to count) and no move
    its fast path cannot convert.
    """
    span = _main_line_span(data)
    if span is None:
        return None
    start, stop, tails = span
    try:
        entries = _tail_entries(tails)
        rest = None if entries is None else _rest_of(data[:start] + _PLACEHOLDER_TEXT + data[stop:])
    except Exception:  # on any doubt the whole text is parsed
        return None
    if rest is None or entries is None:
        return None
    return MainLineCut(rest, len(tails), b"".join(entries))


def _main_line_span(data: bytes) -> tuple[int, int, list[bytes]] | None:
    """Where the main line's list starts and stops in a record's text, and its moves' tails.

    None for a text with a backslash, without ``"moves":[{"seat":``, whose last move's end
    is not found, or whose main line holds a ``v``.
    """
    if b"\\" in data:
        return None
    at = data.find(_MAIN_LINE_START)
    if at < 0:
        return None
    start = at + len(_MAIN_LINE_START) - len(_MOVES_START)
    tails = data[start + len(_MOVES_START) :].split(_MOVES_BETWEEN)
    last = tails[-1]
    end = _last_tail_end(last)
    if end is None:
        return None
    tails[-1] = last[:end]
    stop = len(data) - len(last) + end + len(_MOVES_END)  # just after the list's "]"
    if data.find(b"v", start, stop) >= 0:
        return None
    return start, stop, tails


def _rest_of(text: bytes) -> dict[str, Any] | None:
    """The mapping of a record's text with the placeholder for its main line, without it.

    None unless the text is an object whose ``moves`` is the placeholder, with no key given
    twice (counted as ``json_keys`` counts: the placeholder holds no colon) and no header.

    Raises:
        orjson.JSONDecodeError, orjson.JSONEncodeError: the text is not JSON orjson reads
            and writes back.
    """
    value = orjson.loads(text)
    if type(value) is not dict or value.get("moves") != _PLACEHOLDER or "header" in value:
        return None
    if text.count(b":") != orjson.dumps(value).count(b":"):
        return None  # a key given twice: the whole parse finds and names it
    return {key: item for key, item in value.items() if key != "moves"}


def _last_tail_end(last: bytes) -> int | None:
    """Where the last move's tail ends in the last piece (at a ``}]``), or None.

    At most one prefix of a text is a JSON object, so the first end that makes one is it.
    """
    end = last.find(_MOVES_END)
    for _ in range(_MAX_LAST_TAIL_ENDS):
        if end < 0:
            return None
        tail = last[:end]
        if tail in _MOVE_ENTRIES or _written_move(tail) is not None:
            return end
        end = last.find(_MOVES_END, end + 1)
    return None


def _tail_entries(
    tails: list[bytes], read: Callable[[bytes], Any] | None = None
) -> list[bytes] | None:
    """The entries of moves known by their tails, or None when a tail is not a move's.

    A tail not remembered is read by ``read`` (default :func:`_written_move`), which gives
    its move's mapping or None when ``{"seat":`` tail ``}`` is not one whole move; every
    such tail is read before any is converted.

    Raises:
        _UnsureError: see :func:`_keywords` (a move the fast path cannot convert).
    """
    entries = list(map(_MOVE_ENTRIES.get, tails))
    if None in entries:
        missing = [index for index, entry in enumerate(entries) if entry is None]
        values = list(map(read or _written_move, [tails[index] for index in missing]))
        if None in values:
            return None
        for index, value in zip(missing, values, strict=True):
            entries[index] = _move_entry(value, tails[index], _MOVE_ENTRIES)
    return cast("list[bytes]", entries)


def _written_move(tail: bytes) -> dict[str, Any] | None:
    """The move whose text orjson writes as ``{"seat":`` tail ``}``, or None."""
    text = _SEAT_KEY + tail + b"}"
    try:
        value = orjson.loads(text)
        return value if type(value) is dict and orjson.dumps(value) == text else None
    except (orjson.JSONDecodeError, orjson.JSONEncodeError):
        return None


def _moves_entries(moves: list[Any], moves_text: bytes | None = None) -> bytes:
    """The main line's mappings as the record's bytes hold them (see :func:`_move_entry`).

    The moves are looked up by their text cut from one writing of the whole list
    (:func:`_split_entries`); when that cannot be cut into the moves, every move's text is
    written on its own. Either way a lookup is one pass at C speed; only the moves not
    remembered are converted one by one.

    Raises:
        _UnsureError: see :func:`_keywords`.
        orjson.JSONEncodeError: a move orjson cannot write (fast_record gives up).
    """
    if moves_text is None:
        try:
            moves_text = _DUMPS(moves)
        except orjson.JSONEncodeError:  # nested deeper than orjson writes a list: move by move
            moves_text = b""
    entries = _split_entries(moves_text)
    if entries is not None:
        return b"".join(entries)
    texts = list(map(_DUMPS, moves))
    found = list(map(_WHOLE_MOVE_ENTRIES.get, texts))
    if None in found:
        for index in [index for index, entry in enumerate(found) if entry is None]:
            found[index] = _move_entry(moves[index], texts[index], _WHOLE_MOVE_ENTRIES)
    return b"".join(cast("list[bytes]", found))


def _split_entries(moves_text: bytes) -> list[bytes] | None:
    """The moves' entries, found from the text of the whole list cut at each ``},{"seat":``.

    A main line whose moves all start with their seat is written ``[{"seat":`` X1
    ``},{"seat":`` X2 ... ``}]``; each cut piece X is looked up (a move is remembered by the
    text after its ``{"seat":``, its *tail*). A cut may also fall inside a move (a variation's
    moves), so the pieces are trusted only when each is a move's whole tail: when
    ``{"seat":`` X ``}`` is one JSON object for every piece. JSON values delimit themselves, so
    the list's text is then exactly those objects between commas: the pieces are the moves'
    own texts, in order, and read to the very moves the list holds. A remembered tail was
    such an object when it was remembered; a piece not remembered is read here. None when
    the text is not cut so (a move without a leading seat, a cut inside a move).

    Raises:
        _UnsureError: see :func:`_keywords` (for a move, once the cut is proven).
    """
    if not (moves_text.startswith(_MOVES_START) and moves_text.endswith(_MOVES_END)):
        return None
    tails = moves_text[len(_MOVES_START) : -len(_MOVES_END)].split(_MOVES_BETWEEN)
    return _tail_entries(tails, _parsed_move)


def _parsed_move(tail: bytes) -> Any:
    """The move read from ``{"seat":`` tail ``}``, a piece of orjson's own writing; else None.

    orjson wrote the text, so a piece that reads as one object is that object's writing (no
    need to write it back and compare, as :func:`_written_move` does for a text as given).
    """
    try:
        return orjson.loads(_SEAT_KEY + tail + b"}")
    except orjson.JSONDecodeError:
        return None


def _move_entry(mapping: Any, text: bytes, remembered: dict[bytes, bytes]) -> bytes:
    """One main-line move's mapping as the record's bytes hold it (field key, length, move).

    Moves recur (a game has a few hundred distinct ones), so each is remembered in
    ``remembered`` by a text that stands for it alone (``text``: its JSON text as orjson
    writes it, or that text's tail, see :func:`_split_entries`): orjson writes the text of a
    parsed mapping back in a fraction of what converting it costs, and equal texts stand for
    equal moves.

    Raises:
        _UnsureError: see :func:`_keywords`.
    """
    entry = remembered.get(text)
    if entry is None:
        timed = _timed_move_entry(mapping)
        if timed is not None:
            return timed
        data = pb.Move(**_keywords(_MOVE_FIELDS, mapping)).SerializeToString()
        entry = _RECORD_MOVES_KEY + encode_varint(len(data)) + data
        if len(text) <= _MAX_REMEMBERED_MOVE_TEXT:
            if len(remembered) >= _MAX_REMEMBERED_MOVES:
                remembered.clear()
            remembered[text] = entry
    return entry


def _timed_move_entry(mapping: Any) -> bytes | None:
    """A move with times and no variations: its other fields, then its times' fields.

    The other fields are looked up as a move of their own (remembered by their text), the
    times' fields written from their texts (``move_times``): the same bytes as converting
    the whole move, since its other fields have lower numbers than the times and the times
    are read as the constructor reads them. None for any other move, or times in another
    form than writers use (converted whole).

    Raises:
        _UnsureError: see :func:`_keywords` (the rest of the move).
    """
    if type(mapping) is not dict or "variations" in mapping:
        return None
    if "clock" not in mapping and "timestamp" not in mapping:
        return None
    times = times_bytes(mapping)
    if times is None:
        return None
    rest = {key: value for key, value in mapping.items() if key not in TIME_KEYS}
    try:
        text = _DUMPS(rest)
    except orjson.JSONEncodeError:
        return None
    entry = _move_entry(rest, text, _WHOLE_MOVE_ENTRIES)
    _, start = decode_varint(entry, 1, len(entry), "a move's length")
    data = entry[start:] + times
    return _RECORD_MOVES_KEY + encode_varint(len(data)) + data


def _keywords(fields: _Fields, mapping: Any) -> dict[str, Any]:
    """A message's mapping as constructor keywords (None values kept: the constructor skips them).

    Raises:
        _UnsureError: not a dict, an unknown key, two members of one oneof, one field given twice.
    """
    if type(mapping) is not dict:
        raise _UnsureError
    keywords: dict[str, Any] = {}
    oneofs: list[str] = []
    for key, value in mapping.items():
        field = fields.get(key)
        if field is None:
            raise _UnsureError
        if value is None:
            keywords[field.keyword] = None
            continue
        if field.oneof is not None:
            if field.oneof in oneofs:
                raise _UnsureError
            oneofs.append(field.oneof)
        keywords[field.keyword] = value if field.convert is None else field.convert(value)
    if len(keywords) != len(mapping):
        raise _UnsureError  # a field under both its names: json_format overrides or merges
    return keywords


def _keywords_list(fields: _Fields, values: Any) -> list[dict[str, Any]]:
    """A repeated message field's list, each element as constructor keywords."""
    return [_keywords(fields, value) for value in _list_as_is(values)]


def _list_as_is(values: Any) -> list[Any]:
    """A repeated field's value, whose elements the constructor checks as ProtoJSON would."""
    if type(values) is not list:
        raise _UnsureError  # the constructor would take any iterable
    return values


def _dict_as_is(value: Any) -> dict[str, Any]:
    """A map<string, string> field's value, whose values the constructor checks."""
    if type(value) is not dict:
        raise _UnsureError  # the constructor would take a list of pairs
    return value


def _duration(value: Any) -> duration_pb2.Duration:
    """A Duration read from its string, as json_format reads it."""
    if type(value) is not str or not is_strict_clock(value):
        raise _UnsureError  # a dict of seconds and nanos, or a form check_clocks refuses
    duration = duration_pb2.Duration()
    duration.FromJsonString(value)
    return duration


def _timestamp(value: Any) -> timestamp_pb2.Timestamp | dict[str, int]:
    """A Timestamp read from its string, as json_format reads it.

    FromJsonString parses with ``strptime``, which costs microseconds; the UTC form that
    writers use is read here with the same arithmetic, other forms (offsets) by FromJsonString.
    """
    if type(value) is not str:
        raise _UnsureError  # the constructor would take a dict of seconds and nanos
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


def _scalar_converters(field: FieldDescriptor) -> tuple[_Convert | None, _Convert]:
    """The converters of a scalar field: as is, base64 for bytes (``bytes_fields``), or none.

    A refusal of ``bytes_fields`` is an exception like any other: json_format decides.
    """
    if field.type in _TAKEN_AS_IS or _open_enum(field):
        return None, _list_as_is
    if field.type == FieldDescriptor.TYPE_BYTES:
        return bytes_of, bytes_list_of
    return _unsure, _unsure


def _unsure(value: Any) -> Any:
    """The converter of a field kind the fast path does not handle."""
    raise _UnsureError


class _Planner:
    """Builds, once per message type, how its mapping becomes constructor keywords."""

    def __init__(self) -> None:
        self._fields: dict[str, _Fields] = {}
        self._verbatim: dict[str, bool] = {}

    def fields(self, message: Descriptor) -> _Fields:
        """The plan of a message type (filled once; a message type that holds itself shares it)."""
        plan = self._fields.get(message.full_name)
        if plan is None:
            plan = self._fields[message.full_name] = {}
            names = {name for field in message.fields for name in (field.name, field.json_name)}
            clash = not names.isdisjoint(message.oneofs_by_name)
            for field in message.fields:
                entry = _Field(
                    field.name, _oneof(field), _unsure if clash else self._convert(field)
                )
                plan[field.json_name] = plan[field.name] = entry
        return plan

    def _convert(self, field: FieldDescriptor) -> _Convert | None:
        """The converter of a field's values (see :class:`_Field`)."""
        message = field.message_type
        if message is not None and message.GetOptions().map_entry:
            key, value = message.fields_by_name["key"], message.fields_by_name["value"]
            string = FieldDescriptor.TYPE_STRING
            return _dict_as_is if key.type == value.type == string else _unsure
        single, repeated = self._converters(field)
        return repeated if field.is_repeated else single

    def _converters(self, field: FieldDescriptor) -> tuple[_Convert | None, _Convert]:
        """The converters of one value and of a list of values of a field's type."""
        message = field.message_type
        if message is None:
            return _scalar_converters(field)
        if message.full_name in _JSON_STRING_TYPES:
            is_time = message.full_name == "google.protobuf.Timestamp"
            return _timestamp if is_time else _duration, _unsure
        if message.full_name.startswith(_SPECIAL_PACKAGE):
            return _unsure, _unsure
        if self._taken_verbatim(message):
            return None, _list_as_is
        plan = self.fields(message)
        return functools.partial(_keywords, plan), functools.partial(_keywords_list, plan)

    def _taken_verbatim(self, message: Descriptor) -> bool:
        """Whether the constructor checks a mapping of this type exactly as ProtoJSON does.

        So it is when every field has one name, is singular, in no oneof that could conflict,
        and of a type the constructor checks (such messages inside too). A list given for a
        repeated field, or a dict for a map or a Timestamp, needs checking first.
        """
        known = self._verbatim.get(message.full_name)
        if known is None:
            self._verbatim[message.full_name] = False  # a message that holds itself is walked
            known = not message.full_name.startswith(_SPECIAL_PACKAGE) and all(
                self._field_verbatim(field) for field in message.fields
            )
            self._verbatim[message.full_name] = known
        return known

    def _field_verbatim(self, field: FieldDescriptor) -> bool:
        if field.json_name != field.name or field.is_repeated or _oneof(field) is not None:
            return False
        if field.message_type is None:
            return field.type in _TAKEN_AS_IS or _open_enum(field)
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
_RECORD_FIELDS: Final = _PLANNER.fields(pb.GameRecord.DESCRIPTOR)
_MOVE_FIELDS: Final = _PLANNER.fields(pb.Move.DESCRIPTOR)
#: The field key of ``GameRecord.moves`` (field 5, length-delimited).
_RECORD_MOVES_KEY: Final = b"\x2a"
#: Moves remembered by their JSON text (a hostile input of distinct moves empties it, at most
#: this many, each at most this long).
_MAX_REMEMBERED_MOVES: Final = 16_384
_MAX_REMEMBERED_MOVE_TEXT: Final = 256
#: Moves remembered by their text's tail (:func:`_split_entries`) and, apart, by their whole
#: text (moves whose list cannot be cut), each table at most this many.
_MOVE_ENTRIES: dict[bytes, bytes] = {}
_WHOLE_MOVE_ENTRIES: dict[bytes, bytes] = {}
_DUMPS: Final = orjson.dumps
#: How orjson writes a list of moves that start with their seat: the list's start, its end
#: and what stands between two moves (no whitespace, the keys as given).
_SEAT_KEY: Final = b'{"seat":'
_MOVES_START: Final = b"[" + _SEAT_KEY
_MOVES_END: Final = b"}]"
_MOVES_BETWEEN: Final = b"}," + _SEAT_KEY
#: Where a main line of seated moves starts in a record's text, written without spaces.
_MAIN_LINE_START: Final = b'"moves":' + _MOVES_START
#: What stands for the main line while the rest of a record's text is read: a string that a
#: text without a backslash cannot hold.
_PLACEHOLDER_TEXT: Final = b'"\\u0001"'
_PLACEHOLDER: Final = "\x01"
#: The ends of the last move tried (each ``}]`` a move's own lists may hold first).
_MAX_LAST_TAIL_ENDS: Final = 8
