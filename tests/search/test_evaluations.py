"""The games' search evaluations: what they count, and that the search uses them."""

from __future__ import annotations

import pytest

from gamerec.validator.analysis.searcher import evaluation_of
from gamerec.validator.games import aronda
from gamerec.validator.games.entries.aronda import NEAR, field_race
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
    entry, _, state = position("Oh-Wah-Ree", 2, 0, 12)
    evaluate = evaluation_of(entry)
    assert evaluate(state, 1) == 100 * entry.annotation.value(state, 1)
