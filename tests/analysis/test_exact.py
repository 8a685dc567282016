"""Exact endgames in the analysis: the tables answer where they cover a position."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.analysis.assessment import EngineRequest
from gamerec.validator.analysis.plies import EXACT, analyse_position
from gamerec.validator.analysis.searcher import SearchSettings, exact_for
from gamerec.validator.games.protocol import GameState
from gamerec.validator.identity import identify
from gamerec.validator.search.core import Limits
from gamerec.validator.tables.build import solve
from gamerec.validator.tables.probing import TABLES_VARIABLE, default_table
from gamerec.validator.tables.tablefile import write
from tests.search.positions import position
from tests.validator.examples import grn

# Two-seat Oh-Wah-Ree, random game 3: after ply 105 three stones are left on the board.
SEED, PLIES = 3, 105
SETTINGS = SearchSettings(Limits(playouts=200), seed=1)


@pytest.fixture
def tables(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "small.owrt"
    write(solve(4), path)
    monkeypatch.setenv(TABLES_VARIABLE, str(path))
    return path


def _final_margin(state: GameState[Any]) -> int:
    """Seat 1's final score minus seat 2's at the end of a perfect line, the table's moves."""
    table = default_table()
    assert table is not None
    state = state.copy()
    while not state.is_over:
        best = table.lookup(state)
        move = next(move for move, margin in table.move_margins(state) if margin == best)
        state.play(move)
    scores = state.scores()
    return scores[0] - scores[1]


def _record() -> pb.GameRecord:
    entry, variant, _ = position("Oh-Wah-Ree", 2, SEED, PLIES)
    moves = entry.engine.random_game(variant, random.Random(SEED))[:PLIES]
    tokens = [entry.engine.format_move(variant, move) for move in moves]
    plies = " ".join(f"{ply}. {token}" for ply, token in enumerate(tokens, start=1))
    return grn(f'[Game "Oh-Wah-Ree"]\n[Players "2"]\n\n{plies}\n')


def test_without_tables_nothing_is_exact(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv(TABLES_VARIABLE, str(tmp_path / "none.owrt"))
    entry, variant, _ = position("Oh-Wah-Ree", 2, SEED, PLIES)
    assert exact_for(entry, variant) is None


@pytest.mark.usefixtures("tables")
def test_the_tables_give_the_final_margin_of_perfect_play() -> None:
    entry, variant, state = position("Oh-Wah-Ree", 2, SEED, PLIES)
    exact = exact_for(entry, variant)
    assert exact is not None
    assert sum(site.pieces[0] for site in state.position().sites) == 3
    margin = _final_margin(state)
    assert exact(state) == margin
    _, _, one = position("ONE", 2, 0, 10)
    assert exact(one) is None


@pytest.mark.usefixtures("tables")
def test_analysis_and_adjudication_say_exact_where_the_tables_cover() -> None:
    record = _record()
    identity = identify(record)
    _, _, state = position("Oh-Wah-Ree", 2, SEED, PLIES)
    margin = _final_margin(state)
    assert margin != 0
    analysed = analyse_position(identity, state, SETTINGS)
    assert analysed.value == EXACT
    assert analysed.margin == (float(margin), float(-margin))
    winner = 1 if margin > 0 else 2
    assert analysed.win[winner - 1] == 1.0
    ruling = adjudicate(record, engine=EngineRequest(SETTINGS))
    assert ruling.decision == vpb.DECISION_ENGINE
    assert ruling.engine.exact and ruling.engine.decides and ruling.engine.favourite == winner
    assert list(ruling.result.winners) == [winner]
    assert f"seat {winner} wins by {abs(margin)} with perfect play (exact)" in ruling.explanation
