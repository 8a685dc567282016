"""What every reference state offers, and the one ranking rule the four games share.

ONE §6.4/§7 and Oh-Wah-Ree §6.3/§7 rank the seats still playing by score with competition
ranks (1, 1, 3), and put resigned seats below them, the later resignation higher. Aronda and
Oust name one winner (or a draw) and rank the same way from their own keys.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class ReferenceState(Protocol):
    """The surface the cross-check uses; every reference game state has it."""

    @property
    def to_move(self) -> int:
        """The seat to move, 0 once the game is over."""
        ...

    @property
    def is_over(self) -> bool:
        """Whether the game has ended by its rules."""
        ...

    @property
    def ply(self) -> int:
        """How many plies have been played."""
        ...

    def scores(self) -> tuple[int, ...]:
        """Every seat's score now, in seat order."""
        ...

    def ranking(self) -> tuple[int, ...]:
        """Competition ranks in seat order (the standing before the end)."""
        ...

    def winners(self) -> tuple[int, ...]:
        """The seats ranked first once the game is over; empty before."""
        ...

    def legal_tokens(self) -> set[str]:
        """Every legal next ply as canonical text (Oust: every legal first placement)."""
        ...

    def why_illegal(self, token: str) -> str | None:
        """A short reason (the reference's own words) why ``token`` is illegal, else None."""
        ...

    def play(self, token: str) -> None:
        """Play a legal token; raise ValueError for an illegal one."""
        ...

    def copy(self) -> ReferenceState:
        """An independent copy of this state."""
        ...


class Progress:
    """The seat to move, the end and the ply count, which every reference keeps the same way.

    A reference state sets ``seat`` (whose turn it is), ``plies`` (plies played; Oh-Wah-Ree's
    skipped turns are not plies) and ``over`` (the game has ended by its rules).
    """

    seat: int
    plies: int
    over: bool

    @property
    def to_move(self) -> int:
        """The seat to move, 0 once the game is over."""
        return 0 if self.over else self.seat

    @property
    def is_over(self) -> bool:
        """Whether the game has ended by its rules."""
        return self.over

    @property
    def ply(self) -> int:
        """Plies played so far."""
        return self.plies


def ranks_from_keys(
    playing: Sequence[int], key: dict[int, tuple[int, ...]], resigned: Sequence[int]
) -> dict[int, int]:
    """Competition ranks: playing seats by key (higher first), then resigned seats.

    Args:
        playing: the seats still playing.
        key: each playing seat's sort key; equal keys share a rank.
        resigned: the resigned seats in the order they resigned; the later one ranks higher,
            and all of them rank below every playing seat.

    Returns:
        The rank of every seat, by seat.
    """
    ranks: dict[int, int] = {}
    for seat in playing:
        ranks[seat] = 1 + sum(1 for other in playing if key[other] > key[seat])
    for place, seat in enumerate(reversed(resigned)):
        ranks[seat] = len(playing) + place + 1
    return ranks
