"""The rule options of a ONE game (docs/rules/one.md §3, §8): :class:`OneVariant`.

It may import ``one.board`` and ``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from gamerec.validator.games.one.board import RULES, Board, board_for
from gamerec.validator.games.protocol import VariantError

#: The default ``Board`` (§2.2).
DEFAULT_RINGS: Final = (10, 10, 20, 20)
#: The ``Mirror`` option values (§4.1, §8.1).
MIRROR_OPTIONS: Final = ("none", "first", "every")
#: The ``Tiebreak`` option values (§6.4, §8.1).
TIEBREAK_OPTIONS: Final = ("shared", "largest-group")


@dataclass(frozen=True, slots=True)
class OneVariant:
    """The rule options of a ONE game (§8.1), checked on creation.

    Attributes:
        players: the number of seats N, 2 to 6 (GRN ``Players``, required).
        rings: the ring sizes, innermost first (GRN ``Board``, default ``10,10,20,20``).
        mirror: the anti-mirror rule, ``"none"``, ``"first"`` (default) or ``"every"``.
        tiebreak: how equal scores are separated, ``"shared"`` (default) or
            ``"largest-group"``.

    Raises:
        VariantError: a value is impossible (see :func:`board_for` for the board rules), or
            the board has fewer points than seats (each seat needs at least one stone, §3).
    """

    players: int
    rings: tuple[int, ...] = DEFAULT_RINGS
    mirror: str = "first"
    tiebreak: str = "shared"

    def __post_init__(self) -> None:
        """Check every option and normalise ``rings`` to a tuple."""
        if type(self.players) is not int or not 2 <= self.players <= 6:
            raise VariantError(f"ONE is for 2 to 6 players, not {self.players!r} ({RULES} §3)")
        if not isinstance(self.rings, tuple | list):
            raise VariantError(f"ring sizes must be a sequence of integers, not {self.rings!r}")
        object.__setattr__(self, "rings", tuple(self.rings))
        board = board_for(self.rings)
        if board.size < self.players:
            raise VariantError(
                f"a board of {board.size} points gives {self.players} seats no stones ({RULES} §3)"
            )
        if self.mirror not in MIRROR_OPTIONS:
            raise VariantError(f"Mirror must be none, first or every, not {self.mirror!r}")
        if self.tiebreak not in TIEBREAK_OPTIONS:
            raise VariantError(f"Tiebreak must be shared or largest-group, not {self.tiebreak!r}")

    @property
    def board(self) -> Board:
        """The board of this variant."""
        return board_for(self.rings)

    @property
    def stones(self) -> int:
        """K, every seat's starting supply: floor(P / N) (§3)."""
        return self.board.size // self.players
