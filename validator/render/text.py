"""Positions drawn as text for the terminal (``gamerec replay``), laid out by the board model.

The model places every site in a text grid (its row and its column in half cells): ONE one row
per ring, Aronda one row per ring with the centre last, Oust the hex-hex diagram of
docs/rules/oust.md (rows numbered on the left, each letter where its diagonal of cells leaves
the board, at the top or the upper right), and Oh-Wah-Ree a table of the pits with their
owners and stones. Seat 1 is ``1`` (Oust ``X``), seat 2 ``2`` (Oust ``O``), and so on; an
empty place is ``.``; Aronda writes ``#1`` for a field owned by seat 1 and ``2:1`` for the
pieces of each seat. Brackets mark the places of the last ply.
"""

from __future__ import annotations

from collections.abc import Callable

from gamerec.validator.games.protocol import Position, Site
from gamerec.validator.render.model import BoardModel

#: Width of a row label: the label is right-aligned in it.
LABEL_WIDTH = 3


def draw_text(model: BoardModel, position: Position, highlight: tuple[str, ...] = ()) -> str:
    """A text picture of ``position`` on ``model``'s board, ``highlight`` places bracketed."""
    if model.kind == "pit":
        lines = _pit_table(model, position, highlight)
    else:
        lines = _grid(model, position, highlight, _CELL_TEXT[model.kind])
    lines.extend(_status_lines(model, position))
    return "\n".join(line.rstrip() for line in lines)


def _mark(text: str, name: str, highlight: tuple[str, ...], width: int) -> str:
    """Centre ``text`` in ``width`` columns, bracketed when ``name`` is highlighted."""
    if name in highlight:
        text = f"[{text}]"
    return text.center(width)


def _stone(model: BoardModel, site: Site) -> str:
    return model.mark(site.owner)


def _field(model: BoardModel, site: Site) -> str:
    """One Aronda field: its owner, or the pieces of each seat on it."""
    if site.owner:
        return f"#{site.owner}"
    if any(site.pieces):
        return ":".join(str(count) for count in site.pieces)
    return "."


_CELL_TEXT: dict[str, Callable[[BoardModel, Site], str]] = {
    "point": _stone,
    "field": _field,
    "cell": _stone,
}


def _grid(
    model: BoardModel,
    position: Position,
    highlight: tuple[str, ...],
    cell_text: Callable[[BoardModel, Site], str],
) -> list[str]:
    """The sites in the model's text grid, one line per row, under the column labels."""
    layout = model.text
    width = layout.cell_width
    margin = " " * (LABEL_WIDTH + layout.gap)
    rows: dict[int, dict[int, str]] = {row: {} for row in layout.grid_rows}
    for place, site in zip(model.sites, position.sites, strict=True):
        rows[place.row][place.column] = _mark(cell_text(model, site), site.name, highlight, width)
    for row, column, text in layout.edge_labels:
        rows[row][column] = text.center(width)
    lines = []
    if layout.column_labels:
        lines.append(margin + "".join(label.center(width) for label in layout.column_labels))
    for row, cells in rows.items():
        label = layout.row_labels[row] if 0 <= row < len(layout.row_labels) else ""
        lines.append(f"{label:>{LABEL_WIDTH}}{' ' * layout.gap}{_row_text(cells, width)}")
    return lines


def _row_text(cells: dict[int, str], width: int) -> str:
    """Cells placed at their half-cell columns (the leftmost column of the board is 0)."""
    text = ""
    for column in sorted(cells):
        text = text.ljust(column * width // 2) + cells[column]
    return text


def _pit_table(model: BoardModel, position: Position, highlight: tuple[str, ...]) -> list[str]:
    """The ring of pits 1..12 (counter-clockwise) with each pit's owner and stones."""
    width = model.text.cell_width
    pits = list(zip(model.sites, position.sites, strict=True))
    head = "".join(_mark(site.name, site.name, highlight, width) for _, site in pits)
    owners = "".join(str(place.home).center(width) for place, _ in pits)
    stones = "".join(str(site.pieces[0]).center(width) for _, site in pits)
    name, seat, count = model.text.row_labels
    return [f"  {name:<7}{head}", f"  {seat:<7}{owners}", f"  {count:<7}{stones}"]


def _status_lines(model: BoardModel, position: Position) -> list[str]:
    """Supplies, captures or stores, resignations and the seat to move."""
    lines = []
    if position.supplies:
        lines.append("supply   " + per_seat(position.supplies))
    if position.captured:
        label = "store    " if model.kind == "pit" else "captured "
        lines.append(label + per_seat(position.captured))
    if position.resigned:
        lines.append("resigned " + ", ".join(f"seat {seat}" for seat in position.resigned))
    lines.append(f"to move  seat {position.to_move}" if position.to_move else "game over")
    return lines


def per_seat(values: tuple[int, ...]) -> str:
    """``seat 1: 18  seat 2: 18``."""
    return "  ".join(f"seat {seat}: {value}" for seat, value in enumerate(values, start=1))
