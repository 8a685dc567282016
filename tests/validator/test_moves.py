"""Reading a record's main line: the bytes of each move, found in one parse of the record."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.identity import identify
from gamerec.validator.moves import main_line_keys, reader_for
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
