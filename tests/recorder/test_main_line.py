"""The views of a record's main line read what the parsed record holds, from its bytes alone."""

from __future__ import annotations

from collections import Counter
from typing import Final, Literal

import pytest
from google.protobuf import descriptor_pb2
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.main_line import (
    ACTION_LINE_FILE,
    MAIN_LINE_FIELDS_FILE,
    MAIN_LINE_VIEW_FILE,
    MAX_FACTS_BYTES,
    action_of,
    main_line_actions,
    main_line_moves,
    move_facts,
)
from gamerec.recorder.well_known import check_times
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb
from tests.strategies import records

FIELD = descriptor_pb2.FieldDescriptorProto
Annotation = Literal["comment", "glyph", "clock", "timestamp", "variations"]
#: Move's fields that are no part of what was played.
ANNOTATIONS: Final[tuple[Annotation, ...]] = (
    "comment",
    "glyph",
    "clock",
    "timestamp",
    "variations",
)


def _file(name: str, *dependency: str) -> descriptor_pb2.FileDescriptorProto:
    return descriptor_pb2.FileDescriptorProto(
        name=f"gamerec_internal/{name}.proto",
        package="gamerec_internal",
        syntax="proto3",
        dependency=dependency,
    )


def _add(message: descriptor_pb2.DescriptorProto, name: str, number: int, kind: int) -> None:
    message.field.add(name=name, number=number, type=kind, label=FIELD.LABEL_REPEATED)


def _single(message: descriptor_pb2.DescriptorProto, name: str, number: int, kind: str) -> None:
    message.field.add(
        name=name,
        number=number,
        type=FIELD.TYPE_MESSAGE,
        type_name=f".gamerec_internal.{kind}",
        label=FIELD.LABEL_OPTIONAL,
    )


def _number(message: type[pb.Move] | type[pb.GameRecord], field: str) -> int:
    number: int = message.DESCRIPTOR.fields_by_name[field].number
    return number


def test_the_kept_files_are_the_descriptors_descriptor_pb2_builds() -> None:
    view = _file("main_line_view")
    _add(view.message_type.add(name="MainLineView"), "moves", 5, FIELD.TYPE_BYTES)
    assert descriptor_pb2.FileDescriptorProto.FromString(MAIN_LINE_VIEW_FILE) == view

    fields = _file("main_line_fields")
    times = fields.message_type.add(name="TimeValues")
    _add(times, "seconds", 1, FIELD.TYPE_INT64)
    _add(times, "nanos", 2, FIELD.TYPE_INT32)
    move = fields.message_type.add(name="MoveFields")
    _single(move, "clock", _number(pb.Move, "clock"), "TimeValues")
    _single(move, "timestamp", _number(pb.Move, "timestamp"), "TimeValues")
    _add(move, "variations", _number(pb.Move, "variations"), FIELD.TYPE_BYTES)
    _single(fields.message_type.add(name="MainLineFields"), "moves", 5, "MoveFields")
    _single(fields.message_type.add(name="VariationFields"), "moves", 1, "MoveFields")
    assert descriptor_pb2.FileDescriptorProto.FromString(MAIN_LINE_FIELDS_FILE) == fields

    actions = _file("action_line", "gamerec/v1/record.proto")
    action = actions.message_type.add()
    pb.Move.DESCRIPTOR.CopyToProto(action)
    action.name = "ActionMove"
    kept = [field for field in action.field if field.name not in ANNOTATIONS]
    assert [field.number for field in kept] == list(range(1, 9))  # seat and the actions
    del action.field[:]
    action.field.extend(kept)
    line = actions.message_type.add(name="ActionLine")
    line.field.add(
        name="moves",
        number=_number(pb.GameRecord, "moves"),
        type=FIELD.TYPE_MESSAGE,
        type_name=".gamerec_internal.ActionMove",
        label=FIELD.LABEL_REPEATED,
    )
    assert descriptor_pb2.FileDescriptorProto.FromString(ACTION_LINE_FILE) == actions


def _with_unknown_field(record: pb.GameRecord, unknown: bytes) -> bytes:
    """The record's bytes with field 1000 (bytes) after them: the views must not mind it."""
    return record.SerializeToString() + b"\xc2\x3e" + bytes([len(unknown)]) + unknown


def _action(move: pb.Move) -> pb.Move:
    """The move without its annotations."""
    plain = pb.Move()
    plain.CopyFrom(move)
    for name in ANNOTATIONS:
        plain.ClearField(name)
    return plain


@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
@given(record=records(), unknown=st.binary(max_size=12))
def test_the_views_read_what_the_parsed_record_holds(record: pb.GameRecord, unknown: bytes) -> None:
    data = _with_unknown_field(record, unknown)
    parsed = pb.GameRecord.FromString(data)
    moves = list(parsed.moves)
    assert main_line_moves(data) == [move.SerializeToString() for move in moves]
    assert main_line_actions(data) == [_action(move).SerializeToString() for move in moves]
    assert list(map(action_of, main_line_moves(data))) == main_line_actions(data)
    facts = move_facts(data)
    assert facts is not None
    every, depth = _every_move(moves)
    assert facts.depth == depth
    clocks = [move.clock for move in every if move.HasField("clock")]
    stamps = [move.timestamp for move in every if move.HasField("timestamp")]
    for listed, held in (
        (facts.clock_seconds, [clock.seconds for clock in clocks]),
        (facts.clock_nanos, [clock.nanos for clock in clocks]),
        (facts.timestamp_seconds, [stamp.seconds for stamp in stamps]),
        (facts.timestamp_nanos, [stamp.nanos for stamp in stamps]),
    ):
        # Zero is the default, which protobuf does not write; every other value is listed.
        assert Counter(listed) == Counter(value for value in held if value)


def _every_move(line: list[pb.Move], depth: int = 0) -> tuple[list[pb.Move], int]:
    """Every move of a line and of its variations, and how deep its variations nest."""
    every, deepest = list(line), depth
    for move in line:
        for variation in move.variations:
            inner, nested = _every_move(list(variation.moves), depth + 1)
            every += inner
            deepest = max(deepest, nested)
    return every, deepest


def _raw_move(*fields: bytes) -> bytes:
    """A GameRecord of one move made of the given raw fields."""
    move = b"".join(fields)
    return b"\x2a" + encode_varint(len(move)) + move


def _message_field(number: int, payload: bytes) -> bytes:
    return encode_varint(number << 3 | 2) + encode_varint(len(payload)) + payload


def test_an_action_given_twice_is_read_as_protobuf_reads_it() -> None:
    first = pb.OneMove(path=[pb.OnePoint(ring=1, index=2)]).SerializeToString()
    second = pb.OneMove(path=[pb.OnePoint(ring=2, index=3)]).SerializeToString()
    aronda = pb.ArondaTurn(
        placements=[pb.ArondaField(ring=pb.ARONDA_RING_INNER, index=1)]
    ).SerializeToString()
    for fields in (
        (_message_field(2, first), b"\x08\x02", _message_field(2, second)),  # merged
        (_message_field(3, aronda), _message_field(2, first)),  # the last of a oneof
        (_message_field(2, first), _message_field(3, aronda)),
        (_message_field(9, b"j" * 3), b"\x08\x01", _message_field(2, first), b"\x08\x03"),
    ):
        data = _raw_move(*fields)
        (move,) = pb.GameRecord.FromString(data).moves
        (action,) = main_line_actions(data)
        assert pb.Move.FromString(action) == _action(move)


def test_a_clock_the_view_cannot_read_leaves_the_check_to_the_walk() -> None:
    # Duration.seconds given length-delimited: an unknown field to Duration, bytes that are
    # no packed varints to the view.
    clock = _message_field(1, b"\xff")
    data = _raw_move(_message_field(_number(pb.Move, "clock"), clock), b"\x08\x01")
    record = pb.GameRecord.FromString(data)
    assert record.moves[0].clock.seconds == 0
    assert move_facts(data) is None
    check_times(record, data)  # the walk finds nothing out of range


def _timed_move(clock: tuple[int, int] | None, stamp: tuple[int, int] | None) -> pb.Move:
    move = pb.Move(seat=1)
    move.one.path.add(ring=1, index=1)
    if clock is not None:
        move.clock.seconds, move.clock.nanos = clock
    if stamp is not None:
        move.timestamp.seconds, move.timestamp.nanos = stamp
    return move


int64s = st.one_of(st.integers(-400_000_000_000, 400_000_000_000), st.integers(-(2**63), 2**63 - 1))
int32s = st.one_of(st.integers(-1_000_000_001, 1_000_000_001), st.integers(-(2**31), 2**31 - 1))
pairs = st.none() | st.tuples(int64s, int32s)


def _refusal(record: pb.GameRecord, serialized: bytes | None) -> str:
    try:
        check_times(record, serialized)
    except RecordMalformedError as error:
        return str(error)
    return ""


@settings(max_examples=300, suppress_health_check=[HealthCheck.too_slow])
@given(
    times=st.lists(st.tuples(pairs, pairs), max_size=6),
    name=st.sampled_from(["", "Bob", "Jojo"]),
    varied=st.booleans(),
)
def test_the_time_check_answers_as_the_walk_with_any_clocks_and_timestamps(
    times: list[tuple[tuple[int, int] | None, tuple[int, int] | None]], name: str, varied: bool
) -> None:
    record = pb.GameRecord()
    record.metadata.event = name  # a 'b' or a 'j' is a tag byte of a time or a variation
    record.moves.extend(_timed_move(clock, stamp) for clock, stamp in times)
    if varied and record.moves:
        record.moves[0].variations.add().moves.add().CopyFrom(_timed_move((-1, -1), None))
    assert _refusal(record, record.SerializeToString()) == _refusal(record, None)


def test_a_negative_clock_is_left_to_the_walk_which_accepts_it() -> None:
    record = pb.GameRecord(moves=[_timed_move((-5, -1), None), _timed_move((5, 1), None)])
    facts = move_facts(record.SerializeToString())
    assert facts is not None and facts.clock_seconds == [-5, 5]
    assert _refusal(record, record.SerializeToString()) == ""
    record.moves[0].clock.nanos = 1
    assert "different signs" in _refusal(record, record.SerializeToString())


@pytest.mark.parametrize("where", ["clock", "timestamp"])
def test_a_time_out_of_range_is_named_by_the_walk(where: str) -> None:
    record = pb.GameRecord(moves=[_timed_move((1, 0), (1, 0)) for _ in range(3)])
    getattr(record.moves[2], where).nanos = 1_000_000_000
    assert f"moves[2].{where}: nanos 1000000000" in _refusal(record, record.SerializeToString())


def test_a_record_over_the_bound_is_left_to_the_walks() -> None:
    record = pb.GameRecord(moves=[_timed_move((1, 0), (1, 0))])
    record.comment = "x" * MAX_FACTS_BYTES
    data = record.SerializeToString()
    assert move_facts(data) is None
    record.moves[0].clock.nanos = -1
    assert "different signs" in _refusal(record, data)  # the walk still names the field


def test_the_facts_of_the_bytes_just_read_are_read_once() -> None:
    # The limits and then the times ask for the same bytes' facts: the second is the first's.
    record = pb.GameRecord(moves=[_timed_move((1, 0), (2, 0)), _timed_move((3, 0), None)])
    data = record.SerializeToString()
    first = move_facts(data)
    assert first is not None and move_facts(data) is first
    other = pb.GameRecord(moves=[_timed_move((5, 0), None)]).SerializeToString()
    assert move_facts(other) is not None and move_facts(other).clock_seconds == [5]  # type: ignore[union-attr]
    copy = bytes(bytearray(data))  # equal bytes, another object: read again, the same facts
    again = move_facts(copy)
    assert again is not first and again == first
