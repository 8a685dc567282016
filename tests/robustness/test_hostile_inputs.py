"""The hostile inputs of issue 21, each a regression test: a clear error, bounded, nothing lost."""

from __future__ import annotations

import tracemalloc
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import decode_record, read_records
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import EmptyInputError, RecordMalformedError

ROOT = Path(__file__).resolve().parents[2]
ONE_GAME = ROOT / "fixtures" / "games" / "oust-side5-pie-off.grn"


def run(*args: str) -> Result:
    return CliRunner(env={"COLUMNS": "120"}).invoke(app, list(args))


# -- comments: linear in time and memory -------------------------------------------------------


def test_many_small_comments_cost_memory_linear_in_their_number() -> None:
    # Each comment once re-assigned the whole protobuf string: 40,000 took 1.6 GB.
    count = 40_000
    data = b'[Game "Oust"]\n\n1. g7 ' + b"{x}" * count + b" *\n"
    tracemalloc.start()
    try:
        record = decode_record(data, Encoding.GRN)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert record.moves[0].comment == " ".join(["x"] * count)
    assert peak < 40 * len(data)  # the old reader: thousands of times the input


# -- an input that holds no record -------------------------------------------------------------

EMPTY_INPUTS = {"empty.grn": b"", "blank.grn": b"\n \n\t\n", "empty.pbs": b"", "empty.pb": b""}
EMPTY_INPUTS |= {"empty.jsonl": b"\n\n", "empty.json": b""}


@pytest.mark.parametrize("name", sorted(EMPTY_INPUTS))
def test_reading_an_input_that_holds_no_record_is_an_error_naming_it(
    tmp_path: Path, name: str
) -> None:
    path = tmp_path / name
    path.write_bytes(EMPTY_INPUTS[name])
    with pytest.raises(RecordMalformedError) as raised:
        list(read_records(str(path)))
    assert str(path) in str(raised.value) and "no record" in str(raised.value)
    assert list(read_records(str(path), allow_empty=True)) in ([],)


COMMANDS = [
    ["validate"],
    ["info"],
    ["score"],
    ["adjudicate"],
    ["replay"],
    ["annotate", "--auto", "-o", "{out}.grn"],
    ["render", "-o", "{out}.svg"],
    ["convert", "IN", "{out}.pbs"],
    ["diff", "IN", "IN"],
]


@pytest.mark.parametrize("command", COMMANDS, ids=lambda command: command[0])
def test_every_command_refuses_an_empty_input_with_exit_2(
    tmp_path: Path, command: list[str]
) -> None:
    empty = tmp_path / "truncated.grn"
    empty.write_bytes(b"")
    out = str(tmp_path / "out")
    args = [part.replace("{out}", out) for part in command]
    args = [str(empty) if part == "IN" else part for part in args]
    if "IN" not in command:
        args.insert(1, str(empty))
    result = run(*args)
    assert result.exit_code == 2, result.output
    assert f"{empty}: the input holds no record" in result.output
    assert sorted(path.name for path in tmp_path.iterdir()) == ["truncated.grn"]


def test_the_error_class_of_an_empty_input_is_a_malformed_record() -> None:
    assert issubclass(EmptyInputError, RecordMalformedError)


# -- empty frames in a .pbs --------------------------------------------------------------------


def test_a_million_empty_frames_are_one_bounded_fault(tmp_path: Path) -> None:
    # Once: a million "unknown game" verdicts, 187 MB of output, 47 s.
    path = tmp_path / "zeros.pbs"
    path.write_bytes(bytes(1_000_000))
    result = run("validate", str(path))
    assert result.exit_code == 2
    assert len(result.output) < 400
    assert "record 1 at byte 0: 1,000,000 empty frames in a row (length 0)" in result.output
    assert "1 unreadable" in result.output


def test_records_before_empty_frames_are_judged_and_the_fault_placed(tmp_path: Path) -> None:
    good = tmp_path / "good.pbs"
    assert run("convert", str(ONE_GAME), str(good)).exit_code == 0
    record = good.read_bytes()
    path = tmp_path / "mixed.pbs"
    path.write_bytes(record + b"\0\0\0" + record)
    result = run("validate", str(path))
    assert result.exit_code == 2
    assert f"{path} #1: valid" in result.output
    where = f"record 2 at byte {len(record)}: 3 empty frames in a row (length 0)"
    assert where in result.output and "bytes follow it, not read" in result.output


# -- messages quote input in short, marked excerpts ----------------------------------------------

HUGE_INPUTS = {
    "token": b'[Game "Oust"]\n\n1. ' + b"q" * 1_000_000 + b" *\n",
    "number-in-token": b'[Game "Oust"]\n\n1. g' + b"7" * 1_000_000 + b" *\n",
    "ply-number": b'[Game "Oust"]\n\n' + b"9" * 5_000 + b". g7 *\n",
    "capture": b'[Game "ONE"]\n[Players "2"]\n\n1. a1' + b"xa1" * 300_000 + b" *\n",
}


@pytest.mark.parametrize("name", sorted(HUGE_INPUTS))
def test_an_error_about_a_huge_input_is_a_short_line(tmp_path: Path, name: str) -> None:
    path = tmp_path / f"{name}.grn"
    path.write_bytes(HUGE_INPUTS[name])
    result = run("validate", str(path))
    assert result.exit_code in (1, 2)
    assert all(len(line) < 600 for line in result.output.splitlines()), result.output[:2000]
    assert "characters" in result.output or "limit list-items" in result.output


def test_a_finding_about_a_huge_move_carries_a_short_excerpt(tmp_path: Path) -> None:
    from gamerec.validator.judge import validate  # noqa: PLC0415

    turn = ",".join(["g7"] * 5_000)  # within the list-items limit, 15 KB of text
    record = decode_record(f'[Game "Oust"]\n\n1. {turn} *\n'.encode(), Encoding.GRN)
    (finding,) = validate(record).errors
    assert finding.code == "TURN_ALREADY_ENDED"
    assert len(finding.move) < 120 and finding.move.endswith("(14,999 characters)")
    assert len(finding.message) <= 1_000


def test_a_move_list_over_the_list_items_limit_is_refused_in_every_encoding() -> None:
    turn = ",".join(["g7"] * 20_000)
    text = f'[Game "Oust"]\n\n1. {turn} *\n'.encode()
    from gamerec.recorder.codecs import encode_record  # noqa: PLC0415
    from gamerec.recorder.errors import LimitExceededError  # noqa: PLC0415
    from gamerec.recorder.limits import Limits  # noqa: PLC0415

    record = decode_record(text, Encoding.GRN, limits=Limits(max_list_items=10**6))
    for encoding in (Encoding.GRN, Encoding.PB, Encoding.JSON):
        data = encode_record(record, encoding)
        with pytest.raises(LimitExceededError) as raised:
            decode_record(data, encoding)
        assert raised.value.limit == "list-items" and raised.value.value == 20_000
        assert "moves[0].oust.placements" in str(raised.value)


def test_json_seats_and_free_tags_are_counted_before_the_record_is_built() -> None:
    import json  # noqa: PLC0415

    from gamerec.recorder.errors import LimitExceededError  # noqa: PLC0415

    for key, value, limit in (
        ("seats", [{}] * 200_000, "seats"),
        ("metadata", {"extraTags": {f"t{n}": "" for n in range(200_000)}}, "tags"),
        ("result", {"winners": [1] * 200_000}, "list-items"),
    ):
        data = json.dumps({"rules": {"game": "GAME_ONE"}, key: value}).encode()
        with pytest.raises(LimitExceededError) as raised:
            decode_record(data, Encoding.JSON)
        assert raised.value.limit == limit


# -- wire faults: the place and the real cause ---------------------------------------------------

GAME_ONE_RULES = bytes.fromhex("12020801")  # rules { game: GAME_ONE }


def test_a_packed_field_cut_short_names_its_byte() -> None:
    # result { winners: packed [1, <a varint cut short>] }: once "Wire format was corrupt".
    data = GAME_ONE_RULES + bytes([0x32, 3, 0x1A, 1, 0x80])
    with pytest.raises(RecordMalformedError) as raised:
        decode_record(data, Encoding.PB)
    assert raised.value.where == "byte 8"
    assert "packed values of field 3 (winners) end inside a number" in raised.value.reason


def test_unknown_groups_nested_too_deep_are_not_called_variations() -> None:
    data = GAME_ONE_RULES + b"\x7b" * 200 + b"\x7c" * 200  # field 15 groups, no schema's
    with pytest.raises(RecordMalformedError) as raised:
        decode_record(data, Encoding.PB)
    message = str(raised.value)
    assert "unknown groups (wire type 3) of field 15" in message
    assert "variation" not in message and raised.value.where.startswith("byte ")


# -- findings placed in the text -------------------------------------------------------------------


def test_a_finding_in_a_grn_input_gives_file_line_and_column_of_the_ply(tmp_path: Path) -> None:
    path = tmp_path / "game.grn"
    path.write_text('[Game "Oust"]\n\n1. g7 (1. a1 2. b1) 2. h7\n  3. g7 {taken} 4. b2 *\n')
    result = run("validate", str(path))
    assert result.exit_code == 1
    finding = result.output.splitlines()[1]
    assert finding.startswith(f"  {path}:4:6: ply 3, seat 1, g7: ")  # variations not counted
    json_result = run("validate", "--json", str(path))
    assert '"line":4' in json_result.output.replace(" ", "")
    assert '"column":6' in json_result.output.replace(" ", "")


def test_findings_of_binary_inputs_have_no_line() -> None:
    from gamerec.recorder.raw import Frame  # noqa: PLC0415

    assert Frame(b"", "x.pbs").ply_places([1, 2]) == {}


def test_a_record_that_sets_no_field_has_no_binary_form() -> None:
    # Found by make fuzz: b"\x08\x00" decodes to a record with nothing set, whose binary form
    # is no bytes, which reads back as no record at all; the writers refuse it instead.
    from gamerec.recorder.codecs import encode_record  # noqa: PLC0415
    from gamerec.recorder.errors import EncodingError  # noqa: PLC0415
    from gamerec.v1 import record_pb2 as pb  # noqa: PLC0415

    record = decode_record(b"\x08\x00", Encoding.PB)
    assert record == pb.GameRecord()
    for encoding in (Encoding.PB, Encoding.PBS):
        with pytest.raises(EncodingError, match="sets no field"):
            encode_record(record, encoding)
    assert decode_record(encode_record(record, Encoding.JSON), Encoding.JSON) == record


@pytest.mark.parametrize(
    "text",
    [
        b'{"metadata": {"extraTags": true}}',  # found by make fuzz: len() of a bool
        b'{"seats": 5}',
        b'{"result": {"winners": 3}}',
        b'{"moves": [{"one": 7}]}',
    ],
)
def test_json_counts_leave_misshapen_parts_to_the_conversion(text: bytes) -> None:
    with pytest.raises(RecordMalformedError, match="not a GameRecord"):
        decode_record(text, Encoding.JSON)
