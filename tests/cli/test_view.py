"""``gamerec view``: one page, one page per record with an index, and clean failures."""

from __future__ import annotations

import re
from pathlib import Path

from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import read_records

ROOT = Path(__file__).resolve().parents[2]
COLLECTION = ROOT / "fixtures" / "valid" / "collection.pbs"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, ["view", *args])


def test_one_record_makes_one_page(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = run(str(ROOT / "fixtures" / "games" / "aronda.grn"), "-o", str(out))
    assert result.exit_code == 0, result.output
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and 'Verdict: <span class="word">VALID' in page
    assert f"Aronda record (25 plies, valid) written to {out}" in result.stderr
    assert list(tmp_path.iterdir()) == [out]


def test_an_invalid_record_is_written_and_exits_1(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = run(str(ROOT / "fixtures" / "invalid" / "one-landing-occupied.grn"), "-o", str(out))
    assert result.exit_code == 1, result.output
    assert "LANDING_OCCUPIED" in out.read_text(encoding="utf-8")
    assert "(23 plies, INVALID)" in result.stderr


def test_a_collection_needs_record_or_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "game.html"
    result = run(str(COLLECTION), "-o", str(out))
    assert result.exit_code == 2
    assert "holds more than one record: pick one with --record K" in result.stderr
    assert not out.exists()
    result = run(str(COLLECTION), "--record", "3", "-o", str(out))
    assert result.exit_code == 0, result.output
    third = list(read_records(COLLECTION))[2]
    assert f"{len(third.moves)} plies" in result.stderr and f"{COLLECTION} #3" in out.read_text()
    missing = run(str(COLLECTION), "--record", "99", "-o", str(tmp_path / "none.html"))
    assert missing.exit_code == 2 and "there is no record 99" in missing.stderr


def test_a_folder_gets_a_page_per_record_and_an_index(tmp_path: Path) -> None:
    folder = tmp_path / "out"
    result = run(str(COLLECTION), "-o", f"{folder}/")
    records = list(read_records(COLLECTION))
    assert result.exit_code == 0, result.output
    pages = sorted(path.name for path in folder.glob("game-*.html"))
    assert pages == [f"game-{number:03d}.html" for number in range(1, len(records) + 1)]
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert re.findall(r'<a href="(game-\d+\.html)">', index) == pages
    assert index.count('<td class="valid">valid</td>') == len(records)
    assert f"{len(records)} pages and index.html written to {folder}" in result.stderr


def test_an_unreadable_record_is_listed_and_the_others_written(tmp_path: Path) -> None:
    lines = (ROOT / "fixtures" / "valid" / "collection.jsonl").read_text().splitlines()
    mixed = tmp_path / "mixed.jsonl"
    mixed.write_text("\n".join([lines[0], '{"moves": 3}', lines[1]]) + "\n")
    folder = tmp_path / "out"
    result = run(str(mixed), "-o", f"{folder}/")
    assert result.exit_code == 2
    assert "mixed.jsonl" in result.stderr and "Traceback" not in result.output
    assert len(list(folder.glob("game-*.html"))) == 2
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert index.count("unreadable:") == 1 and f"{mixed} #2" in index


def test_an_invalid_record_in_a_folder_exits_1(tmp_path: Path) -> None:
    result = run(str(ROOT / "fixtures" / "invalid" / "result-mismatch.grn"), "-o", f"{tmp_path}/")
    assert result.exit_code == 1
    assert "invalid (RESULT_MISMATCH)" in (tmp_path / "index.html").read_text()


def test_failures_leave_no_file(tmp_path: Path) -> None:
    missing = tmp_path / "no-such-folder" / "game.html"
    result = run(str(ROOT / "fixtures" / "games" / "aronda.grn"), "-o", str(missing))
    assert result.exit_code == 2
    assert f"cannot write {missing}: there is no folder {missing.parent}" in result.stderr
    broken = run(str(ROOT / "fixtures" / "broken" / "truncated.pb"), "-o", str(tmp_path / "x.html"))
    assert broken.exit_code == 2 and "truncated.pb" in broken.stderr
    folder = run(str(COLLECTION), "--record", "2", "-o", f"{tmp_path}/")
    assert folder.exit_code == 2 and "--record picks one record" in folder.stderr
    assert list(tmp_path.iterdir()) == []
