"""Abstract Play's records and Ludii's trials on the command line, as any other encoding.

``convert`` with ``--from``/``--to abstractplay|ludii`` (and ``.trl`` by its extension), the
formats told by content (``info``, ``validate``, standard input), folders and JSON arrays,
the collection commands, ``view`` and ``seal``; warnings that name what a format cannot
hold; refusals that name the place and write nothing.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import read_records

ROOT = Path(__file__).resolve().parents[2]
FOREIGN = ROOT / "fixtures" / "foreign"
AP = FOREIGN / "abstractplay"
LUDII = FOREIGN / "ludii"
BROKEN = ROOT / "fixtures" / "broken"
GRN = ROOT / "fixtures" / "games" / "oust-side7.grn"


def run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin)


def test_convert_to_abstract_play_and_back_warns_of_what_only_gamerec_reads(
    tmp_path: Path,
) -> None:
    out = tmp_path / "games.json"
    result = run("convert", str(GRN), str(out), "--to", "abstractplay")
    assert result.exit_code == 0, result.output
    assert "gamerec: warning: record 1: Abstract Play's record has no place for" in result.stderr
    assert "kept in header.gamerec, which only gamerec reads" in result.stderr
    assert result.stderr.rstrip().endswith(f"1 record written to {out} (abstractplay)")
    assert json.loads(out.read_text())["header"]["game"]["name"] == "Oust"
    back = tmp_path / "back.grn"
    assert run("convert", str(out), str(back)).exit_code == 0  # .json: told by its content
    assert list(read_records(back)) == list(read_records(GRN))


def test_convert_reads_and_writes_ludii_trials_by_extension_and_by_name(tmp_path: Path) -> None:
    trial = LUDII / "oust-win-in-three.trl"
    grn = tmp_path / "win.grn"
    assert run("convert", str(trial), str(grn)).exit_code == 0
    assert '[LudiiRNG "0,0,0,0,0,0,0,0"]' in grn.read_text()
    back = run("convert", str(grn), "-", "--to", "ludii")
    assert back.exit_code == 0, back.output
    assert back.stdout_bytes == trial.read_bytes()
    again = tmp_path / "again.txt"
    assert run("convert", "--from", "ludii", str(trial), str(again), "--to", "ludii").exit_code == 0
    assert again.read_bytes() == trial.read_bytes()


def test_standard_input_is_sniffed_for_both_formats() -> None:
    array = run("info", "-", stdin=(AP / "oust-collection.json").read_bytes())
    assert array.exit_code == 0, array.output
    assert array.stdout.count("Oust") == 3
    trial = run("validate", "-", stdin=(LUDII / "oust-unfinished.trl").read_bytes())
    assert trial.exit_code == 0, trial.output
    assert "<stdin> #1: valid  Oust  9 plies  unfinished" in trial.stdout


def test_a_folder_of_foreign_files_is_walked_like_any_other(tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    shutil.copytree(FOREIGN, folder)
    (folder / "package.json").write_text('{"name": "tool", "version": "1.0.0"}')
    (folder / "list.json").write_text('[{"name": "not a record"}]')
    result = run("validate", str(folder))
    assert result.exit_code == 0, result.output
    assert "11 records: 11 valid, 0 invalid, 0 unreadable" in result.stderr
    assert "package.json" in result.stderr and "list.json" in result.stderr  # skipped, said
    assert "schema/gamerecord.json" in result.stderr  # the schema: JSON, but no record


def test_the_collection_commands_count_foreign_records(tmp_path: Path) -> None:
    stats = run("stats", str(AP / "oust-collection.json"), str(AP / "oust-hex7.json"))
    assert stats.exit_code == 0, stats.output
    assert 'Oust [Pie "off"]: 4 records, 4 valid' in stats.stdout
    standings = run("standings", str(AP / "oust-collection.json"))
    assert standings.exit_code == 0, standings.output
    assert "Eli" in standings.stdout and "Fay" in standings.stdout


def test_view_and_seal_take_foreign_files(tmp_path: Path) -> None:
    page = tmp_path / "win.html"
    viewed = run("view", str(LUDII / "oust-win-in-three.trl"), "-o", str(page))
    assert viewed.exit_code == 0, viewed.output
    assert page.read_text().startswith("<!DOCTYPE html>")
    sealed_path = tmp_path / "sealed.json"
    sealed = run("seal", str(AP / "oust-hex7.json"), "-o", str(sealed_path), "--to", "abstractplay")
    assert sealed.exit_code == 0, sealed.output
    verified = run("verify", str(sealed_path))
    assert "seal holds" in verified.stdout  # the seal rides in the embedded copy


@pytest.mark.parametrize(
    ("name", "fragments"),
    [
        ("abstractplay-unknown-game.json", ["header.game.name: the game 'Chess' is not one"]),
        ("abstractplay-square-11.json", ["header.game.variants: Oust: variant 'square-11'"]),
        ("abstractplay-off-board.json", ["moves[3][1]: 'a9'"]),
        ("abstractplay-truncated.json", ["line 57, column 2: not JSON"]),
        ("ludii-unknown-option.trl", ["line 2: option 'Board Size/11x11'"]),
        ("ludii-off-board.trl", ["line 7: site 127 is not a cell"]),
        ("ludii-truncated.trl", ["line 7: expected Move="]),
    ],
)
def test_a_bad_foreign_file_is_one_clear_line_and_nothing_is_written(
    name: str, fragments: list[str], tmp_path: Path
) -> None:
    out = tmp_path / "out.grn"
    out.write_text("kept\n")
    result = run("convert", str(BROKEN / name), str(out))
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"gamerec: error: {BROKEN / name}")
    for fragment in fragments:
        assert fragment in lines[0]
    assert "Traceback" not in result.output
    assert out.read_text() == "kept\n"  # untouched
    assert [path.name for path in tmp_path.iterdir()] == ["out.grn"]  # no temporary left


def test_a_record_the_format_cannot_hold_fails_and_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "one.json"
    one = ROOT / "fixtures" / "games" / "one-2p.grn"
    result = run("convert", str(one), str(out), "--to", "abstractplay")
    assert result.exit_code == 2
    assert "Abstract Play's records hold Oust, not this record's game (ONE)" in result.stderr
    assert not out.exists()
    trials = run("convert", str(AP / "oust-collection.json"), str(tmp_path / "all.trl"))
    assert trials.exit_code == 2
    assert "record 2: a Ludii trial holds one record and there are several" in trials.stderr
    assert not (tmp_path / "all.trl").exists()
