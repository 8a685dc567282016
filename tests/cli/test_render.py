"""``gamerec render``: SVG files of a position or of every ply, and clean failures."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner, Result

from gamerec.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"
GAMES = ROOT / "fixtures" / "games"
INVALID = ROOT / "fixtures" / "invalid"
BROKEN = ROOT / "fixtures" / "broken"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def sites(path: Path) -> list[str]:
    root = ET.parse(path).getroot()
    return [e.get("id", "") for e in root.iter() if "site" in (e.get("class") or "").split()]


def title(path: Path) -> str:
    return ET.parse(path).getroot().findtext("{http://www.w3.org/2000/svg}title", "")


def test_a_ply_is_drawn_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "pos.svg"
    result = run("render", str(VALID / "one-e3-round-completion.grn"), "--ply", "4", "-o", str(out))
    assert result.exit_code == 0, result.output
    assert title(out) == "ONE · after ply 4 of 12, seat 1 a1xa3 · seat 2 to move"
    assert len(sites(out)) == 12
    assert f"written to {out}" in result.stderr


def test_the_default_is_the_last_ply_and_any_encoding_is_read(tmp_path: Path) -> None:
    out = tmp_path / "end.svg"
    result = run("render", str(VALID / "oust-e3-forced-pass.pb"), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert title(out) == "Oust · after ply 14 of 14, seat 2 d2,d3 · game over"


def test_all_writes_one_picture_per_ply_and_the_start(tmp_path: Path) -> None:
    result = run("render", str(GAMES / "aronda.grn"), "--all", "-o", str(tmp_path / "pos.svg"))
    assert result.exit_code == 0, result.output
    written = sorted(path.name for path in tmp_path.iterdir())
    assert written == [f"pos-{ply:03d}.svg" for ply in range(26)]
    assert title(tmp_path / "pos-000.svg").startswith("Aronda · start position")
    assert "after ply 25 of 25" in title(tmp_path / "pos-025.svg")
    assert all(len(sites(tmp_path / name)) == 25 for name in written)


def test_standard_output_gets_the_svg() -> None:
    result = run("render", str(VALID / "ohwahree-e1-two-seats.json"), "--ply", "6", "-o", "-")
    assert result.exit_code == 0, result.output
    root = ET.fromstring(result.stdout)
    pits = [e for e in root.iter() if (e.get("class") or "") == "site pit"]
    assert len(pits) == 12


def test_an_illegal_ply_exits_1_after_drawing_the_legal_plies(tmp_path: Path) -> None:
    result = run("render", str(INVALID / "one-mirror.grn"), "--all", "-o", str(tmp_path / "p.svg"))
    assert result.exit_code == 1
    assert sorted(path.name for path in tmp_path.iterdir()) == ["p-000.svg", "p-001.svg"]
    assert "ply 2, seat 2, d5: MIRROR" in result.stderr
    single = run("render", str(INVALID / "one-mirror.grn"), "-o", str(tmp_path / "one.svg"))
    assert single.exit_code == 1 and not (tmp_path / "one.svg").exists()


def test_a_ply_past_the_end_or_a_broken_file_exits_2_with_one_line(tmp_path: Path) -> None:
    out = tmp_path / "x.svg"
    beyond = run("render", str(VALID / "oust-e1-pie.grn"), "--ply", "9", "-o", str(out))
    assert beyond.exit_code == 2 and "there is no ply 9" in beyond.stderr
    broken = run("render", str(BROKEN / "truncated.pbs"), "--record", "12", "-o", str(out))
    assert broken.exit_code == 2
    assert len(broken.stderr.splitlines()) == 1 and "Traceback" not in broken.output
    missing = run("render", str(VALID / "oust-e1-pie.grn"), "--record", "2", "-o", str(out))
    assert missing.exit_code == 2 and "there is no record 2" in missing.stderr
    unknown = run("render", str(INVALID / "unknown-game.pb"), "-o", str(out))
    assert unknown.exit_code == 2 and "UNKNOWN_GAME" in unknown.stderr
    assert not out.exists()


def test_all_with_ply_or_standard_output_is_refused() -> None:
    both = run("render", str(VALID / "oust-e1-pie.grn"), "--all", "--ply", "2", "-o", "p.svg")
    assert both.exit_code == 2 and "leave out --ply" in both.stderr
    piped = run("render", str(VALID / "oust-e1-pie.grn"), "--all", "-o", "-")
    assert piped.exit_code == 2 and "one file per ply" in piped.stderr
