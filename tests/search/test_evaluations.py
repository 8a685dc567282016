"""The games' search evaluations: what they count, and that the search uses them."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from gamerec.validator.analysis.searcher import evaluation_of
from gamerec.validator.games import aronda, oust
from gamerec.validator.games.entries.aronda import NEAR, field_race
from gamerec.validator.games.entries.oust import SAFE, STONE, THREAT, stone_race
from gamerec.validator.games.registry import entry_named
from tests.search.positions import position


def test_aronda_counts_fields_and_fields_nearly_taken() -> None:
    variant = aronda.ENGINE.variant()
    one = aronda.ArondaState.arranged(variant, {}, {"o2": (1, 0), "o6": (0, 1)})
    two = aronda.ArondaState.arranged(variant, {}, {"o2": (2, 0), "o6": (0, 1)})
    # the second piece on o2 (capacity 3) leaves seat 1 one piece short of it, not two; the
    # access of both seats stays the same
    assert field_race(two, 1) - field_race(one, 1) == NEAR[1] - NEAR[2]
    owned = aronda.ArondaState.arranged(variant, {"o1": 1}, {"o6": (0, 1)})
    bare = aronda.ArondaState.arranged(variant, {}, {"o6": (0, 1)})
    assert field_race(owned, 1) - field_race(bare, 1) >= 100 - NEAR[2]
    assert field_race(aronda.ENGINE.new_game(variant), 1) == 0


@pytest.mark.parametrize("plies", [4, 9, 14, 20])
def test_aronda_evaluation_is_one_seat_s_gain_and_the_other_s_loss(plies: int) -> None:
    _, _, state = position("Aronda", 2, 2, plies)
    assert field_race(state, 1) == -field_race(state, 2)


def test_the_search_uses_a_game_s_own_evaluation_or_its_annotation_in_hundredths() -> None:
    assert evaluation_of(entry_named("Aronda")) is field_race
    assert evaluation_of(entry_named("Oust")) is stone_race
    entry, _, state = position("Oh-Wah-Ree", 2, 0, 12)
    evaluate = evaluation_of(entry)
    assert evaluate(state, 1) == 100 * entry.annotation.value(state, 1)


def _cells(text: str) -> list[int]:
    return [oust.cell_code(name) for name in text.split()]


def test_oust_prefers_the_seat_with_more_stones_and_the_capture_to_come() -> None:
    variant = oust.ENGINE.variant()
    # X: three singletons far apart; O: one stone on g7 touching X's f7. Either seat to move
    # captures one stone: X's e7 joins f7 into a group of 2 touching g7, O's h7 the other way.
    ahead = oust.OustState.with_stones(variant, _cells("f7 e3 i10"), _cells("g7"), to_move=1)
    assert ahead.best_capture(1) == 1 and ahead.best_capture(2) == 1
    assert stone_race(ahead, 1) > 0 > stone_race(ahead, 2)
    # the same stones, O to move: O's capture comes first, X is still two stones ahead
    waiting = oust.OustState.with_stones(variant, _cells("f7 e3 i10"), _cells("g7"), to_move=2)
    assert stone_race(ahead, 1) - stone_race(waiting, 1) == 2 * THREAT
    assert stone_race(waiting, 1) == 2 * STONE - THREAT + SAFE * (waiting.safe(1) - waiting.safe(2))


def test_oust_a_big_group_s_threat_outweighs_a_stone() -> None:
    variant = oust.ENGINE.variant()
    # X: a group of two (c7 d7) and two singletons; O, to move: a group of three whose next
    # stone on e7 makes a group of 4 touching the pair: O removes two stones at once, and X
    # has no capture (its pair grown to 3 would touch O's group of 3).
    state = oust.OustState.with_stones(
        variant, _cells("c7 d7 j2 i10"), _cells("f6 f7 f8"), to_move=2
    )
    assert (state.best_capture(2), state.best_capture(1)) == (2, 0)
    assert stone_race(state, 2) > 0  # one stone behind, but two are about to go
    assert stone_race(state, 2) == -stone_race(state, 1)


@pytest.mark.parametrize(("seed", "plies"), [(0, 10), (1, 30), (2, 45), (1, 80), (4, 55)])
def test_oust_safe_cells_and_best_capture_are_what_the_rules_allow(seed: int, plies: int) -> None:
    _, _, state = position("Oust", 2, seed, plies)
    assert isinstance(state, oust.OustState) and not state.is_over
    mover = state.to_move
    for seat in (1, 2):
        stones = set(state.stones(1)) | set(state.stones(2))
        own = set(state.stones(seat))
        safe = [
            code
            for code in state.board.cells
            if code not in stones and not own & set(state.board.neighbours(code))
        ]
        assert state.safe(seat) == len(safe)
    removed = [0]
    for placement in state.legal_placements():
        child = state.copy()
        child.place(placement)
        removed.append(len(state.stones(3 - mover)) - len(child.stones(3 - mover)))
    assert state.best_capture(mover) == max(removed)


@settings(max_examples=40)
@given(seed=st.integers(0, 10_000), plies=st.integers(1, 90))
def test_oust_evaluation_is_the_same_with_the_colours_swapped(seed: int, plies: int) -> None:
    _, variant, state = position("Oust", 2, seed, plies)
    assert isinstance(state, oust.OustState)
    assume(not state.is_over)
    assert stone_race(state, 1) == -stone_race(state, 2)
    mover = state.to_move
    swapped = oust.OustState.with_stones(
        variant, state.stones(2), state.stones(1), to_move=3 - mover
    )
    assert stone_race(swapped, 3 - mover) == stone_race(state, mover)
