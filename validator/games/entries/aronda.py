"""Aronda's registry entry: syntax, engine, citations, annotation and search values, board model.

The board model (docs/rules/aronda.md §2): the centre disc and 24 annular wedges at the
table's illustrative angles, with each field's capacity.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from gamerec.recorder.syntax.aronda import SYNTAX
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games import aronda
from gamerec.validator.games.protocol import GameState
from gamerec.validator.games.registry import (
    Annotation,
    Citation,
    GameEntry,
    Who,
    Wording,
    score_lead,
)

if TYPE_CHECKING:  # the board model is needed for pictures only: loaded there
    from gamerec.validator.render.model import (
        BoardModel,
        Shape,
    )

#: docs/rules/aronda.md §2, the table's illustrative sectors: first field of each ring, its span,
#: and the spans of the fields that follow clockwise (odd and even fields alternate).
ARONDA_SECTORS: Final[dict[str, tuple[float, float]]] = {
    **{f"i{k}": (45.0 * (k - 1), 45.0 * k) for k in range(1, 9)},
    **{
        f"m{k}": (45.0 * (k - 1) - 30.0, 45.0 * (k - 1) + 30.0)
        if k % 2
        else (45.0 * (k - 1) - 15.0, 45.0 * (k - 1) + 15.0)
        for k in range(1, 9)
    },
    **{
        f"o{k}": (45.0 * (k - 1) - 15.0, 45.0 * (k - 1) + 15.0)
        if k % 2
        else (45.0 * (k - 1) - 30.0, 45.0 * (k - 1) + 30.0)
        for k in range(1, 9)
    },
}
#: The radii of Aronda's rings: the centre disc, then the inner, middle and outer rings.
ARONDA_RADII: Final = {
    "c": (0.0, 62.0),
    "i": (62.0, 140.0),
    "m": (140.0, 212.0),
    "o": (212.0, 280.0),
}
#: Text rows of the rings, top first.
ARONDA_ROWS: Final = ("o", "m", "i", "c")


def board_model(variant: aronda.ArondaVariant) -> BoardModel:
    """The 25 fields of docs/rules/aronda.md §2 as the centre disc and annular wedges."""
    from gamerec.validator.render.model import (  # noqa: PLC0415 (pictures only)
        BOARD_RADIUS,
        BoardModel,
        Disc,
        SiteModel,
        TextLayout,
        Wedge,
        at_angle,
        round_bounds,
    )

    sites = []
    for name, capacity in zip(aronda.FIELD_NAMES, aronda.CAPACITY, strict=True):
        ring = name[0]
        index = int(name[1:] or 0)
        inner, outer = ARONDA_RADII[ring]
        if ring == "c":
            shape: Shape = Disc((0.0, 0.0), outer)
            middle_point = (0.0, -6.0)
        else:
            start, end = ARONDA_SECTORS[name]
            shape = Wedge(inner, outer, start, end)
            middle_point = at_angle((inner + outer) / 2, (start + end) / 2)
        # Name, capacity and contents stacked upright, so they read alike all round the board.
        x, y = middle_point
        label_at, capacity_at, anchor = (x, y - 24.0), (x, y - 12.0), (x, y + 12.0)
        sites.append(
            SiteModel(
                name=name,
                shape=shape,
                anchor=anchor,
                size=22.0,
                label_at=label_at,
                row=ARONDA_ROWS.index(ring),
                column=2 * max(index - 1, 0),
                capacity=capacity,
                capacity_at=capacity_at,
            )
        )
    layout = TextLayout(
        row_labels=ARONDA_ROWS,
        column_labels=tuple(str(i) for i in range(1, 9)),
        cell_width=7,
        gap=4,
    )
    return BoardModel(
        game=SYNTAX.name,
        kind="field",
        seats=variant.players,
        sites=tuple(sites),
        bounds=round_bounds(BOARD_RADIUS + 8.0),
        text=layout,
        label_size=11.0,
    )


#: The code of the first field of each ring, by the record's ring (index 1 is that field).
_RING_BASES: Final = {pb.ARONDA_RING_INNER: 0, pb.ARONDA_RING_MIDDLE: 8, pb.ARONDA_RING_OUTER: 16}
_SPECIALS: Final = {"pass": aronda.PASS, "resign": aronda.RESIGN}


def move_of(move: pb.Move) -> aronda.Move | None:
    """The engine move of a record move (see ``GameEntry.move_of``)."""
    action = move.WhichOneof("action")
    if action != "aronda":
        return _SPECIALS.get(action or "")
    codes = []
    for field in move.aronda.placements:
        index = field.index
        if field.ring == pb.ARONDA_RING_CENTRE and not index:
            codes.append(0)
            continue
        base = _RING_BASES.get(field.ring)
        if base is None or not 1 <= index <= 8:
            return None  # the centre with an index, a ring unknown, a field off the board
        codes.append(base + index)
    return tuple(codes) if codes else None


#: Aronda in the registry. A ply is clearly worse when it loses two fields.
def rules_end(state: GameState[Any], who: Who) -> str:
    """Why Aronda's rules ended the game (§6.1, §6.2), from the engine's ``ending``."""
    assert isinstance(state, aronda.ArondaState)
    winners = state.winners()
    winner = winners[0] if len(winners) == 1 else 0
    if state.ending == "thirteen-fields" and winner:
        return f"{who(winner)} owns {state.scores()[winner - 1]} fields (13 are enough to win)"
    if state.ending == "blocked" and winner:
        return f"{who(3 - winner)} had no legal field at the start of its turn"
    if state.ending == "second-piece" and winner:
        return f"the second piece of {who(3 - winner)} had no legal field (SecondPiece lose)"
    return "both seats passed in a row (Supply pass), so the seat owning more fields wins"


#: What a field without an owner is worth to a seat (hundredths of a field) by how many more
#: pieces it needs to take it, from inside or from outside (§5): none can be, one, two, ...
#: (a 4-field a seat cannot reach now needs five).
NEAR: Final = (0, 60, 35, 15, 5, 0)


def field_race(state: GameState[Any], seat: int) -> int:
    """Aronda's search evaluation: the lead in fields, and in fields nearly taken.

    In hundredths of a field: 100 a field owned, and for every field without an owner,
    :data:`NEAR` by the pieces each seat still needs on it (its capacity less its pieces
    there, or less its owned neighbours, whichever is fewer; one more when the seat has no
    access to it now, §4.2), the seat's minus the other's.
    """
    assert isinstance(state, aronda.ArondaState)
    other = 3 - seat
    mine, theirs = state.owned(seat), state.owned(other)
    my_access, their_access = state.access(seat), state.access(other)
    value = 100 * (mine.bit_count() - theirs.bit_count())
    pieces = state.pieces
    for code in aronda.fields_in(aronda.ALL_FIELDS & ~(mine | theirs)):
        capacity = aronda.CAPACITY[code]
        around = aronda.NEIGHBOUR_MASK[code]
        bit = 1 << code
        my_need = min(
            capacity - pieces(seat, code) + (not my_access & bit),
            capacity - (mine & around).bit_count(),
        )
        their_need = min(
            capacity - pieces(other, code) + (not their_access & bit),
            capacity - (theirs & around).bit_count(),
        )
        value += NEAR[my_need] - NEAR[their_need]
    return value


ENTRY: Final = GameEntry(
    syntax=SYNTAX,
    engine=aronda.ENGINE,
    citation=Citation(
        aronda.RULES, end="§6.1-6.2", score="§6.3", ranking="§6.3", terminations="§7"
    ),
    annotation=Annotation(value=score_lead, threshold=2),
    board_model=board_model,
    move_of=move_of,
    wording=Wording(
        rules_end=rules_end,
        scores="fields owned",
        specials={},
        moves="a turn of one or two fields joined by , (o1, o1,o3, m2,m2); pass where the "
        "variant allows it",
    ),
    evaluation=field_race,
)
