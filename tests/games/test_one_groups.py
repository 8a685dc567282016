"""ONE's largest groups (docs/rules/one.md §5, §6.3) against the plain flood fill (hypothesis).

``OneState`` finds each seat's largest group on ints of stones with the board's neighbour
tables (``Board.group_tables``), and stops once the stones not yet in a group cannot beat the
largest so far. :func:`flood_fill` below is the search it replaced, kept here as the
reference: every group flood-filled once over a list of the points' owners. The two must
agree on random positions of random boards of every shape the rules allow (any ring sizes,
2 to 6 seats, any density of stones) and on the positions of random legal games; scores and
ranks follow from the largest groups and must match the ones made from the reference.
"""

from __future__ import annotations

import random
from itertools import compress

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.validator.games.one import (
    EMPTY,
    MIRROR_OPTIONS,
    TIEBREAK_OPTIONS,
    Board,
    OneState,
    OneVariant,
    board_for,
    point_name,
)
from tests.games.test_one_properties import Style, play_out, styles


def flood_fill(board: Board, cells: list[int], seats: int) -> list[int]:
    """largest(s) indexed by seat (entry 0 unused): the engine's search before the tables."""
    owners = list(board.on_points(cells))
    adjacent = board.adjacent
    largest = [0] * (seats + 1)
    for start in compress(range(len(owners)), owners):
        seat = owners[start]
        owners[start] = EMPTY
        group = [start]
        for here in group:
            for there in adjacent[here]:
                if owners[there] == seat:
                    owners[there] = EMPTY
                    group.append(there)
        largest[seat] = max(largest[seat], len(group))
    return largest


def reference_standing(state: OneState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Scores and ranks made from :func:`flood_fill` by the rules' words (§6.3, §6.4, §7).

    A seat still playing ranks one below the number of playing seats ahead of it: a higher
    score, or under ``largest-group`` an equal score and a larger largest group. Resigned
    seats follow, the later resignation ranking higher.
    """
    largest = flood_fill(state.board, state._cells, state.seats)[1:]
    scores = tuple(size + 2 * taken for size, taken in zip(largest, state.captured, strict=True))
    by_group = state.variant.tiebreak == "largest-group"
    keys = [(score, size if by_group else 0) for score, size in zip(scores, largest, strict=True)]
    playing = [seat for seat in range(1, state.seats + 1) if seat not in state.resigned]
    ranks = [0] * state.seats
    for seat in playing:
        ranks[seat - 1] = 1 + sum(1 for other in playing if keys[other - 1] > keys[seat - 1])
    for rank, seat in enumerate(reversed(state.resigned), len(playing) + 1):
        ranks[seat - 1] = rank
    return scores, tuple(ranks)


def assert_agrees(state: OneState) -> None:
    """The engine's largest groups, scores and ranks equal the reference's."""
    expected = flood_fill(state.board, state._cells, state.seats)[1:]
    fresh = state.copy()
    fresh._scored = None  # the copy must compute, not reuse a remembered scoring
    assert fresh.largest_groups() == tuple(expected)
    assert (fresh.scores(), fresh.ranking()) == reference_standing(state)


@st.composite
def ring_sizes(draw: st.DrawFn, most: int = 600) -> tuple[int, ...]:
    """Ring sizes the rules allow (§2.1): each at least 5 and a divisor of the next."""
    rings = [draw(st.integers(5, 24), label="ring a")]
    for _ in range(draw(st.integers(0, 5), label="more rings")):
        grown = rings[-1] * draw(st.sampled_from([1, 1, 2, 3]), label="factor")
        if sum(rings) + grown > most:
            break
        rings.append(grown)
    return tuple(rings)


@st.composite
def positions(draw: st.DrawFn) -> OneState:
    """A position set up by hand on a random board: any seats, density and captures."""
    rings = draw(ring_sizes())
    players = draw(st.integers(2, min(6, sum(rings))), label="players")
    variant = OneVariant(
        players=players,
        rings=rings,
        mirror=draw(st.sampled_from(MIRROR_OPTIONS), label="mirror"),
        tiebreak=draw(st.sampled_from(TIEBREAK_OPTIONS), label="tiebreak"),
    )
    rng = random.Random(draw(st.integers(0, 2**32), label="seed"))
    empty = draw(st.sampled_from([0.0, 0.1, 0.3, 0.6, 0.95]), label="empty share")
    # a few seats only, at times, so that groups grow large
    playing = rng.sample(range(1, players + 1), rng.randint(1, players))
    stones = {
        point_name(p): rng.choice(playing) for p in variant.board.points if rng.random() >= empty
    }
    captured = draw(st.lists(st.integers(0, 9), min_size=players, max_size=players))
    return OneState.set_up(variant, stones, captured=captured)


@settings(max_examples=400)
@given(state=positions())
def test_largest_groups_equal_the_flood_fill_on_random_boards(state: OneState) -> None:
    assert_agrees(state)


@settings(max_examples=30)
@given(rings=ring_sizes(most=150), players=st.integers(2, 6), style=styles, data=st.data())
def test_largest_groups_equal_the_flood_fill_through_random_games(
    rings: tuple[int, ...], players: int, style: Style, data: st.DataObject
) -> None:
    variant = OneVariant(
        players=min(players, sum(rings)),
        rings=rings,
        mirror=data.draw(st.sampled_from(MIRROR_OPTIONS), label="mirror"),
        tiebreak=data.draw(st.sampled_from(TIEBREAK_OPTIONS), label="tiebreak"),
    )
    states, _ = play_out(variant, style)
    for state in states[:: max(1, len(states) // 25)] + states[-1:]:
        assert_agrees(state)


def test_group_across_a_ring_end_and_up_a_spoke_of_a_wider_ring() -> None:
    # a4, a5 and a1 wrap round ring a, a1 - b1 is a spoke, b1 - c1 and b2 - c3 go out to a ring
    # twice as wide (c2 has no inner neighbour), c1 and c10 wrap round ring c
    variant = OneVariant(players=2, rings=(5, 5, 10))
    stones = dict.fromkeys(["a4", "a5", "a1", "b1", "c1", "c10"], 1) | {"b2": 2, "c3": 2}
    state = OneState.set_up(variant, stones)
    assert state.largest_groups() == (6, 2)


@pytest.mark.parametrize(
    ("stones", "largest"),
    [
        # small groups first in board order, the largest last: the search must reach it
        ({"a1": 1, "a3": 1, "c1": 1, "c2": 1, "c3": 1, "c4": 1}, (4, 0)),
        # two groups of 3: after the first, 3 stones are left, and none can beat it
        ({"a1": 1, "a2": 1, "a3": 1, "c5": 1, "c6": 1, "c7": 1}, (3, 0)),
        # lone stones only
        ({"a1": 2, "a3": 2, "b2": 2, "c10": 1}, (1, 1)),
    ],
)
def test_every_group_that_could_be_larger_is_searched(
    stones: dict[str, int], largest: tuple[int, int]
) -> None:
    state = OneState.set_up(OneVariant(players=2, rings=(5, 5, 10)), stones)
    assert state.largest_groups() == largest
    assert_agrees(state)


def test_the_largest_board_has_its_tables_made_once_and_agrees() -> None:
    board = board_for((5000, 5000))
    assert board.group_tables() is board.group_tables()
    variant = OneVariant(players=3, rings=(5000, 5000))
    rng = random.Random(39)
    stones = {name: rng.choice((1, 1, 2, 3)) for name in board.names if rng.random() < 0.8}
    assert_agrees(OneState.set_up(variant, stones))
