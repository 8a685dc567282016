"""Retrograde analysis of two-seat Oh-Wah-Ree positions over the rules engine (docs/tables.md).

Why retrograde and not a memoised search: without captures, stones go round the ring and a
position can come back (the rules have no repetition rule, §8.2), so the move graph of a level
has cycles and a depth-first search with a memo would be wrong on them. Levels are solved from 0
stones up: a capture leads to a lower level, already solved; the moves that keep every stone on
the board stay in the level, whose values are then found by propagating backwards from the
positions already known (ends, captures) to their predecessors until nothing changes.

Each position gets two numbers, the margins (stones the side to move gains from here on, minus
the opponent's) that each side can force *together with an end of the game*:

- ``lower``: the most the side to move can make sure of, the game ending; −∞ when the opponent
  can keep the game going for ever.
- ``upper``: the least the opponent can hold it to, the game ending; +∞ when the side to move can
  keep the game going for ever.

``lower = max over moves (captured − upper(child))`` and ``upper = max over moves (captured −
lower(child))``; an end position (the side to move has no stone, rules §6.1) is worth its score
margin from the engine, −(stones on the board). Starting from −∞ and +∞, the propagation reaches
the least fixed point, which is exactly the forced values (a player who can force an end with
at least x can force it within a bounded number of plies). When ``lower == upper`` the position
has that exact value whatever an endless game would be worth; when ``lower < upper`` perfect
play never ends: each side can keep the game going rather than accept the other's end, and the
rules give such a game no result. A table keeps both numbers of every position.
"""

from __future__ import annotations

import multiprocessing
from array import array
from collections import deque
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from itertools import islice
from typing import Final

from gamerec.validator.games.ohwahree import OhWahReeState, OhWahReeVariant
from gamerec.validator.tables.positions import (
    MAX_STONES,
    level,
    level_offset,
    level_size,
    rank,
    seen_from,
    table_size,
)

#: Stands for an unbounded margin while solving (beyond any real margin).
INFINITE: Final = 1000

#: The rules the tables are made with: two seats sow counter-clockwise (rules §4.1, §8.2). The
#: stones per pit only fix the start position; a variant with enough stones for the stores.
VARIANT: Final = OhWahReeVariant(players=2, stones_per_pit=MAX_STONES // 12)


@dataclass(frozen=True, slots=True)
class Solved:
    """The bounds of every position of a table, by position number (see the module text)."""

    stones: int
    lower: array[int]
    upper: array[int]


#: Told of each level as it is solved: (stones, positions of the level).
Progress = Callable[[int, int], None]


def solve(stones: int, progress: Progress | None = None, *, workers: int = 1) -> Solved:
    """Solve every position with up to ``stones`` stones on the board.

    ``workers`` processes (forked) expand a level's positions on the engine, each a share of
    them; the propagation runs in this process. The result does not depend on ``workers``.

    Raises:
        ValueError: ``stones`` is not in 0..MAX_STONES.
    """
    if not 0 <= stones <= MAX_STONES:
        raise ValueError(f"a table covers 0 to {MAX_STONES} stones, not {stones}")
    total = table_size(stones)
    lower = array("h", bytes(2 * total))
    upper = array("h", bytes(2 * total))
    for count in range(stones + 1):
        low, high = _solve_level(count, lower, upper, workers)
        start = level_offset(count)
        lower[start : start + len(low)] = low
        upper[start : start + len(high)] = high
        if progress is not None:
            progress(count, len(low))
    return Solved(stones, lower, upper)


@dataclass(slots=True)
class _Level:
    """One level's move graph: each position's moves within the level, and the rest as bounds."""

    first: array[int]  # first[p]..first[p + 1] index ``children`` (moves that capture nothing)
    children: array[int]
    fixed_lower: array[int]  # best captured − upper(child) over moves to lower levels
    fixed_upper: array[int]
    ended: bytearray  # 1 where the game is over with this side to move


def _solve_level(
    stones: int, lower: array[int], upper: array[int], workers: int
) -> tuple[array[int], ...]:
    """The bounds of the level of ``stones``, the levels below solved in ``lower``/``upper``."""
    graph = _level_graph(stones, lower, upper, workers)
    size = level_size(stones)
    low = array("h", [-INFINITE]) * size
    high = array("h", [INFINITE]) * size
    for number in range(size):
        if graph.ended[number]:
            low[number] = high[number] = graph.fixed_lower[number]
    _propagate(graph, low, high)
    return low, high


#: A level smaller than this is expanded in this process (forking would cost more).
_FORK_FROM: Final = 20_000
#: The levels solved so far, for forked workers (set just before they are forked).
_below: tuple[array[int], array[int]] = (array("h"), array("h"))


def _level_graph(stones: int, lower: array[int], upper: array[int], workers: int) -> _Level:
    """Play every move of every position of the level on the engine."""
    size = level_size(stones)
    if workers <= 1 or size < _FORK_FROM:
        return _expand(stones, 0, size, lower, upper)
    global _below  # noqa: PLW0603 (handed to the forked workers)
    _below = (lower, upper)
    shares = 4 * workers
    cuts = [size * share // shares for share in range(shares + 1)]
    context = multiprocessing.get_context("fork")
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        parts = list(pool.map(_expand_forked, [stones] * shares, cuts[:-1], cuts[1:]))
    _below = (array("h"), array("h"))
    whole = _Level(array("i"), array("i"), array("h"), array("h"), bytearray())
    for part in parts:
        whole.first.extend(slot + len(whole.children) for slot in part.first[:-1])
        whole.children.extend(part.children)
        whole.fixed_lower.extend(part.fixed_lower)
        whole.fixed_upper.extend(part.fixed_upper)
        whole.ended.extend(part.ended)
    whole.first.append(len(whole.children))
    return whole


def _expand_forked(stones: int, start: int, stop: int) -> _Level:
    """:func:`_expand` in a forked worker, over the levels its parent had solved."""
    return _expand(stones, start, stop, *_below)


def _expand(stones: int, start: int, stop: int, lower: array[int], upper: array[int]) -> _Level:
    """The move graph of the positions numbered ``start..stop-1`` of the level.

    Its own positions are numbered from ``start``; children keep their numbers in the level.
    """
    size = stop - start
    first = array("i", [0]) * (size + 1)
    children = array("i")
    fixed_lower = array("h", [-INFINITE]) * size
    fixed_upper = array("h", [-INFINITE]) * size
    ended = bytearray(size)
    stores = (VARIANT.total_stones - stones, 0)
    for number, (_, pits) in enumerate(islice(level(stones), start, stop)):
        first[number] = len(children)
        state = OhWahReeState.from_position(VARIANT, pits, stores, 1)
        if state.is_over:
            ended[number] = 1
            fixed_lower[number] = fixed_upper[number] = _margin(state, stores)
            continue
        best_lower = best_upper = -INFINITE
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            captured = child.stores[0] - stores[0]
            seen = seen_from(child.pits, 2)
            if captured == 0:
                children.append(rank(seen, stones))
                continue
            rest = stones - captured
            at = level_offset(rest) + rank(seen, rest)
            best_lower = max(best_lower, _gain(captured, upper[at]))
            best_upper = max(best_upper, _gain(captured, lower[at]))
        fixed_lower[number], fixed_upper[number] = best_lower, best_upper
    first[size] = len(children)
    return _Level(first, children, fixed_lower, fixed_upper, ended)


def _gain(captured: int, child: int) -> int:
    """``captured`` minus a child's bound, unbounded when the bound is."""
    return -child if abs(child) >= INFINITE else captured - child


def _margin(state: OhWahReeState, stores: tuple[int, int]) -> int:
    """The engine's score margin of an ended position for seat 1, less the stores it began with."""
    scores = state.scores()
    return (scores[0] - stores[0]) - (scores[1] - stores[1])


def _predecessors(graph: _Level, size: int) -> tuple[array[int], array[int]]:
    """The moves of the level reversed: ``parents[first[c]:first[c + 1]]`` lead to c."""
    first = array("i", [0]) * (size + 1)
    for child in graph.children:
        first[child + 1] += 1
    for number in range(size):
        first[number + 1] += first[number]
    fill = array("i", first)
    parents = array("i", [0]) * len(graph.children)
    moves = graph.first
    for parent in range(size):
        for slot in range(moves[parent], moves[parent + 1]):
            child = graph.children[slot]
            parents[fill[child]] = parent
            fill[child] += 1
    return first, parents


def _propagate(graph: _Level, low: array[int], high: array[int]) -> None:
    """Raise ``low`` and lower ``high`` to the least fixed point (see the module text)."""
    size = len(low)
    first, parents = _predecessors(graph, size)
    moves, children = graph.first, graph.children
    fixed_lower, fixed_upper, ended = graph.fixed_lower, graph.fixed_upper, graph.ended
    waiting = deque(number for number in range(size) if not ended[number])
    queued = bytearray(b"\x01") * size
    while waiting:
        number = waiting.popleft()
        queued[number] = 0
        best_lower, best_upper = fixed_lower[number], fixed_upper[number]
        for slot in range(moves[number], moves[number + 1]):
            child = children[slot]
            best_lower = max(best_lower, -high[child])
            best_upper = max(best_upper, -low[child])
        if best_lower == low[number] and best_upper == high[number]:
            continue
        low[number], high[number] = best_lower, best_upper
        for slot in range(first[number], first[number + 1]):
            parent = parents[slot]
            if not queued[parent]:
                queued[parent] = 1
                waiting.append(parent)
