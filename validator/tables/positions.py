"""The numbering of two-seat Oh-Wah-Ree positions in a table (docs/tables.md, "Positions").

A table position is the 12 pit counts seen from the side to move: its own six pits first (the
pits 1-6 of seat 1, or 7-12 of seat 2), then the opponent's six. Two seats sow the same way
round a ring and own six neighbouring pits each (rules §2, §4.1), so turning the ring by six
pits swaps the seats and changes nothing else; a test checks this on the engine. Nothing else
of a two-seat state decides its future: the stores only add to the score, the skip counter and
resignations do not occur in play (rules §6.1, §7), and the ply count is not a rule.

Positions with n stones on the board form level n, numbered by the combinatorial number system
(a position is a choice of 11 bars among n + 11 places); the levels follow one another from 0
stones, so a table of up to N stones holds ``table_size(N)`` = C(N + 12, 12) positions.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from functools import cache
from itertools import accumulate, combinations
from math import comb
from typing import Final

#: Pits on the ring, and pits per seat with two seats (rules §2).
PITS: Final = 12
SIDE: Final = 6
#: The most stones on the board a table may cover (its positions are numbered in 32 bits).
MAX_STONES: Final = 24

Pits = tuple[int, ...]


def seen_from(pits: Sequence[int], to_move: int) -> Pits:
    """The pits of a two-seat position seen from ``to_move`` (1 or 2): its own six first."""
    if to_move == 1:
        return tuple(pits)
    return (*pits[SIDE:], *pits[:SIDE])


def level_size(stones: int) -> int:
    """The positions with ``stones`` stones on the board: C(stones + 11, 11)."""
    return comb(stones + PITS - 1, PITS - 1)


def level_offset(stones: int) -> int:
    """The index of the first position with ``stones`` stones (all levels below come first)."""
    return comb(stones + PITS - 1, PITS)


def table_size(most: int) -> int:
    """The positions of a table of up to ``most`` stones: C(most + 12, 12)."""
    return comb(most + PITS, PITS)


@cache
def _binomials(stones: int) -> tuple[tuple[int, ...], ...]:
    """``rows[k][b]`` = C(b, k) for k = 1..11 and b < stones + 11 (row 0 unused)."""
    places = stones + PITS - 1
    return tuple(tuple(comb(b, k) for b in range(places)) for k in range(PITS))


def rank(pits: Sequence[int], stones: int) -> int:
    """The number of ``pits`` (holding ``stones`` in all) within its level."""
    rows = _binomials(stones)
    total = 0
    for k, bar in enumerate(accumulate(pits[: PITS - 1]), 1):
        total += rows[k][bar + k - 1]
    return total


def index_of(pits: Sequence[int]) -> int:
    """The number of a position (pits seen from the side to move) in any table covering it."""
    stones = sum(pits)
    return level_offset(stones) + rank(pits, stones)


def unrank(stones: int, number: int) -> Pits:
    """The position numbered ``number`` among those with ``stones`` stones (inverse of rank)."""
    bars = [0] * (PITS - 1)
    rest = number
    place = stones + PITS - 2
    for k in range(PITS - 1, 0, -1):
        while comb(place, k) > rest:
            place -= 1
        bars[k - 1] = place
        rest -= comb(place, k)
        place -= 1
    return _from_bars(bars, stones)


def position_at(index: int) -> Pits:
    """The position numbered ``index`` in a table (inverse of :func:`index_of`)."""
    stones = 0
    while level_offset(stones + 1) <= index:
        stones += 1
    return unrank(stones, index - level_offset(stones))


def level(stones: int) -> Iterator[tuple[int, Pits]]:
    """Every position with ``stones`` stones, with its number in the level, in number order."""
    places = stones + PITS - 1
    # A position is also its stones' places among the bars. Complements reverse the
    # colexicographic order, and combinations() of the places in descending order lists the
    # stones' places in reverse colexicographic order: the bars' come out in number order.
    for number, stars in enumerate(combinations(range(places - 1, -1, -1), stones)):
        pits = [0] * PITS
        for before, place in enumerate(reversed(stars)):
            pits[place - before] += 1
        yield number, tuple(pits)


def _from_bars(bars: Sequence[int], stones: int) -> Pits:
    """The pits between increasing bar places among ``stones + 11`` places."""
    pits = []
    before = -1
    for bar in bars:
        pits.append(bar - before - 1)
        before = bar
    pits.append(stones + PITS - 2 - before)
    return tuple(pits)
