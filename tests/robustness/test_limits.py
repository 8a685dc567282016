"""Each limit, in each encoding: a record over it is a LimitExceededError that names the limit,
the value found and the place; the CLI reports it as an unreadable record (exit 2) and goes
on; protobuf's and JSON's own nesting limits surface as clean RecordMalformedErrors."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.binary import read_pbs
from gamerec.recorder.codecs import (
    Encoding,
    decode_record,
    encode_record,
    read_frames,
    read_records,
)
from gamerec.recorder.encoding import OWN_ENCODINGS
from gamerec.recorder.errors import EncodingError, LimitExceededError, RecordMalformedError
from gamerec.recorder.grn_tags import header_tags
from gamerec.recorder.limits import DEFAULT_LIMITS, LIMIT_NAMES, Limits, check_record
from gamerec.recorder.notation import parse_action
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.judge import score, validate
from tests.strategies import records

ROOT = Path(__file__).resolve().parents[2]
BINARY = (Encoding.PB, Encoding.PBS, Encoding.JSON, Encoding.JSONL)


def one_record(plies: int = 2) -> pb.GameRecord:
    """A two-seat ONE game of ``plies`` placements (legal for up to 30)."""
    record = pb.GameRecord()
    record.rules.game = pb.GAME_ONE
    record.rules.one.players = 2
    record.seats.add(name="Ana")
    record.seats.add(name="Ben")
    sizes = {"a": 10, "b": 10, "c": 20, "d": 20}
    points = [f"{ring}{index}" for ring, size in sizes.items() for index in range(1, size + 1)]
    record.moves.extend(parse_action(pb.GAME_ONE, point) for point in points[:plies])
    return record


def nested(depth: int) -> pb.GameRecord:
    """A record whose first move has variations nested ``depth`` levels deep."""
    record = one_record(1)
    move = record.moves[0]
    for _ in range(depth):
        move = move.variations.add().moves.add(one=pb.OneMove(path=[pb.OnePoint(ring=1, index=2)]))
    return record


def read(data: bytes, encoding: Encoding, limits: Limits | None = None) -> list[pb.GameRecord]:
    return list(read_records(io.BytesIO(data), encoding, name="in", limits=limits))


def refusal(data: bytes, encoding: Encoding, limits: Limits | None = None) -> LimitExceededError:
    with pytest.raises(LimitExceededError) as caught:
        read(data, encoding, limits)
    return caught.value


# -- every limit, every encoding -------------------------------------------------------------


def over_plies() -> tuple[pb.GameRecord, Limits]:
    return one_record(6), Limits(max_plies=5)


def over_moves() -> tuple[pb.GameRecord, Limits]:
    return nested(4), Limits(max_moves=4)


def over_depth() -> tuple[pb.GameRecord, Limits]:
    return nested(4), Limits(max_variation_depth=3)


def over_tags() -> tuple[pb.GameRecord, Limits]:
    record = one_record()
    for name in ("Annotator", "Opening", "Board2"):
        record.metadata.extra_tags[name] = "x"
    return record, Limits(max_tags=2)


def over_tag_chars() -> tuple[pb.GameRecord, Limits]:
    record = one_record()
    record.metadata.event = "E" * 41
    return record, Limits(max_tag_chars=40)


def over_seats() -> tuple[pb.GameRecord, Limits]:
    record = one_record()
    record.seats.add(name="Chi")
    return record, Limits(max_seats=2)


def over_comment_chars() -> tuple[pb.GameRecord, Limits]:
    record = one_record()
    record.moves[1].comment = "c" * 101
    return record, Limits(max_comment_chars=100)


def over_list_items() -> tuple[pb.GameRecord, Limits]:
    record = one_record()
    record.moves.append(parse_action(pb.GAME_ONE, "a1" + "xa3" * 5))
    return record, Limits(max_list_items=5)


#: limit name -> (record and limits, the value the error must report, its words)
CASES: dict[str, tuple[Any, int, str]] = {
    "plies": (over_plies, 6, "plies, more than the limit of 5 (limit plies)"),
    "moves": (over_moves, 6, "moves and variations, more than the limit of 4"),
    "variation-depth": (over_depth, 4, "4 deep, more than the limit of 3 (limit variation-depth)"),
    "tags": (over_tags, 3, "3 free tags, more than the limit of 2 (limit tags)"),
    "tag-chars": (over_tag_chars, 41, "41 characters, more than the limit of 40 (limit tag-chars)"),
    "seats": (over_seats, 3, "more than the limit of 2 (limit seats)"),
    "comment-chars": (over_comment_chars, 101, "101 characters, more than the limit of 100"),
    "list-items": (over_list_items, 6, "6 items, more than the limit of 5 (limit list-items)"),
}


def test_every_limit_has_a_case() -> None:
    assert set(CASES) == set(LIMIT_NAMES) - {"record-bytes"}


@pytest.mark.parametrize("encoding", list(OWN_ENCODINGS))
@pytest.mark.parametrize("limit", sorted(CASES))
def test_a_record_over_a_limit_is_refused_naming_the_limit_value_and_place(
    limit: str, encoding: Encoding
) -> None:
    make, value, words = CASES[limit]
    record, limits = make()
    data = encode_record(record, encoding)
    assert read(data, encoding) == [record]  # within the default limits
    error = refusal(data, encoding, limits)
    assert isinstance(error, RecordMalformedError)
    assert error.limit == limit
    assert error.maximum == getattr(limits, f"max_{limit.replace('-', '_')}")
    assert error.source == "in"
    if not (encoding is Encoding.GRN and limit in ("plies", "moves", "seats")):
        # GRN stops at the first ply, move or seat over the limit; binary counts them all.
        assert error.value == value
        assert words in error.reason
    place = {
        Encoding.GRN: "line ",
        Encoding.PBS: "record 1 at byte 0",
        Encoding.JSONL: "line 1",
        Encoding.JSON: "line 1",
    }
    assert error.where.startswith(place.get(encoding, ""))


def test_binary_and_json_errors_name_the_field() -> None:
    record, limits = over_comment_chars()
    error = refusal(encode_record(record, Encoding.PB), Encoding.PB, limits)
    assert error.reason.startswith("moves[1].comment: 101 characters")
    record, limits = over_depth()
    error = refusal(encode_record(record, Encoding.JSON), Encoding.JSON, limits)
    assert "moves[0].variations[0].moves[0]" in error.reason
    assert error.reason.startswith(
        "moves[0].variations[0].moves[0] ... moves[0].variations[0].moves[0]: "
        "variations nested 4 deep"
    )
    record = one_record(1)
    for _ in range(5):
        record.moves[0].variations.add()  # each empty variation counts as one more
    error = refusal(encode_record(record, Encoding.PB), Encoding.PB, Limits(max_moves=5))
    assert error.reason.startswith("the record has at least 6 moves and variations")


def test_grn_errors_name_the_line_and_column() -> None:
    text = b'[Game "ONE"]\n[Event "abcdef"]\n\n1. a1 {long comment} 2. a2\n'
    assert refusal(text, Encoding.GRN, Limits(max_tag_chars=5)).where == "line 2, column 9"
    assert refusal(text, Encoding.GRN, Limits(max_comment_chars=5)).where == "line 4, column 7"
    assert refusal(text, Encoding.GRN, Limits(max_plies=1)).where == "line 4, column 25"
    error = refusal(b'[Game "ONE"]\n[Seat9 "x"]\n', Encoding.GRN, Limits(max_seats=8))
    assert (error.where, error.value) == ("line 2, column 9", 9)
    assert "seat 9, more than the limit of 8 (limit seats)" in str(error)


# -- record size, and the frame that claims 2 GB -----------------------------------------------


class ReadWatcher(io.BytesIO):
    """A stream that remembers the largest read asked of it."""

    largest = 0

    def read(self, size: int | None = -1, /) -> bytes:
        self.largest = max(self.largest, size or 0)
        return super().read(size)


def test_a_frame_claiming_2_gb_fails_without_allocating() -> None:
    stream = ReadWatcher(encode_varint(2**31) + b"\x08\x01" * 8)
    with pytest.raises(LimitExceededError) as caught:
        list(read_records(stream, Encoding.PBS, name="big.pbs"))
    assert stream.largest <= 1  # the length prefix is read byte by byte, the frame never
    error = caught.value
    assert (error.limit, error.value, error.maximum) == ("record-bytes", 2**31, 64 * 1024 * 1024)
    assert str(error) == (
        "big.pbs: record 1 at byte 0: the frame claims 2147483648 bytes, more than the limit "
        "of 67108864 (limit record-bytes)"
    )


@pytest.mark.parametrize("encoding", list(OWN_ENCODINGS))
def test_a_record_larger_than_the_record_bytes_limit_is_refused(encoding: Encoding) -> None:
    data = encode_record(one_record(30), encoding)
    error = refusal(data, encoding, Limits(max_record_bytes=len(data) // 2))
    assert error.limit == "record-bytes"
    assert error.maximum == len(data) // 2


def test_the_older_max_record_bytes_keyword_still_works_and_wins() -> None:
    data = encode_record(one_record(30), Encoding.PBS)
    with pytest.raises(LimitExceededError):
        list(read_pbs(io.BytesIO(data), "s", max_record_bytes=10))
    assert decode_record(data, Encoding.PBS, max_record_bytes=len(data)) == one_record(30)
    with pytest.raises(LimitExceededError):
        decode_record(data, Encoding.PBS, max_record_bytes=10, limits=DEFAULT_LIMITS)


def test_frames_carry_their_limits_to_the_parse() -> None:
    data = encode_record(one_record(6), Encoding.PBS) * 2
    frames = list(read_frames(io.BytesIO(data), Encoding.PBS, limits=Limits(max_plies=5)))
    assert len(frames) == 2
    with pytest.raises(LimitExceededError, match="limit plies"):
        frames[1].parse()


# -- nesting: protobuf's and JSON's own limits ------------------------------------------------


def deep_pb(depth: int) -> bytes:
    """A GameRecord whose first move nests variations ``depth`` deep, serialized by hand
    (the protobuf runtime refuses to build what it could not read back)."""
    move = b"\x12\x04\x0a\x02\x08\x01"  # Move.one = OneMove(path=[OnePoint(ring=1)])
    for _ in range(depth):
        variation = b"\x0a" + encode_varint(len(move)) + move  # Variation.moves
        move = b"\x6a" + encode_varint(len(variation)) + variation  # Move.variations
    rules = b"\x12\x02\x08\x01"  # GameRecord.rules = Rules(game=GAME_ONE)
    return rules + b"\x2a" + encode_varint(len(move)) + move  # GameRecord.moves


@pytest.mark.parametrize("depth", [60, 1000, 50_000])
@pytest.mark.parametrize("encoding", [Encoding.PB, Encoding.PBS])
def test_variations_deeper_than_protobuf_decodes_are_a_clean_limit_error(
    depth: int, encoding: Encoding
) -> None:
    data = deep_pb(depth)
    if encoding is Encoding.PBS:
        data = encode_varint(len(data)) + data
    error = refusal(data, encoding)
    assert error.limit == "variation-depth"
    assert "variations are nested deeper than protobuf decodes" in error.reason
    assert error.where.startswith("record 1 at byte 0" if encoding is Encoding.PBS else "byte ")


def test_the_deepest_nesting_allowed_reads_back_from_every_encoding() -> None:
    record = nested(DEFAULT_LIMITS.max_variation_depth)
    for encoding in OWN_ENCODINGS:
        assert read(encode_record(record, encoding), encoding) == [record]
    with pytest.raises(LimitExceededError):
        check_record(nested(DEFAULT_LIMITS.max_variation_depth + 1))


def deep_json_moves(depth: int) -> bytes:
    opened = b'{"pass":{},"variations":[{"moves":[' * depth
    return b'{"moves":[' + opened + b'{"pass":{}}' + b"]}]}" * depth + b"]}"


@pytest.mark.parametrize("depth", [49, 60, 200])
def test_json_variations_deeper_than_the_limit_are_refused_before_conversion(depth: int) -> None:
    error = refusal(deep_json_moves(depth), Encoding.JSON)
    assert error.limit == "variation-depth"
    assert error.where == "line 1"


@pytest.mark.parametrize(
    "text",
    [
        deep_json_moves(5000),  # past orjson's own depth limit
        b'{"x":' + b"[" * 5000 + b"]" * 5000 + b"}",
        b'{"rules":' * 3000 + b"{}" + b"}" * 3000,
        b'{"metadata":{"extraTags":' + b'{"a":' * 200 + b"1" + b"}" * 200 + b"}}",
    ],
)
@pytest.mark.parametrize("encoding", [Encoding.JSON, Encoding.JSONL])
def test_deeply_nested_json_is_a_clean_malformed_error(text: bytes, encoding: Encoding) -> None:
    with pytest.raises(RecordMalformedError) as caught:
        read(text, encoding)
    assert caught.value.source == "in"
    assert caught.value.where.startswith("line 1")


# -- the same limits in every encoding ---------------------------------------------------------


@st.composite
def small_limits(draw: st.DrawFn) -> Limits:
    return Limits(
        max_plies=draw(st.integers(0, 7)),
        max_moves=draw(st.integers(0, 14)),
        max_variation_depth=draw(st.integers(0, 3)),
        max_tags=draw(st.integers(0, 3)),
        max_tag_chars=draw(st.integers(0, 50)),
        max_seats=draw(st.integers(0, 7)),
        max_comment_chars=draw(st.integers(0, 45)),
    )


def exceeds(record: pb.GameRecord, limits: Limits, encoding: Encoding) -> bool:
    """Whether ``record`` is over ``limits`` as the decoders of ``encoding`` see it."""
    try:
        check_record(record, limits)
    except LimitExceededError:
        return True
    # GRN also holds numbers in tags (Board, Result, Winner): their text counts there.
    return encoding is Encoding.GRN and any(
        len(value) > limits.max_tag_chars or len(name) > limits.max_tag_chars
        for name, value in header_tags(record)
    )


@settings(max_examples=150, deadline=None)
@given(records(depth=2), small_limits(), st.sampled_from(list(OWN_ENCODINGS)))
def test_every_decoder_enforces_the_same_limits(
    record: pb.GameRecord, limits: Limits, encoding: Encoding
) -> None:
    try:
        data = encode_record(record, encoding)
    except EncodingError:
        return
    try:
        assert read(data, encoding, limits) == [record]
        refused = False
    except LimitExceededError:
        refused = True
    assert refused == exceeds(record, limits, encoding)


# -- the validator on records held in memory ---------------------------------------------------


def test_validate_refuses_a_record_over_the_plies_limit_at_once() -> None:
    record = one_record(2)
    moves = list(record.moves)
    del record.moves[:]
    record.moves.extend(moves * 60_000)  # 120,000 plies, never decoded
    for judge_it in (validate, score, adjudicate):
        with pytest.raises(LimitExceededError) as caught:
            judge_it(record)
        assert str(caught.value) == (
            "the main line has 120,000 plies, more than the limit of 100,000 (limit plies)"
        )
    assert validate(record, limits=Limits(max_plies=200_000)).errors[0].ply == 3


# -- configuration -----------------------------------------------------------------------------


def test_limits_are_checked_when_made() -> None:
    with pytest.raises(ValueError, match="variation-depth may be at most 48"):
        Limits(max_variation_depth=49)
    with pytest.raises(ValueError, match="limit plies must be a whole number"):
        Limits(max_plies=-1)


def test_limits_from_name_value_settings() -> None:
    limits = DEFAULT_LIMITS.with_settings(["plies=500_000", " Seats = 8 "])
    assert (limits.max_plies, limits.max_seats) == (500_000, 8)
    assert limits.max_moves == DEFAULT_LIMITS.max_moves
    with pytest.raises(ValueError, match="expected NAME=N"):
        DEFAULT_LIMITS.with_settings(["pies=3"])
    with pytest.raises(ValueError, match="'many' is not a whole number"):
        DEFAULT_LIMITS.with_settings(["plies=many"])


# -- the command line --------------------------------------------------------------------------


def run(*args: str) -> Result:
    return CliRunner(env={"COLUMNS": "120"}).invoke(app, list(args))


def collection(tmp_path: Path) -> Path:
    """Three records; the second has 30 plies, the others 4 (the second starts at byte 63)."""
    path = tmp_path / "three.pbs"
    path.write_bytes(
        b"".join(encode_record(one_record(plies), Encoding.PBS) for plies in (4, 30, 4))
    )
    return path


@pytest.mark.parametrize("workers", ["1", "2"])
def test_validate_reports_a_record_over_a_limit_as_unreadable_and_goes_on(
    tmp_path: Path, workers: str
) -> None:
    path = collection(tmp_path)
    result = run("validate", str(path), "--limit", "plies=10", "-j", workers)
    assert result.exit_code == 2
    assert result.stdout.count(": valid  ONE  4 plies") == 2
    assert result.stderr.splitlines()[0] == (
        f"gamerec: error: {path}: record 2 at byte 63: the main line has 30 plies, more than "
        "the limit of 10 (limit plies)"
    )
    assert "3 records: 2 valid, 0 invalid, 1 unreadable" in result.stderr


@pytest.mark.parametrize("command", ["info", "score", "adjudicate"])
def test_other_commands_report_a_record_over_a_limit_and_go_on(
    tmp_path: Path, command: str
) -> None:
    result = run(command, str(collection(tmp_path)), "--limit", "plies=10")
    assert result.exit_code == 2
    assert "#1" in result.stdout and "#3" in result.stdout and "#2" not in result.stdout
    assert "record 2 at byte 63: the main line has 30 plies" in result.stderr


@pytest.mark.parametrize("command", ["convert", "replay"])
def test_convert_and_replay_fail_with_one_line_on_a_record_over_a_limit(
    tmp_path: Path, command: str
) -> None:
    args = [str(collection(tmp_path)), str(tmp_path / "out.jsonl")][
        : 2 if command == "convert" else 1
    ]
    extra = ["--record", "3"] if command == "replay" else []
    result = run(command, *args, *extra, "--limit", "plies=10")
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "(limit plies)" in result.stderr
    assert not (tmp_path / "out.jsonl").exists()


def test_raising_a_limit_lets_the_record_through(tmp_path: Path) -> None:
    result = run(
        "validate", str(collection(tmp_path)), "--limit", "plies=10", "--limit", "plies=30"
    )
    assert result.exit_code == 0, result.output


@pytest.mark.parametrize("setting", ["pies=3", "plies=x", "plies", "variation-depth=60"])
def test_a_bad_limit_setting_is_one_line_and_exit_2(setting: str) -> None:
    result = run("info", str(ROOT / "fixtures" / "valid" / "oust-e1-pie.pb"), "--limit", setting)
    assert result.exit_code == 2
    assert result.stderr.startswith("gamerec: error: --limit: ")
    assert result.stderr.count("\n") == 1
