"""Oh-Wah-Ree's ring of 12 pits as data (docs/rules/ohwahree.md §2, §4.2).

The game's constants, who owns which pit at each table size, and the order in which a sowing
visits the pits. It may import the standard library only.
"""

from __future__ import annotations

from functools import cache
from typing import Final, Literal, TypeAlias

#: The game's name as the GRN ``Game`` tag writes it.
NAME: Final = "Oh-Wah-Ree"
#: The rules text that messages cite.
RULES: Final = "docs/rules/ohwahree.md"

#: Pits on the ring, numbered 1..12 counter-clockwise (rules §2).
PIT_COUNT: Final = 12

#: A sowing direction: counter-clockwise (pit i to i+1) or clockwise (pit i to i-1).
SowDirection: TypeAlias = Literal["ccw", "cw"]

#: Pit-index step of one sowing step in each direction (ccw: pit i to i+1).
DIRECTION_STEP: Final[dict[str, int]] = {"ccw": 1, "cw": -1}

#: The ``Direction`` option values each table size allows (rules §8.1), the default first.
DIRECTION_RULES: Final[dict[int, tuple[str, ...]]] = {
    2: ("ccw",),
    3: ("free",),
    4: ("free", "ccw"),
}


@cache
def pit_owners(players: int) -> tuple[int, ...]:
    """The seat that owns each pit, for pits 1..12 in order (rules §2).

    Seat k owns the pits ((−(k−1)·m + j) mod 12) + 1 for j = 0..m−1, m = 12 / players.
    """
    per_seat = PIT_COUNT // players
    owners = [0] * PIT_COUNT
    for seat in range(1, players + 1):
        for j in range(per_seat):
            owners[(-(seat - 1) * per_seat + j) % PIT_COUNT] = seat
    return tuple(owners)


@cache
def _seat_pits(players: int) -> tuple[slice, ...]:
    """Per seat in seat order, its pits as a slice of the pit list (each seat's are adjacent)."""
    per_seat = PIT_COUNT // players
    return tuple(
        slice(start, start + per_seat)
        for start in ((-(seat - 1) * per_seat) % PIT_COUNT for seat in range(1, players + 1))
    )


def seat_pits(players: int, seat: int) -> tuple[int, ...]:
    """The pits (1-based, ascending) that ``seat`` owns at a table of ``players`` (rules §2)."""
    return tuple(pit for pit, owner in enumerate(pit_owners(players), 1) if owner == seat)


def _sowing_lap(origin: int, step: int) -> tuple[int, ...]:
    """The 11 other pit indices (0-based) in sowing order from ``origin``, one lap (rules §4.2)."""
    return tuple((origin + step * j) % PIT_COUNT for j in range(1, PIT_COUNT))


def last_pit(pit: int, direction: SowDirection, stones: int) -> int:
    """The pit (1-based) where the last of ``stones`` (at least 1) sown from ``pit`` lands.

    The origin is skipped on every lap, so the last stone lands in pit ``stones % 11`` of the
    lap of the 11 other pits (the 11th when that is 0) (rules §4.2).
    """
    path = _sowing_lap(pit - 1, DIRECTION_STEP[direction])
    return path[stones % (PIT_COUNT - 1) - 1] + 1
