"""Aronda's record syntax: fields ``c``, ``i1``, ``o8``, turns ``o1,o3``, its variant tags.

Move form: a tuple of ``(ring, index)`` pairs, one per placement, the ring as its letter
(``c``, ``i``, ``m``, ``o``) and the centre as ``("c", 0)``. A turn holds any number of
fields here, and any index (``o0``, ``i9``): how many a turn may hold and which fields exist
are rules, not syntax.
"""

from __future__ import annotations

from typing import Any, Final

from gamerec.recorder.errors import EncodingError, NotationError, excerpt
from gamerec.recorder.syntax.base import PLAYERS, GameSyntax, enum_name, named_option, number

#: An Aronda move form: ``(ring letter, index)`` per placement (``o1,c`` is
#: ``(("o", 1), ("c", 0))``).
Fields = tuple[tuple[str, int], ...]

#: The ring of each letter in the record schema.
RING_NAMES: Final = {
    "c": "ARONDA_RING_CENTRE",
    "i": "ARONDA_RING_INNER",
    "m": "ARONDA_RING_MIDDLE",
    "o": "ARONDA_RING_OUTER",
}
_LETTERS_BY_RING: Final = {name: letter for letter, name in RING_NAMES.items()}


def parse_move(token: str) -> Fields:
    """``c``, ``o1``, ``o1,o3``, ``m2,m2``, lower case.

    Raises:
        NotationError: a part is not an Aronda field.
    """
    fields = []
    for part in token.split(","):
        if part == "c":
            fields.append(("c", 0))
            continue
        if part[:1] not in "imo" or not part[:1] or not part[1:]:
            found = repr(part) if part else "nothing"
            raise NotationError(
                f"move {excerpt(token)}: expected an Aronda field (c, i1..i8, m1..m8, o1..o8), "
                f"found {found}"
            )
        fields.append((part[0], number(part[1:], token, "a field number")))
    return tuple(fields)


def message_of(fields: Fields) -> dict[str, Any]:
    """The fields of an ``ArondaTurn`` for a move form."""
    return {"placements": [{"ring": RING_NAMES[ring], "index": index} for ring, index in fields]}


def format_move(turn: Any) -> str:
    """The canonical token of an ``ArondaTurn``.

    Raises:
        EncodingError: no placement, or a field with no name.
    """
    if not turn.placements:
        raise EncodingError("an Aronda turn with no placement has no token")
    return ",".join(_format_field(field) for field in turn.placements)


def _format_field(field: Any) -> str:
    ring = _LETTERS_BY_RING.get(enum_name("ArondaRing", field.ring))
    if ring is None:
        raise EncodingError(f"Aronda ring {field.ring} has no letter")
    if ring == "c":
        if field.index != 0:
            raise EncodingError(f"the Aronda centre has index 0, not {field.index}")
        return "c"
    return f"{ring}{field.index}"


SYNTAX: Final = GameSyntax(
    enum="GAME_ARONDA",
    name="Aronda",
    aliases=("aronda",),
    action="aronda",
    variant="aronda",
    options=(
        PLAYERS,
        named_option(
            "Supply",
            "supply",
            "ArondaSupply",
            {"strict": "ARONDA_SUPPLY_STRICT", "pass": "ARONDA_SUPPLY_PASS"},
        ),
        named_option(
            "SecondPiece",
            "second_piece",
            "ArondaSecondPiece",
            {"end": "ARONDA_SECOND_PIECE_END", "lose": "ARONDA_SECOND_PIECE_LOSE"},
        ),
    ),
    parse_move=parse_move,
    message_of=message_of,
    format_move=format_move,
)
