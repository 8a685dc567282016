"""Timestamps and Durations outside their types' ranges are refused where binary records are read.

protobuf's binary decoder takes any value, but a value out of range has no GRN, ProtoJSON or
seal text; before this check ``validate`` called such a ``.pb`` valid while ``convert`` could
not write it (issue 38's outside verifier).
"""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from google.protobuf.duration_pb2 import Duration
from google.protobuf.timestamp_pb2 import Timestamp
from hypothesis import given
from hypothesis import strategies as st

from gamerec.recorder.binary import parse_record, read_pbs, read_pbs_frames
from gamerec.recorder.codecs import Encoding, decode_record
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.well_known import check_times, duration_fault, timestamp_fault
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb

FIXTURE = Path(__file__).parents[2] / "fixtures" / "games" / "aronda-timeout.grn"
SECONDS = st.integers(min_value=-(10**13), max_value=10**13)
NANOS = st.integers(min_value=-(2 * 10**9), max_value=2 * 10**9)


def _record() -> pb.GameRecord:
    return decode_record(FIXTURE.read_bytes(), Encoding.GRN)


@given(SECONDS, NANOS)
def test_a_timestamp_is_refused_exactly_when_protobuf_has_no_text_for_it(
    seconds: int, nanos: int
) -> None:
    stamp = Timestamp(seconds=seconds, nanos=nanos)
    try:
        stamp.ToJsonString()
        has_text = True
    except ValueError:
        has_text = False
    assert (timestamp_fault(seconds, nanos) == "") == has_text


@given(SECONDS, NANOS)
def test_a_duration_is_refused_exactly_when_protobuf_has_no_text_for_it(
    seconds: int, nanos: int
) -> None:
    clock = Duration(seconds=seconds, nanos=nanos)
    try:
        clock.ToJsonString()
        has_text = True
    except ValueError:
        has_text = False
    assert (duration_fault(seconds, nanos) == "") == has_text


def test_a_start_time_out_of_range_is_named_with_its_field() -> None:
    record = _record()
    record.metadata.start_time.seconds = 10**15
    with pytest.raises(RecordMalformedError) as raised:
        parse_record(record.SerializeToString(), "bad.pb")
    assert "bad.pb: metadata.start_time: 1000000000000000 seconds is outside" in str(raised.value)


def test_a_clock_with_mixed_signs_names_the_ply() -> None:
    record = _record()
    record.moves[3].clock.seconds = 5
    record.moves[3].clock.nanos = -3
    with pytest.raises(RecordMalformedError) as raised:
        parse_record(record.SerializeToString(), "bad.pb")
    assert "moves[3].clock: seconds 5 and nanos -3 have different signs" in str(raised.value)


def test_a_timestamp_in_a_variation_is_checked_too() -> None:
    record = _record()
    alternative = pb.Move()
    alternative.CopyFrom(record.moves[1])
    alternative.timestamp.nanos = -1
    record.moves[1].variations.add().moves.append(alternative)
    with pytest.raises(RecordMalformedError) as raised:
        parse_record(record.SerializeToString(), "bad.pb")
    assert "moves[1].variations[0].moves[0].timestamp: nanos -1" in str(raised.value)


def test_a_bad_record_in_a_stream_is_placed_and_the_others_read() -> None:
    good = _record().SerializeToString()
    bad = _record()
    bad.moves[2].timestamp.seconds = 10**12
    frames = [good, bad.SerializeToString(), good]
    stream = b"".join(encode_varint(len(frame)) + frame for frame in frames)
    results = read_pbs_frames_safely(io.BytesIO(stream))
    assert results[0] == "ok" and results[2] == "ok"
    assert results[1].startswith("record 2 at byte ") and "moves[2].timestamp" in results[1]


def read_pbs_frames_safely(stream: io.BytesIO) -> list[str]:
    """Each frame of a stream read alone: ``ok`` or the error's place and reason."""
    answers: list[str] = []
    for frame in read_pbs_frames(stream, "s.pbs"):
        try:
            frame.parse()
            answers.append("ok")
        except RecordMalformedError as error:
            answers.append(f"{error.where}: {error.reason}")
    return answers


def test_in_range_records_with_clocks_still_read() -> None:
    record = _record()
    record.moves[0].clock.seconds = 315_576_000_000
    record.moves[1].clock.seconds = -315_576_000_000
    record.moves[2].timestamp.seconds = 253_402_300_799
    record.moves[2].timestamp.nanos = 999_999_999
    data = record.SerializeToString()
    assert parse_record(data, "a.pb") == record
    assert list(read_pbs(io.BytesIO(encode_varint(len(data)) + data), "a.pbs")) == [record]


def test_the_byte_scan_never_skips_a_record_with_a_move_time() -> None:
    record = _record()
    record.ClearField("moves")
    move = record.moves.add()
    move.timestamp.nanos = 1_000_000_000
    with pytest.raises(RecordMalformedError):
        check_times(record, record.SerializeToString())
