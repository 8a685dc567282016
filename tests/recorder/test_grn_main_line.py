"""The GRN reader hands a judge its main line serialized, exactly as the record would give it.

``grn.read_grn_main_line`` (and ``Frame.decode`` for a GRN frame) returns, with the record,
the bytes of its ``moves`` entries made from the bytes the reader built the moves of, so that
``gamerec validate`` does not serialize every text record again to read its moves
(``validator.moves.main_line_keys``). Those bytes must be exactly what
``record.SerializeToString()`` writes for the main line, whatever the record holds: every
kind of ply of the four games, seat commands, glyphs (written on the move, apart, as ``$n``),
comments, clocks, timestamps, seal entries and variations. Here over drawn records written
by the canonical writer, drawn texts that are not canonical, the fixtures and sealed games.
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.grn import parse_grn_record, read_grn_main_line
from gamerec.recorder.grn_lexer import split_records
from gamerec.recorder.grn_writer import format_grn
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits
from gamerec.recorder.raw import Frame
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.moves import main_line_keys
from tests.recorder.test_grn_fast_paths import collections, limits
from tests.sealing import GAME_FIXTURES, signed
from tests.strategies import records

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted(ROOT.glob("fixtures/**/*.grn"))


def assert_handed_over_exactly(data: bytes, limits: Limits = DEFAULT_LIMITS) -> int:
    """Read every record of ``data`` with its main line; return how many were read."""
    read = 0
    for raw in split_records(io.BytesIO(data), "in.grn", limits.max_record_bytes):
        try:
            record, main_line = read_grn_main_line(raw, "in.grn", limits)
        except RecordMalformedError:
            continue
        assert record == parse_grn_record(raw, "in.grn", limits)
        assert main_line == pb.GameRecord(moves=record.moves).SerializeToString()
        assert main_line_keys(record, main_line) == main_line_keys(record)
        read += 1
    return read


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_a_drawn_record_written_and_read_hands_over_its_main_line_exactly(
    record: pb.GameRecord,
) -> None:
    assert assert_handed_over_exactly(format_grn(record).encode()) == 1


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(collections(), limits())
def test_drawn_texts_hand_over_their_main_lines_exactly(data: bytes, drawn: Limits) -> None:
    # Plies numbered or not, glyphs on the move, apart or as $n, seat commands on the next
    # line, comments, variations and results: whatever reads hands over the same bytes.
    assert_handed_over_exactly(data, drawn)


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.name)
def test_every_grn_fixture_hands_over_its_main_line_exactly(path: Path) -> None:
    assert_handed_over_exactly(path.read_bytes())


@pytest.mark.parametrize("name", GAME_FIXTURES)
def test_a_sealed_game_hands_over_its_main_line_exactly(name: str) -> None:
    # Every ply carries its [%seal ...] entry (and a seat command): the entries go to the
    # record's seal, the moves stay plain.
    record = signed(name)
    text = format_grn(record)
    assert "[%seal " in text
    assert assert_handed_over_exactly(text.encode()) == 1


def test_annotated_and_plain_plies_mixed_hand_over_in_order() -> None:
    text = (
        '[Game "Oust"]\n\n1. g7 {[%seat 1]} 2. h7 {a note [%clk 0:01:00]} 3. a1! '
        "{[%seat 1]} 4. b2 (4. b3 {[%seat 2]} 5. c3) 5. c3 $2 6. d4 {[%seat 2]}\n"
    )
    [raw] = split_records(io.BytesIO(text.encode()), "in.grn", DEFAULT_LIMITS.max_record_bytes)
    record, main_line = read_grn_main_line(raw, "in.grn", DEFAULT_LIMITS)
    assert [move.comment for move in record.moves] == ["", "a note", "", "", "", ""]
    assert len(record.moves[3].variations) == 1
    assert main_line == pb.GameRecord(moves=record.moves).SerializeToString()


def test_a_frame_decodes_with_the_bytes_its_judge_reads_the_moves_from() -> None:
    text = '[Game "ONE"]\n\n1. c7 {[%seat 1]} 2. d4 {[%seat 2]}\n'
    record, main_line = Frame(text.encode(), "in.grn", encoding=Encoding.GRN).decode()
    assert main_line == pb.GameRecord(moves=record.moves).SerializeToString() != b""
    data = record.SerializeToString()
    assert Frame(data, "in.pbs", encoding=Encoding.PBS).decode() == (record, data)
    assert Frame(data, "in.pbs", encoding=Encoding.PBS).decode(main_line=False) == (record, None)
    json = b'{"rules": {"game": "GAME_ONE"}, "moves": [{"seat": 1, "one": {"path": [{}]}}]}'
    record, serialized = Frame(json, "in.jsonl", encoding=Encoding.JSONL).decode()
    assert serialized == record.SerializeToString() and len(record.moves) == 1
    assert Frame(json, "in.jsonl", encoding=Encoding.JSONL).decode(main_line=False)[1] is None
