"""ONE's record syntax: points ``c7``, captures ``c7xc9xa5`` (notation.md, ONE), its variant tags.

A point is a ring letter and a 1-based index, read one after the other so that ring ``x``
(the 24th) still parses: a point always ends in a digit, and an ``x`` after it separates
the points of a capture. Whether the board has the point is the referee's question.
"""

from __future__ import annotations

from typing import Final

from gamerec.recorder.errors import EncodingError, NotationError
from gamerec.recorder.syntax.base import (
    LETTER_NUMBER,
    LETTERS,
    PLAYERS,
    GameSyntax,
    letter,
    named_option,
    number,
    number_list_option,
    positive,
)
from gamerec.v1 import record_pb2 as pb

MIRRORS: Final = {
    "none": pb.ONE_MIRROR_NONE,
    "first": pb.ONE_MIRROR_FIRST,
    "every": pb.ONE_MIRROR_EVERY,
}
TIEBREAKS: Final = {
    "shared": pb.ONE_TIEBREAK_SHARED,
    "largest-group": pb.ONE_TIEBREAK_LARGEST_GROUP,
}


def parse_move(token: str) -> pb.OneMove:
    """``c7`` (placement) or ``c7xc9xa5`` (capture path), lower case.

    Raises:
        NotationError: the text is not a ONE point or capture.
    """
    path = []
    position = 0
    while True:
        match = LETTER_NUMBER.match(token, position)
        if match is None:
            rest = token[position:]
            found = repr(rest) if rest else "nothing"
            after = f" after {token[:position]!r}" if position else ""
            raise NotationError(
                f"move {token!r}: expected a ONE point such as c7 (a ring letter and an index)"
                f"{after}, found {found}"
            )
        ring_letter, digits = match.groups()
        index = number(digits, token, "a point index")
        path.append(pb.OnePoint(ring=LETTERS.index(ring_letter) + 1, index=index))
        position = match.end()
        if position == len(token):
            return pb.OneMove(path=path)
        if token[position] != "x":
            raise NotationError(
                f"move {token!r}: expected 'x' between the points of a capture, "
                f"found {token[position]!r}"
            )
        position += 1


def format_move(move: pb.OneMove) -> str:
    """The canonical token of a ONE move.

    Raises:
        EncodingError: no point, or a point with no name (ring 0 or past ``z``, index 0).
    """
    if not move.path:
        raise EncodingError("a ONE move with no point has no token")
    return "x".join(
        f"{letter(p.ring, 'ring')}{positive(p.index, 'point index')}" for p in move.path
    )


SYNTAX: Final = GameSyntax(
    game=pb.GAME_ONE,
    name="ONE",
    aliases=("one",),
    action="one",
    variant="one",
    options=(
        PLAYERS,
        number_list_option("Board", "ring_sizes", "a ring size"),
        named_option("Mirror", "mirror", MIRRORS),
        named_option("Tiebreak", "tiebreak", TIEBREAKS),
    ),
    parse_move=parse_move,
    format_move=format_move,
)
