"""The size shortcut of check_record gives exactly the answer of the full walk.

A binary record's bytes bound what it can hold (limits.within_by_size): no text longer
than the bytes, no more than half as many moves and variations as bytes, and no variation
unless the first byte of the variations field's tag occurs and a main-line move has a
variations field. These tests hold the shortcut to
the plain walk: same error (limit, value, message) or none, on any record and any limits.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.binary import parse_record
from gamerec.recorder.errors import LimitExceededError
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits, check_record, within_by_size
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb
from tests.strategies import records

Outcome = tuple[str, int, str] | None


def outcome(record: pb.GameRecord, limits: Limits, serialized: bytes | None = None) -> Outcome:
    """What check_record says: None, or the error's limit, value and message."""
    try:
        check_record(record, limits, source="x", where="record 1", serialized=serialized)
    except LimitExceededError as error:
        assert error.value is not None
        return error.limit, error.value, str(error)
    return None


@st.composite
def limits_near(draw: st.DrawFn, size: int) -> Limits:
    """Limits that are small, near the record's size in bytes, or the defaults."""

    def near(default: int) -> int:
        return draw(
            st.one_of(
                st.integers(0, 8),
                st.integers(max(0, size // 2 - 2), size // 2 + 2),
                st.integers(max(0, size - 2), size + 2),
                st.just(default),
            )
        )

    return Limits(
        max_moves=near(DEFAULT_LIMITS.max_moves),
        max_variation_depth=draw(st.integers(0, 3)),
        max_tag_chars=near(DEFAULT_LIMITS.max_tag_chars),
        max_comment_chars=near(DEFAULT_LIMITS.max_comment_chars),
    )


@settings(max_examples=150, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_shortcut_answers_as_the_full_walk_on_any_record_and_limits(
    data: st.DataObject,
) -> None:
    record = data.draw(records(depth=2))
    serialized = record.SerializeToString()
    limits = data.draw(limits_near(len(serialized)))
    plain = outcome(record, limits)
    assert outcome(record, limits, serialized) == plain
    if within_by_size(serialized, limits):
        assert plain is None


@settings(max_examples=100, suppress_health_check=[HealthCheck.too_slow])
@given(record=records(depth=2))
def test_parsing_checks_as_the_full_walk_does(record: pb.GameRecord) -> None:
    serialized = record.SerializeToString()
    tight = Limits(max_moves=3, max_variation_depth=1, max_tag_chars=5, max_comment_chars=5)
    for limits in (DEFAULT_LIMITS, tight):
        try:
            parsed: Outcome = None
            parse_record(serialized, "x", "record 1", limits=limits)
        except LimitExceededError as error:
            assert error.value is not None
            parsed = (error.limit, error.value, str(error))
        assert parsed == outcome(pb.GameRecord.FromString(serialized), limits)


def test_variations_within_the_depth_skip_the_walk_and_deeper_ones_do_not() -> None:
    plain = pb.GameRecord(moves=[pb.Move(seat=1, comment="j" * 0x6A)] * 3)
    assert b"\x6a" in plain.SerializeToString()  # the byte of a variations tag, in a comment
    assert within_by_size(plain.SerializeToString(), Limits(max_variation_depth=0))
    quiet = pb.GameRecord(moves=[pb.Move(seat=1, comment="quiet")] * 3)
    assert within_by_size(quiet.SerializeToString(), Limits(max_variation_depth=0))
    inner = pb.Variation(moves=[pb.Move(seat=2, variations=[pb.Variation()])])
    varied = pb.GameRecord(moves=[pb.Move(seat=1), pb.Move(variations=[pb.Variation(), inner])])
    data = varied.SerializeToString()
    assert within_by_size(data, DEFAULT_LIMITS)
    assert within_by_size(data, Limits(max_variation_depth=2))
    assert not within_by_size(data, Limits(max_variation_depth=1))  # nested 2 deep
    assert outcome(varied, Limits(max_variation_depth=1), data) == outcome(
        varied, Limits(max_variation_depth=1)
    )


def padded_variation_record(depth: int) -> bytes:
    """A record whose variations fields use a padded tag (0xea 0x80 0x00), nested ``depth``."""
    move = b""
    for _ in range(depth):
        variation = b"\x0a" + encode_varint(len(move)) + move  # Variation.moves[0]
        move = b"\xea\x80\x00" + encode_varint(len(variation)) + variation
    return b"\x2a" + encode_varint(len(move)) + move  # GameRecord.moves[0]


def test_a_padded_variations_tag_is_still_seen() -> None:
    data = padded_variation_record(3)
    record = pb.GameRecord.FromString(data)
    assert len(record.moves[0].variations) == 1  # the decoder reads the padded tag
    assert b"\x6a" not in data
    assert within_by_size(data, DEFAULT_LIMITS)  # nested 3 deep, as the view reads them
    assert not within_by_size(data, Limits(max_variation_depth=2))
    shallow = Limits(max_variation_depth=2)
    try:
        parse_record(data, "x", limits=shallow)
    except LimitExceededError as error:
        assert error.limit == "variation-depth"
        assert error.value == 3
    else:
        raise AssertionError("a variation nested 3 deep passed a limit of 2")


def test_a_group_encoded_field_13_is_not_a_variation() -> None:
    # Field 13 with wire type 3 (start group 0x6b ... end group 0x6c) holding a Variation:
    # the decoder keeps it as an unknown field, so the shortcut may ignore such bytes.
    move = b"\x08\x01\x6b\x0a\x02\x08\x02\x6c"
    record = pb.GameRecord.FromString(b"\x2a" + encode_varint(len(move)) + move)
    assert len(record.moves) == 1
    assert len(record.moves[0].variations) == 0


def test_the_size_bounds_are_tight_where_a_record_reaches_them() -> None:
    # A record holding nothing but empty moves: 2 bytes each, the most moves its size allows.
    record = pb.GameRecord(moves=[pb.Move()] * 10)
    data = record.SerializeToString()
    assert len(data) == 20
    assert within_by_size(data, Limits(max_moves=10))
    assert outcome(record, Limits(max_moves=10)) is None
    assert not within_by_size(data, Limits(max_moves=9))
    assert outcome(record, Limits(max_moves=9), data) == outcome(record, Limits(max_moves=9))
    # A comment of n one-byte characters in a record of n + 2 bytes.
    commented = pb.GameRecord(comment="x" * 30)
    data = commented.SerializeToString()
    assert len(data) == 32
    for maximum in range(28, 34):
        limits = Limits(max_comment_chars=maximum)
        assert outcome(commented, limits, data) == outcome(commented, limits)
