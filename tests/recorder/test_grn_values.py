"""GRN value texts: escaping of tags and comments, clocks, timestamps."""

from __future__ import annotations

import re
from collections.abc import Callable

import pytest
from google.protobuf import duration_pb2, timestamp_pb2
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder.errors import EncodingError, RecordMalformedError
from gamerec.recorder.grn_values import (
    clock_bytes,
    escape_comment,
    escape_tag_value,
    format_clock,
    format_timestamp,
    parse_clock,
    parse_timestamp,
    timestamp_bytes,
    unescape,
)
from tests.strategies import durations, timestamps

CONTROL = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")


@given(st.text())
def test_any_tag_value_survives_escaping(text: str) -> None:
    assert unescape(escape_tag_value(text)) == text


@given(st.text())
def test_an_escaped_tag_value_has_no_raw_quote_or_control_character(text: str) -> None:
    escaped = escape_tag_value(text)
    assert not CONTROL.search(escaped)
    assert not re.search(r'(?<!\\)(\\\\)*"', escaped)


@given(st.text())
def test_any_comment_survives_escaping_and_the_readers_trimming(text: str) -> None:
    assert unescape(escape_comment(text).strip()) == text


@given(st.text())
def test_an_escaped_comment_has_no_raw_closing_brace_or_command(text: str) -> None:
    escaped = escape_comment(text)
    unescaped_specials = re.sub(r"\\.", "", escaped, flags=re.DOTALL)
    assert "}" not in unescaped_specials
    # Only the commands the reader gives a meaning to are escaped; "[%" before anything else
    # (other tools' commands, annotation facts) stays readable as written.
    assert re.search(r"\[%(?i:clk|ts|seat)(?![A-Za-z])", unescaped_specials) is None
    assert escaped == escaped.strip()


def test_comments_keep_newlines_and_tabs_readable() -> None:
    assert escape_comment("line one\nline\ttwo") == "line one\nline\ttwo"


def test_a_backslash_before_an_ordinary_character_stands_for_itself() -> None:
    assert unescape(r"C:\games\new") == r"C:\games\new"


def test_u_escapes_stand_only_for_control_and_space_characters() -> None:
    assert unescape(r"\u000a\u0020\u2028") == "\n \u2028"
    assert unescape(r"\u0041") == r"\u0041"


@pytest.mark.parametrize(
    ("text", "seconds", "nanos"),
    [
        ("0:10:00", 600, 0),
        ("1:02:03", 3723, 0),
        ("0:00:05.3", 5, 300_000_000),
        ("0:00:05.000000001", 5, 1),
        ("-0:00:05.25", -5, -250_000_000),
        ("100:0:0", 360_000, 0),
    ],
)
def test_clock_is_h_mm_ss_with_an_optional_fraction(text: str, seconds: int, nanos: int) -> None:
    clock = parse_clock(text)
    assert (clock.seconds, clock.nanos) == (seconds, nanos)


def test_clock_is_written_with_three_six_or_nine_fraction_digits() -> None:
    assert format_clock(duration_pb2.Duration(seconds=598, nanos=500_000_000)) == "0:09:58.500"
    assert format_clock(duration_pb2.Duration(seconds=1, nanos=1000)) == "0:00:01.000001"
    assert format_clock(duration_pb2.Duration(seconds=-3600)) == "-1:00:00"


@given(durations())
def test_any_duration_survives_its_clock_text(clock: duration_pb2.Duration) -> None:
    assert parse_clock(format_clock(clock)) == clock


@pytest.mark.parametrize(
    "text", ["10:00", "0:60:00", "0:00:60", "a:00:00", "0:00:00.", "0:00:0.1234567890"]
)
def test_a_clock_that_is_not_h_mm_ss_is_an_error(text: str) -> None:
    with pytest.raises(RecordMalformedError):
        parse_clock(text)


def test_an_invalid_duration_has_no_clock_text() -> None:
    with pytest.raises(EncodingError):
        format_clock(duration_pb2.Duration(seconds=5, nanos=-1))


def test_timestamp_reads_rfc_3339_and_keeps_utc() -> None:
    stamp = parse_timestamp("2026-11-29T20:15:03Z")
    assert (stamp.seconds, stamp.nanos) == (1_795_983_303, 0)
    with_offset = parse_timestamp("2026-11-29t21:15:03.5+01:00")
    assert (with_offset.seconds, with_offset.nanos) == (1_795_983_303, 500_000_000)
    assert format_timestamp(with_offset) == "2026-11-29T20:15:03.500Z"


@given(timestamps)
def test_any_timestamp_survives_its_text_which_is_protojsons(
    stamp: timestamp_pb2.Timestamp,
) -> None:
    text = format_timestamp(stamp)
    assert text == stamp.ToJsonString()
    assert parse_timestamp(text) == stamp


@pytest.mark.parametrize(
    "text",
    [
        "2026-11-29",
        "2026-02-30T00:00:00Z",
        "2026-11-29T24:00:00Z",
        "2026-11-29T23:59:60Z",
        "2026-11-29T20:15:03",
        "0001-01-01T00:00:00+00:01",
        "2026-11-29T20:15:03+25:00",
    ],
)
def test_a_time_that_is_not_rfc_3339_in_range_is_an_error(text: str) -> None:
    with pytest.raises(RecordMalformedError):
        parse_timestamp(text)


def test_a_timestamp_out_of_range_has_no_text() -> None:
    with pytest.raises(EncodingError):
        format_timestamp(timestamp_pb2.Timestamp(seconds=10**12))


def _bytes_or_refusal(read: Callable[[str], bytes], text: str) -> bytes | str:
    try:
        return read(text)
    except RecordMalformedError as error:
        return str(error)


digits = st.text(st.sampled_from("0123456789"), min_size=1, max_size=3)
clock_texts = st.one_of(
    st.builds(
        "{}{}:{}:{}{}".format,
        st.sampled_from(["", "", "-"]),
        st.one_of(digits, st.text(st.sampled_from("0123456789"), min_size=7, max_size=13)),
        digits,
        digits,
        st.sampled_from(["", ".5", ".250", ".000000001", ".1234567890", "."]),
    ),
    st.text(st.sampled_from("0123456789:.-x "), max_size=16),
)
time_texts = st.one_of(
    st.builds(
        "{:04d}-{:02d}-{:02d}{}{:02d}:{:02d}:{:02d}{}{}".format,
        st.one_of(st.integers(1969, 2030), st.sampled_from([0, 1, 9999])),
        st.one_of(st.integers(1, 12), st.sampled_from([0, 13])),
        st.one_of(st.integers(1, 28), st.sampled_from([0, 29, 30, 31, 32])),
        st.sampled_from(["T", "T", "T", "t", " "]),
        st.one_of(st.integers(0, 23), st.sampled_from([24, 29])),
        st.one_of(st.integers(0, 59), st.sampled_from([60, 99])),
        st.one_of(st.integers(0, 59), st.sampled_from([60, 99])),
        st.sampled_from(["", ".5", ".759", ".999999999", ".0000000001"]),
        st.sampled_from(["Z", "Z", "Z", "z", "+01:00", "-23:59", ""]),
    ),
    st.text(st.sampled_from("0123456789-T:.Z"), max_size=30),
)


@settings(max_examples=500)
@given(text=clock_texts)
def test_a_clocks_bytes_are_its_messages(text: str) -> None:
    expected = _bytes_or_refusal(lambda t: parse_clock(t).SerializeToString(), text)
    assert _bytes_or_refusal(clock_bytes, text) == expected


@settings(max_examples=500)
@given(text=time_texts)
def test_a_times_bytes_are_its_messages(text: str) -> None:
    expected = _bytes_or_refusal(lambda t: parse_timestamp(t).SerializeToString(), text)
    assert _bytes_or_refusal(timestamp_bytes, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        *("0:00:00", "0:60:00", "0:00:60", "-0:00:01", "0:59:59.999999999", "0:6:7"),
        *("9999999:59:59", "10000000:00:00", "87660000:00:00", "87660000:00:01"),
    ],
)
def test_a_clocks_bytes_at_the_edges_are_its_messages(text: str) -> None:
    expected = _bytes_or_refusal(lambda t: parse_clock(t).SerializeToString(), text)
    assert _bytes_or_refusal(clock_bytes, text) == expected


@pytest.mark.parametrize(
    "text",
    [
        *("2026-12-07T24:00:00Z", "2026-12-07T23:60:00Z", "2026-12-07T23:59:60Z"),
        *("2026-02-29T00:00:00Z", "2024-02-29T00:00:00Z", "2026-13-01T00:00:00Z"),
        *("0000-01-01T00:00:00Z", "0001-01-01T00:00:00Z", "9999-12-31T23:59:59.999999999Z"),
        *("1969-12-31T23:59:59.5Z", "2026-12-07T14:19:36.1234567890Z", "2026-12-07T14:19Z"),
    ],
)
def test_a_times_bytes_at_the_edges_are_its_messages(text: str) -> None:
    expected = _bytes_or_refusal(lambda t: parse_timestamp(t).SerializeToString(), text)
    assert _bytes_or_refusal(timestamp_bytes, text) == expected
