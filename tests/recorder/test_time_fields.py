"""A Duration's and a Timestamp's bytes written without a message are the message's own.

``recorder.time_fields.time_bytes`` writes the two varint fields that GRN's and ProtoJSON's
fast paths append to a move for its clock and its timestamp; they must be exactly what
protobuf writes, for every value a field can hold (negative ones as ten bytes).
``writers_times_fields`` writes a writer's clock and time with fewer steps: it must give the
bytes of the general composition for any clock, any day (including none) and any fraction,
and its tables stay bounded under a flood of distinct values.
"""

from __future__ import annotations

import re

from google.protobuf import duration_pb2, timestamp_pb2
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder import time_fields
from gamerec.recorder.time_fields import (
    WRITERS_TIME_BY_MINUTE_TEXT,
    WRITERS_TIME_TEXT,
    clock_field,
    fraction_nanos,
    time_bytes,
    time_bytes_of,
    timestamp_field,
    utc_of_parts,
    writers_times_fields,
)
from gamerec.recorder.wire import encode_varint, field_body
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


CLOCK_SECONDS = st.one_of(
    st.integers(0, 300),
    st.integers(0, 99_999_999_999),  # ProtoJSON's writers' clocks: up to 11 digits
    st.sampled_from([0, 1, 127, 128, 16_383, 16_384, 2**21 - 1, 2**21, 2**28 - 1, 2**28]),
    st.sampled_from([2**35 - 1, 2**35, 2**35 + 1, 1_796_000_000]),
)
FRACTIONS = st.one_of(
    st.none(), st.from_regex(r"[0-9]{1,9}", fullmatch=True), st.sampled_from(["0", "000000000"])
)
#: Days in every year writers may write (0001 to 9999: negative times, 1970's first second,
#: the years past 2**35 seconds), days that do not exist, and the days around 1970.
DAYS = st.one_of(
    st.builds(
        "{:04d}-{:02d}-{:02d}".format,
        st.integers(1, 9999),
        st.integers(1, 12),
        st.integers(1, 31),
    ),
    st.sampled_from(["1970-01-01", "1969-12-31", "3058-08-01", "3059-01-01", "2026-02-29"]),
)


@settings(max_examples=3000, deadline=None)
@given(
    st.tuples(CLOCK_SECONDS, FRACTIONS),
    DAYS,
    st.tuples(st.integers(0, 23), st.integers(0, 59), st.integers(0, 59)),
    FRACTIONS,
)
def test_a_writers_times_fields_are_the_general_compositions(
    clock_parts: tuple[int, str | None],
    day: str,
    time_of_day: tuple[int, int, int],
    fraction: str | None,
) -> None:
    clock, clock_fraction = clock_parts
    hours, minutes, seconds = time_of_day
    parts = (day, f"{hours:02d}", f"{minutes:02d}", f"{seconds:02d}", fraction)
    stamp = utc_of_parts(*parts)
    minute = f"{day}T{hours:02d}:{minutes:02d}"
    # Twice: the second call finds the minute and the fractions remembered.
    for _ in range(2):
        fields = writers_times_fields(clock, clock_fraction, minute, f"{seconds:02d}", fraction)
        if stamp is None:
            assert fields is None
            continue
        expected = clock_field(time_bytes(clock, fraction_nanos(clock_fraction)))
        assert fields == expected + timestamp_field(time_bytes(*stamp))
        move = pb.Move.FromString(fields)
        assert (move.clock.seconds, move.clock.nanos) == (clock, fraction_nanos(clock_fraction))
        assert (move.timestamp.seconds, move.timestamp.nanos) == stamp


def test_the_tables_of_writers_times_stay_bounded_under_a_flood() -> None:
    for count in range(3 * time_fields.NANOS_FIELDS_REMEMBERED):
        fraction = f"{count:09d}"
        minute = f"{2000 + count // 1440:04d}-01-01T{count // 60 % 24:02d}:{count % 60:02d}"
        fields = writers_times_fields(count, fraction, minute, "00", fraction)
        assert fields is not None
        assert len(time_fields._NANOS_FIELDS) <= time_fields.NANOS_FIELDS_REMEMBERED
        assert len(time_fields._MINUTE_STARTS) <= time_fields.MINUTE_STARTS_REMEMBERED
    # Emptied when full, the nanos table still knows a time without a fraction.
    assert time_fields._NANOS_FIELDS[None] == b""


@settings(max_examples=300, deadline=None)
@given(
    st.sampled_from([b"\x2a", b"\x5a", b"\x62"]),
    st.one_of(st.binary(max_size=400), st.sampled_from([0, 127, 128, 129, 256]).map(bytes)),
)
def test_a_fields_body_is_what_follows_its_key_and_length(key: bytes, body: bytes) -> None:
    # The fast paths put times after a ply's or a move's own fields by cutting its body out:
    # a length of one byte or of more.
    assert field_body(key + encode_varint(len(body)) + body) == body


@settings(max_examples=2000, deadline=None)
@given(SECONDS, FRACTIONS)
def test_a_times_bytes_of_digits_are_those_of_its_nanoseconds(
    seconds: int, fraction: str | None
) -> None:
    # The GRN and ProtoJSON clocks' path: any int64 (negative, 0, past 2**35), any fraction.
    for _ in range(2):  # the second time, the fraction's field is remembered
        assert time_bytes_of(seconds, fraction) == time_bytes(seconds, fraction_nanos(fraction))


@settings(max_examples=500, deadline=None)
@given(
    st.one_of(
        st.from_regex(WRITERS_TIME_TEXT, fullmatch=True),
        st.from_regex(r"[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]{1,10})?Z?"),
    )
)
def test_the_time_grouped_by_minute_reads_the_writers_times(text: str) -> None:
    # The run of timed plies reads a time by its minute: the same texts, the same parts.
    by_minute = re.fullmatch(WRITERS_TIME_BY_MINUTE_TEXT, text)
    by_parts = re.fullmatch(WRITERS_TIME_TEXT, text)
    assert (by_minute is None) == (by_parts is None)
    if by_minute is not None and by_parts is not None:
        day, hours, minutes, seconds, fraction = by_parts.groups()
        assert by_minute.groups() == (f"{day}T{hours}:{minutes}", seconds, fraction)
