"""The JSON reader's shortcuts give what the exact paths give, on any input.

Three shortcuts of ``gamerec.recorder.protojson``: the moves of a parsed main line are looked
up by the pieces of one writing of the whole list, cut at each ``},{"seat":`` (``fast_read``),
instead of one writing per move; the duplicate-key check counts the colons of the main line and
of the rest written apart, the main line's text then serving the lookup (``reading``); and a
record's main line is cut out of its text and looked up without being parsed at all, the rest
read with a placeholder in its place (``fast_read.cut_main_line``). Each is held here to the
exact path on drawn, mutated and hostile input, and the table of remembered moves to its bound.
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import orjson
import pytest
from google.protobuf import json_format
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from gamerec.recorder import json_keys
from gamerec.recorder.errors import LimitExceededError, RecordMalformedError
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits
from gamerec.recorder.protojson import (
    encode_jsonl,
    fast_read,
    keywords,
    parse_json_record,
    read_json_serialized,
    reading,
)
from gamerec.recorder.protojson.reading import _check_unique_keys
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from tests.recorder.test_protojson_fast import assert_never_differs, assert_parses_as_before
from tests.strategies import records

FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=list(HealthCheck))

ONE = {"one": {"path": [{"ring": 3, "index": 7}]}}
PIT = {"ohWahRee": {"pit": 4}}


def move(seat: int, action: dict[str, Any], **more: Any) -> dict[str, Any]:
    """A move mapping whose first key is its seat (as every writer writes it)."""
    return {"seat": seat, **action, **more}


def entry_of(mapping: Any) -> bytes:
    """One move's entry in the record's bytes, converted on its own (nothing remembered)."""
    data = pb.Move(**keywords.keywords(keywords.MOVE_FIELDS, mapping)).SerializeToString()
    return fast_read._RECORD_MOVES_KEY + encode_varint(len(data)) + data


def by_each(moves: list[Any]) -> tuple[str, bytes]:
    """The main line's entries, each move converted on its own, or the failure's kind."""
    try:
        return "entries", b"".join(entry_of(mapping) for mapping in moves)
    except Exception as error:
        return "failed", type(error).__name__.encode()


def by_cut(moves: list[Any]) -> tuple[str, bytes] | None:
    """The same by the cut of the list's text; None when the cut is not trusted."""
    try:
        entries = fast_read._split_entries(orjson.dumps(moves))
    except Exception as error:
        return "failed", type(error).__name__.encode()
    return None if entries is None else ("entries", b"".join(entries))


def by_reader(moves: list[Any]) -> tuple[str, bytes]:
    """The same as the reader finds them (the cut, else move by move)."""
    try:
        return "entries", fast_read._moves_entries(moves)
    except Exception as error:
        return "failed", type(error).__name__.encode()


def assert_cut_agrees(moves: list[Any]) -> bool:
    """The cut gives the move-by-move entries (or gives up); whether it was taken."""
    exact = by_each(moves)
    cut = by_cut(moves)
    if cut is not None:
        assert cut == exact
    assert by_reader(moves) == exact
    return cut is not None


# -- the cut of the main line's text -------------------------------------------------------------


def test_a_plain_main_line_is_cut_into_its_moves() -> None:
    moves = [move(1, ONE), move(2, PIT), move(1, ONE, comment='},{"seat":1}')]
    assert assert_cut_agrees(moves)
    assert assert_cut_agrees(moves)  # now every move is remembered


def test_a_main_line_with_a_move_without_its_seat_first_is_read_move_by_move() -> None:
    for moves in ([ONE, move(1, ONE)], [move(1, ONE), {**ONE, "seat": 2}], [move(1, ONE), ONE]):
        assert not assert_cut_agrees(moves)
        assert_never_differs({"moves": moves})


def test_a_cut_inside_a_variation_is_not_trusted_even_where_a_piece_is_remembered() -> None:
    inner = [move(2, PIT), move(1, ONE), move(2, PIT)]
    assert assert_cut_agrees(inner)  # remembers the tails of these moves
    outer = [move(1, ONE, variations=[{"moves": inner}]), move(2, PIT)]
    text = orjson.dumps(outer)
    assert text.count(fast_read._MOVES_BETWEEN) == 3  # two cuts inside the first move
    assert not assert_cut_agrees(outer)
    record = assert_never_differs({"moves": outer})
    assert record is not None
    assert len(record.moves) == 2
    assert len(record.moves[0].variations[0].moves) == 3


def test_a_cut_inside_a_list_of_objects_under_an_unknown_key_is_not_trusted() -> None:
    # An unknown key holding a list of objects, the second one starting with a seat: the cut
    # falls inside the move and its first piece is no object.
    moves = [move(1, ONE, x=[{"a": 1}, {"seat": 2}]), move(2, PIT)]
    assert not assert_cut_agrees(moves)
    assert assert_never_differs({"moves": moves}) is None  # json_format decides (unknown key)


def test_a_move_that_is_not_an_object_is_never_cut_around() -> None:
    for moves in ([move(1, ONE), 5], [move(1, ONE), 5, move(2, PIT)], [move(1, ONE), [ONE]]):
        assert not assert_cut_agrees(moves)
        assert assert_never_differs({"moves": moves}) is None


_MOVE_KEYS = st.sampled_from(["seat", "one", "ohWahRee", "comment", "variations", "moves", "x"])
_LEAVES = (
    st.none()
    | st.booleans()
    | st.integers(-3, 2**33)
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.sampled_from(["", "},{", '},{"seat":', "GLYPH_GOOD", "1s"])
)
_JUNK = st.recursive(
    _LEAVES,
    lambda inner: st.lists(inner, max_size=3) | st.dictionaries(_MOVE_KEYS, inner, max_size=3),
    max_leaves=8,
)


@st.composite
def main_lines(draw: st.DrawFn) -> list[Any]:
    """A main line: moves of a drawn record (variations too), changed and mixed with junk."""
    record = draw(records(depth=2))
    moves: list[Any] = json_format.MessageToDict(record).get("moves", [])
    if draw(st.booleans()):  # every move seated, as a game's writers write them
        moves = [{"seat": 1 + index % 3, **mapping} for index, mapping in enumerate(moves)]
    if draw(st.booleans()):  # no variations: no cut inside a move
        moves = [{k: v for k, v in mapping.items() if k != "variations"} for mapping in moves]
    for _ in range(draw(st.integers(0, 3))):
        index = draw(st.integers(0, len(moves)))
        choice = draw(st.sampled_from(["junk", "seated junk", "copy", "variation", "drop seat"]))
        if choice == "junk":
            moves.insert(index, draw(_JUNK))
        elif choice == "seated junk":
            junk = draw(st.dictionaries(_MOVE_KEYS, _JUNK, max_size=3))
            moves.insert(index, {"seat": draw(st.integers(0, 3) | _JUNK), **junk})
        elif choice == "copy" and moves:
            moves.insert(index, draw(st.sampled_from(moves)))
        elif choice == "variation" and moves:
            inner = draw(st.lists(st.sampled_from(moves), min_size=1, max_size=4))
            moves.insert(index, move(1, ONE, variations=[{"moves": inner}]))
        elif choice == "drop seat" and moves and isinstance(moves[-1], dict):
            moves[-1] = {key: value for key, value in moves[-1].items() if key != "seat"}
    return moves


@FUZZ
@given(main_lines())
@example([move(1, ONE), move(1, ONE, variations=[{"moves": [move(2, PIT)] * 3}]), move(2, PIT)])
def test_the_cut_and_the_move_by_move_path_agree_on_any_main_line(moves: list[Any]) -> None:
    assert_cut_agrees(moves)
    assert_never_differs({"moves": moves, "comment": "c"})
    assert_parses_as_before(orjson.dumps({"moves": moves}))


@FUZZ
@given(records(depth=1))
def test_a_main_line_of_seated_moves_is_always_cut_and_read_as_move_by_move(
    record: pb.GameRecord,
) -> None:
    moves = [
        {
            "seat": 1 + index % 3,
            **{key: value for key, value in mapping.items() if key != "variations"},
        }
        for index, mapping in enumerate(json_format.MessageToDict(record).get("moves", []))
    ]
    if moves:  # nothing in a move but its variations can hold a seated object after another
        assert assert_cut_agrees(moves)
        assert assert_cut_agrees(moves[::-1])  # remembered moves, in another order


def test_the_tables_of_remembered_moves_keep_their_bound() -> None:
    bound = fast_read._MAX_REMEMBERED_MOVES
    for first in range(0, 3 * bound, 4096):  # a hostile archive: every move new
        pits = range(first, first + 4096)
        seated = [move(1, {"ohWahRee": {"pit": pit}}) for pit in pits]
        unseated = [{"ohWahRee": {"pit": pit}} for pit in pits]
        assert fast_read._moves_entries(seated) == by_each(seated)[1]
        assert fast_read._moves_entries(unseated) == by_each(unseated)[1]
        assert 0 < len(fast_read._MOVE_ENTRIES) <= bound
        assert 0 < len(fast_read._WHOLE_MOVE_ENTRIES) <= bound
    long = [move(1, ONE, comment="c" * fast_read._MAX_REMEMBERED_MOVE_TEXT)]
    fast_read._moves_entries(long)
    fast_read._moves_entries([{**ONE, "comment": "c" * fast_read._MAX_REMEMBERED_MOVE_TEXT}])
    tables = [fast_read._MOVE_ENTRIES, fast_read._WHOLE_MOVE_ENTRIES]
    assert all(len(key) <= fast_read._MAX_REMEMBERED_MOVE_TEXT for table in tables for key in table)


# -- the duplicate-key check that writes the main line apart -------------------------------------


def duplicate_found(data: bytes, check: Any) -> str | None:
    """The duplicate-key error's text, or None when the check passes."""
    try:
        check(data, orjson.loads(data))
    except json_keys.DuplicateKeyError as error:
        return str(error)
    return None


_KEYS = st.sampled_from(["seat", "moves", "a", "c:", "d\\u003a"])
_PAIRS = st.recursive(
    st.none() | st.integers(-9, 9) | st.text(alphabet=':ab\\"{}', max_size=4),
    lambda inner: st.lists(inner, max_size=3) | st.lists(st.tuples(_KEYS, inner), max_size=4),
    max_leaves=10,
)


def _text(value: Any) -> str:
    """JSON text in which a list of pairs is an object (so keys may repeat)."""
    if isinstance(value, list) and value and all(isinstance(item, tuple) for item in value):
        return "{" + ",".join(f'"{key}":{_text(item)}' for key, item in value) + "}"
    if isinstance(value, list):
        return "[" + ",".join(_text(item) for item in value) + "]"
    return orjson.dumps(value).decode()


@st.composite
def records_as_pairs(draw: st.DrawFn) -> str:
    """An object with a main line, keys given twice anywhere (the main line's key too)."""
    moves = draw(st.lists(st.lists(st.tuples(_KEYS, _PAIRS), max_size=3), max_size=4))
    pairs = draw(st.lists(st.tuples(_KEYS, _PAIRS), max_size=3))
    pairs.insert(draw(st.integers(0, len(pairs))), ("moves", moves))
    return _text(pairs)


@FUZZ
@given(records_as_pairs())
@example('{"moves":[],"moves":[{"seat":1}]}')
@example('{"moves":[{"seat":1,"seat":1}]}')
@example('{"moves":[{"a":"\\u003a","a":1}]}')
def test_the_check_by_parts_refuses_exactly_what_json_keys_refuses(text: str) -> None:
    data = text.encode()
    exact = duplicate_found(data, json_keys.check_unique_keys)
    assert duplicate_found(data, _check_unique_keys) == exact
    value = orjson.loads(data)
    try:
        moves_text = _check_unique_keys(data, value)
    except json_keys.DuplicateKeyError:
        return
    assert moves_text is None or moves_text == orjson.dumps(value["moves"])


@pytest.mark.parametrize(
    ("text", "key"),
    [
        (b'{"moves":[{"seat":1,"one":{}}],"moves":[]}', "moves"),
        (b'{"moves":[{"seat":1,"seat":2,"one":{}}]}', "moves[0].seat"),
        (
            b'{"moves":[{"seat":1,"one":{"path":[{"ring":1,"ring":2}]}}]}',
            "moves[0].one.path[0].ring",
        ),
        (b'{"formatVersion":1,"moves":[{"seat":1}],"formatVersion":1}', "formatVersion"),
    ],
)
def test_a_key_given_twice_beside_or_in_a_main_line_is_refused_naming_it(
    text: bytes, key: str
) -> None:
    with pytest.raises(RecordMalformedError) as caught:
        parse_json_record(text, "r.jsonl", 4)
    assert f"the key {key!r} is given twice" in str(caught.value)
    assert caught.value.where == "line 4"
    with pytest.raises(json_keys.DuplicateKeyError) as exact:
        json_keys.loads(text)
    assert str(exact.value) in str(caught.value)


# -- the main line cut out of the text, not parsed -----------------------------------------------


def read_outcome(data: bytes, *, cut: bool, limits: Limits = DEFAULT_LIMITS) -> tuple[Any, ...]:
    """What reading a line gives (record and bytes, or the error), with or without the cut."""

    def read() -> tuple[pb.GameRecord, bytes | None]:
        return read_json_serialized(data, "r.jsonl", 3, limits=limits)

    try:
        if cut:
            record, serialized = read()
        else:
            with mock.patch.object(reading, "_read_cut", lambda *_: None):
                record, serialized = read()
    except LimitExceededError as error:
        return ("limit", str(error), error.where, error.limit, error.value)
    except RecordMalformedError as error:
        return ("malformed", str(error), error.where)
    return ("read", record, serialized)


def assert_cut_reads_as_whole(data: bytes, limits: Limits = DEFAULT_LIMITS) -> bool:
    """The line reads the same with the cut as parsed whole; whether the cut was taken."""
    assert read_outcome(data, cut=True, limits=limits) == read_outcome(
        data, cut=False, limits=limits
    )
    return fast_read.cut_main_line(data) is not None


def _generated_lines() -> list[bytes]:
    lines = []
    for game, tags in [
        ("ONE", {"Players": "3"}),
        ("Aronda", {}),
        ("Oust", {}),
        ("Oh-Wah-Ree", {"Players": "2"}),
    ]:
        lines += [encode_jsonl(record) for record in generate(game, tags, 3, seed=7)]
    return lines


LINES = _generated_lines()


def test_the_cut_is_taken_on_written_lines_and_reads_them_as_whole() -> None:
    for line in LINES:
        assert assert_cut_reads_as_whole(line)  # first sightings of their moves
        assert assert_cut_reads_as_whole(line)  # every move remembered
        assert_cut_reads_as_whole(line.replace(b"\n", b"  \n"))


ONE_LINE = LINES[0].rstrip(b"\n")
AT_MAIN_LINE = ONE_LINE.index(b'"moves":[') + len(b'"moves":[')
SEATED = b'{"seat":1,"one":{"path":[{"ring":2,"index":3}]}}'


#: Lines the cut must leave to the whole parse, or read as it does.
ODD_LINES = {
    "a main line inside another key first": b'{"x":{"moves":[' + SEATED + b"]}," + ONE_LINE[1:],
    "the main line given twice": ONE_LINE[:-1] + b',"moves":[' + SEATED + b"]}",
    "the main line twice, the second empty": ONE_LINE[:-1] + b',"moves":[]}',
    "a key given twice in a move": ONE_LINE.replace(b'{"seat":2,', b'{"seat":2,"seat":2,', 1),
    "a key given twice in the rest": ONE_LINE.replace(b'{"name":', b'{"name":"A","name":', 1),
    "the placeholder given": ONE_LINE[:-1] + b',"comment":"\\u0001"}',
    "an escape anywhere": ONE_LINE.replace(b'"Ana"', b'"\\u0041na"', 1),
    "spaces in the main line": ONE_LINE.replace(b'},{"seat":2', b'}, {"seat":2', 1),
    "a variation": ONE_LINE.replace(
        b'{"seat":2,', b'{"seat":2,"variations":[{"moves":[' + SEATED + b"," + SEATED + b"]}],", 1
    ),
    "a move of another key": ONE_LINE.replace(b'{"seat":2,', b'{"seat":2,"ply":1,', 1),
    "a move as a list": ONE_LINE[:AT_MAIN_LINE] + b"[1]," + ONE_LINE[AT_MAIN_LINE:],
    "a header": b'{"header":{},' + ONE_LINE[1:],
    "a seal not in base64": ONE_LINE[:-1] + b',"seal":{"signature":"*"}}',
    "not JSON after the main line": ONE_LINE[:-1] + b",}",
    "not JSON in the main line": ONE_LINE.replace(b'{"seat":2,', b'{"seat":2,,', 1),
    "the last move's list left open": ONE_LINE[:-2],
    "a float seat": ONE_LINE.replace(b'{"seat":2,', b'{"seat":2.0,', 1),
    "a seat out of range": ONE_LINE.replace(b'{"seat":2,', b'{"seat":-2,', 1),
    "an empty main line": ONE_LINE[:AT_MAIN_LINE] + b"]}",
}


@pytest.mark.parametrize("name", ODD_LINES)
def test_odd_lines_read_with_the_cut_as_whole(name: str) -> None:
    assert_cut_reads_as_whole(ODD_LINES[name])


def test_a_main_line_inside_another_key_is_not_taken_for_the_records() -> None:
    line = b'{"x":{"moves":[' + SEATED + b']},"moves":[' + SEATED.replace(b"1", b"2", 1) + b"]}"
    assert fast_read.cut_main_line(line) is None  # its pieces read, but not as the record's
    assert read_outcome(line, cut=True)[0] == "malformed"  # an unknown key, as parsed whole
    assert_cut_reads_as_whole(ODD_LINES["a main line inside another key first"])


@pytest.mark.parametrize(
    "limits", [Limits(max_variation_depth=0), Limits(max_moves=ONE_LINE.count(b'{"seat":'))]
)
def test_a_variation_the_cut_would_read_is_counted_as_parsed_whole(limits: Limits) -> None:
    variation = b'"variations":[{"moves":[' + SEATED + b"]}],"
    line = ONE_LINE.replace(b'{"seat":2,', b'{"seat":2,' + variation, 1)
    assert fast_read.cut_main_line(line) is None  # a "v" in the main line
    assert read_outcome(line, cut=True, limits=limits)[0] == "limit"
    assert_cut_reads_as_whole(line, limits)


#: What a mutation inserts or writes over.
TOKENS = [
    b" ",
    b",",
    b":",
    b'"',
    b"{",
    b"}",
    b"[",
    b"]",
    b"}]",
    b"0",
    b"null",
    b'"\\u0001"',
    b"\\",
    b'"moves":',
    b'"moves":[{"seat":1}]',
    b'},{"seat":',
    b'"seat":1,',
    b'"v":1,',
    b'"header":1,',
    SEATED,
    SEATED + b",",
]


@FUZZ
@given(
    st.sampled_from(LINES),
    st.lists(st.tuples(st.integers(0, 10**6), st.sampled_from(TOKENS), st.booleans()), max_size=3),
    st.sampled_from(
        [
            DEFAULT_LIMITS,
            Limits(max_plies=20),
            Limits(max_moves=30),
            Limits(max_list_items=2, max_seats=2),
            Limits(max_tags=0, max_tag_chars=3),
            Limits(max_list_items=500),
        ]
    ),
)
def test_the_cut_reads_any_mutated_line_as_the_whole_parse(
    line: bytes, edits: list[tuple[int, bytes, bool]], limits: Limits
) -> None:
    data = line
    for at, token, over in edits:
        place = at % (len(data) + 1)
        data = data[:place] + token + data[place + (len(token) if over else 0) :]
    assert_cut_reads_as_whole(data, limits)


def test_lines_of_new_moves_keep_the_table_within_its_bound() -> None:
    bound = fast_read._MAX_REMEMBERED_MOVES
    for first in range(0, 2 * bound, 4096):
        moves = b",".join(
            b'{"seat":1,"ohWahRee":{"pit":%d}}' % pit for pit in range(first, first + 4096)
        )
        cut = fast_read.cut_main_line(b'{"moves":[' + moves + b"]}")
        assert cut is not None
        assert cut.plies == 4096
        assert 0 < len(fast_read._MOVE_ENTRIES) <= bound
