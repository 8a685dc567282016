"""Every encoding gives back the record it was given: fixtures and generated records."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings

from gamerec.recorder.codecs import (
    Encoding,
    decode_record,
    encode_record,
    read_records,
    write_records,
)
from gamerec.recorder.grn import MAX_VARIATION_DEPTH
from gamerec.v1 import record_pb2 as pb
from tests.strategies import GAMES, record_lists, records

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"
GRN_FIXTURES = sorted(VALID.glob("*.grn"))
ROUND_TRIP = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def through(record: pb.GameRecord, encoding: Encoding) -> pb.GameRecord:
    """Encode a record and decode it again."""
    return decode_record(encode_record(record, encoding), encoding)


def many_through(records_: list[pb.GameRecord], encoding: Encoding) -> list[pb.GameRecord]:
    """Write records to one stream of an encoding and read them back."""
    buffer = io.BytesIO()
    write_records(records_, buffer, encoding)
    return list(read_records(io.BytesIO(buffer.getvalue()), encoding, allow_empty=True))


# -- fixtures ----------------------------------------------------------------------------------


@pytest.mark.parametrize("grn", GRN_FIXTURES, ids=lambda path: path.stem)
def test_fixture_encodings_hold_the_same_record(grn: Path) -> None:
    (from_grn,) = read_records(grn)
    (from_pb,) = read_records(grn.with_suffix(".pb"))
    (from_json,) = read_records(grn.with_suffix(".json"))
    assert from_grn == from_pb == from_json


def test_fixture_collections_hold_every_record_in_file_name_order() -> None:
    expected = [next(read_records(path)) for path in GRN_FIXTURES]
    assert list(read_records(VALID / "collection.pbs")) == expected
    assert list(read_records(VALID / "collection.jsonl")) == expected


def test_fixtures_cover_every_game() -> None:
    games = {next(read_records(path)).rules.game for path in GRN_FIXTURES}
    assert games == set(GAMES)


@pytest.mark.parametrize("grn", GRN_FIXTURES, ids=lambda path: path.stem)
@pytest.mark.parametrize("encoding", [Encoding.GRN, Encoding.JSON, Encoding.PBS, Encoding.JSONL])
def test_fixture_pb_survives_every_encoding(grn: Path, encoding: Encoding) -> None:
    (record,) = read_records(grn.with_suffix(".pb"))
    assert through(record, encoding) == record


@pytest.mark.parametrize("grn", GRN_FIXTURES, ids=lambda path: path.stem)
def test_fixture_grn_to_binary_to_grn_is_the_canonical_text(grn: Path) -> None:
    (record,) = read_records(grn)
    canonical = encode_record(record, Encoding.GRN)
    assert encode_record(through(record, Encoding.PB), Encoding.GRN) == canonical
    assert encode_record(decode_record(canonical, Encoding.GRN), Encoding.GRN) == canonical


# -- generated records of all four games ---------------------------------------------------------


@ROUND_TRIP
@given(records())
def test_pb_to_grn_to_pb_gives_an_equal_record(record: pb.GameRecord) -> None:
    binary = decode_record(encode_record(record, Encoding.PB), Encoding.PB)
    assert through(binary, Encoding.GRN) == record


@ROUND_TRIP
@given(records())
def test_pb_to_json_to_pb_gives_an_equal_record(record: pb.GameRecord) -> None:
    assert through(record, Encoding.JSON) == record


@ROUND_TRIP
@given(record_lists)
def test_pbs_to_jsonl_to_pbs_gives_equal_records(records_: list[pb.GameRecord]) -> None:
    from_pbs = many_through(records_, Encoding.PBS)
    assert many_through(from_pbs, Encoding.JSONL) == records_


@ROUND_TRIP
@given(record_lists)
def test_several_records_share_one_grn_file(records_: list[pb.GameRecord]) -> None:
    assert many_through(records_, Encoding.GRN) == records_


@ROUND_TRIP
@given(records())
def test_grn_to_binary_to_grn_gives_the_canonical_text(record: pb.GameRecord) -> None:
    canonical = encode_record(record, Encoding.GRN)
    again = decode_record(encode_record(decode_record(canonical), Encoding.PB), Encoding.PB)
    assert encode_record(again, Encoding.GRN) == canonical


def test_the_deepest_variations_grn_reads_survive_binary_and_json() -> None:
    depth = MAX_VARIATION_DEPTH
    text = '[Game "ONE"]\n\n1. c7 ' + "(1. c8xc9 {[%clk 0:00:01]} " * depth + ")" * depth
    record = decode_record(text.encode(), Encoding.GRN)
    assert through(record, Encoding.PB) == record
    assert through(record, Encoding.JSON) == record
