"""``gamerec ratings``: text, JSON and HTML of one archive, and what cannot be read."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from gamerec.cli.main import app

EVENTS = Path(__file__).resolve().parents[2] / "fixtures" / "events"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def test_text_lists_each_pool_and_what_was_not_rated() -> None:
    made = run("ratings", str(EVENTS))
    assert made.exit_code == 0, made.output
    lines = made.output.splitlines()
    assert lines[0] == "9 games rated, 2 copies rated once, 2 records not rated, 0 unreadable"
    assert lines[2] == "ONE, 2 seats: Glicko-2, 4 players, 6 games"
    assert lines[3].split() == ["#", "Player", "Rating", "RD", "Vol", "Games", "Won", "Drawn"]
    assert lines[4].split()[:2] == ["1", "Ana"]
    assert "ONE, 4 seats: Weng-Lin (Plackett-Luce), 5 players, 3 games" in lines
    assert lines[-2].endswith("#3: no result by the rules (provisional standing): not counted")


def test_json_and_html_carry_the_same_list(tmp_path: Path) -> None:
    data = json.loads(run("ratings", str(EVENTS), "--json").output)
    assert [(p["game"], p["seats"], p["system"]) for p in data["pools"]] == [
        ("ONE", 2, "glicko-2"),
        ("ONE", 4, "weng-lin"),
    ]
    two = data["pools"][0]["players"]
    assert [(p["player"], p["games"], p["firsts"], p["shared_firsts"]) for p in two] == [
        ("Ana", 3, 2, 1),
        ("Chi", 3, 1, 2),
        ("Ben", 3, 1, 0),
        ("Dev", 3, 0, 1),
    ]
    out = tmp_path / "ratings.html"
    assert run("ratings", str(EVENTS), "--html", "-o", str(out)).exit_code == 0
    page = out.read_text()
    assert page.startswith("<!DOCTYPE html>") and "<script" not in page
    assert f"<td>{two[0]['rating']:.1f}</td>" in page


def test_an_unreadable_input_is_named_and_the_rest_is_rated(tmp_path: Path) -> None:
    bad = tmp_path / "bad.grn"
    bad.write_text("[Game ")
    made = run("ratings", str(EVENTS), str(bad))
    assert made.exit_code == 2
    assert "bad.grn" in made.stderr
    assert made.stdout.splitlines()[0].endswith("1 unreadable")
