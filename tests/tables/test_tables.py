"""Oh-Wah-Ree endgame tables: numbering, the retrograde analysis against brute force, the file."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerec.validator.games.ohwahree import OhWahReeState, OhWahReeVariant, Sow
from gamerec.validator.tables import Table, open_table
from gamerec.validator.tables import build as build_module
from gamerec.validator.tables.build import solve
from gamerec.validator.tables.positions import (
    index_of,
    level,
    level_size,
    position_at,
    rank,
    seen_from,
    table_size,
    unrank,
)
from gamerec.validator.tables.tablefile import write

#: The largest table the tests check against brute force on every position (both seats).
BRUTE_STONES = 5
#: The table the property tests probe.
PROPERTY_STONES = 6
TOTAL = 48
VARIANT = OhWahReeVariant(players=2)
INF = float("inf")


def state_of(
    pits: tuple[int, ...], to_move: int, stores: tuple[int, int] | None = None
) -> OhWahReeState:
    """A two-seat state set up directly; the stores take the stones off the board."""
    rest = TOTAL - sum(pits)
    return OhWahReeState.from_position(
        VARIANT, pits, stores or (rest - rest // 2, rest // 2), to_move
    )


def boards(stones: int, pits: int = 12) -> Iterator[tuple[int, ...]]:
    """Every board of ``pits`` pits with ``stones`` stones, by plain recursion (not the tables'
    numbering)."""
    if pits == 1:
        yield (stones,)
        return
    for first in range(stones + 1):
        for rest in boards(stones - first, pits - 1):
            yield (first, *rest)


@pytest.fixture(scope="module")
def small_table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    path = tmp_path_factory.mktemp("tables") / "small.owrt"
    write(solve(BRUTE_STONES), path)
    return open_table(path)


@pytest.fixture(scope="module")
def property_table(tmp_path_factory: pytest.TempPathFactory) -> Table:
    path = tmp_path_factory.mktemp("tables") / "property.owrt"
    write(solve(PROPERTY_STONES), path)
    return open_table(path)


# -- numbering -------------------------------------------------------------------------------


@pytest.mark.parametrize("stones", range(5))
def test_the_numbering_of_a_level_is_a_bijection_in_order(stones: int) -> None:
    listed = list(level(stones))
    assert [number for number, _ in listed] == list(range(level_size(stones)))
    assert [rank(pits, stones) for _, pits in listed] == list(range(level_size(stones)))
    assert sorted(pits for _, pits in listed) == sorted(boards(stones))
    assert all(unrank(stones, number) == pits for number, pits in listed)


def test_positions_are_numbered_across_levels() -> None:
    assert table_size(3) == sum(level_size(n) for n in range(4))
    for index in range(table_size(3)):
        assert index_of(position_at(index)) == index


def test_turning_the_ring_by_six_pits_swaps_the_seats_on_the_engine() -> None:
    """What the tables' one side to move rests on: seat 2's game is seat 1's turned."""
    for pits in [(0, 2, 1, 0, 3, 1, 1, 2, 0, 2, 1, 0), (5, 0, 0, 1, 0, 12, 0, 1, 2, 1, 0, 3)]:
        one = state_of(pits, 1)
        two = OhWahReeState.from_position(VARIANT, seen_from(pits, 2), one.stores[::-1], 2)
        moves = one.legal_moves()
        assert [Sow(move.pit + 6) for move in moves if move != "resign"] == two.legal_moves()
        for move in moves:
            assert move != "resign"
            a, b = one.copy(), two.copy()
            a.play(move)
            b.play(Sow(move.pit + 6))
            assert seen_from(a.pits, 2) == b.pits
            assert a.stores == b.stores[::-1] and a.is_over == b.is_over


# -- against brute force ---------------------------------------------------------------------


def brute_force(most: int) -> dict[tuple[tuple[int, ...], int], tuple[float, float]]:
    """Depth-limited minimax over the engine, deepened until no value changes, for every board
    of up to ``most`` stones and both seats to move (no numbering, no turned ring).

    ``lower`` after k rounds is the most the side to move can make sure of with an end within k
    plies, ``upper`` the least the opponent can; the rounds stop when they stop changing.
    """
    moves: dict[
        tuple[tuple[int, ...], int], list[tuple[int, tuple[tuple[int, ...], int] | None]]
    ] = {}
    ended: dict[tuple[tuple[int, ...], int], int] = {}
    for stones in range(most + 1):
        for pits in boards(stones):
            for seat in (1, 2):
                state = state_of(pits, seat)
                key = (pits, seat)
                if state.is_over:
                    ended[key] = (
                        sum(pits[:6]) - sum(pits[6:])
                        if seat == 1
                        else sum(pits[6:]) - sum(pits[:6])
                    )
                    continue
                children: list[tuple[int, tuple[tuple[int, ...], int] | None]] = []
                for move in state.legal_moves():
                    child = state.copy()
                    child.play(move)
                    captured = child.stores[seat - 1] - state.stores[seat - 1]
                    children.append((captured, (child.pits, 3 - seat)))
                moves[key] = children
    lower: dict[tuple[tuple[int, ...], int], float] = {key: -INF for key in moves}
    upper: dict[tuple[tuple[int, ...], int], float] = {key: INF for key in moves}
    for key, value in ended.items():
        lower[key] = upper[key] = value
    changed = True
    while changed:
        changed = False
        new_lower, new_upper = dict(lower), dict(upper)
        for key, children in moves.items():
            new_lower[key] = max(captured - upper[child] for captured, child in children)  # type: ignore[index]
            new_upper[key] = max(captured - lower[child] for captured, child in children)  # type: ignore[index]
            changed |= new_lower[key] != lower[key] or new_upper[key] != upper[key]
        lower, upper = new_lower, new_upper
    return {key: (lower[key], upper[key]) for key in lower}


def test_the_table_equals_brute_force_on_every_position_of_small_n(small_table: Table) -> None:
    expected = brute_force(BRUTE_STONES)
    assert len(expected) == 2 * table_size(BRUTE_STONES)
    exact = endless = 0
    for (pits, seat), (low, high) in expected.items():
        state = state_of(pits, seat)
        if state.is_over:
            assert small_table.lookup(state) is None  # no side to move: nothing to look up
            continue
        probe = small_table.probe(state)
        assert probe.covered
        if low == high:
            exact += 1
            assert (probe.margin, probe.never_ends) == (low, False), (pits, seat)
            assert small_table.lookup(state) == low
        else:
            endless += 1
            assert probe.margin is None and probe.never_ends, (pits, seat)
            assert (probe.lower, probe.upper) == (
                None if low == -INF else low,
                None if high == INF else high,
            ), (pits, seat)
            assert small_table.lookup(state) is None
    assert exact and endless  # both classes occur at this size


def test_a_lone_stone_each_can_go_round_for_ever() -> None:
    """The class Awari's cycle rule removes: pit 5 and pit 12, seat 1 to move, can cycle.

    Seat 1 can end the game two stones up (1, then 2 ... see the rules §8.2: no repetition
    rule), and seat 2 cannot force an end at all.
    """
    solved = solve(2)
    index = index_of((0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1))
    assert (solved.lower[index], solved.upper[index]) == (2, 1000)
    # And the cycle is real: seat 1 keeps a stone on each side, and a lap later it is back.
    state = state_of((0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1), 1)
    for pit in (5, 12, 6, 7, 1, 8, 2, 9, 3, 10, 4, 11):
        state.play(Sow(pit))
        assert not state.is_over
    assert state.pits == (0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1) and state.to_move == 1


# -- the margin is the best over the children ------------------------------------------------


def _child_bounds(table: Table, child: OhWahReeState, seat: int) -> tuple[float, float]:
    """A child's (lower, upper) for its side to move; an ended child by the engine's scores."""
    if child.is_over:
        scores = child.scores()
        # Seat 3 - seat was to move and had nothing: the board is the mover's (seat's) own.
        value = -(
            scores[seat - 1] - child.stores[seat - 1] - (scores[2 - seat] - child.stores[2 - seat])
        )
        return value, value
    probe = table.probe(child)
    return (
        -INF if probe.lower is None else probe.lower,
        INF if probe.upper is None else probe.upper,
    )


#: A board of up to PROPERTY_STONES stones (the pit of each stone), and the seat to move.
positions = st.tuples(
    st.lists(st.integers(0, 11), max_size=PROPERTY_STONES), st.sampled_from((1, 2))
)


@given(positions)
def test_a_margin_is_the_best_over_the_children_negated(
    property_table: Table, drawn: tuple[list[int], int]
) -> None:
    stones, seat = drawn
    pits = tuple(stones.count(pit) for pit in range(12))
    state = state_of(pits, seat)
    if state.is_over:
        assert property_table.lookup(state) is None
        return
    probe = property_table.probe(state)
    best_lower = best_upper = -INF
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        captured = child.stores[seat - 1] - state.stores[seat - 1]
        low, high = _child_bounds(property_table, child, seat)
        best_lower = max(best_lower, captured - high)
        best_upper = max(best_upper, captured - low)
    assert (-INF if probe.lower is None else probe.lower) == best_lower
    assert (INF if probe.upper is None else probe.upper) == best_upper
    assert probe.margin == (best_lower if best_lower == best_upper else None)
    margins = property_table.move_margins(state)
    assert [move for move, _ in margins] == state.legal_moves()
    if probe.margin is not None:  # an exact position: its best move reaches it, none beats it
        known = [margin for _, margin in margins if margin is not None]
        assert max(known) == probe.margin


def test_forked_workers_solve_the_same_table(monkeypatch: pytest.MonkeyPatch) -> None:
    alone = solve(4)
    monkeypatch.setattr(build_module, "_FORK_FROM", 0)  # fork even for these small levels
    shared = solve(4, workers=2)
    assert (shared.lower, shared.upper) == (alone.lower, alone.upper)


class _CycleError(Exception):
    """Plain minimax met a position already on its path: the game tree is not finite."""


def plain_minimax(state: OhWahReeState, path: set[tuple[tuple[int, ...], int]]) -> int:
    """The margin of ``state`` by plain minimax over the engine to the end of every line.

    Raises:
        _CycleError: some line comes back to a position on it (the tree is infinite).
    """
    key = (state.pits, state.to_move)
    if key in path:
        raise _CycleError
    path.add(key)
    seat = state.to_move
    best = -INF
    for move in state.legal_moves():
        child = state.copy()
        child.play(move)
        captured = child.stores[seat - 1] - state.stores[seat - 1]
        if child.is_over:
            scores, stores = child.scores(), child.stores
            value = (
                captured
                + (scores[seat - 1] - stores[seat - 1])
                - (scores[2 - seat] - stores[2 - seat])
            )
        else:
            value = captured - plain_minimax(child, path)
        best = max(best, value)
    path.discard(key)
    return int(best)


def test_plain_minimax_to_the_end_agrees_wherever_every_line_ends(small_table: Table) -> None:
    """Every position of up to 3 stones whose game tree is finite: plain minimax, no memo."""
    finite = 0
    for stones in range(4):
        for pits in boards(stones):
            state = state_of(pits, 1)
            if state.is_over:
                continue
            try:
                value = plain_minimax(state, set())
            except _CycleError:
                continue
            finite += 1
            assert small_table.lookup(state) == value, pits
    assert finite == 181
