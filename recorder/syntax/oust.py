"""Oust's record syntax: cells ``g7`` and turns ``e5,f5,k9`` (notation.md, Oust), its variant tags.

A cell is a letter and a row number; whether the board has it is the referee's question, and
so is how many placements a turn may chain.
"""

from __future__ import annotations

from typing import Final

from gamerec.recorder.errors import EncodingError
from gamerec.recorder.syntax.base import (
    PLAYERS,
    GameSyntax,
    letter,
    letter_number,
    named_option,
    number_option,
    positive,
)
from gamerec.v1 import record_pb2 as pb

PIES: Final = {"on": pb.OUST_PIE_ON, "off": pb.OUST_PIE_OFF}


def parse_move(token: str) -> pb.OustTurn:
    """``g7`` or ``e5,f5,k9``, lower case.

    Raises:
        NotationError: a part is not an Oust cell.
    """
    cells = []
    for part in token.split(","):
        column, row = letter_number(part, token, "an Oust cell", "g7")
        cells.append(pb.OustCell(column=column, row=row))
    return pb.OustTurn(placements=cells)


def format_move(turn: pb.OustTurn) -> str:
    """The canonical token of an Oust turn.

    Raises:
        EncodingError: no placement, or a cell with no name.
    """
    if not turn.placements:
        raise EncodingError("an Oust turn with no placement has no token")
    return ",".join(
        f"{letter(cell.column, 'column')}{positive(cell.row, 'row')}" for cell in turn.placements
    )


SYNTAX: Final = GameSyntax(
    game=pb.GAME_OUST,
    name="Oust",
    aliases=("oust",),
    action="oust",
    variant="oust",
    options=(
        PLAYERS,
        number_option("Board", "board_side", "a board side"),
        named_option("Pie", "pie", PIES),
    ),
    parse_move=parse_move,
    format_move=format_move,
)
