"""The engines' results and snapshots equal their frozen copies (``frozen_results``).

Issue 39 made ``scores``, ``ranking``, ``winners``, ``digest`` and ``position`` cheaper, and
ONE remembers its scoring until the position changes. Over random legal play of every
variant (ONE with 2 to 6 seats on several boards, Oh-Wah-Ree with 2 to 4, resignations
included), every method is compared with the plain copy after every ply, called in an order
hypothesis draws (so that a remembered result read before or after another, or after the
next ply, shows), and again on a copy and on ``Engine.replay`` of the same plies.
"""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from gamerec.validator.games import engine
from gamerec.validator.games.aronda import ArondaVariant
from gamerec.validator.games.ohwahree import DIRECTION_RULES, OhWahReeVariant
from gamerec.validator.games.one import OneVariant
from gamerec.validator.games.oust import OustVariant
from gamerec.validator.games.protocol import GameState
from tests.games.frozen_results import FROZEN

EXAMPLES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

ONE_BOARDS = [(10, 10, 20, 20), (10, 10, 20), (6, 6, 12, 12, 24), (5,), (5, 10)]


@st.composite
def one_variants(draw: st.DrawFn) -> OneVariant:
    rings = draw(st.sampled_from(ONE_BOARDS))
    players = draw(st.integers(2, min(6, sum(rings))))
    mirror = draw(st.sampled_from(["none", "first", "every"]))
    tiebreak = draw(st.sampled_from(["shared", "largest-group"]))
    return OneVariant(players, rings, mirror, tiebreak)


@st.composite
def ohwahree_variants(draw: st.DrawFn) -> OhWahReeVariant:
    players = draw(st.sampled_from([2, 3, 4]))
    stones = draw(st.sampled_from([0, 1, 2, 3, 5]))
    return OhWahReeVariant(players, stones, draw(st.sampled_from(DIRECTION_RULES[players])))


VARIANTS: dict[str, st.SearchStrategy[Any]] = {
    "ONE": one_variants(),
    "Aronda": st.builds(
        ArondaVariant, st.sampled_from(["strict", "pass"]), st.sampled_from(["end", "lose"])
    ),
    "Oust": st.builds(OustVariant, st.integers(2, 6), st.booleans()),
    "Oh-Wah-Ree": ohwahree_variants(),
}


def same_as_frozen(game: str, state: GameState[Any], order: list[str]) -> None:
    """Every method of ``game`` that has a frozen copy gives what the copy gives."""
    frozen = FROZEN[game]
    for name in order:
        if name in frozen:
            assert getattr(state, name)() == frozen[name](state), name


def play_and_compare(game: str, variant: Any, data: st.DataObject) -> None:
    """Random legal play (with resignations) to a drawn ply, comparing after every ply."""
    found = engine(game)
    rng = random.Random(data.draw(st.integers(0, 2**32 - 1), label="seed"))
    resign_rate = data.draw(st.sampled_from([0.0, 0.02, 0.1]), label="resign rate")
    stop = data.draw(st.one_of(st.integers(0, 30), st.just(10_000)), label="stop after")
    names = ["largest_groups", "scores", "ranking", "winners", "digest", "position"]
    order = data.draw(st.permutations(names), label="order")
    resign = found.parse_move(variant, "resign")
    state = found.new_game(variant)
    moves: list[Any] = []
    same_as_frozen(game, state, order)
    while not state.is_over and len(moves) < stop:
        if rng.random() < resign_rate and state.check(resign) is None:
            state.play(resign)
            moves.append(resign)
        else:
            moves.append(found.play_chosen(state, lambda _, legal: rng.choice(legal)))
        same_as_frozen(game, state, order)
    event("game over" if state.is_over else "mid-game")
    event("a seat resigned" if resign in moves else "no resignation")
    same_as_frozen(game, state.copy(), list(reversed(order)))
    outcome = found.replay(variant, moves)
    assert outcome.illegal is None
    same_as_frozen(game, outcome.state, order)


@pytest.mark.parametrize("game", list(VARIANTS))
@EXAMPLES
@given(data=st.data())
def test_results_and_snapshots_are_the_frozen_ones(game: str, data: st.DataObject) -> None:
    play_and_compare(game, data.draw(VARIANTS[game], label="variant"), data)
