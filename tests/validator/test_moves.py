"""Reading a record's main line: the bytes of each move, found in one parse of the record."""

from __future__ import annotations

from google.protobuf import descriptor_pb2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from gamerec.validator.identity import identify
from gamerec.validator.moves import (
    MAIN_LINE_VIEW_FILE,
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
            flood.append(move.SerializeToString())
        read = reader.engine_moves_of_keys(flood)
        assert read.problem is None and read.seats[-1] == start + 100_009
        sizes.append(len(reader._move_by_key))
        assert len(reader._seat_by_key) == sizes[-1]
    assert max(sizes) <= MAX_REMEMBERED_MOVES
    assert sizes[-1] >= MAX_REMEMBERED_MOVES // 2  # forgotten by halves, never all at once
    # The cache is big enough that one game's archive is not translated twice.
    assert MAX_REMEMBERED_MOVES >= 16_404 + 1


def test_the_main_line_views_file_is_the_descriptor_it_names() -> None:
    """The bytes kept in moves.py are the FileDescriptorProto that descriptor_pb2 builds."""
    field = descriptor_pb2.FieldDescriptorProto
    file = descriptor_pb2.FileDescriptorProto(
        name="gamerec_internal/main_line_view.proto", package="gamerec_internal", syntax="proto3"
    )
    file.message_type.add(name="MainLineView").field.add(
        name="moves",
        number=pb.GameRecord.DESCRIPTOR.fields_by_name["moves"].number,
        type=field.TYPE_BYTES,
        label=field.LABEL_REPEATED,
    )
    assert descriptor_pb2.FileDescriptorProto.FromString(MAIN_LINE_VIEW_FILE) == file
