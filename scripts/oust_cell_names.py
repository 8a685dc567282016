"""Draw docs/images/oust-cell-names.svg: Oust's cells named by GRN, Abstract Play and Ludii.

Usage: ``python scripts/oust_cell_names.py [--side 7] [--check] [OUT]`` (default OUT:
docs/images/oust-cell-names.svg; ``--check`` compares instead of writing). The board's
geometry is the board model of gamerec's own pictures (``validator/games/entries/oust.py``:
pointy-top hexagons, row 1 at the bottom); each cell shows its GRN name (large), Abstract
Play's label (below) and Ludii's site (above), all three from
``gamerec.recorder.syntax.oust``, the conversions the codecs use.
tests/recorder/test_foreign_cells.py checks that the committed picture is this script's.
"""

from __future__ import annotations

import argparse
import math
from pathlib import Path

from gamerec.recorder.syntax import oust
from gamerec.recorder.syntax.base import LETTERS
from gamerec.validator.games import oust as engine
from gamerec.validator.games.entries.oust import board_model
from gamerec.validator.render.model import Polygon

ROOT = Path(__file__).resolve().parents[1]
DEFAULT_OUT = ROOT / "docs" / "images" / "oust-cell-names.svg"
MARGIN = 24.0
LEGEND = 70.0


def picture(side: int) -> str:
    """The SVG text of the board of side ``side``."""
    model = board_model(engine.OustVariant(side=side, pie=True, players=2))
    left, top, right, bottom = model.bounds
    width = right - left + 2 * MARGIN
    height = bottom - top + 2 * MARGIN + LEGEND
    tags = {"Board": str(side)}
    sites = {cell: site for site, cell in enumerate(oust.ludii_cells(tags))}
    radius = _radius(_corners(model.sites[0].shape))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
        f'viewBox="{left - MARGIN:.1f} {top - MARGIN:.1f} {width:.1f} {height:.1f}" '
        'font-family="DejaVu Sans, Verdana, sans-serif" text-anchor="middle">',
        f"<title>Oust, side {side}: each cell's GRN name, Abstract Play label and Ludii site"
        "</title>",
        f'<rect x="{left - MARGIN:.1f}" y="{top - MARGIN:.1f}" width="{width:.1f}" '
        f'height="{height:.1f}" fill="#ffffff"/>',
    ]
    for site in model.sites:
        corners = _corners(site.shape)
        column, row = LETTERS.index(site.name[0]) + 1, int(site.name[1:])
        label = oust.ap_label(column, row, side)
        x = sum(point[0] for point in corners) / 6
        y = sum(point[1] for point in corners) / 6
        points = " ".join(f"{px:.1f},{py:.1f}" for px, py in corners)
        parts += [
            f'<polygon points="{points}" fill="#f4f1ea" stroke="#6b6b6b" stroke-width="1"/>',
            f'<text x="{x:.1f}" y="{y - radius * 0.42:.1f}" font-size="{radius * 0.3:.1f}" '
            f'fill="#1f5f8b">{sites[site.name]}</text>',
            f'<text x="{x:.1f}" y="{y + radius * 0.12:.1f}" font-size="{radius * 0.42:.1f}" '
            f'font-weight="bold" fill="#111111">{site.name}</text>',
            f'<text x="{x:.1f}" y="{y + radius * 0.55:.1f}" font-size="{radius * 0.34:.1f}" '
            f'fill="#9c3d10">{label}</text>',
        ]
    legend_y = bottom + MARGIN + 8
    parts += [
        f'<text x="0" y="{legend_y:.1f}" font-size="15" fill="#111111">'
        f'<tspan font-weight="bold">g7</tspan>: GRN (column letter, row number; docs/notation.md)'
        "</text>",
        f'<text x="0" y="{legend_y + 20:.1f}" font-size="15" fill="#9c3d10">below: Abstract Play '
        "(row letter from the bottom, place in the row from the left)</text>",
        f'<text x="0" y="{legend_y + 40:.1f}" font-size="15" fill="#1f5f8b">above: Ludii site '
        "(row by row from the bottom, each from the left)</text>",
        "</svg>",
    ]
    return "\n".join(parts) + "\n"


def _corners(shape: object) -> tuple[tuple[float, float], ...]:
    assert isinstance(shape, Polygon), "Oust cells are polygons"
    return shape.corners


def _radius(points: tuple[tuple[float, float], ...]) -> float:
    x, y = (sum(point[index] for point in points) / len(points) for index in (0, 1))
    return math.hypot(points[0][0] - x, points[0][1] - y)


def main() -> None:
    """Write the picture (``--check``: exit 1 when the committed one is not this script's)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--side", type=int, default=7)
    parser.add_argument("--check", action="store_true", help="compare, write nothing")
    parser.add_argument("out", nargs="?", type=Path, default=DEFAULT_OUT)
    options = parser.parse_args()
    text = picture(options.side)
    if options.check:
        if not options.out.exists() or options.out.read_text() != text:
            raise SystemExit(f"{options.out} is stale: run python scripts/oust_cell_names.py")
        return
    options.out.write_text(text)


if __name__ == "__main__":
    main()
