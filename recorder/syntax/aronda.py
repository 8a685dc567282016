"""Aronda's record syntax: fields ``c``, ``i1``, ``o8``, turns ``o1,o3``, its variant tags.

A turn holds any number of fields here; how many a turn may hold is a rule, not syntax.
"""

from __future__ import annotations

from typing import Final

from gamerec.recorder.errors import EncodingError, NotationError
from gamerec.recorder.syntax.base import PLAYERS, GameSyntax, named_option, number, positive
from gamerec.v1 import record_pb2 as pb

RING_LETTERS: Final[dict[str, pb.ArondaRing.ValueType]] = {
    "i": pb.ARONDA_RING_INNER,
    "m": pb.ARONDA_RING_MIDDLE,
    "o": pb.ARONDA_RING_OUTER,
}
_LETTERS_BY_RING: Final = {ring: letter for letter, ring in RING_LETTERS.items()}
SUPPLIES: Final = {"strict": pb.ARONDA_SUPPLY_STRICT, "pass": pb.ARONDA_SUPPLY_PASS}
SECOND_PIECES: Final = {"end": pb.ARONDA_SECOND_PIECE_END, "lose": pb.ARONDA_SECOND_PIECE_LOSE}


def parse_move(token: str) -> pb.ArondaTurn:
    """``c``, ``o1``, ``o1,o3``, ``m2,m2``, lower case.

    Raises:
        NotationError: a part is not an Aronda field.
    """
    fields = []
    for part in token.split(","):
        if part == "c":
            fields.append(pb.ArondaField(ring=pb.ARONDA_RING_CENTRE, index=0))
            continue
        ring = RING_LETTERS.get(part[:1])
        if ring is None or not part[1:]:
            found = repr(part) if part else "nothing"
            raise NotationError(
                f"move {token!r}: expected an Aronda field (c, i1..i8, m1..m8, o1..o8), "
                f"found {found}"
            )
        index = number(part[1:], token, "a field number")
        fields.append(pb.ArondaField(ring=ring, index=index))
    return pb.ArondaTurn(placements=fields)


def format_move(turn: pb.ArondaTurn) -> str:
    """The canonical token of an Aronda turn.

    Raises:
        EncodingError: no placement, or a field with no name.
    """
    if not turn.placements:
        raise EncodingError("an Aronda turn with no placement has no token")
    return ",".join(_format_field(field) for field in turn.placements)


def _format_field(field: pb.ArondaField) -> str:
    if field.ring == pb.ARONDA_RING_CENTRE:
        if field.index != 0:
            raise EncodingError(f"the Aronda centre has index 0, not {field.index}")
        return "c"
    letter = _LETTERS_BY_RING.get(field.ring)
    if letter is None:
        raise EncodingError(f"Aronda ring {field.ring} has no letter")
    return f"{letter}{positive(field.index, 'field number')}"


SYNTAX: Final = GameSyntax(
    game=pb.GAME_ARONDA,
    name="Aronda",
    aliases=("aronda",),
    action="aronda",
    variant="aronda",
    options=(
        PLAYERS,
        named_option("Supply", "supply", SUPPLIES),
        named_option("SecondPiece", "second_piece", SECOND_PIECES),
    ),
    parse_move=parse_move,
    format_move=format_move,
)
