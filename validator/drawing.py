"""Positions drawn as text for the terminal, from the engines' game-neutral Position.

Each game has its own picture, built from the site names alone (so it needs no engine
internals): ONE as one row per ring, Aronda as a table of rings with owners and pieces, Oust
as the hex-hex diagram of rules/oust.md, Oh-Wah-Ree as the ring of pits with owners, stones
and stores. Seat 1 is ``1`` (Oust ``X``), seat 2 ``2`` (Oust ``O``), and so on; an empty
place is ``.``.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from itertools import groupby

from validator.games.protocol import Position, Site

_LETTER_NUMBER = re.compile(r"([a-z])([0-9]+)")
OUST_MARKS = {0: ".", 1: "X", 2: "O"}


def draw(game: str, position: Position, highlight: tuple[str, ...] = ()) -> str:
    """A text picture of ``position`` in ``game``, with ``highlight`` places bracketed."""
    drawers: dict[str, Callable[[Position, tuple[str, ...]], list[str]]] = {
        "ONE": _draw_one,
        "Aronda": _draw_aronda,
        "Oust": _draw_oust,
        "Oh-Wah-Ree": _draw_ohwahree,
    }
    lines = drawers[game](position, highlight)
    lines.extend(_status_lines(game, position))
    return "\n".join(line.rstrip() for line in lines)


def _split(name: str) -> tuple[str, int]:
    """``c7`` -> ``("c", 7)``; ``c`` (Aronda's centre) -> ``("c", 0)``."""
    match = _LETTER_NUMBER.fullmatch(name)
    if match is None:
        return name, 0
    return match.group(1), int(match.group(2))


def _mark(text: str, name: str, highlight: tuple[str, ...], width: int) -> str:
    """Centre ``text`` in ``width`` columns, bracketed when ``name`` is highlighted."""
    if name in highlight:
        text = f"[{text}]"
    return text.center(width)


def _draw_one(position: Position, highlight: tuple[str, ...]) -> list[str]:
    """One row per ring (``a`` innermost), points by index clockwise from 12 o'clock."""
    lines = []
    rings = [list(sites) for _, sites in groupby(position.sites, key=lambda s: _split(s.name)[0])]
    widest = max(len(ring) for ring in rings)
    lines.append("     " + "".join(str(i).center(4) for i in range(1, widest + 1)))
    for ring in rings:
        letter = _split(ring[0].name)[0]
        cells = "".join(
            _mark(str(site.owner) if site.owner else ".", site.name, highlight, 4) for site in ring
        )
        lines.append(f"  {letter}  {cells}")
    return lines


def _draw_aronda(position: Position, highlight: tuple[str, ...]) -> list[str]:
    """The centre, then each ring by index: ``#1`` owned by seat 1, ``2:1`` pieces per seat."""
    lines = ["       " + "".join(str(i).center(7) for i in range(1, 9))]
    by_ring = {
        letter: list(sites)
        for letter, sites in groupby(position.sites, key=lambda s: _split(s.name)[0])
    }
    for letter in ("o", "m", "i"):
        cells = "".join(_aronda_cell(site, highlight) for site in by_ring.get(letter, []))
        lines.append(f"  {letter}    {cells}")
    centre = by_ring.get("c", [])
    lines.append("  c    " + "".join(_aronda_cell(site, highlight) for site in centre))
    return lines


def _aronda_cell(site: Site, highlight: tuple[str, ...]) -> str:
    """One Aronda field: its owner, or the pieces of each seat on it."""
    if site.owner:
        text = f"#{site.owner}"
    elif any(site.pieces):
        text = ":".join(str(count) for count in site.pieces)
    else:
        text = "."
    return _mark(text, site.name, highlight, 7)


def _draw_oust(position: Position, highlight: tuple[str, ...]) -> list[str]:
    """The hex-hex board, top row first, as rules/oust.md draws it."""
    rows: dict[int, list[Site]] = {}
    for site in position.sites:
        rows.setdefault(_split(site.name)[1], []).append(site)
    side = (len(rows) + 1) // 2
    lines = []
    for number in sorted(rows, reverse=True):
        cells = sorted(rows[number], key=lambda s: s.name)
        indent = " " * (2 * abs(side - number))
        body = "".join(
            _mark(OUST_MARKS.get(site.owner, str(site.owner)), site.name, highlight, 4)
            for site in cells
        )
        lines.append(f"{number:>3} {indent}{body}")
    return lines


def _draw_ohwahree(position: Position, highlight: tuple[str, ...]) -> list[str]:
    """The ring of pits 1..12 (counter-clockwise), with each pit's owner and stones."""
    pits = position.sites
    head = "  pit    " + "".join(_mark(site.name, site.name, highlight, 5) for site in pits)
    owners = "  seat   " + "".join(str(site.owner).center(5) for site in pits)
    stones = "  stones " + "".join(str(site.pieces[0]).center(5) for site in pits)
    return [head, owners, stones]


def _status_lines(game: str, position: Position) -> list[str]:
    """Supplies, captures or stores, resignations and the seat to move."""
    lines = []
    if position.supplies:
        lines.append("supply   " + _per_seat(position.supplies))
    if position.captured:
        label = "store    " if game == "Oh-Wah-Ree" else "captured "
        lines.append(label + _per_seat(position.captured))
    if position.resigned:
        lines.append("resigned " + ", ".join(f"seat {seat}" for seat in position.resigned))
    lines.append(f"to move  seat {position.to_move}" if position.to_move else "game over")
    return lines


def _per_seat(values: tuple[int, ...]) -> str:
    """``seat 1: 18  seat 2: 18``."""
    return "  ".join(f"seat {seat}: {value}" for seat, value in enumerate(values, start=1))
