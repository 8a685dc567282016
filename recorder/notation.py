"""Move tokens of notation.md: text to the typed per-game moves of the record, and back.

This is syntax only. Nothing here knows a board: ``e1`` parses on a four-ring ONE board and
``o9`` parses for Aronda; whether such a place exists is the validator's question. What is
checked is the shape of a token: a ONE point is a ring letter and a 1-based index (``c7``,
never ``c0`` or ``7c``), a capture joins points with ``x``, Aronda and Oust turns join places
with ``,``, an Oh-Wah-Ree move is a pit number with an optional ``ccw`` / ``cw``. The special
actions ``resign``, ``pass`` and ``swap`` parse for every game; whether a game allows them is
again the validator's question. Reading is case-insensitive; writing gives the canonical
lower-case token.

An Aronda or Oust turn may hold any number of places here (one or more); ONE paths any number
of landing points. Counts are rules, not syntax.
"""

from __future__ import annotations

import re
from typing import TypeAlias

from gamerec.recorder.errors import EncodingError, NotationError
from gamerec.v1 import record_pb2 as pb

GameValue: TypeAlias = pb.Game.ValueType

#: The GRN ``Game`` tag of each game, as notation.md writes it.
GAME_NAMES: dict[GameValue, str] = {
    pb.GAME_ONE: "ONE",
    pb.GAME_ARONDA: "Aronda",
    pb.GAME_OUST: "Oust",
    pb.GAME_OH_WAH_REE: "Oh-Wah-Ree",
}

_GAMES_BY_LOWER_NAME = {name.lower(): game for game, name in GAME_NAMES.items()}

#: The action of each game's own moves in ``Move.action``.
GAME_ACTIONS: dict[GameValue, str] = {
    pb.GAME_ONE: "one",
    pb.GAME_ARONDA: "aronda",
    pb.GAME_OUST: "oust",
    pb.GAME_OH_WAH_REE: "oh_wah_ree",
}

#: The actions that are spelled the same in every game.
SPECIAL_ACTIONS = ("resign", "pass", "swap")

_UINT32_MAX = 2**32 - 1
_LETTERS = "abcdefghijklmnopqrstuvwxyz"
_LETTER_NUMBER = re.compile(r"([a-z])([0-9]+)")
_ARONDA_RING_LETTERS: dict[str, pb.ArondaRing.ValueType] = {
    "i": pb.ARONDA_RING_INNER,
    "m": pb.ARONDA_RING_MIDDLE,
    "o": pb.ARONDA_RING_OUTER,
}
_ARONDA_LETTERS_BY_RING = {ring: letter for letter, ring in _ARONDA_RING_LETTERS.items()}
_PIT = re.compile(r"([0-9]+)(ccw|cw)?")
_DIRECTIONS: dict[str, pb.SowDirection.ValueType] = {
    "": pb.SOW_DIRECTION_UNSPECIFIED,
    "ccw": pb.SOW_DIRECTION_CCW,
    "cw": pb.SOW_DIRECTION_CW,
}
_DIRECTION_SUFFIXES = {direction: suffix for suffix, direction in _DIRECTIONS.items()}


def game_from_name(name: str) -> GameValue | None:
    """The game whose GRN name is ``name`` (case-insensitive), or None when there is none."""
    return _GAMES_BY_LOWER_NAME.get(name.strip().lower())


def game_name(game: GameValue) -> str:
    """The GRN name of a game (``ONE``, ``Oh-Wah-Ree``).

    Raises:
        EncodingError: the game is unspecified or unknown to this version.
    """
    try:
        return GAME_NAMES[game]
    except KeyError:
        raise EncodingError(f"the record names no game this version knows (Game {game})") from None


def parse_action(game: GameValue, text: str) -> pb.Move:
    """Parse one move token into a ``Move`` that has only its action set.

    Args:
        game: the game whose token syntax applies.
        text: the token, e.g. ``c7xc9``, ``o1,o3``, ``e5,f5,k9``, ``4cw`` or ``resign``.

    Raises:
        NotationError: the text is not a token of the game (the reason says what was expected).
    """
    token = text.strip().lower()
    if token in SPECIAL_ACTIONS:
        move = pb.Move()
        getattr(move, token).SetInParent()
        return move
    if game == pb.GAME_ONE:
        return pb.Move(one=_parse_one(token))
    if game == pb.GAME_ARONDA:
        return pb.Move(aronda=_parse_aronda(token))
    if game == pb.GAME_OUST:
        return pb.Move(oust=_parse_oust(token))
    if game == pb.GAME_OH_WAH_REE:
        return pb.Move(oh_wah_ree=_parse_oh_wah_ree(token))
    raise NotationError(f"cannot read move {text!r} without a known game")


def format_action(move: pb.Move, game: GameValue | None = None) -> str:
    """The canonical lower-case token of a move's action.

    Args:
        move: the move; only its action is used.
        game: when given, the action must be one of this game's moves or a special action,
            so that :func:`parse_action` reads the token back as the same action.

    Raises:
        EncodingError: the move has no action, an action of another game, or a place that
            has no token (ring 0, index 0, a letter beyond ``z``, an unknown enum value).
    """
    action = move.WhichOneof("action")
    if action is None:
        raise EncodingError("a move has no action, so it has no token")
    if action in SPECIAL_ACTIONS:
        return action
    if game is not None and GAME_ACTIONS.get(game) != action:
        raise EncodingError(
            f"a move of kind {action!r} does not belong to game {game_name(game)}, "
            "so GRN cannot hold it"
        )
    if action == "one":
        return _format_one(move.one)
    if action == "aronda":
        return _format_aronda(move.aronda)
    if action == "oust":
        return _format_oust(move.oust)
    return _format_oh_wah_ree(move.oh_wah_ree)


def _number(digits: str, token: str, what: str) -> int:
    """A 1-based number written without leading zeros, within uint32."""
    if not (digits.isascii() and digits.isdigit()) or digits == "0":
        found = repr(digits) if digits else "nothing"
        raise NotationError(f"move {token!r}: expected {what} counted from 1, found {found}")
    if digits.startswith("0"):
        raise NotationError(
            f"move {token!r}: expected {what} without leading zeros, found {digits!r}"
        )
    if len(digits) > 10 or int(digits) > _UINT32_MAX:
        raise NotationError(f"move {token!r}: {digits} is too large for {what}")
    return int(digits)


def _letter_number(part: str, token: str, what: str, example: str) -> tuple[int, int]:
    """Split a letter-number place (``c7``) into the letter's rank (a = 1) and the number."""
    match = _LETTER_NUMBER.fullmatch(part)
    if match is None:
        found = repr(part) if part else "nothing"
        raise NotationError(
            f"move {token!r}: expected {what} such as {example} (a letter and a number), "
            f"found {found}"
        )
    letter, digits = match.groups()
    return _LETTERS.index(letter) + 1, _number(digits, token, "a number")


def _parse_one(token: str) -> pb.OneMove:
    """``c7`` (placement) or ``c7xc9xa5`` (capture path).

    Points are read one after the other, so that ring ``x`` (the 24th) still parses:
    a point always ends in a digit, and the ``x`` after it is the separator.
    """
    path = []
    position = 0
    while True:
        match = _LETTER_NUMBER.match(token, position)
        if match is None:
            rest = token[position:]
            found = repr(rest) if rest else "nothing"
            after = f" after {token[:position]!r}" if position else ""
            raise NotationError(
                f"move {token!r}: expected a ONE point such as c7 (a ring letter and an index)"
                f"{after}, found {found}"
            )
        letter, digits = match.groups()
        index = _number(digits, token, "a point index")
        path.append(pb.OnePoint(ring=_LETTERS.index(letter) + 1, index=index))
        position = match.end()
        if position == len(token):
            return pb.OneMove(path=path)
        if token[position] != "x":
            raise NotationError(
                f"move {token!r}: expected 'x' between the points of a capture, "
                f"found {token[position]!r}"
            )
        position += 1


def _parse_aronda(token: str) -> pb.ArondaTurn:
    """``c``, ``o1``, ``o1,o3``, ``m2,m2``."""
    fields = []
    for part in token.split(","):
        if part == "c":
            fields.append(pb.ArondaField(ring=pb.ARONDA_RING_CENTRE, index=0))
            continue
        ring = _ARONDA_RING_LETTERS.get(part[:1])
        if ring is None or not part[1:]:
            found = repr(part) if part else "nothing"
            raise NotationError(
                f"move {token!r}: expected an Aronda field (c, i1..i8, m1..m8, o1..o8), "
                f"found {found}"
            )
        index = _number(part[1:], token, "a field number")
        fields.append(pb.ArondaField(ring=ring, index=index))
    return pb.ArondaTurn(placements=fields)


def _parse_oust(token: str) -> pb.OustTurn:
    """``g7`` or ``e5,f5,k9``."""
    cells = []
    for part in token.split(","):
        column, row = _letter_number(part, token, "an Oust cell", "g7")
        cells.append(pb.OustCell(column=column, row=row))
    return pb.OustTurn(placements=cells)


def _parse_oh_wah_ree(token: str) -> pb.OhWahReeMove:
    """``4``, ``4ccw``, ``4cw``."""
    match = _PIT.fullmatch(token)
    if match is None:
        raise NotationError(
            f"move {token!r}: expected an Oh-Wah-Ree pit number with an optional direction, "
            "such as 4, 4ccw or 4cw"
        )
    digits, suffix = match.groups()
    pit = _number(digits, token, "a pit number")
    return pb.OhWahReeMove(pit=pit, direction=_DIRECTIONS[suffix or ""])


def _letter(rank: int, what: str) -> str:
    """The letter of a 1-based rank (1 = a), for rings and columns."""
    if not 1 <= rank <= len(_LETTERS):
        raise EncodingError(f"{what} {rank} has no letter (a..z are 1..26)")
    return _LETTERS[rank - 1]


def _positive(number: int, what: str) -> int:
    """A 1-based number; 0 has no token."""
    if number < 1:
        raise EncodingError(f"{what} 0 has no token (numbers count from 1)")
    return number


def _format_one(one: pb.OneMove) -> str:
    if not one.path:
        raise EncodingError("a ONE move with no point has no token")
    return "x".join(
        f"{_letter(p.ring, 'ring')}{_positive(p.index, 'point index')}" for p in one.path
    )


def _format_aronda(turn: pb.ArondaTurn) -> str:
    if not turn.placements:
        raise EncodingError("an Aronda turn with no placement has no token")
    return ",".join(_format_aronda_field(field) for field in turn.placements)


def _format_aronda_field(field: pb.ArondaField) -> str:
    if field.ring == pb.ARONDA_RING_CENTRE:
        if field.index != 0:
            raise EncodingError(f"the Aronda centre has index 0, not {field.index}")
        return "c"
    letter = _ARONDA_LETTERS_BY_RING.get(field.ring)
    if letter is None:
        raise EncodingError(f"Aronda ring {field.ring} has no letter")
    return f"{letter}{_positive(field.index, 'field number')}"


def _format_oust(turn: pb.OustTurn) -> str:
    if not turn.placements:
        raise EncodingError("an Oust turn with no placement has no token")
    return ",".join(
        f"{_letter(cell.column, 'column')}{_positive(cell.row, 'row')}" for cell in turn.placements
    )


def _format_oh_wah_ree(move: pb.OhWahReeMove) -> str:
    suffix = _DIRECTION_SUFFIXES.get(move.direction)
    if suffix is None:
        raise EncodingError(f"sowing direction {move.direction} is unknown to this version")
    return f"{_positive(move.pit, 'pit')}{suffix}"
