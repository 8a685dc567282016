"""Commands over the search: engine --policy search, analyse, annotate/adjudicate --engine."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.analysis import searcher
from gamerec.validator.analysis.searcher import SearchSettings
from gamerec.validator.players import search_player
from gamerec.validator.players.clocks import ClockState
from gamerec.validator.players.policy_engine import PolicyEngine
from gamerec.validator.players.search_player import LEAST_SECONDS, ply_seconds
from gamerec.validator.search.core import Limits, SearchResult
from tests.analysis.test_analysis import BLUNDER
from tests.search.positions import FORCED_WINS, position

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"
GAMES = ROOT / "fixtures" / "games"
GAMEREC = Path(sys.executable).parent / "gamerec"


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


def test_the_search_engine_plays_the_forced_win_and_says_so() -> None:
    case = next(case for case in FORCED_WINS if case.game == "ONE" and case.depth == 3)
    entry, variant, state = position(case.game, case.seats, case.seed, case.plies)
    moves = entry.engine.random_game(variant, random.Random(case.seed))
    tokens = [entry.engine.format_move(variant, move) for move in moves[: case.plies]]
    player = PolicyEngine("search", 1)
    player.answer("gep 1")
    tags = " ".join(f"{tag}={value}" for tag, value in entry.engine.variant_tags(variant).items())
    assert player.answer(f"newgame Game=ONE {tags} Seat={state.to_move}") == ["ready"]
    assert player.answer("position " + " ".join(tokens)) == []
    info, move = player.answer("go movetime 5000")
    assert info.startswith("info depth ") and " score win 3 " in info
    assert move.startswith("move ") and info.split(" pv ")[1].split()[0] == move.split()[1]


def test_the_engine_command_takes_the_search_options() -> None:
    session = "gep 1\nnewgame Game=oh-wah-ree Players=2 Seat=1\nposition\ngo\nquit\n"
    answers = []
    for _ in range(2):
        finished = subprocess.run(
            [str(GAMEREC), "engine", "--policy", "search", "--nodes", "2000", "--seed", "4"],
            input=session,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        assert finished.returncode == 0, finished.stderr
        answers.append([line for line in finished.stdout.splitlines() if line.startswith("move")])
    assert answers[0] == answers[1] and len(answers[0]) == 1
    refused = run("engine", "--policy", "greedy", "--time", "1")
    assert refused.exit_code == 2
    assert "options of --policy search" in refused.output


def test_analyse_prints_a_table_and_json_lines() -> None:
    path = str(VALID / "ohwahree-e1-two-seats.grn")
    table = run("analyse", path, "--playouts", "50")
    assert table.exit_code == 0, table.output
    lines = table.output.splitlines()
    assert lines[0].split()[:4] == ["ply", "seat", "played", "win1"]
    assert [line.split()[0] for line in lines[1:]] == ["1", "2", "3", "4", "5", "6", "7"]
    first = run("analyse", path, "--playouts", "50", "--json")
    again = run("analyse", path, "--playouts", "50", "--json")
    assert first.output == again.output
    rows = [json.loads(line) for line in first.output.splitlines()]
    assert [row["played"] for row in rows] == ["1", "7", "2", "9", "3", "8", ""]
    assert set(rows[0]) == {
        "ply", "toMove", "played", "win", "margin", "best", "line", "visits", "depth", "value"
    }  # fmt: skip
    assert all(row["visits"] == 50 and row["value"] == "searched" for row in rows)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--time", "fast"), "give a positive duration"),
        (("--time", "1s", "--playouts", "3"), "not both"),
    ],
)
def test_analyse_refuses_unclear_limits(args: tuple[str, ...], message: str) -> None:
    result = run("analyse", str(VALID / "ohwahree-e1-two-seats.grn"), *args)
    assert result.exit_code == 2 and message in result.output


def test_annotate_engine_writes_the_marks(tmp_path: Path) -> None:
    source = tmp_path / "blunder.pb"
    source.write_bytes(BLUNDER.SerializeToString())
    out = tmp_path / "marked.grn"
    result = run("annotate", str(source), "-o", str(out), "--engine", "--playouts", "300")
    assert result.exit_code == 0, result.output
    (record,) = read_records(str(out))
    assert record.moves[4].glyph == pb.GLYPH_BLUNDER and record.moves[4].variations
    assert "?? " in out.read_text() or "??" in out.read_text()
    bad = run("annotate", str(source), "-o", str(out), "--engine", "--thresholds", "0.3,0.1,0.2")
    assert bad.exit_code == 2 and "three increasing chances" in bad.output


def test_adjudicate_engine_keeps_the_rules_and_the_engine_apart() -> None:
    path = str(VALID / "ohwahree-e1-two-seats.grn")
    plain = run("adjudicate", path, "--json")
    ruled = json.loads(plain.output)
    assert ruled["decision"] == "DECISION_PROVISIONAL" and not ruled.get("engine")
    unsure = json.loads(run("adjudicate", path, "--json", "--engine", "--playouts", "200").output)
    assert unsure["decision"] == "DECISION_PROVISIONAL"
    assert unsure["engine"]["favourite"] == 2 and not unsure["engine"]["decides"]
    assert "below the confidence threshold 0.9, it does not decide" in unsure["explanation"]
    sure = run(
        "adjudicate", path, "--json", "--engine", "--playouts", "200", "--confidence", "0.55"
    )
    decided = json.loads(sure.output)
    assert decided["decision"] == "DECISION_ENGINE" and decided["result"]["winners"] == [2]
    assert decided["result"]["scores"] == ruled["result"]["scores"]
    assert decided["result"]["provisional"] is True
    assert decided["explanation"].startswith("Decided by the engine.")
    wrong = run("adjudicate", path, "--engine", "--confidence", "0.3")
    assert wrong.exit_code == 2 and "confidence" in wrong.output


@pytest.mark.parametrize(
    "path", [VALID / "one-e3-round-completion.grn", GAMES / "aronda-timeout.grn"], ids=str
)
def test_an_end_by_the_rules_or_the_clock_is_ruled_by_the_rules_alone(path: Path) -> None:
    plain = json.loads(run("adjudicate", str(path), "--json").output)
    result = json.loads(
        run("adjudicate", str(path), "--json", "--engine", "--playouts", "50").output
    )
    assert result == plain and result["decision"] != vpb.Decision.Name(vpb.DECISION_ENGINE)


def test_a_ply_takes_a_share_of_what_the_clocks_allow() -> None:
    settings = SearchSettings(Limits(time=1.0))
    assert ply_seconds(settings, ClockState(), 1) == 1.0
    assert ply_seconds(settings, ClockState(move_limit_ms=500), 1) == pytest.approx(0.2)
    assert ply_seconds(settings, ClockState(remaining_ms=(3_000, 60_000)), 1) == pytest.approx(0.1)
    assert ply_seconds(settings, ClockState(remaining_ms=(60, 60_000)), 1) == LEAST_SECONDS
    unlimited = SearchSettings(Limits(playouts=10))
    assert ply_seconds(unlimited, ClockState(), 2) is None
    assert ply_seconds(unlimited, ClockState(remaining_ms=(60_000, 60_000)), 2) == 2.0


def test_a_chained_turn_is_searched_once_and_follows_its_line(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Oust seed 0 after 46 plies: the seat to move wins within its turn by three placements.
    entry, variant, state = position("Oust", 2, 0, 46)
    seat = state.to_move
    searched: list[SearchResult] = []
    real = searcher.search

    def counted(*args: Any, **options: Any) -> SearchResult:
        found = real(*args, **options)
        searched.append(found)
        return found

    monkeypatch.setattr(search_player, "search", counted)
    settings = SearchSettings(Limits(depth=2), algorithm="alphabeta")
    ply = search_player.search_ply(entry, variant, state, settings)
    assert len(searched) == 1 and len(searched[0].pv) == 3
    assert ply.token.count(",") == 2
    state.play(entry.engine.parse_move(variant, ply.token))
    assert state.is_over and state.winners() == (seat,)
