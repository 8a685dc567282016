"""Oust's record syntax: cells ``g7`` and turns ``e5,f5,k9`` (notation.md, Oust), its variant tags.

Move form: a tuple of ``(column, row)`` pairs, one per placement, the column as the rank of
its letter (``a`` = 1). A cell is a letter and a row number; whether the board has it
(``g0`` parses) is the referee's question, and so is how many placements a turn may chain.
"""

from __future__ import annotations

from typing import Any, Final

from gamerec.recorder.errors import EncodingError
from gamerec.recorder.syntax.base import (
    PLAYERS,
    GameSyntax,
    letter,
    letter_number,
    named_option,
    number_option,
)

#: An Oust move form: ``(column, row)`` per placement (``g7`` is ``((7, 7),)``).
Cells = tuple[tuple[int, int], ...]


def parse_move(token: str) -> Cells:
    """``g7`` or ``e5,f5,k9``, lower case.

    Raises:
        NotationError: a part is not an Oust cell.
    """
    return tuple(letter_number(part, token, "an Oust cell", "g7") for part in token.split(","))


def message_of(cells: Cells) -> dict[str, Any]:
    """The fields of an ``OustTurn`` for a move form."""
    return {"placements": [{"column": column, "row": row} for column, row in cells]}


def format_move(turn: Any) -> str:
    """The canonical token of an ``OustTurn``.

    Raises:
        EncodingError: no placement, or a column with no letter.
    """
    if not turn.placements:
        raise EncodingError("an Oust turn with no placement has no token")
    return ",".join(f"{letter(cell.column, 'column')}{cell.row}" for cell in turn.placements)


SYNTAX: Final = GameSyntax(
    enum="GAME_OUST",
    name="Oust",
    aliases=("oust",),
    action="oust",
    variant="oust",
    options=(
        PLAYERS,
        number_option("Board", "board_side", "a board side"),
        named_option("Pie", "pie", "OustPie", {"on": "OUST_PIE_ON", "off": "OUST_PIE_OFF"}),
    ),
    parse_move=parse_move,
    message_of=message_of,
    format_move=format_move,
)
