"""The rule options of an Oh-Wah-Ree game (docs/rules/ohwahree.md §8.1): :class:`OhWahReeVariant`.

It may import ``ohwahree.pits`` and ``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerec.validator.games.ohwahree.pits import DIRECTION_RULES, PIT_COUNT, RULES
from gamerec.validator.games.protocol import VariantError


@dataclass(frozen=True, slots=True)
class OhWahReeVariant:
    """The rule options of one game (rules §8.1); a zero / empty option takes its default.

    Attributes:
        players: 2, 3 or 4 seats (GRN ``Players``, required).
        stones_per_pit: stones in every pit at the start, at least 1 (GRN ``StonesPerPit``);
            0 stands for the default, 4 for 2 and 3 seats and 6 for 4 seats, and is replaced by
            that number on creation.
        direction: ``"ccw"`` (every move counter-clockwise) or ``"free"`` (the mover chooses)
            (GRN ``Direction``); 2 seats allow only ``ccw``, 3 seats only ``free``, 4 seats
            either. ``""`` stands for the default (``ccw`` for 2 seats, ``free`` for 3 and 4)
            and is replaced by it on creation.

    Raises:
        VariantError: on creation, for an impossible combination or a value of the wrong type.
    """

    players: int
    stones_per_pit: int = 0
    direction: str = ""

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in DIRECTION_RULES:
            raise VariantError(
                f"Oh-Wah-Ree is played by 2, 3 or 4 seats, not {self.players!r} ({RULES} §2)"
            )
        if type(self.stones_per_pit) is not int or self.stones_per_pit < 0:
            raise VariantError(
                f"stones per pit must be an integer of at least 1, not {self.stones_per_pit!r}"
                f" ({RULES} §8.1)"
            )
        if self.stones_per_pit == 0:
            object.__setattr__(self, "stones_per_pit", 6 if self.players == 4 else 4)
        allowed = DIRECTION_RULES[self.players]
        if self.direction == "":
            object.__setattr__(self, "direction", allowed[0])
        elif self.direction not in allowed:
            raise VariantError(
                f"Direction {self.direction!r} is not possible with {self.players} seats;"
                f" allowed: {', '.join(allowed)} ({RULES} §8.1)"
            )

    @property
    def total_stones(self) -> int:
        """The stones in play, 12 times the stones per pit (rules §3, §5)."""
        return PIT_COUNT * self.stones_per_pit

    @property
    def direction_is_free(self) -> bool:
        """Whether the mover chooses ccw or cw on each move (rules §4.1)."""
        return self.direction == "free"
