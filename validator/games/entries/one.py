"""ONE's registry entry: its syntax, engine, citations, annotation value and board model.

The board model (docs/rules/one.md §2.1): point ``xi`` of a ring of n points at
360°·(i−1)/n on its ring's circle; the spokes are the engine board's open lines, drawn from
their innermost point to their outermost.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

from gamerec.recorder.syntax.one import SYNTAX
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games import one
from gamerec.validator.games.protocol import GameState
from gamerec.validator.games.registry import (
    Annotation,
    Citation,
    GameEntry,
    Who,
    Wording,
    score_lead,
    seats_text,
)

if TYPE_CHECKING:  # the board model is needed for pictures only: loaded there
    from gamerec.validator.render.model import (
        BoardModel,
        Point,
    )


def board_model(variant: one.OneVariant) -> BoardModel:
    """Rings of points, innermost ring ``a``; spokes from the engine board's open lines."""
    from gamerec.validator.render.model import (  # noqa: PLC0415 (pictures only)
        BOARD_RADIUS,
        BoardModel,
        Disc,
        SiteModel,
        TextLayout,
        at_angle,
        label_size,
        round_bounds,
    )

    board = variant.board
    rings = board.rings
    radii = _one_ring_radii(len(rings))
    point_radius = _one_point_radius(rings, radii)
    by_code: dict[int, Point] = {}
    sites = []
    for ring, size in enumerate(rings):
        for index in range(1, size + 1):
            angle = 360.0 * (index - 1) / size
            centre = at_angle(radii[ring], angle)
            by_code[ring + one.CODE_STRIDE * index] = centre
            sites.append(
                SiteModel(
                    name=f"{one.RING_LETTERS[ring]}{index}",
                    shape=Disc(centre, point_radius),
                    anchor=centre,
                    size=point_radius,
                    label_at=_one_label_at(radii[ring], point_radius, angle),
                    row=ring,
                    column=2 * (index - 1),
                )
            )
    spokes = tuple(
        (by_code[line.points[0]], by_code[line.points[-1]])
        for line in board.lines
        if not line.closed
    )
    layout = TextLayout(
        row_labels=tuple(one.RING_LETTERS[: len(rings)]),
        column_labels=tuple(str(i) for i in range(1, max(rings) + 1)),
        cell_width=4,
        gap=2,
    )
    return BoardModel(
        game=SYNTAX.name,
        kind="point",
        seats=variant.players,
        sites=tuple(sites),
        bounds=round_bounds(BOARD_RADIUS + point_radius + 24.0),
        text=layout,
        label_size=label_size(point_radius),
        rings=radii,
        spokes=spokes,
    )


def _one_label_at(radius: float, point_radius: float, angle: float) -> Point:
    """Just outside the point and to its clockwise side, clear of its ring and its spoke."""
    from gamerec.validator.render.model import at_angle  # noqa: PLC0415 (pictures only)

    x, y = at_angle(radius + point_radius + 2.0, angle)
    radians = math.radians(angle)
    along = point_radius + 7.0
    return (x + along * math.cos(radians), y + along * math.sin(radians))


def _one_ring_radii(count: int) -> tuple[float, ...]:
    """Evenly spaced rings, the innermost one and a half spacings from the centre."""
    from gamerec.validator.render.model import BOARD_RADIUS  # noqa: PLC0415 (pictures only)

    spacing = BOARD_RADIUS / (count + 0.5)
    return tuple(spacing * (ring + 1.5) for ring in range(count))


def _one_point_radius(rings: tuple[int, ...], radii: tuple[float, ...]) -> float:
    """A point radius that leaves room between neighbours on every ring and between rings."""
    along = min(2 * math.pi * radius / size for radius, size in zip(radii, rings, strict=True))
    across = radii[1] - radii[0] if len(radii) > 1 else radii[0]
    return min(0.3 * along, 0.25 * across, 16.0)


#: ONE in the registry. A ply is clearly worse when it loses 2 points: a missed capture, or


def move_of(move: pb.Move) -> one.Move | None:
    """The engine move of a record move (see ``GameEntry.move_of``)."""
    action = move.WhichOneof("action")
    if action == "one":
        path = move.one.path
        codes = []
        for point in path:
            ring = point.ring
            if not 1 <= ring <= one.CODE_STRIDE:
                return None
            codes.append(ring - 1 + one.CODE_STRIDE * point.index)
        return tuple(codes) if codes else None
    return one.RESIGN if action == "resign" else None


#: as much in groups.
def rules_end(state: GameState[Any], who: Who) -> str:
    """Why ONE's rules ended the game (§6.1, §6.2): a supply ran out, the round played out."""
    assert isinstance(state, one.OneState)
    empty = [seat for seat, left in enumerate(state.supplies, start=1) if not left]
    supply = "supply" if len(empty) == 1 else "supplies"
    return f"the {supply} of {seats_text(empty, who)} ran out and the round was played out"


ENTRY: Final = GameEntry(
    syntax=SYNTAX,
    engine=one.ENGINE,
    citation=Citation(one.RULES, end="§6.2", score="§6.3", ranking="§6.4", terminations="§7"),
    annotation=Annotation(value=score_lead, threshold=2),
    board_model=board_model,
    move_of=move_of,
    wording=Wording(
        rules_end=rules_end,
        scores="points, the largest group plus twice the stones captured",
        specials={},
        moves="a point to place on (c7), or a capture: the jumping stone's point and each "
        "landing point, joined by x (c7xc9, c7xc9xa5)",
    ),
)
