"""Positions for the search tests, reached by seeded random games, and a brute-force judge.

A position is the state after ``plies`` plies of the engine's own random game with ``seed``
(the same seed always gives the same game). :func:`wins_within` is the plain minimax the
search's answers are checked against: no table, no pruning, no evaluation.
"""

from __future__ import annotations

import random
from typing import Any, NamedTuple

from gamerec.validator.games.protocol import GameState
from gamerec.validator.games.registry import GameEntry, entry_named


class Composed(NamedTuple):
    """A position with a forced win for the seat to move in ``depth`` decisions."""

    game: str
    seats: int
    seed: int
    plies: int
    depth: int


#: Found by brute force (each test checks it again with :func:`wins_within`).
FORCED_WINS = (
    Composed("ONE", 2, 0, 71, 1),
    Composed("ONE", 2, 0, 69, 3),
    Composed("ONE", 2, 3, 63, 5),
    Composed("Aronda", 2, 0, 16, 1),
    Composed("Aronda", 2, 1, 37, 3),
    Composed("Oust", 2, 6, 47, 1),
    Composed("Oust", 2, 0, 46, 3),
    Composed("Oh-Wah-Ree", 2, 0, 86, 1),
    Composed("Oh-Wah-Ree", 2, 3, 128, 3),
)


def position(game: str, seats: int, seed: int, plies: int) -> tuple[GameEntry, Any, GameState[Any]]:
    """The game's entry, variant, and the state after ``plies`` plies of random game ``seed``."""
    entry = entry_named(game)
    variant = entry.engine.variant_from_tags({"Players": str(seats)})
    moves = entry.engine.random_game(variant, random.Random(seed))
    state = entry.engine.new_game(variant)
    for move in moves[:plies]:
        state.play(move)
    return entry, variant, state


def wins_within(state: GameState[Any], seat: int, depth: int) -> bool:
    """Whether ``seat`` can force being the sole winner within ``depth`` decisions."""
    if state.is_over:
        return state.winners() == (seat,)
    if depth == 0:
        return False
    outcomes = []
    for move in state.legal_moves():
        child = state.copy()
        child.decide(move)
        outcomes.append(wins_within(child, seat, depth - 1))
        if state.to_move == seat and outcomes[-1]:
            return True
        if state.to_move != seat and not outcomes[-1]:
            return False
    return state.to_move != seat


def after(state: GameState[Any], decision: Any) -> GameState[Any]:
    """A copy of ``state`` with one decision made."""
    child = state.copy()
    child.decide(decision)
    return child
