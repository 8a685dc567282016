"""A Duration's and a Timestamp's bytes written without a message are the message's own.

``recorder.time_fields.time_bytes`` writes the two varint fields that GRN's and ProtoJSON's
fast paths append to a move for its clock and its timestamp; they must be exactly what
protobuf writes, for every value a field can hold (negative ones as ten bytes).
"""

from __future__ import annotations

from google.protobuf import duration_pb2, timestamp_pb2
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder.time_fields import clock_field, time_bytes, timestamp_field
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb

SECONDS = st.one_of(
    st.integers(-200, 200),
    st.integers(-(2**63), 2**63 - 1),
    st.sampled_from([0, 127, 128, 16_383, 16_384, 1_796_000_000, 315_576_000_000]),
)
NANOS = st.one_of(
    st.integers(-200, 200),
    st.integers(-(2**31), 2**31 - 1),
    st.sampled_from([0, 127, 128, 250_000_000, 999_999_999]),
)


@settings(max_examples=2000, deadline=None)
@given(SECONDS, NANOS)
def test_a_times_bytes_are_protobufs(seconds: int, nanos: int) -> None:
    body = time_bytes(seconds, nanos)
    assert body == duration_pb2.Duration(seconds=seconds, nanos=nanos).SerializeToString()
    assert body == timestamp_pb2.Timestamp(seconds=seconds, nanos=nanos).SerializeToString()


@settings(max_examples=300, deadline=None)
@given(SECONDS, NANOS)
def test_a_moves_time_fields_are_protobufs(seconds: int, nanos: int) -> None:
    move = pb.Move()
    move.clock.seconds, move.clock.nanos = seconds, nanos
    assert clock_field(time_bytes(seconds, nanos)) == move.SerializeToString()
    move.ClearField("clock")
    move.timestamp.seconds, move.timestamp.nanos = seconds, nanos
    assert timestamp_field(time_bytes(seconds, nanos)) == move.SerializeToString()


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=300))
def test_a_field_of_any_bytes_is_a_length_delimited_field(body: bytes) -> None:
    assert clock_field(body) == b"\x5a" + encode_varint(len(body)) + body
    assert timestamp_field(body) == b"\x62" + encode_varint(len(body)) + body
