"""Random tournament openings, and ``--redraw-decided``: a decided opening is drawn again."""

from __future__ import annotations

import subprocess
from typing import Any

import pytest

from gamerec.validator.games.protocol import GameState
from gamerec.validator.games.registry import entry_named
from gamerec.validator.players.tournament import TournamentError, decided, openings, random_openings
from tests.players.engines import GAMEREC, policy
from tests.search.positions import position, wins_within


def _after(game: str, line: tuple[str, ...]) -> GameState[Any]:
    engine = entry_named(game).engine
    variant = engine.variant_from_tags({})
    state = engine.new_game(variant)
    for token in line:
        state.play(engine.parse_move(variant, token))
    return state


def test_a_decided_opening_is_drawn_again_and_the_others_stay_the_same() -> None:
    plain = random_openings("Oust", {}, 2, 10, 1)
    honest = random_openings("Oust", {}, 2, 10, 1, undecided=True)
    # rounds 3 and 4 of seed 1 put seat 2's stone next to seat 1's: seat 1 takes it, the
    # last enemy stone, at ply 3 (docs/analysis.md)
    redrawn = [index for index in range(10) if plain.plies[index] != honest.plies[index]]
    assert redrawn == [2, 3]
    for index in range(10):
        before = _after("Oust", plain.plies[index])
        now = _after("Oust", honest.plies[index])
        assert decided("Oust", before) == (index in redrawn)
        assert wins_within(before, before.to_move, 1) == (index in redrawn)
        assert not decided("Oust", now) and len(honest.plies[index]) == 2


def test_a_finished_game_a_forced_win_and_a_forced_loss_are_decided() -> None:
    # g7 h7 f7: f7 joins g7 and captures h7, the last enemy stone (docs/rules/oust.md E1)
    assert decided("Oust", _after("Oust", ("g7", "h7", "f7")))
    assert decided("Oust", _after("Oust", ("g7", "h7")))  # seat 1 to move wins with f7
    assert not decided("Oust", _after("Oust", ("g7",)))
    # ONE seed 0 after 70 plies: whatever the seat to move does, the other wins at once
    _, _, state = position("ONE", 2, 0, 70)
    assert not wins_within(state, state.to_move, 2) and wins_within(state, 3 - state.to_move, 2)
    assert decided("ONE", state)


def test_openings_that_are_all_decided_stop_the_tournament(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(openings, "decided", lambda game, state: True)
    with pytest.raises(TournamentError, match="opening 1: 100 draws of 2 random plies"):
        random_openings("Oust", {}, 2, 3, 1, undecided=True)


def test_redraw_decided_needs_random_openings() -> None:
    command = [str(GAMEREC), "tournament", "--game", "Oust", "--redraw-decided", "-o", "x.pbs"]
    engines = ["--engine", f"a={' '.join(policy())}", "--engine", f"b={' '.join(policy())}"]
    done = subprocess.run(
        [*command, *engines], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 2
    assert "--redraw-decided draws random openings again: it needs --openings random" in (
        done.stderr
    )
