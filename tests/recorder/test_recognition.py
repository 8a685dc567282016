"""An input that holds no record is said to be none, plainly, with the decoder's reason after."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from gamerec.cli.main import app
from gamerec.recorder.codecs import Encoding, decode_record, read_records
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.recognition import NotARecordError, reads_as_text

ROOT = Path(__file__).resolve().parents[2]
BROKEN = ROOT / "fixtures" / "broken"
VALID = ROOT / "fixtures" / "valid"


def refusal(path: Path, encoding: Encoding | None = None) -> RecordMalformedError:
    with pytest.raises(RecordMalformedError) as caught:
        list(read_records(path, encoding))
    return caught.value


def test_a_text_that_is_no_record_says_so_then_how_each_reading_fails(tmp_path: Path) -> None:
    readme = tmp_path / "README.md"
    readme.write_text("# gamerec\n\nValidate, convert and render game records.\n")
    error = refusal(readme)
    assert isinstance(error, NotARecordError)
    message = str(error)
    assert message.startswith(
        f"{readme} is not a game record: it reads as text, but not as GRN (line 1, column 1: "
        "unexpected '#'"
    )
    plain, detail = message.split("; read as binary protobuf: ")
    assert "nor as ProtoJSON (line 1, column 1: not JSON" in plain
    assert detail.startswith("byte ")
    assert error.detail == f"read as binary protobuf: {detail}"


def test_the_repository_readme_is_no_record() -> None:
    result = CliRunner().invoke(app, ["info", str(ROOT / "README.md")])
    assert result.exit_code == 2
    [line] = result.stderr.splitlines()
    assert line.startswith(f"gamerec: error: {ROOT / 'README.md'} is not a game record: it reads")
    assert line.index("not as GRN") < line.index("the group of field")


def test_binary_bytes_that_start_with_no_field_are_no_record() -> None:
    error = refusal(BROKEN / "not-a-record.pb")
    assert str(error).startswith(
        f"{BROKEN / 'not-a-record.pb'} is not a game record: its first bytes are no field of a "
        "GameRecord; as binary protobuf: byte 0: "
    )


def test_json_whose_first_key_is_no_record_field_is_no_record(tmp_path: Path) -> None:
    package = tmp_path / "package.json"
    package.write_text('{"name": "client", "version": "1.0.0"}')
    error = refusal(package)
    assert str(error).startswith(
        f"{package} is not a game record: it is JSON, but neither a GameRecord (its first key "
        '"name" is no field of one) nor an Abstract Play record (it has no header); as '
        "ProtoJSON: line 1: "
    )


@pytest.mark.parametrize(
    "name", ["truncated.pb", "bad-json.json", "bad-schema.json", "truncated.pbs", "bad-line.jsonl"]
)
def test_a_broken_record_keeps_its_own_message(name: str) -> None:
    error = refusal(BROKEN / name)
    assert not isinstance(error, NotARecordError)
    assert "is not a game record" not in str(error)


def test_a_jsonl_record_past_the_first_line_is_a_broken_record(tmp_path: Path) -> None:
    lines = tmp_path / "games.jsonl"
    first = (VALID / "collection.jsonl").read_text().splitlines()[0]
    lines.write_text(first + '\n{"name": "x"}\n')
    error = refusal(lines)
    assert not isinstance(error, NotARecordError)
    assert str(error).startswith(f"{lines}: line 2: ")
    lines.write_text('{"name": "x"}\n' + first + "\n")
    assert isinstance(refusal(lines), NotARecordError)


def test_a_text_given_as_grn_is_judged_by_grn_alone(tmp_path: Path) -> None:
    text = tmp_path / "notes.grn"
    text.write_text("# notes\n")
    assert not isinstance(refusal(text), NotARecordError)


def test_the_message_stays_short_for_a_large_text(tmp_path: Path) -> None:
    big = tmp_path / "big.txt"
    big.write_text("# a long text\n" * 200_000 + "y" * 100_000)
    error = refusal(big)
    assert isinstance(error, NotARecordError)
    assert len(str(error)) < 800


def test_text_means_utf8_with_no_control_characters() -> None:
    assert reads_as_text("# Überschrift\n\tline\r\n".encode())
    assert not reads_as_text(b"\x00abc")
    assert not reads_as_text(b"\xff\xfe")


@settings(max_examples=300, deadline=None)
@given(st.one_of(st.binary(max_size=300), st.text(max_size=300).map(str.encode)))
def test_any_bytes_either_decode_or_fail_as_a_malformed_record(data: bytes) -> None:
    try:
        decode_record(data, Encoding.PB, name="in")
    except NotARecordError as error:
        assert str(error).startswith("in is not a game record: ")
        assert len(str(error)) < 1_000
    except RecordMalformedError:
        pass
