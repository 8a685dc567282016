"""Oust's move tokens (notation.md): ``Move``, ``PASS``, ``SWAP``, ``RESIGN``, cell codes.

``parse_move`` reads a turn with the record's grammar (``recorder.syntax.oust``); a cell off
the board parses (``check`` reports it).

May import: ``protocol``, ``recorder.errors``, ``recorder.syntax.oust``, ``oust.board``.
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from gamerec.recorder.errors import NotationError
from gamerec.recorder.syntax import oust as syntax
from gamerec.validator.games.oust.board import (
    _code_of,
    cell_name,
)
from gamerec.validator.games.protocol import (
    MoveSyntaxError,
)

PASS: Literal["pass"] = "pass"
SWAP: Literal["swap"] = "swap"
RESIGN: Literal["resign"] = "resign"

Turn: TypeAlias = tuple[int, ...]
Special: TypeAlias = Literal["pass", "swap", "resign"]
Move: TypeAlias = Turn | Special


def cell_code(name: str) -> int:
    """The cell code of a cell name such as ``g7`` (case-insensitive, any board).

    Raises:
        MoveSyntaxError: ``name`` is not a letter followed by a number.
    """
    move = parse_move(name)
    if isinstance(move, str) or len(move) != 1:
        raise MoveSyntaxError(f"{name!r} is not an Oust cell name (a letter and a number)")
    return move[0]


_SPECIALS: dict[str, Special] = {PASS: PASS, SWAP: SWAP, RESIGN: RESIGN}


def parse_move(text: str) -> Move:
    """Parse a turn token of notation.md: ``g7``, ``e5,f5,k9``, ``pass``, ``swap``, ``resign``.

    Case-insensitive, space around the token ignored; read by the record's grammar
    (``gamerec.recorder.syntax.oust``), so no space inside it. Cells off the board parse
    (``check`` reports them).

    Raises:
        MoveSyntaxError: the text is not an Oust move token.
    """
    lowered = text.strip().lower()
    special = _SPECIALS.get(lowered)
    if special is not None:
        return special
    try:
        cells = syntax.parse_move(lowered)
    except NotationError as error:
        raise MoveSyntaxError(str(error)) from None
    return tuple(_code_of(column, row) for column, row in cells)


def format_move(move: Move) -> str:
    """The canonical lower-case token of ``move`` (``e5,f5,k9``, ``pass``)."""
    if isinstance(move, str):
        return move
    return ",".join(cell_name(code) for code in move)
