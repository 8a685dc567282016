"""Oust's rule options (docs/rules/oust.md §8.1): ``OustVariant``.

May import: ``protocol``, ``oust.board``.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerec.validator.games.oust.board import (
    DEFAULT_SIDE,
    MAX_SIDE,
    MIN_SIDE,
    RULES,
)
from gamerec.validator.games.protocol import (
    VariantError,
)


@dataclass(frozen=True, slots=True)
class OustVariant:
    """The rule options of docs/rules/oust.md §8.1.

    Attributes:
        side: the board's side length, 2 to 13 (GRN tag ``Board``, default 7).
        pie: whether seat 2 may answer ply 1 with ``swap`` (GRN tag ``Pie``, default ``on``).
        players: the number of seats; Oust has exactly 2.

    Raises:
        VariantError: a value of the wrong type or out of range.
    """

    side: int = DEFAULT_SIDE
    pie: bool = True
    players: int = 2

    def __post_init__(self) -> None:
        """Check the options (see the class docstring)."""
        if type(self.side) is not int or not MIN_SIDE <= self.side <= MAX_SIDE:
            raise VariantError(
                f"Oust board side must be an integer from {MIN_SIDE} to {MAX_SIDE}, "
                f"not {self.side!r} ({RULES} §8.1)"
            )
        if type(self.pie) is not bool:
            raise VariantError(f"Oust pie option must be True or False, not {self.pie!r}")
        if type(self.players) is not int or self.players != 2:
            raise VariantError(f"Oust is played by exactly 2 seats, not {self.players!r}")
