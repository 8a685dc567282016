"""Moves with a clock and a timestamp read fast as json_format reads them, remembered without.

A move's times are written from their texts (``protojson.move_times``) after the rest of the
move, which is looked up as a move of its own; any text of a time that writers do not write
leaves the move to be converted whole. Either way the record and the errors are those of
``json_format`` (``assert_never_differs``) and of the reading before (``assert_parses_as_before``).
"""

from __future__ import annotations

from typing import Any
from unittest import mock

import orjson
import pytest
from google.protobuf import timestamp_pb2
from hypothesis import given
from hypothesis import strategies as st

from gamerec.recorder.main_line import main_line_moves
from gamerec.recorder.protojson import fast_read, parse_json_record, read_json_serialized
from gamerec.v1 import record_pb2 as pb
from tests.recorder.test_protojson_fast import (
    FUZZ,
    MOVE,
    SOURCE,
    STAMP,
    TIMESTAMP_MAX_SECONDS,
    TIMESTAMP_MIN_SECONDS,
    assert_never_differs,
    assert_parses_as_before,
)

CLOCK_TEXTS_ODD: list[Any] = [
    *("0s", "0.000s", "367.814s", "1.5s", "0.000000001s", "99999999999.999999999s"),
    *("315576000000s", "315576000001s", "999999999999s", "-1.5s", "-0s", "1.1234567890s"),
    *("007s", "1e3s", "1.s", ".5s", "s", "1", "", " 1s", "1s ", "\u0661s", 1, None, {}),
]
STAMPS = ["2026-11-29T20:15:03.250Z", "1970-01-01T00:00:00Z", "2026-11-29T20:15:03+01:00", None]


@pytest.mark.parametrize("stamp", STAMPS)
@pytest.mark.parametrize("clock", CLOCK_TEXTS_ODD)
def test_moves_with_odd_times_read_or_fail_as_before(clock: Any, stamp: str | None) -> None:
    move = {"seat": 1, **MOVE, "clock": clock}
    if stamp is not None:
        move["timestamp"] = stamp
    mapping = {"moves": [move, {**move, "seat": 2}]}
    assert_never_differs(mapping)
    assert_parses_as_before(orjson.dumps(mapping))


@FUZZ
@given(
    times=st.tuples(
        st.one_of(st.integers(0, 7200), st.integers(0, 10**11)),
        st.integers(0, 999_999_999),
        st.integers(0, 9),
        st.integers(TIMESTAMP_MIN_SECONDS, TIMESTAMP_MAX_SECONDS),
    ),
    seat=st.integers(0, 3),
    absent=st.sampled_from(["", "clock", "timestamp"]),
)
def test_moves_with_a_writers_times_read_as_json_format_reads_them(
    times: tuple[int, int, int, int], seat: int, absent: str
) -> None:
    seconds, nanos, digits, stamp = times
    clock = f"{seconds}" + (f".{nanos:09d}"[: digits + 1] if digits else "") + "s"
    text = timestamp_pb2.Timestamp(seconds=stamp, nanos=nanos).ToJsonString()
    move: dict[str, Any] = {"seat": seat, **MOVE, "comment": "jb", "clock": clock}
    move["timestamp"] = text
    if absent:
        move[absent] = None
    mapping = {"moves": [move, {**move, "seat": seat + 1}, move]}
    assert assert_never_differs(mapping) is not None
    assert_parses_as_before(orjson.dumps(mapping))


def test_a_move_with_times_is_remembered_without_them() -> None:
    fast_read._MOVE_ENTRIES.clear()
    fast_read._WHOLE_MOVE_ENTRIES.clear()
    moves = [{"seat": 1, **MOVE, "clock": f"{left}.5s", "timestamp": STAMP} for left in range(9)]
    record = parse_json_record(orjson.dumps({"moves": moves}), SOURCE, 1)
    assert [move.clock.seconds for move in record.moves] == list(range(9))
    assert list(fast_read._WHOLE_MOVE_ENTRIES) == [orjson.dumps({"seat": 1, **MOVE})]
    assert not fast_read._MOVE_ENTRIES  # no move was remembered with its times


#: The rests of timed moves: plain, with words that name a time or variations, with variations
#: (the times' fields then come before them), a glyph, an empty move.
TIMED_RESTS: list[dict[str, Any]] = [
    MOVE,
    {**MOVE, "comment": "clock"},
    {**MOVE, "comment": 'the "clock" ran'},
    {**MOVE, "comment": '"timestamp"'},
    {**MOVE, "comment": '"variations"'},
    {**MOVE, "variations": [{"moves": [{"seat": 2, **MOVE}]}]},
    {**MOVE, "glyph": "GLYPH_GOOD"},
    {},
]
CLOCK_TEXTS = ["0s", "367.814s", "1.5s", "99999999999.999999999s", "315576000001s", "007s", "1e3s"]
STAMP_TEXTS = [
    STAMP,
    "2026-11-29T20:15:03.250Z",
    "2026-02-30T00:00:00Z",
    "2026-11-29T20:15:03+01:00",
]


def read_twice(data: bytes) -> pb.GameRecord | None:
    """Read a record's text twice (the second time its moves' rests are remembered).

    Each reading gives what the reading before gave (the record, or the error); a record
    comes with bytes whose moves are the moves' own.
    """
    record = None
    for _ in range(2):
        found = assert_parses_as_before(data)
        if found[0] != "record":
            continue
        record, serialized = read_json_serialized(data, SOURCE, 1)
        assert found == ("record", record) and serialized is not None
        assert main_line_moves(serialized) == [move.SerializeToString() for move in record.moves]
        assert pb.GameRecord.FromString(serialized) == record
    return record


@FUZZ
@given(
    rests=st.lists(st.sampled_from(TIMED_RESTS), min_size=1, max_size=4),
    clock=st.one_of(st.sampled_from(CLOCK_TEXTS), st.none()),
    stamp=st.one_of(st.sampled_from(STAMP_TEXTS), st.none()),
    stamp_first=st.booleans(),
)
def test_timed_moves_read_from_their_text_as_json_format_reads_them(
    rests: list[dict[str, Any]], clock: str | None, stamp: str | None, stamp_first: bool
) -> None:
    # A move's times at the end of its text are cut from it and its rest looked up
    # (fast_read._timed_tail_entry): only when the rest names no time and no variations.
    times = {"clock": clock, "timestamp": stamp}
    if stamp_first:
        times = {"timestamp": stamp, "clock": clock}
    moves = [{"seat": 1 + index % 2, **rest, **times} for index, rest in enumerate(rests)]
    read_twice(orjson.dumps({"moves": moves}))


def test_a_timed_move_whose_rest_is_remembered_is_read_from_its_text() -> None:
    fast_read._MOVE_ENTRIES.clear()
    fast_read._WHOLE_MOVE_ENTRIES.clear()
    cut: list[bytes | None] = []
    original = fast_read._timed_tail_entry

    def spy(tail: bytes) -> bytes | None:
        cut.append(original(tail))
        return cut[-1]

    moves = [
        {"seat": 1, **MOVE, "clock": f"{left}.25s", "timestamp": f"2026-11-29T20:15:{left:02d}Z"}
        for left in range(9)
    ]
    with mock.patch.object(fast_read, "_timed_tail_entry", spy):
        record = read_twice(orjson.dumps({"moves": moves}))
    assert record is not None
    assert [move.clock.seconds for move in record.moves] == list(range(9))
    assert [move.timestamp.seconds % 60 for move in record.moves] == list(range(9))
    # The first reading reads every move whole (their rest is then remembered); every reading
    # after it reads each move from its text.
    assert cut[:9] == [None] * 9 and len(cut) > 9 and None not in cut[9:]
