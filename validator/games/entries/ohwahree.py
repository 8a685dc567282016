"""Oh-Wah-Ree's registry entry: its syntax, engine, citations, annotation value, board model.

The board model (docs/rules/ohwahree.md §2): twelve pits on a ring numbered
counter-clockwise, seat 1's block at the bottom, each seat's block of pits as a wedge behind
them, and the stores inside.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final

from gamerec.recorder.syntax.ohwahree import SYNTAX
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games import ohwahree
from gamerec.validator.games.protocol import GameState
from gamerec.validator.games.registry import (
    Annotation,
    Citation,
    GameEntry,
    Who,
    Wording,
    lead,
    seats_text,
)

if TYPE_CHECKING:  # the board model is needed for pictures only: loaded there
    from gamerec.validator.render.model import (
        Block,
        BoardModel,
        Store,
    )

#: The radius of the circle the pits' centres lie on, and of each pit.
PIT_RING_RADIUS: Final = 205.0
PIT_RADIUS: Final = 40.0
#: The inner radius of the seats' blocks, and the room block labels keep from it.
BLOCK_INNER_RADIUS: Final = PIT_RING_RADIUS - 58.0
BLOCK_LABEL_MARGIN: Final = 6.0
#: The first pit's angle (clockwise from 12 o'clock): seat 1's block is centred at 6 o'clock.
_FIRST_PIT_ANGLE: Final = 255.0


def pit_angle(pit: int) -> float:
    """The angle of pit ``pit`` (1..12): counter-clockwise numbering, 30° apart."""
    return (_FIRST_PIT_ANGLE - 30.0 * (pit - 1)) % 360.0


def board_model(variant: ohwahree.OhWahReeVariant) -> BoardModel:
    """Twelve pits on a ring (counter-clockwise), each seat's block behind its pits."""
    from gamerec.validator.render.model import (  # noqa: PLC0415 (pictures only)
        BOARD_RADIUS,
        BoardModel,
        Disc,
        SiteModel,
        TextLayout,
        at_angle,
        round_bounds,
    )

    owners = ohwahree.pit_owners(variant.players)
    sites = []
    for pit, home in enumerate(owners, start=1):
        angle = pit_angle(pit)
        centre = at_angle(PIT_RING_RADIUS, angle)
        sites.append(
            SiteModel(
                name=str(pit),
                shape=Disc(centre, PIT_RADIUS),
                anchor=centre,
                size=PIT_RADIUS,
                label_at=at_angle(PIT_RING_RADIUS + PIT_RADIUS + 20.0, angle),
                row=0,
                column=2 * (pit - 1),
                home=home,
            )
        )
    layout = TextLayout(
        row_labels=("pit", "seat", "stones"),
        column_labels=(),
        cell_width=5,
        gap=0,
    )
    return BoardModel(
        game=SYNTAX.name,
        kind="pit",
        seats=variant.players,
        sites=tuple(sites),
        bounds=round_bounds(BOARD_RADIUS + 30.0),
        text=layout,
        label_size=13.0,
        blocks=_ohwahree_blocks(owners),
        stores=_ohwahree_stores(variant.players),
    )


def _ohwahree_blocks(owners: tuple[int, ...]) -> tuple[Block, ...]:
    """One wedge per seat, spanning its pits (a block is a run of neighbouring pits)."""
    from gamerec.validator.render.model import Block, Wedge  # noqa: PLC0415 (pictures only)

    blocks = []
    for seat in sorted(set(owners)):
        pits = [pit for pit, home in enumerate(owners, start=1) if home == seat]
        # Pits run counter-clockwise, so the block's clockwise start is its last pit.
        start = pit_angle(pits[-1]) - 15.0
        end = start + 30.0 * len(pits)
        wedge = Wedge(BLOCK_INNER_RADIUS, PIT_RING_RADIUS + 52.0, start, end)
        blocks.append(Block(seat, wedge, _block_label_at(seat, (start + end) / 2)))
    return tuple(blocks)


def _block_label_at(seat: int, angle: float) -> tuple[float, float]:
    """Where a block's label goes: at its middle angle, as far out as it stays clear of the arcs.

    The label lies inside the blocks' inner circle with a margin, so it crosses no arc and no
    edge between blocks; on a slant (3 and 4 seats) its corner, not its centre, is what nears
    the arc, so the distance is found for the label's whole box.
    """
    from gamerec.validator.render.model import (  # noqa: PLC0415 (pictures only)
        BLOCK_LABEL_SIZE,
        at_angle,
        block_label,
        farthest_corner,
        text_box,
    )

    room = BLOCK_INNER_RADIUS - BLOCK_LABEL_MARGIN
    near, far = 0.0, room
    for _ in range(30):  # bisection: the corner's distance grows with the label's
        middle = (near + far) / 2
        box = text_box(at_angle(middle, angle), block_label(seat), BLOCK_LABEL_SIZE)
        near, far = (middle, far) if farthest_corner(box) <= room else (near, middle)
    return at_angle(near, angle)


def _ohwahree_stores(players: int) -> tuple[Store, ...]:
    """The stores stacked in the middle of the ring, seat 1 on top."""
    from gamerec.validator.render.model import Store  # noqa: PLC0415 (pictures only)

    width, height, gap = 150.0, 26.0, 6.0
    top = -(players * height + (players - 1) * gap) / 2
    return tuple(
        Store(seat, (-width / 2, top + (seat - 1) * (height + gap)), width, height)
        for seat in range(1, players + 1)
    )


def store_lead(state: GameState[Any], seat: int) -> int:
    """Oh-Wah-Ree's annotation value: the stores (stones in pits move round every ply)."""
    return lead(state.position().captured, seat)


#: Oh-Wah-Ree in the registry. A ply is clearly worse when it loses more than one pit's

#: The engine's direction of each sowing direction of the record.
_DIRECTIONS: Final[dict[int, ohwahree.SowDirection | None]] = {
    pb.SOW_DIRECTION_UNSPECIFIED: None,
    pb.SOW_DIRECTION_CCW: "ccw",
    pb.SOW_DIRECTION_CW: "cw",
}


def move_of(move: pb.Move) -> ohwahree.Move | None:
    """The engine move of a record move (see ``GameEntry.move_of``)."""
    action = move.WhichOneof("action")
    if action != "oh_wah_ree":
        return ohwahree.RESIGN if action == "resign" else None
    sowing = move.oh_wah_ree
    if sowing.direction not in _DIRECTIONS:
        return None
    return ohwahree.Sow(sowing.pit, _DIRECTIONS[sowing.direction])


#: capture of 2 or 3 stones.
def rules_end(state: GameState[Any], who: Who) -> str:
    """Why Oh-Wah-Ree's rules ended the game (§6.1 two seats, §6.2 three or four)."""
    assert isinstance(state, ohwahree.OhWahReeState)
    if state.seats > 2:
        return "two seats in a row had no stone in their pits and could not move"
    owners = ohwahree.pit_owners(state.seats)
    empty = [
        seat
        for seat in range(1, state.seats + 1)
        if not any(
            stones for stones, owner in zip(state.pits, owners, strict=True) if owner == seat
        )
    ]
    return f"{seats_text(empty, who)} had no stone left in its pits at its turn"


ENTRY: Final = GameEntry(
    syntax=SYNTAX,
    engine=ohwahree.ENGINE,
    citation=Citation(
        ohwahree.RULES, end="§6.1-6.2", score="§6.3", ranking="§6.3", terminations="§7"
    ),
    annotation=Annotation(value=store_lead, threshold=4),
    board_model=board_model,
    move_of=move_of,
    wording=Wording(
        rules_end=rules_end,
        scores="stones in store and own pits",
        specials={},
        moves="the pit to sow from (4), with the direction where you may choose it (4ccw, 4cw)",
    ),
)
