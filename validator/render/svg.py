"""Positions drawn as SVG pictures (``gamerec render``), from the board model and a scene.

Every site is one shape with a stable id and class (``<circle id="site-c7" class="site
point">``, ``class="site field"``, ``"site cell"``, ``"site pit"``), so a picture can be
styled, scripted and tested. Seats have a fixed colour-blind-safe palette (Okabe and Ito's),
and every stone (ONE, Oust) and placement piece (Aronda) also carries its seat's number (Oust:
``X`` and ``O``), so no information is in the colour alone. The places the last ply names
are ringed in black; the places it captured or took possession of are ringed with a dashed
line. A finished game's picture says the rules' result under the legend.

The output is deterministic (coordinates rounded to 0.1, attributes in a fixed order), so
golden files can guard it.
"""

from __future__ import annotations

from collections.abc import Iterator
from functools import lru_cache
from typing import Final
from xml.sax.saxutils import escape, quoteattr

from gamerec.validator.games.protocol import Site
from gamerec.validator.render.model import (
    BLOCK_LABEL_SIZE,
    BoardModel,
    Disc,
    Point,
    Polygon,
    Shape,
    SiteModel,
    Wedge,
    block_label,
)
from gamerec.validator.render.model import at_angle as _at_angle
from gamerec.validator.render.scene import Scene

#: Seat colours 1..6: Okabe and Ito's colour-blind-safe palette (blue, vermillion, bluish
#: green, reddish purple, orange, sky blue).
SEAT_COLOURS: Final = ("#0072B2", "#D55E00", "#009E73", "#CC79A7", "#E69F00", "#56B4E9")
#: The colour of text written on a seat's colour (chosen for contrast).
TEXT_ON_SEAT: Final = ("#ffffff", "#ffffff", "#ffffff", "#000000", "#000000", "#000000")
BOARD_FILL: Final = "#f6f2e8"
LINE_COLOUR: Final = "#8a8170"
INK: Final = "#222222"
#: Site names and capacities: dark enough for 7:1 contrast on the board (WCAG AAA).
LABEL_COLOUR: Final = "#3b362d"
#: Aronda's placement pieces: their radius and the distance between neighbours' centres.
PIECE_RADIUS: Final = 8.0
PIECE_SPACING: Final = 18.0
#: Room above the board for the title, and per seat below it for the legend.
TITLE_HEIGHT: Final = 44.0
LEGEND_ROW: Final = 24.0
PADDING: Final = 16.0


def seat_colour(seat: int) -> str:
    """The colour of ``seat`` (1-based); seats past 6 reuse the palette."""
    return SEAT_COLOURS[(seat - 1) % len(SEAT_COLOURS)]


def text_on(seat: int) -> str:
    """The colour of text written on ``seat``'s colour."""
    return TEXT_ON_SEAT[(seat - 1) % len(TEXT_ON_SEAT)]


def draw_svg(scene: Scene) -> str:
    """The SVG picture of ``scene``, as a complete UTF-8 document (ending with a newline)."""
    model = scene.model
    left, top, right, bottom = model.bounds
    width = right - left + 2 * PADDING
    # The legend's rows: one per seat, then the result's (kept when there is none, so that
    # every picture of a game has one size).
    height = bottom - top + 2 * PADDING + TITLE_HEIGHT + LEGEND_ROW * (model.seats + 1.5)
    origin_x, origin_y = left - PADDING, top - PADDING - TITLE_HEIGHT
    parts = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{_n(width)}" height="{_n(height)}" '
        f'viewBox="{_n(origin_x)} {_n(origin_y)} {_n(width)} {_n(height)}" '
        'font-family="DejaVu Sans, Verdana, sans-serif">',
        f"<title>{escape(scene.title)}</title>",
        f'<rect class="background" x="{_n(origin_x)}" y="{_n(origin_y)}" width="{_n(width)}" '
        f'height="{_n(height)}" fill="#ffffff"/>',
        _text(
            (origin_x + PADDING, origin_y + 28.0),
            scene.title,
            "title",
            size=16.0,
            anchor="start",
            weight="bold",
        ),
        *group("board", board_lines(model)),
        *group("sites", site_shapes(scene)),
        *group("contents", site_contents(scene)),
        *group("marks", ply_marks(scene)),
        *group("labels", site_labels(model)),
        *group("legend", _legend(scene, (origin_x + PADDING + 16.0, bottom + PADDING + 14.0))),
        *_result(scene, (origin_x + PADDING, bottom + PADDING + 14.0 + LEGEND_ROW * model.seats)),
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


# -- elements ----------------------------------------------------------------------------------


def _n(value: float) -> str:
    """A coordinate: rounded to 0.1, without a trailing ``.0`` or a negative zero."""
    text = f"{value:.1f}".removesuffix(".0")
    return "0" if text == "-0" else text


def group(name: str, elements: Iterator[str]) -> list[str]:
    """The elements inside ``<g class="name">``."""
    return [f'<g class="{name}">', *elements, "</g>"]


def _text(
    at: Point,
    content: str,
    cls: str,
    *,
    size: float,
    fill: str = INK,
    anchor: str = "middle",
    weight: str = "normal",
) -> str:
    bold = ' font-weight="bold"' if weight == "bold" else ""
    return (
        f'<text class="{cls}" x="{_n(at[0])}" y="{_n(at[1])}" font-size="{_n(size)}" '
        f'text-anchor="{anchor}" dominant-baseline="central" fill="{fill}"{bold}>'
        f"{escape(content)}</text>"
    )


def _circle(centre: Point, radius: float, attributes: str) -> str:
    return f'<circle cx="{_n(centre[0])}" cy="{_n(centre[1])}" r="{_n(radius)}" {attributes}/>'


def _wedge_path(wedge: Wedge) -> str:
    """The outline of a ring sector: the outer arc clockwise, the inner arc back."""
    large = 1 if wedge.end - wedge.start > 180.0 else 0
    outer_start = _at_angle(wedge.outer, wedge.start)
    outer_end = _at_angle(wedge.outer, wedge.end)
    radius = _n(wedge.outer)
    path = (
        f"M{_n(outer_start[0])},{_n(outer_start[1])} "
        f"A{radius},{radius} 0 {large} 1 {_n(outer_end[0])},{_n(outer_end[1])} "
    )
    if wedge.inner <= 0:
        return path + "L0,0 Z"
    inner_start = _at_angle(wedge.inner, wedge.start)
    inner_end = _at_angle(wedge.inner, wedge.end)
    radius = _n(wedge.inner)
    return path + (
        f"L{_n(inner_end[0])},{_n(inner_end[1])} "
        f"A{radius},{radius} 0 {large} 0 {_n(inner_start[0])},{_n(inner_start[1])} Z"
    )


def shape_element(shape: Shape, attributes: str, grow: float = 0.0) -> str:
    """One shape (``grow`` widens a disc, for rings drawn round a site)."""
    tag, geometry = _geometry(shape, grow)
    return f"<{tag} {geometry} {attributes}/>"


@lru_cache(maxsize=4096)
def _geometry(shape: Shape, grow: float) -> tuple[str, str]:
    """A shape's element name and coordinates, written once per shape.

    A board's sites are drawn again in every picture of a game.
    """
    if isinstance(shape, Disc):
        (x, y), radius = shape.centre, shape.radius + grow
        return "circle", f'cx="{_n(x)}" cy="{_n(y)}" r="{_n(radius)}"'
    if isinstance(shape, Polygon):
        return "polygon", f'points="{" ".join(f"{_n(x)},{_n(y)}" for x, y in shape.corners)}"'
    return "path", f'd="{_wedge_path(shape)}"'


# -- the board -------------------------------------------------------------------------------


def board_lines(model: BoardModel) -> Iterator[str]:
    """ONE's ring circles and spokes; Oh-Wah-Ree's seat blocks; Aronda's outer rim."""
    for radius in model.rings:
        yield _circle(
            (0.0, 0.0), radius, f'class="ring" fill="none" stroke="{LINE_COLOUR}" stroke-width="2"'
        )
    for (x1, y1), (x2, y2) in model.spokes:
        yield (
            f'<line class="spoke" x1="{_n(x1)}" y1="{_n(y1)}" x2="{_n(x2)}" y2="{_n(y2)}" '
            f'stroke="{LINE_COLOUR}" stroke-width="2"/>'
        )
    for block in model.blocks:
        colour = seat_colour(block.seat)
        yield shape_element(
            block.wedge,
            f'class="block seat-{block.seat}" fill="{colour}" fill-opacity="0.22" '
            f'stroke="{colour}" stroke-width="2"',
        )
        yield _text(
            block.label_at, block_label(block.seat), "block-label", size=BLOCK_LABEL_SIZE, fill=INK
        )


def site_shapes(scene: Scene) -> Iterator[str]:
    """One shape per site, filled by its possessor where a field is possessed."""
    model = scene.model
    for place, site in zip(model.sites, scene.position.sites, strict=True):
        fill, opacity = BOARD_FILL, ""
        stroke = LINE_COLOUR
        if model.kind == "field" and site.owner:
            fill, opacity = seat_colour(site.owner), ' fill-opacity="0.55"'
        elif model.kind == "point":
            fill = "#ffffff"
        elif model.kind == "pit":
            fill, stroke = "#ffffff", seat_colour(place.home)
        attributes = (
            f'{_site_names(model.kind, place.name)} fill="{fill}"{opacity} '
            f'stroke="{stroke}" stroke-width="2"'
        )
        yield shape_element(place.shape, attributes)


@lru_cache(maxsize=4096)
def _site_names(kind: str, name: str) -> str:
    """A site's id, class and name attributes (written once per site)."""
    return f'id="site-{escape(name)}" class="site {kind}" data-name={quoteattr(name)}'


# -- what stands on the board ----------------------------------------------------------------


def site_contents(scene: Scene) -> Iterator[str]:
    """What stands on every site: stones, Aronda pieces or possessors, pit counts, stores."""
    model = scene.model
    for place, site in zip(model.sites, scene.position.sites, strict=True):
        if model.kind in ("point", "cell") and site.owner:
            yield from _stone(place, site, model.mark(site.owner))
        elif model.kind == "field":
            yield from _field_contents(place, site)
        elif model.kind == "pit":
            yield _text(place.anchor, str(site.pieces[0]), "count", size=22.0, weight="bold")
    yield from _stores(scene)


def _stores(scene: Scene) -> Iterator[str]:
    """Oh-Wah-Ree's stores: a box per seat with the stones captured."""
    captured = scene.position.captured
    for store in scene.model.stores:
        colour = seat_colour(store.seat)
        x, y = store.corner
        yield (
            f'<rect class="store seat-{store.seat}" x="{_n(x)}" y="{_n(y)}" '
            f'width="{_n(store.width)}" height="{_n(store.height)}" rx="6" fill="{colour}" '
            f'fill-opacity="0.22" stroke="{colour}" stroke-width="2"/>'
        )
        count = captured[store.seat - 1] if store.seat <= len(captured) else 0
        yield _text(
            (x + store.width / 2, y + store.height / 2),
            f"store seat {store.seat}: {count}",
            "store-count",
            size=13.0,
        )


def _stone(place: SiteModel, site: Site, mark: str) -> Iterator[str]:
    seat = site.owner
    yield _circle(
        place.anchor,
        place.size * 0.9,
        f'class="stone seat-{seat}" fill="{seat_colour(seat)}" stroke="{INK}" stroke-width="1"',
    )
    # Written even where it is too small to read unmagnified: SVG pictures are zoomed.
    yield _text(
        place.anchor, mark, "stone-mark", size=place.size, fill=text_on(seat), weight="bold"
    )


def _field_contents(place: SiteModel, site: Site) -> Iterator[str]:
    """An Aronda field: its possessor's number, or the pieces of each seat in rows of dots."""
    if site.owner:
        yield _text(place.anchor, f"#{site.owner}", "possessor", size=18.0, fill=INK, weight="bold")
        return
    rows = [(seat, count) for seat, count in enumerate(site.pieces, start=1) if count]
    for row, (seat, count) in enumerate(rows):
        y = place.anchor[1] + PIECE_SPACING * (row - (len(rows) - 1) / 2)
        for index in range(count):
            x = place.anchor[0] + PIECE_SPACING * (index - (count - 1) / 2)
            yield _circle(
                (x, y),
                PIECE_RADIUS,
                f'class="piece seat-{seat}" fill="{seat_colour(seat)}" stroke="{INK}" '
                'stroke-width="1"',
            )
            yield _text(
                (x, y), str(seat), "piece-mark", size=11.0, fill=text_on(seat), weight="bold"
            )


def ply_marks(scene: Scene) -> Iterator[str]:
    """The last ply's places ringed in black; captured and possessed places dashed."""
    model = scene.model
    for name in scene.placed:
        place = model.site(name)
        if place is not None:
            yield shape_element(
                place.shape,
                'class="last-move" fill="none" stroke="#000000" stroke-width="4"',
                grow=3.0,
            )
    for name in scene.taken:
        place = model.site(name)
        if place is not None:
            yield shape_element(
                place.shape,
                'class="taken" fill="none" stroke="#000000" stroke-width="2.5" '
                'stroke-dasharray="6 4"',
                grow=7.0,
            )


def site_labels(model: BoardModel) -> Iterator[str]:
    """Site names (and Aronda's capacities), when the board leaves room to write them."""
    if not model.label_size:
        return
    for place in model.sites:
        yield _text(
            place.label_at, place.name, "site-label", size=model.label_size, fill=LABEL_COLOUR
        )
        if place.capacity:
            yield _text(
                place.capacity_at, f"cap {place.capacity}", "capacity", size=9.5, fill=LABEL_COLOUR
            )


# -- the legend ------------------------------------------------------------------------------


def _legend(scene: Scene, at: Point) -> Iterator[str]:
    """One line per seat: colour, name, score, supply, captures or store, to move."""
    position = scene.position
    x, y = at
    for seat in range(1, scene.model.seats + 1):
        row_y = y + LEGEND_ROW * (seat - 1)
        yield _circle(
            (x + 9.0, row_y),
            9.0,
            f'class="swatch seat-{seat}" fill="{seat_colour(seat)}" stroke="{INK}" '
            'stroke-width="1"',
        )
        yield _text(
            (x + 9.0, row_y), scene.model.mark(seat), "swatch-mark", size=10.0, fill=text_on(seat)
        )
        yield _text(
            (x + 26.0, row_y), _seat_line(scene, seat), "seat-line", size=13.0, anchor="start"
        )
        if seat == position.to_move:
            yield _text((x - 6.0, row_y), "▶", "to-move", size=12.0, anchor="end")


def _result(scene: Scene, at: Point) -> Iterator[str]:
    """The caption under the legend: the rules' result, for a finished game only."""
    if scene.result:
        yield _text(
            at, f"Result: {scene.result}", "result", size=14.0, anchor="start", weight="bold"
        )


def _seat_line(scene: Scene, seat: int) -> str:
    """``seat 1 Ana · score 5 · supply 12 · captured 2``."""
    position = scene.position
    name = scene.seat_names[seat - 1] if seat <= len(scene.seat_names) else ""
    parts = [f"seat {seat}" + (f" {name}" if name else "")]
    if scene.scores:
        parts.append(f"score {scene.scores[seat - 1]}")
    if position.supplies:
        parts.append(f"supply {position.supplies[seat - 1]}")
    if position.captured:
        word = "store" if scene.model.kind == "pit" else "captured"
        parts.append(f"{word} {position.captured[seat - 1]}")
    if seat in position.resigned:
        parts.append("resigned")
    return " · ".join(parts)
