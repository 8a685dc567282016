"""The board model of each game: where every site lies, computed once per variant.

A :class:`BoardModel` is pure geometry and layout, with no position in it: the shape and
anchor of every site (in the same order as the engine's :class:`Position` lists them), the
board's lines, and the site's cell in a text grid. Both renderers read it: ``svg`` draws the
shapes, ``text`` places the sites in the terminal grid. Coordinates are in picture units
(about one pixel), the board centred on ``(0, 0)``, ``x`` to the right and ``y`` downwards as
in SVG; angles are in degrees clockwise from 12 o'clock, as the rules measure them.

Each game's entry in the registry builds its model (``gamerec.validator.games.entries``):

- ONE (docs/rules/one.md §2.1): point ``xi`` of a ring of n points at 360°·(i−1)/n on its ring's
  circle; the spokes are the engine board's open lines, drawn from their innermost point to
  their outermost.
- Aronda (docs/rules/aronda.md §2): the centre disc and 24 annular wedges at the table's
  illustrative angles, with each field's capacity.
- Oust (docs/rules/oust.md §2.1): pointy-top hexagons at the axial coordinates, row 1 at the
  bottom, ``(u, v+1)`` up-right and ``(u−1, v+1)`` up-left.
- Oh-Wah-Ree (docs/rules/ohwahree.md §2): twelve pits on a ring numbered counter-clockwise, seat
  1's block at the bottom, each seat's block of pits as a wedge behind them.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any, Final

#: A point of the picture: ``(x, y)``.
Point = tuple[float, float]

#: The radius of the round boards (ONE's outer ring, Aronda's edge, Oh-Wah-Ree's blocks).
BOARD_RADIUS: Final = 280.0
#: A generous estimate of written text, in ems of its font size: the width of a character
#: (DejaVu Sans, the pictures' first font, averages under 0.6 em) and the height of a line.
TEXT_WIDTH_EM: Final = 0.65
TEXT_HEIGHT_EM: Final = 1.2
#: The font size of Oh-Wah-Ree's block labels (``seat 2``).
BLOCK_LABEL_SIZE: Final = 13.0

#: A box: ``(left, top, right, bottom)``.
Box = tuple[float, float, float, float]


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
        capacity: Aronda: the field's capacity (docs/rules/aronda.md §2); 0 elsewhere.
        capacity_at: Aronda: where the capacity is written.
        home: Oh-Wah-Ree: the seat that owns the pit (docs/rules/ohwahree.md §2); 0 elsewhere.
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
        edge_labels: labels written in the grid itself, each ``(row, column, text)`` at a
            row and half-cell column as a site's (row -1: a line above the top row; the
            number of rows: a line below the last). Oust's letters: each written where its
            diagonal of cells would go on past the board's edge.
    """

    row_labels: tuple[str, ...]
    column_labels: tuple[str, ...]
    cell_width: int
    gap: int
    edge_labels: tuple[tuple[int, int, str], ...] = ()

    @property
    def grid_rows(self) -> range:
        """The grid's rows, the lines of edge labels above or below the board included."""
        rows = [row for row, _, _ in self.edge_labels]
        count = len(self.row_labels)
        return range(min([0, *rows]), max([count - 1, *rows]) + 1)


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
        marks: the mark of each seat's stones, in seat order, where it is not the seat's
            number (Oust writes ``X`` and ``O``).
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
    marks: tuple[str, ...] = ()
    _by_name: dict[str, SiteModel] = field(default_factory=dict, compare=False, repr=False)

    def __post_init__(self) -> None:
        """Index the sites by name."""
        self._by_name.update((site.name, site) for site in self.sites)

    def site(self, name: str) -> SiteModel | None:
        """The site called ``name``, or None when the board has no such site."""
        return self._by_name.get(name)

    def mark(self, seat: int) -> str:
        """How a stone of ``seat`` is written: its mark, else its number; ``.`` for none."""
        if not seat:
            return "."
        return self.marks[seat - 1] if seat <= len(self.marks) else str(seat)


def board_model(game: str, variant: Any) -> BoardModel:
    """The board model of ``game`` (any spelling) under ``variant``, built once per variant.

    Raises:
        VariantError: no such game.
    """
    return _board_model(game, variant)


@lru_cache(maxsize=64)
def _board_model(game: str, variant: Any) -> BoardModel:
    from gamerec.validator.games.registry import entry_named  # noqa: PLC0415 (entries use this module)

    return entry_named(game).board_model(variant)


def at_angle(radius: float, degrees: float) -> Point:
    """The point at ``radius`` from the centre, ``degrees`` clockwise from 12 o'clock."""
    radians = math.radians(degrees)
    return (radius * math.sin(radians), -radius * math.cos(radians))


def round_bounds(radius: float) -> tuple[float, float, float, float]:
    """The box of a round board of ``radius``: ``(left, top, right, bottom)``."""
    return (-radius, -radius, radius, radius)


def text_box(at: Point, text: str, size: float) -> Box:
    """The box that ``text`` written at ``size``, centred on ``at``, fits in (an estimate)."""
    half_width = TEXT_WIDTH_EM * size * len(text) / 2
    half_height = TEXT_HEIGHT_EM * size / 2
    return (at[0] - half_width, at[1] - half_height, at[0] + half_width, at[1] + half_height)


def farthest_corner(box: Box) -> float:
    """How far the corner of ``box`` farthest from the board's centre lies from it."""
    left, top, right, bottom = box
    return math.hypot(max(abs(left), abs(right)), max(abs(top), abs(bottom)))


def block_label(seat: int) -> str:
    """The text of an Oh-Wah-Ree block's label."""
    return f"seat {seat}"


def label_size(room: float) -> float:
    """Site names are written at a size that fits the site, or not at all when it is tiny."""
    size = min(room * 0.7, 11.0)
    return round(size, 1) if size >= 5.0 else 0.0
