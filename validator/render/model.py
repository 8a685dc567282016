"""The board model of each game: where every site lies, computed once per variant.

A :class:`BoardModel` is pure geometry and layout, with no position in it: the shape and
anchor of every site (in the same order as the engine's :class:`Position` lists them), the
board's lines, and the site's cell in a text grid. Both renderers read it: ``svg`` draws the
shapes, ``text`` places the sites in the terminal grid. Coordinates are in picture units
(about one pixel), the board centred on ``(0, 0)``, ``x`` to the right and ``y`` downwards as
in SVG; angles are in degrees clockwise from 12 o'clock, as the rules measure them.

- ONE (rules/one.md §2.1): point ``xi`` of a ring of n points at 360°·(i−1)/n on its ring's
  circle; the spokes are the engine board's open lines, drawn from their innermost point to
  their outermost.
- Aronda (rules/aronda.md §2): the centre disc and 24 annular wedges at the table's
  illustrative angles, with each field's capacity.
- Oust (rules/oust.md §2.1): pointy-top hexagons at the axial coordinates, row 1 at the
  bottom, ``(u, v+1)`` up-right and ``(u−1, v+1)`` up-left.
- Oh-Wah-Ree (rules/ohwahree.md §2): twelve pits on a ring numbered counter-clockwise, seat
  1's block at the bottom, each seat's block of pits as a wedge behind them.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

from gamerec.validator.games import aronda, ohwahree, one, oust
from gamerec.validator.games.protocol import VariantError

#: A point of the picture: ``(x, y)``.
Point = tuple[float, float]

#: The radius of the round boards (ONE's outer ring, Aronda's edge, Oh-Wah-Ree's blocks).
BOARD_RADIUS: Final = 280.0
#: The widest row of an Oust board, from the first hexagon's left edge to the last one's right.
OUST_WIDTH: Final = 600.0


@dataclass(frozen=True, slots=True)
class Disc:
    """A circle: a ONE point, an Oh-Wah-Ree pit, Aronda's centre field."""

    centre: Point
    radius: float


@dataclass(frozen=True, slots=True)
class Polygon:
    """A closed polygon: an Oust hexagon."""

    corners: tuple[Point, ...]


@dataclass(frozen=True, slots=True)
class Wedge:
    """A ring sector between two radii and two angles (clockwise from 12 o'clock).

    ``end`` may pass 360 (``o1`` runs from 345° to 375°).
    """

    inner: float
    outer: float
    start: float
    end: float


Shape = Disc | Polygon | Wedge


@dataclass(frozen=True, slots=True)
class SiteModel:
    """One site of the board: its shape, where its contents and its name go, its text cell.

    Attributes:
        name: the site in notation.md's text (``c7``, ``m5``, ``g7``, ``4``).
        shape: the outline drawn for the site.
        anchor: the centre of the site's contents (stone, pieces, stone count).
        size: how much room the contents have around the anchor (a radius).
        label_at: where the site's name is written.
        row: the site's row in the text grid (0 = the top row).
        column: the site's column in the text grid, in half cells (Oust rows are offset by
            half a cell).
        capacity: Aronda: the field's capacity (rules/aronda.md §2); 0 elsewhere.
        capacity_at: Aronda: where the capacity is written.
        home: Oh-Wah-Ree: the seat that owns the pit (rules/ohwahree.md §2); 0 elsewhere.
    """

    name: str
    shape: Shape
    anchor: Point
    size: float
    label_at: Point
    row: int
    column: int
    capacity: int = 0
    capacity_at: Point = (0.0, 0.0)
    home: int = 0


@dataclass(frozen=True, slots=True)
class Block:
    """An Oh-Wah-Ree seat's block of pits, drawn as a wedge behind them."""

    seat: int
    wedge: Wedge
    label_at: Point


@dataclass(frozen=True, slots=True)
class Store:
    """An Oh-Wah-Ree seat's store, drawn as a box inside the ring of pits.

    Attributes:
        seat: the store's seat.
        corner: the box's top-left corner.
        width: the box's width.
        height: the box's height.
    """

    seat: int
    corner: Point
    width: float
    height: float


@dataclass(frozen=True, slots=True)
class TextLayout:
    """How the text renderer lays the sites out.

    Attributes:
        row_labels: the label of each text row, top row first.
        column_labels: the labels over the columns (one per whole cell), or ``()``.
        cell_width: the characters of one cell.
        gap: spaces between a row label (right-aligned in 3 characters) and the grid.
    """

    row_labels: tuple[str, ...]
    column_labels: tuple[str, ...]
    cell_width: int
    gap: int


@dataclass(frozen=True, slots=True)
class BoardModel:
    """Everything about a board that does not change during a game.

    Attributes:
        game: the game's GRN name.
        kind: what a site is: ``point`` (ONE), ``field`` (Aronda), ``cell`` (Oust), ``pit``
            (Oh-Wah-Ree).
        seats: the seats at the table.
        sites: every site, in the order of the engine's ``Position.sites``.
        rings: ONE: the radius of each ring's circle, innermost first.
        spokes: ONE: each spoke as a segment from its innermost to its outermost point.
        blocks: Oh-Wah-Ree: each seat's block of pits.
        stores: Oh-Wah-Ree: each seat's store.
        bounds: the box the board fits in: ``(left, top, right, bottom)``.
        text: the text grid's layout.
        label_size: the font size of site names (0: too small to write).
    """

    game: str
    kind: str
    seats: int
    sites: tuple[SiteModel, ...]
    bounds: tuple[float, float, float, float]
    text: TextLayout
    label_size: float
    rings: tuple[float, ...] = ()
    spokes: tuple[tuple[Point, Point], ...] = ()
    blocks: tuple[Block, ...] = ()
    stores: tuple[Store, ...] = ()
    _by_name: dict[str, SiteModel] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        """Index the sites by name."""
        self._by_name.update((site.name, site) for site in self.sites)

    def site(self, name: str) -> SiteModel | None:
        """The site called ``name``, or None when the board has no such site."""
        return self._by_name.get(name)


def board_model(game: str, variant: Any) -> BoardModel:
    """The board model of ``game`` under ``variant`` (an engine variant), built once per variant.

    Raises:
        VariantError: the game has no board model (an unknown game).
    """
    return _board_model(game, variant)


@lru_cache(maxsize=64)
def _board_model(game: str, variant: Any) -> BoardModel:
    builders: dict[str, Callable[[Any], BoardModel]] = {
        one.NAME: _one_model,
        "Aronda": _aronda_model,
        oust.NAME: _oust_model,
        ohwahree.GAME_NAME: _ohwahree_model,
    }
    builder = builders.get(game)
    if builder is None:
        raise VariantError(f"no board model for the game {game!r}")
    return builder(variant)


def at_angle(radius: float, degrees: float) -> Point:
    """The point at ``radius`` from the centre, ``degrees`` clockwise from 12 o'clock."""
    radians = math.radians(degrees)
    return (radius * math.sin(radians), -radius * math.cos(radians))


def _round_bounds(radius: float) -> tuple[float, float, float, float]:
    return (-radius, -radius, radius, radius)


# -- ONE -------------------------------------------------------------------------------------


def _one_model(variant: one.Variant) -> BoardModel:
    """Rings of points, innermost ring ``a``; spokes from the engine board's open lines."""
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
        game=one.NAME,
        kind="point",
        seats=variant.players,
        sites=tuple(sites),
        bounds=_round_bounds(BOARD_RADIUS + point_radius + 24.0),
        text=layout,
        label_size=_label_size(point_radius),
        rings=radii,
        spokes=spokes,
    )


def _one_label_at(radius: float, point_radius: float, angle: float) -> Point:
    """Just outside the point and to its clockwise side, clear of its ring and its spoke."""
    x, y = at_angle(radius + point_radius + 2.0, angle)
    radians = math.radians(angle)
    along = point_radius + 7.0
    return (x + along * math.cos(radians), y + along * math.sin(radians))


def _one_ring_radii(count: int) -> tuple[float, ...]:
    """Evenly spaced rings, the innermost one and a half spacings from the centre."""
    spacing = BOARD_RADIUS / (count + 0.5)
    return tuple(spacing * (ring + 1.5) for ring in range(count))


def _one_point_radius(rings: tuple[int, ...], radii: tuple[float, ...]) -> float:
    """A point radius that leaves room between neighbours on every ring and between rings."""
    along = min(2 * math.pi * radius / size for radius, size in zip(radii, rings, strict=True))
    across = radii[1] - radii[0] if len(radii) > 1 else radii[0]
    return min(0.3 * along, 0.25 * across, 16.0)


def _label_size(room: float) -> float:
    """Site names are written at a size that fits the site, or not at all when it is tiny."""
    size = min(room * 0.7, 11.0)
    return round(size, 1) if size >= 5.0 else 0.0


# -- Aronda ----------------------------------------------------------------------------------

#: rules/aronda.md §2, the table's illustrative sectors: first field of each ring, its span,
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


def _aronda_model(variant: aronda.ArondaVariant) -> BoardModel:
    """The 25 fields of rules/aronda.md §2 as the centre disc and annular wedges."""
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
        label_at, capacity_at, anchor = (x, y - 20.0), (x, y - 8.0), (x, y + 12.0)
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
        game="Aronda",
        kind="field",
        seats=variant.players,
        sites=tuple(sites),
        bounds=_round_bounds(BOARD_RADIUS + 8.0),
        text=layout,
        label_size=11.0,
    )


# -- Oust ------------------------------------------------------------------------------------


def _oust_model(variant: oust.OustVariant) -> BoardModel:
    """Pointy-top hexagons at the axial coordinates of rules/oust.md §2.1, row 1 at the bottom."""
    side = variant.side
    board = oust.hex_board(side)
    radius = OUST_WIDTH / ((2 * side - 1) * math.sqrt(3))
    sites = []
    for code in board.cells:
        v, u = divmod(code, oust.ROW_BITS)
        q, r = u - (side - 1), v - (side - 1)
        centre = (radius * math.sqrt(3) * (q + r / 2), -radius * 1.5 * r)
        corners = tuple(at_angle(radius, 60.0 * k) for k in range(6))
        sites.append(
            SiteModel(
                name=oust.cell_name(code),
                shape=Polygon(tuple((centre[0] + x, centre[1] + y) for x, y in corners)),
                anchor=centre,
                size=radius * 0.5,
                label_at=(centre[0], centre[1] + radius * 0.66),
                row=2 * side - 2 - v,
                column=2 * u + v - (side - 1),
            )
        )
    half_width = OUST_WIDTH / 2
    half_height = radius * (1.5 * (side - 1) + 1)
    layout = TextLayout(
        row_labels=tuple(str(number) for number in range(2 * side - 1, 0, -1)),
        column_labels=(),
        cell_width=4,
        gap=1,
    )
    return BoardModel(
        game=oust.NAME,
        kind="cell",
        seats=variant.players,
        sites=tuple(sites),
        bounds=(-half_width, -half_height, half_width, half_height),
        text=layout,
        label_size=_label_size(radius * 0.37),
    )


# -- Oh-Wah-Ree ------------------------------------------------------------------------------

#: The radius of the circle the pits' centres lie on, and of each pit.
PIT_RING_RADIUS: Final = 205.0
PIT_RADIUS: Final = 40.0
#: The first pit's angle (clockwise from 12 o'clock): seat 1's block is centred at 6 o'clock.
_FIRST_PIT_ANGLE: Final = 255.0


def pit_angle(pit: int) -> float:
    """The angle of pit ``pit`` (1..12): counter-clockwise numbering, 30° apart."""
    return (_FIRST_PIT_ANGLE - 30.0 * (pit - 1)) % 360.0


def _ohwahree_model(variant: ohwahree.Variant) -> BoardModel:
    """Twelve pits on a ring (counter-clockwise), each seat's block behind its pits."""
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
        game=ohwahree.GAME_NAME,
        kind="pit",
        seats=variant.players,
        sites=tuple(sites),
        bounds=_round_bounds(BOARD_RADIUS + 30.0),
        text=layout,
        label_size=13.0,
        blocks=_ohwahree_blocks(owners),
        stores=_ohwahree_stores(variant.players),
    )


def _ohwahree_blocks(owners: tuple[int, ...]) -> tuple[Block, ...]:
    """One wedge per seat, spanning its pits (a block is a run of neighbouring pits)."""
    blocks = []
    for seat in sorted(set(owners)):
        pits = [pit for pit, home in enumerate(owners, start=1) if home == seat]
        # Pits run counter-clockwise, so the block's clockwise start is its last pit.
        start = pit_angle(pits[-1]) - 15.0
        end = start + 30.0 * len(pits)
        wedge = Wedge(PIT_RING_RADIUS - 58.0, PIT_RING_RADIUS + 52.0, start, end)
        blocks.append(Block(seat, wedge, at_angle(PIT_RING_RADIUS - 72.0, (start + end) / 2)))
    return tuple(blocks)


def _ohwahree_stores(players: int) -> tuple[Store, ...]:
    """The stores stacked in the middle of the ring, seat 1 on top."""
    width, height, gap = 150.0, 26.0, 6.0
    top = -(players * height + (players - 1) * gap) / 2
    return tuple(
        Store(seat, (-width / 2, top + (seat - 1) * (height + gap)), width, height)
        for seat in range(1, players + 1)
    )
