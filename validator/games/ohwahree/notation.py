"""Oh-Wah-Ree's moves and their text (notation.md, Oh-Wah-Ree): :class:`Sow`, ``Move``, the tokens.

It may import ``ohwahree.pits``, ``ohwahree.variant``, the record's grammar
``gamerec.recorder.syntax.ohwahree``, ``gamerec.recorder.errors`` and
``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from typing import Final, Literal, NamedTuple, TypeAlias, cast

from gamerec.recorder.errors import NotationError
from gamerec.recorder.syntax import ohwahree as syntax
from gamerec.validator.games.ohwahree.pits import SowDirection
from gamerec.validator.games.ohwahree.variant import OhWahReeVariant
from gamerec.validator.games.protocol import MoveSyntaxError


class Sow(NamedTuple):
    """Sow all stones of one pit (rules §4.1, §4.2): ``4``, ``4ccw`` or ``4cw``.

    Attributes:
        pit: the pit as written; 1..12 are on the board, any other number is ``NOT_A_PIT``.
        direction: ``"ccw"``, ``"cw"``, or None when the token names no direction.
    """

    pit: int
    direction: SowDirection | None = None


#: The seat to move resigns (rules §7).
RESIGN: Final = "resign"

#: One ply: a sowing, or the resignation of the seat to move.
Move: TypeAlias = Sow | Literal["resign"]


def parse_move(text: str) -> Move:
    """Parse ``4``, ``4ccw``, ``4cw`` or ``resign`` (case-insensitive, spaces around ignored).

    Raises:
        MoveSyntaxError: the text is not an Oh-Wah-Ree move token.
    """
    token = text.strip().lower()
    if token == RESIGN:
        return RESIGN
    try:
        pit, suffix = syntax.parse_move(token)
    except NotationError as error:
        raise MoveSyntaxError(str(error)) from None
    return Sow(pit, cast(SowDirection, suffix) if suffix else None)


def format_move(variant: OhWahReeVariant, move: Move) -> str:
    """The canonical token: the bare pit where every move is ccw, else pit plus direction."""
    if move == RESIGN:
        return RESIGN
    pit, direction = move
    if direction is None or (direction == "ccw" and not variant.direction_is_free):
        return str(pit)
    return f"{pit}{direction}"
