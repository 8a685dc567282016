"""Aronda's rule options (docs/rules/aronda.md §8.1): ``ArondaVariant`` and its words.

May import: ``protocol``, ``aronda.board``.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerec.validator.games.aronda.board import (
    SEATS,
)
from gamerec.validator.games.protocol import (
    VariantError,
)

SUPPLY_OPTIONS = ("strict", "pass")
SECOND_PIECE_OPTIONS = ("end", "lose")


@dataclass(frozen=True, slots=True)
class ArondaVariant:
    """The rule options of §8.1, with their defaults.

    Attributes:
        supply: ``"strict"`` (a seat without a legal field at the start of its turn loses) or
            ``"pass"`` (it passes when only its supply is empty). GRN tag ``Supply``.
        second_piece: ``"end"`` (a turn whose second piece has no legal field ends after one
            piece) or ``"lose"`` (the mover loses). GRN tag ``SecondPiece``.
        players: always 2.
    """

    supply: str = "strict"
    second_piece: str = "end"
    players: int = SEATS

    def __post_init__(self) -> None:
        """Reject impossible options.

        Raises:
            VariantError: an unknown ``supply`` or ``second_piece``, or players other than 2.
        """
        if self.supply not in SUPPLY_OPTIONS:
            raise VariantError(f"Aronda Supply must be strict or pass, not {self.supply!r}")
        if self.second_piece not in SECOND_PIECE_OPTIONS:
            raise VariantError(f"Aronda SecondPiece must be end or lose, not {self.second_piece!r}")
        if type(self.players) is not int or self.players != SEATS:
            raise VariantError(f"Aronda is played by 2 players, not {self.players!r}")
