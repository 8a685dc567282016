"""ONE's moves and their text (notation.md, ONE): ``Move``, :func:`parse_move`, :func:`format_move`.

A move is a tuple of point codes (see the package docstring). It may import ``one.board``,
the record's grammar ``gamerec.recorder.syntax.one``, ``gamerec.recorder.errors`` and
``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from typing import Final

from gamerec.recorder.errors import NotationError
from gamerec.recorder.syntax import one as syntax
from gamerec.validator.games.one.board import _code, point_name
from gamerec.validator.games.protocol import MoveSyntaxError

#: A ONE move: the point codes of a placement or capture, ``()`` for resign (module docstring).
Move = tuple[int, ...]
#: The ``resign`` move.
RESIGN: Final[Move] = ()


def point_code(name: str) -> int:
    """The code of a point name (``"c7"`` -> 184), whether or not a board has that point.

    Raises:
        MoveSyntaxError: ``name`` is not a ring letter followed by an index.
    """
    move = parse_move(name)
    if len(move) != 1:
        raise MoveSyntaxError(f"{name!r} is not a ONE point (a ring letter and an index)")
    return move[0]


def parse_move(text: str) -> Move:
    """Parse a ONE move token: ``c7``, ``c7xc9xa5`` or ``resign`` (case-insensitive).

    The record's grammar reads it (``gamerec.recorder.syntax.one``): leading zeros are read as
    the number they spell (``c07`` is ``c7``), an index is at most 2^32 - 1.

    Raises:
        MoveSyntaxError: the text is not a ONE move token (``pass`` is not one: ONE has none).
    """
    token = text.strip().lower()
    if token == "resign":
        return RESIGN
    try:
        points = syntax.parse_move(token)
    except NotationError as error:
        raise MoveSyntaxError(str(error)) from None
    return tuple(_code(ring - 1, index) for ring, index in points)


def format_move(move: Move) -> str:
    """The canonical token of ``move``: ``c7``, ``c7xc9xa5`` or ``resign``."""
    return "x".join(map(point_name, move)) if move else "resign"
