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
