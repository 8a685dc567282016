"""Aronda's move tokens (notation.md): ``Move``, ``PASS``, ``RESIGN``, field codes and names.

``parse_move`` reads a turn with the record's grammar (``recorder.syntax.aronda``); a field
token off the board gets a code of 25 or more that keeps its text (``field_code``).

May import: ``protocol``, ``recorder.errors``, ``recorder.syntax.aronda``, ``aronda.board``.
"""

from __future__ import annotations

from gamerec.recorder.errors import GamerecError, NotationError
from gamerec.recorder.syntax import aronda as syntax
from gamerec.validator.games.aronda.board import (
    FIELD_CODES,
    FIELD_COUNT,
    FIELD_NAMES,
)
from gamerec.validator.games.protocol import (
    MoveSyntaxError,
)

PASS_CODE = -1
RESIGN_CODE = -2
#: The move type: a whole turn (see the module docstring).
Move = tuple[int, ...]
PASS: Move = (PASS_CODE,)
RESIGN: Move = (RESIGN_CODE,)


_RINGS = "imo"
_OFF_BOARD_BASE = FIELD_COUNT


def field_code(name: str) -> int:
    """The code of a field token (``c``, ``i1``, ``o8``; ``i9`` gets an off-board code).

    Off-board tokens (a ring letter with index 0 or above 8) map one-to-one to codes from 25
    up, so :func:`field_name` gives the token back.

    Raises:
        MoveSyntaxError: the text is not a field token.
    """
    try:
        fields = syntax.parse_move(name.strip().lower())
    except NotationError:
        fields = ()
    if len(fields) != 1:
        raise MoveSyntaxError(f"{name!r} is not an Aronda field (c, i1..i8, m1..m8, o1..o8)")
    return _code_of_field(*fields[0])


def _code_of_field(ring: str, index: int) -> int:
    """The code of a field form (``("o", 1)``; the centre is ``("c", 0)``)."""
    if ring == "c":
        return FIELD_CODES["c"]
    if 1 <= index <= 8:
        return FIELD_CODES[f"{ring}{index}"]
    step = 0 if index == 0 else index - 8
    return _OFF_BOARD_BASE + 3 * step + _RINGS.index(ring)


def field_name(code: int) -> str:
    """The token of a field code (inverse of :func:`field_code`).

    Raises:
        ValueError: a negative code (those mean pass and resign, not fields).
    """
    if code < 0:
        raise ValueError(f"{code} is not a field code")
    if code < FIELD_COUNT:
        return FIELD_NAMES[code]
    step, ring = divmod(code - _OFF_BOARD_BASE, 3)
    return f"{_RINGS[ring]}{0 if step == 0 else step + 8}"


def _board_field(name: str) -> int:
    """The code of a field that is on the board.

    Raises:
        GamerecError: the name is not a field of the board.
    """
    code = FIELD_CODES.get(name.strip().lower(), -1)
    if code < 0:
        raise GamerecError(f"{name!r} is not a field of the Aronda board")
    return code


def parse_move(text: str) -> Move:
    """Parse a turn token: ``o1``, ``o1,o3``, ``m2,m2``, ``pass``, ``resign``.

    Case-insensitive, surrounding white space ignored; no space inside the token.

    Raises:
        MoveSyntaxError: the text is not an Aronda turn token.
    """
    token = text.strip().lower()
    if token == "pass":
        return PASS
    if token == "resign":
        return RESIGN
    try:
        fields = syntax.parse_move(token)
    except NotationError as error:
        raise MoveSyntaxError(str(error)) from None
    return tuple(_code_of_field(ring, index) for ring, index in fields)


def format_move(move: Move) -> str:
    """The canonical lower-case token of a turn.

    Raises:
        MoveSyntaxError: the tuple is no turn (empty, or pass/resign codes among placements).
    """
    if move == PASS:
        return "pass"
    if move == RESIGN:
        return "resign"
    if not move or min(move) < 0:
        raise MoveSyntaxError(f"{move!r} is not an Aronda turn")
    return ",".join(field_name(code) for code in move)
