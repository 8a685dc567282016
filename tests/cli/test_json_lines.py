"""Every ``--json`` output names its source the same way and reports what it could not read."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from gamerec.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"
BROKEN = ROOT / "fixtures" / "broken"
INVALID = ROOT / "fixtures" / "invalid"
GAMES = ROOT / "fixtures" / "games"

#: The commands that print one JSON line per record.
COMMANDS = ("validate", "score", "adjudicate", "info")


def json_lines(*args: str) -> tuple[int, list[dict[str, Any]]]:
    result = CliRunner().invoke(app, list(args))
    return result.exit_code, [json.loads(line) for line in result.stdout.splitlines()]


@pytest.mark.parametrize("command", COMMANDS)
def test_every_line_names_its_file_and_record_and_the_unreadable_are_lines_too(
    command: str,
) -> None:
    inputs = [
        str(GAMES / "aronda-timeout.grn"),
        str(BROKEN / "unknown-game.grn"),
        str(VALID / "collection.pbs"),
        str(ROOT / "no-such-file.grn"),
    ]
    code, lines = json_lines(command, "--json", *inputs)
    assert code == 2
    places = [(line["source"], line["recordNumber"]) for line in lines]
    assert places == [
        (inputs[0], 1),
        (inputs[1], 1),
        *((inputs[2], number) for number in range(1, 13)),
        (inputs[3], 0),
    ]
    assert lines[1]["unreadable"].startswith("line 1, column 8: unknown game 'Chess'")
    assert lines[-1] == {
        "source": inputs[3],
        "recordNumber": 0,
        "unreadable": "No such file or directory",
    }
    assert all("unreadable" not in line for line in lines[2:-1])


def test_a_record_cut_short_in_a_collection_is_a_line_with_its_place() -> None:
    path = str(BROKEN / "truncated.pbs")
    for command in COMMANDS:
        code, lines = json_lines(command, "--json", path)
        assert code == 2
        assert lines[-1]["recordNumber"] == 0
        assert lines[-1]["unreadable"].startswith("record 12 at byte 3525: truncated")
        assert [line["recordNumber"] for line in lines[:-1]] == list(range(1, 12))


def test_the_game_is_spelled_as_protojson_spells_the_enum_everywhere() -> None:
    path = str(GAMES / "ohwahree-3p.grn")
    games = {command: json_lines(command, "--json", path)[1][0] for command in COMMANDS}
    spellings = {line.get("game") or line["verdict"]["game"] for line in games.values()}
    assert spellings == {"GAME_OH_WAH_REE"}
    assert games["info"]["rules"]["game"] == "GAME_OH_WAH_REE"


def test_adjudicate_names_the_source_at_the_top_and_in_its_verdict() -> None:
    path = str(INVALID / "result-mismatch.grn")
    code, [ruling] = json_lines("adjudicate", "--json", path)
    assert code == 1
    assert (ruling["source"], ruling["recordNumber"]) == (path, 1)
    assert (ruling["verdict"]["source"], ruling["verdict"]["recordNumber"]) == (path, 1)


def test_score_says_whether_the_record_is_a_legal_game() -> None:
    code, [line] = json_lines("score", "--json", str(INVALID / "one-landing-occupied.grn"))
    assert code == 1
    assert line["valid"] is False
    assert line["result"]["provisional"] is True
