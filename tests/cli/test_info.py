"""``gamerec info PATH...``: one line (or one JSON object) per record."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner, Result

from gamerec.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"
BROKEN = ROOT / "fixtures" / "broken"


def run(*args: str, stdin: bytes | None = None) -> Result:
    return CliRunner().invoke(app, list(args), input=stdin)


def test_info_prints_one_line_per_record() -> None:
    result = run("info", str(VALID / "collection.pbs"))
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    assert len(lines) == 12
    assert lines[6] == (
        f"{VALID / 'collection.pbs'} #7  ONE  "
        '[Players "3"] [Board "6,6"] [Tiebreak "shared"]  seats: Ana, Ben, Chi  '
        "plies: 12  result: 4-2-4 (winners 1,3; normal)"
    )


def test_info_json_prints_a_record_info_in_the_vocabulary_of_validate_json() -> None:
    path = str(VALID / "oust-e3-forced-pass.pb")
    info = json.loads(run("info", "--json", path).stdout)
    assert info == {
        "source": path,
        "recordNumber": 1,
        "game": "GAME_OUST",
        "rules": {
            "game": "GAME_OUST",
            "oust": {"boardSide": 3, "pie": "OUST_PIE_UNSPECIFIED"},
            "rulesVersion": "",
        },
        "seatNames": ["Kim", "Lou"],
        "plies": 14,
        "result": {
            "scores": {"values": [0, 1]},
            "termination": "TERMINATION_NORMAL",
            "winners": [],
        },
    }
    verdict = json.loads(run("validate", "--json", path).stdout)
    shared = {"source", "recordNumber", "game"}
    assert {key: verdict[key] for key in shared} == {key: info[key] for key in shared}


def test_info_takes_a_folder_as_every_record_file_in_it() -> None:
    result = run("info", str(VALID))
    assert result.exit_code == 0
    assert len(result.stdout.splitlines()) == 12 * 5


def test_info_reads_standard_input() -> None:
    result = run("info", "-", stdin=(VALID / "aronda-e3-inside.json").read_bytes())
    assert result.stdout.startswith("<stdin> #1  Aronda  (default variant)  seats: Ida, Jon")


def test_info_reports_a_bad_file_and_goes_on() -> None:
    result = run("info", str(BROKEN / "unknown-game.grn"), str(VALID / "oust-e1-pie.grn"))
    assert result.exit_code == 2
    assert result.stderr.splitlines() == [
        f"gamerec: error: {BROKEN / 'unknown-game.grn'}: line 1, column 8: unknown game "
        "'Chess'; expected one of ONE, Aronda, Oust, Oh-Wah-Ree"
    ]
    assert "Oust" in result.stdout


def test_info_prints_the_records_before_a_broken_one() -> None:
    result = run("info", str(BROKEN / "truncated.pbs"))
    assert result.exit_code == 2
    assert len(result.stdout.splitlines()) == 11
    assert "record 12 at byte 3525: truncated" in result.stderr
