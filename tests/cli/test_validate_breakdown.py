"""``gamerec validate``'s summary per game and per finding code, and its cluster options."""

from __future__ import annotations

import json
from pathlib import Path

import dask
from typer.testing import CliRunner, Result

from gamerec.cli.main import app

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"
INVALID = ROOT / "fixtures" / "invalid"
INPUTS = [
    str(GAMES / "one-3p.grn"),
    str(INVALID / "one-landing-occupied.grn"),
    str(INVALID / "result-mismatch.grn"),
    str(INVALID / "aronda-not-connected.grn"),
    str(ROOT / "fixtures" / "broken" / "truncated.pbs"),
]


def run(*args: str) -> Result:
    return CliRunner(env={"COLUMNS": "200"}).invoke(app, ["validate", *args])


def test_the_summary_counts_verdicts_per_game_and_findings_per_code() -> None:
    result = run(*INPUTS)
    assert result.exit_code == 2
    lines = result.stderr.splitlines()
    assert lines[-3].startswith("16 records: 12 valid, 3 invalid, 1 unreadable;")
    assert lines[-2] == (
        "by game: Aronda 3 (2 valid, 1 invalid); ONE 6 (4 valid, 2 invalid); "
        "Oh-Wah-Ree 3 (3 valid, 0 invalid); Oust 3 (3 valid, 0 invalid)"
    )
    assert lines[-1] == "by finding: LANDING_OCCUPIED 1, NOT_CONNECTED 1, RESULT_MISMATCH 1"


def test_the_json_summary_holds_the_same_counts() -> None:
    result = run("--json", *INPUTS)
    summary = json.loads(result.stderr.splitlines()[-1])["summary"]
    assert summary == {
        "records": 16,
        "valid": 12,
        "invalid": 3,
        "unreadable": 1,
        "plies": summary["plies"],
        "games": {
            "Aronda": {"valid": 2, "invalid": 1},
            "ONE": {"valid": 4, "invalid": 2},
            "Oh-Wah-Ree": {"valid": 3, "invalid": 0},
            "Oust": {"valid": 3, "invalid": 0},
        },
        "findings": {"LANDING_OCCUPIED": 1, "NOT_CONNECTED": 1, "RESULT_MISMATCH": 1},
    }
    assert summary["plies"] > 0


def test_out_needs_a_cluster_and_the_cluster_options_are_checked() -> None:
    for args, words in [
        (["--out", "x"], "--out needs --scheduler or --cluster"),
        (["--cluster", "remote"], "expected local or local:N"),
        (["--cluster", "local:0"], "expected local or local:N"),
        (["--scheduler", "nowhere"], "expected tcp://HOST:PORT"),
        (["--scheduler", "tcp://h:1", "--cluster", "local"], "not both"),
    ]:
        result = run(*args, str(GAMES / "one-3p.grn"))
        assert result.exit_code == 2, args
        assert words in " ".join(result.output.split()), args


def test_an_unreachable_scheduler_is_one_error_line_and_exit_2() -> None:
    with dask.config.set({"distributed.comm.timeouts.connect": "1s"}):
        result = run("--scheduler", "tcp://127.0.0.1:9", str(GAMES / "one-3p.grn"))
    assert result.exit_code == 2
    assert result.stderr.startswith("gamerec: error: cannot reach the Dask scheduler at ")
    assert len(result.stderr.splitlines()) == 1
