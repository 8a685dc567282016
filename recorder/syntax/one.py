"""ONE's record syntax: points ``c7``, captures ``c7xc9xa5`` (notation.md, ONE), its variant tags.

Move form: a tuple of ``(ring, index)`` pairs, the ring as the rank of its letter (``a`` = 1),
one pair per point of the token (a placement has one, a capture one more per jump). A point
is read one after the other, so that ring ``x`` (the 24th) still parses: a point always ends
in a digit, and an ``x`` after it separates the points of a capture. Whether the board has
the point is the referee's question (``a0`` and ``e1`` parse).
"""

from __future__ import annotations

from typing import Any, Final

from gamerec.recorder.errors import EncodingError, NotationError, excerpt
from gamerec.recorder.syntax.base import (
    LETTER_NUMBER,
    LETTERS,
    PLAYERS,
    GameSyntax,
    letter,
    named_option,
    number,
    number_list_option,
)

#: A ONE move form: ``(ring, index)`` per point, the ring 1-based (``c7`` is ``((3, 7),)``).
Points = tuple[tuple[int, int], ...]


def parse_move(token: str) -> Points:
    """``c7`` (placement) or ``c7xc9xa5`` (capture path), lower case.

    Raises:
        NotationError: the text is not a ONE point or capture.
    """
    points = []
    position = 0
    while True:
        match = LETTER_NUMBER.match(token, position)
        if match is None:
            rest = token[position:]
            found = excerpt(rest) if rest else "nothing"
            after = f" after {excerpt(token[:position])}" if position else ""
            raise NotationError(
                f"move {excerpt(token)}: expected a ONE point such as c7 (a ring letter and an "
                f"index){after}, found {found}"
            )
        ring_letter, digits = match.groups()
        points.append((LETTERS.index(ring_letter) + 1, number(digits, token, "a point index")))
        position = match.end()
        if position == len(token):
            return tuple(points)
        if token[position] != "x":
            raise NotationError(
                f"move {excerpt(token)}: expected 'x' between the points of a capture, "
                f"found {token[position]!r}"
            )
        position += 1


def message_of(points: Points) -> dict[str, Any]:
    """The fields of a ``OneMove`` for a move form."""
    return {"path": [{"ring": ring, "index": index} for ring, index in points]}


def format_move(move: Any) -> str:
    """The canonical token of a ``OneMove``.

    Raises:
        EncodingError: no point, or a ring with no letter (0, or past ``z``).
    """
    if not move.path:
        raise EncodingError("a ONE move with no point has no token")
    return "x".join(f"{letter(point.ring, 'ring')}{point.index}" for point in move.path)


SYNTAX: Final = GameSyntax(
    enum="GAME_ONE",
    name="ONE",
    aliases=("one",),
    action="one",
    variant="one",
    options=(
        PLAYERS,
        number_list_option("Board", "ring_sizes", "a ring size"),
        named_option(
            "Mirror",
            "mirror",
            "OneMirror",
            {"none": "ONE_MIRROR_NONE", "first": "ONE_MIRROR_FIRST", "every": "ONE_MIRROR_EVERY"},
        ),
        named_option(
            "Tiebreak",
            "tiebreak",
            "OneTiebreak",
            {"shared": "ONE_TIEBREAK_SHARED", "largest-group": "ONE_TIEBREAK_LARGEST_GROUP"},
        ),
    ),
    parse_move=parse_move,
    message_of=message_of,
    format_move=format_move,
)
