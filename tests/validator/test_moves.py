"""Reading a record's main line: the bytes of each move, found in one parse of the record."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from gamerec.validator.identity import identify
from gamerec.validator.moves import (
    MAX_NOTED_LONG_KEYS,
    MAX_REMEMBERED_KEY_BYTES,
    MAX_REMEMBERED_LONG_KEY_BYTES,
    MAX_REMEMBERED_MOVES,
    MoveReader,
    main_line_keys,
    reader_for,
)
from tests.service.conftest import GAMES
from tests.strategies import records


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(record=records(), unknown=st.binary(max_size=12))
def test_the_main_line_keys_are_each_moves_own_bytes(record: pb.GameRecord, unknown: bytes) -> None:
    # Unknown fields (here: field 1000 as bytes) must not disturb the view.
    data = record.SerializeToString() + b"\xc2\x3e" + bytes([len(unknown)]) + unknown
    parsed = pb.GameRecord.FromString(data)
    assert main_line_keys(parsed) == [move.SerializeToString() for move in parsed.moves]
    assert [pb.Move.FromString(key) for key in main_line_keys(parsed)] == list(parsed.moves)


def test_reading_the_main_line_gives_what_reading_move_by_move_gives() -> None:
    for path in GAMES:
        (record,) = read_records(str(path))
        reader = reader_for(identify(record))
        assert reader.main_line(record) == reader.engine_moves(record.moves)
        assert len(reader.main_line(record).moves) == len(record.moves)


def test_a_flood_of_distinct_moves_stays_within_the_bound_and_common_moves_stay_remembered() -> (
    None
):
    record = next(generate("Aronda", {}, 1, seed=1))
    reader = MoveReader(identify(record))
    common = main_line_keys(record)
    assert reader.engine_moves_of_keys(common).problem is None
    first = record.moves[0]
    sizes = []
    for start in range(0, 2_000_000, 100_000):  # two million distinct moves (distinct seats)
        flood = []
        for seat in range(start + 10, start + 100_010):
            move = pb.Move()
            move.CopyFrom(first)
            move.seat = seat
            # Each twice: a move this long is remembered the second time it is seen.
            flood += [move.SerializeToString()] * 2
        read = reader.engine_moves_of_keys(flood)
        assert read.problem is None and read.seats[-1] == start + 100_009
        sizes.append(len(reader._move_by_key))
        assert len(reader._seat_by_key) == sizes[-1]
    assert max(sizes) <= MAX_REMEMBERED_MOVES
    assert sizes[-1] >= MAX_REMEMBERED_MOVES // 2  # forgotten by halves, never all at once
    # The cache is big enough that one game's archive is not translated twice.
    assert MAX_REMEMBERED_MOVES >= 16_404 + 1


def _oust_turn(seat: int, *cells: tuple[int, int]) -> bytes:
    """The serialized record move of an Oust turn placing on ``cells`` (column, row)."""
    move = pb.Move(seat=seat)
    for column, row in cells:
        move.oust.placements.add(column=column, row=row)
    return move.SerializeToString()


def test_short_moves_are_remembered_at_once_long_ones_when_seen_again_longer_ones_never() -> None:
    reader = MoveReader(identify(next(generate("Oust", {}, 1, seed=1))))
    short = _oust_turn(1, (3, 4))
    long = _oust_turn(1, (3, 4), (5, 6), (7, 8))
    longer = _oust_turn(1, *[(column, 2) for column in range(1, 6)])
    assert len(short) <= MAX_REMEMBERED_KEY_BYTES < len(long) <= MAX_REMEMBERED_LONG_KEY_BYTES
    assert len(longer) > MAX_REMEMBERED_LONG_KEY_BYTES
    first = reader.engine_moves_of_keys([short, long, longer])
    assert short in reader._move_by_key
    assert long not in reader._move_by_key and longer not in reader._move_by_key
    second = reader.engine_moves_of_keys([short, long, longer])
    assert long in reader._move_by_key and longer not in reader._move_by_key
    third = reader.engine_moves_of_keys([short, long, longer])
    assert longer not in reader._move_by_key
    # Remembered or not, every reading gives the same moves and seats.
    assert first == second == third
    assert first.moves == [reader.engine_move(pb.Move.FromString(key)) for key in (short, long)] + [
        reader.engine_move(pb.Move.FromString(longer))
    ]


def test_a_flood_of_distinct_long_moves_keeps_the_note_and_the_table_bounded() -> None:
    reader = MoveReader(identify(next(generate("Oust", {}, 1, seed=1))))
    note_bytes = 0
    for start in range(0, 1_000_000, 100_000):  # a million distinct three-cell turns
        flood = [
            _oust_turn(seat, (3, 4), (5, 6), (7, 8)) for seat in range(start + 1, start + 100_001)
        ]
        before = len(reader._move_by_key)
        read = reader.engine_moves_of_keys(flood)
        assert read.problem is None and read.seats[-1] == start + 100_000
        note_bytes = note_bytes or reader._long_sightings.size
        assert reader._long_sightings.size == note_bytes == 128 * 1024
        assert reader._long_sightings.notes <= MAX_NOTED_LONG_KEYS
        assert len(reader._move_by_key) <= MAX_REMEMBERED_MOVES
        if start == 0:
            # Each was seen once: only a collision in the note (at most 6% of its bits are
            # set) remembers one, so few of them take room in the table.
            assert len(reader._move_by_key) - before < 7_000


def test_a_remembered_falsy_engine_move_is_read_again_as_itself() -> None:
    # ONE's resignation is the empty tuple, the one falsy engine move: a main line holding it
    # takes the loop over the moves not remembered, which must leave it as it is.
    (record,) = generate("ONE", {"Players": "2"}, 1, 7)
    resign = pb.Move(seat=1, resign=pb.Resign())
    del record.moves[4:]
    record.moves.append(resign)
    reader = reader_for(identify(record))
    first = reader.main_line(record)
    again = reader.main_line(record)  # every move remembered now, the last one falsy
    assert first == again
    assert again.problem is None and again.moves[-1] == () and again.seats[-1] == 1
    assert all(again.moves[:-1]) and again.moves == reader.engine_moves(record.moves).moves


def _annotated(record: pb.GameRecord) -> pb.GameRecord:
    """The record with a clock, a timestamp and a comment on every move (as live play has)."""
    copy = pb.GameRecord()
    copy.CopyFrom(record)
    for ply, move in enumerate(copy.moves):
        move.clock.seconds, move.clock.nanos = 600 - ply, 987_654_321
        move.timestamp.seconds, move.timestamp.nanos = 1_796_000_000 + ply, 106_106_106
        move.comment = "jb"
    return copy


def test_annotated_moves_read_as_their_plain_moves_and_are_remembered_as_those() -> None:
    for path in GAMES:
        (record,) = read_records(str(path))
        identity = identify(record)
        reader = MoveReader(identity)
        annotated = _annotated(record)
        assert reader.main_line(annotated) == MoveReader(identity).main_line(record)
        assert reader._move_by_key  # the short moves at least
        for key in reader._move_by_key:
            move = pb.Move.FromString(key)
            assert not move.HasField("clock") and not move.comment, path
        # Read again, the annotated line finds every move it can remember by its action.
        assert reader.main_line(annotated) == reader.main_line(record)


def test_an_unreadable_annotated_move_is_named_at_its_ply_as_the_plain_one() -> None:
    record = next(generate("ONE", {"Players": "2"}, 1, seed=3))
    record.moves[4].ClearField("one")
    record.moves[4].aronda.SetInParent()  # a move of another game
    plain = MoveReader(identify(record)).main_line(record)
    read = MoveReader(identify(record)).main_line(_annotated(record))
    assert plain.problem is not None and read.problem is not None
    assert (
        (len(read.moves), read.problem.code)
        == (len(plain.moves), plain.problem.code)
        == (
            4,
            "MOVE_OF_OTHER_GAME",
        )
    )
    assert str(read.problem) == str(plain.problem)


def test_short_annotated_moves_are_remembered_by_their_own_bytes_too() -> None:
    record = next(generate("ONE", {"Players": "2"}, 1, seed=5))
    for move in record.moves:
        move.glyph = pb.GLYPH_GOOD  # every move annotated: the line is read by its actions
    reader = MoveReader(identify(record))
    keys = main_line_keys(record)
    first = reader.main_line(record)
    assert first.problem is None
    assert reader.main_line(record) == first  # a long move is remembered once seen again
    short = [key for key in keys if len(key) <= MAX_REMEMBERED_LONG_KEY_BYTES]
    assert short and all(key in reader._move_by_key for key in short)
    assert not [key for key in reader._move_by_key if len(key) > MAX_REMEMBERED_LONG_KEY_BYTES]
