"""Counts with their nouns: ``1 ply``, ``2 plies``, in every message."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from gamerec.cli.main import app
from gamerec.recorder.codecs import Encoding, write_records
from gamerec.recorder.words import noun_for, plural
from gamerec.validator.builder import RecordBuilder


def test_plural_counts_and_picks_the_noun() -> None:
    assert plural(1, "ply") == "1 ply"
    assert plural(0, "ply") == "0 plies"
    assert plural(12_345, "record") == "12,345 records"
    assert plural(2, "index", "indices") == "2 indices"
    assert noun_for(1, "is") == "is"
    assert noun_for(3, "is") == "are"


def test_one_record_of_one_ply_is_said_in_the_singular(tmp_path: Path) -> None:
    builder = RecordBuilder("Oust", {"Board": "3"}, seats=["Kim", "Lou"])
    builder.play(builder.legal_moves()[0])
    path = tmp_path / "one.grn"
    write_records([builder.record], path, Encoding.GRN)
    result = CliRunner().invoke(app, ["validate", str(path)])
    assert result.exit_code == 0, result.output
    assert "  1 ply  " in result.stdout
    assert result.stderr.startswith("1 record: 1 valid, 0 invalid, 0 unreadable; 1 ply in ")
    past = CliRunner().invoke(app, ["replay", str(path), "--ply", "3"])
    assert "the record has 1 ply; there is no ply 3" in past.stderr


def test_one_picture_is_one_picture(tmp_path: Path) -> None:
    path = tmp_path / "start.grn"
    write_records([RecordBuilder("Oust", {"Board": "3"}).record], path, Encoding.GRN)
    out = tmp_path / "start.svg"
    result = CliRunner().invoke(app, ["render", str(path), "--all", "-o", str(out)])
    assert result.exit_code == 0, result.output
    [line] = result.stderr.splitlines()
    assert line.startswith("gamerec: 1 picture written, ")
    assert " to " not in line
