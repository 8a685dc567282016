"""ProtoJSON's fast reading path: a parsed mapping straight to the message constructor.

Gives the very record ``json_format.ParseDict`` would, or None when only json_format can tell
(``reading`` then lets it decide and word the error): the mapping becomes keywords by
``protojson.keywords``' plan, and a main line's moves are looked up by their text. May import
the standard library, orjson, protobuf, ``gamerec.v1`` and ``gamerec.recorder``
(``wire``, ``protojson.keywords``, ``protojson.move_times``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final, NamedTuple, cast

import orjson

from gamerec.recorder.protojson.keywords import (
    MOVE_FIELDS,
    RECORD_FIELDS,
    keywords,
)
from gamerec.recorder.protojson.move_times import TIME_KEYS, cut_times, times_bytes
from gamerec.recorder.wire import encode_varint, field_body
from gamerec.v1 import record_pb2 as pb


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
        record = pb.GameRecord(**keywords(RECORD_FIELDS, rest))
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
    such tail is read before any is converted, and none after the first that is not a move
    (a cut inside a variation: the caller then reads the moves another way).

    Raises:
        UnsureError: see :func:`keywords` (a move the fast path cannot convert).
    """
    entries = list(map(_MOVE_ENTRIES.get, tails))
    if None not in entries:
        return cast("list[bytes]", entries)
    reader = read or _written_move
    values: list[tuple[int, Any]] = []
    for index, entry in enumerate(entries):
        if entry is None:
            entries[index] = timed = _timed_tail_entry(tails[index])
            if timed is None:
                value = reader(tails[index])
                if value is None:
                    return None
                values.append((index, value))
    for index, value in values:
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
        UnsureError: see :func:`keywords`.
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
        UnsureError: see :func:`keywords` (for a move, once the cut is proven).
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
        UnsureError: see :func:`keywords`.
    """
    entry = remembered.get(text)
    if entry is None:
        timed = _timed_move_entry(mapping)
        if timed is not None:
            return timed
        data = pb.Move(**keywords(MOVE_FIELDS, mapping)).SerializeToString()
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
        UnsureError: see :func:`keywords` (the rest of the move).
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
    return _with_times(_move_entry(rest, text, _WHOLE_MOVE_ENTRIES), times)


def _timed_tail_entry(tail: bytes) -> bytes | None:
    """The entry of a move whose tail ends with a writer's times, its rest a move remembered.

    ``{"seat":`` tail ``}`` is then one object as orjson writes it: the rest's object was
    (it is a key of the whole moves remembered, an orjson writing), it names no time and no
    variations (``move_times.cut_times``), and the times are two more members as orjson
    writes them. Its entry is that of :func:`_timed_move_entry`: the rest's, then the times'
    fields. None for any other tail, or a rest not remembered (the tail is then read).
    """
    cut = cut_times(tail)
    if cut is None:
        return None
    rest, times = cut
    entry = _WHOLE_MOVE_ENTRIES.get(_SEAT_KEY + rest + b"}")
    return None if entry is None else _with_times(entry, times)


def _with_times(entry: bytes, times: bytes) -> bytes:
    """A move's entry with its times' fields after its own (they have the highest numbers)."""
    data = field_body(entry) + times
    return _RECORD_MOVES_KEY + encode_varint(len(data)) + data


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
