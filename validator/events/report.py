"""The event as text and JSON: players, a round's pairings, standings with the crosstable."""

from __future__ import annotations

import html
from collections.abc import Mapping
from fractions import Fraction
from typing import Any, Final

from gamerec.validator.collection.standings import fraction_text
from gamerec.validator.events.model import Event, Round
from gamerec.validator.events.tiebreaks import Game, Line
from gamerec.validator.render.tables import Cell, page, table_html

#: The column heading of each tie-break.
HEADINGS = {
    "buchholz": "BH",
    "buchholz-cut1": "BH-C1",
    "buchholz-median": "BH-M",
    "sonneborn-berger": "SB",
    "direct": "DE",
    "wins": "WIN",
    "progressive": "PS",
}
#: The crosstable's mark of a game adjudicated from the position reached.
ADJUDICATED_MARK = "a"


def players_text(event: Event) -> str:
    """The players, by pairing number, with rating, late entry and withdrawal."""
    lines = [f"{event.settings.name}: {len(event.players)} players"]
    for player in event.players:
        notes = []
        if player.rating is not None:
            notes.append(f"rating {player.rating}")
        if player.joined > 1:
            notes.append(f"late entry from round {player.joined}")
        if player.withdrawn is not None:
            notes.append(f"withdrew after round {player.withdrawn}")
        extra = f" ({', '.join(notes)})" if notes else ""
        lines.append(f"{player.number:>4}  {player.name}{extra}")
    return "\n".join(lines)


def round_text(event: Event, made: Round) -> str:
    """A round's tables (seats in order, with pairing numbers) and byes."""
    number = {p.name: p.number for p in event.players}
    lines = [f"{event.settings.name}: round {made.number}"]
    for table in made.tables:
        seats = " - ".join(f"{name} ({number[name]})" for name in table.seats)
        result = ""
        if table.result is not None:
            result = "  " + " ".join(str(rank) for rank in table.result.ranks)
        hand = "  [changed by hand]" if table.manual else ""
        lines.append(f"{table.number:>4}  {seats}{result}{hand}")
    for name, points in made.byes.items():
        hand = "  [changed by hand]" if name in made.manual_byes else ""
        lines.append(f" bye  {name} ({number[name]}): {fraction_text(points)}{hand}")
    return "\n".join(lines)


def _cell(game: Game, number: dict[str, int], seats: int) -> str:
    if game.bye:
        return "bye" + fraction_text(game.points)
    if not game.opponents:
        return "-"
    mark = ADJUDICATED_MARK if game.adjudicated else ""
    if seats == 2:
        colour = "w" if game.seat == 1 else "b"
        result = fraction_text(game.shares[0]) if game.played else "*"
        return f"{number[game.opponents[0]]}{colour}{result}{mark}"
    place = str(game.place) if game.played else "*"
    return f"t{game.table}s{game.seat}p{place}{mark}"


def shown_ratings(
    lines: list[Line], listed: Mapping[str, float] | None = None
) -> dict[str, tuple[float, str]]:
    """Each player's rating to show and where it is from: the rating list, else the entry."""
    shown: dict[str, tuple[float, str]] = {}
    for line in lines:
        if listed is not None and line.name in listed:
            shown[line.name] = (listed[line.name], "list")
        elif line.rating is not None:
            shown[line.name] = (line.rating, "entry")
    return shown


def _rating_text(value: float, seats: int) -> str:
    if float(value).is_integer():
        return str(int(value))
    return str(round(value)) if seats == 2 else f"{value:.2f}"


#: The line under standings whose crosstable marks a game adjudicated at a deadline.
ADJUDICATED_LEGEND: Final = (
    f"{ADJUDICATED_MARK}: adjudicated from the position reached (not finished)"
)


def _title(event: Event) -> str:
    settings = event.settings
    return (
        f"{settings.name}: standings after round {len(event.rounds)} "
        f"({settings.format}, {settings.seats} seats, {settings.game})"
    )


def standings_rows(
    event: Event, lines: list[Line], listed: Mapping[str, float] | None = None
) -> list[list[tuple[str, tuple[int, int] | None]]]:
    """The standings as rows of cells, heading first: each cell's text and its game.

    A game cell carries its (round, table). Columns: place, number, name, ``Rtg`` when a
    player has a rating (from ``listed``, a rating list's pool for the event's game and seats,
    where it names the player, else the rating entered), points, the tie-breaks, a cell per
    round.
    """
    settings = event.settings
    ratings = shown_ratings(lines, listed)
    number = {p.name: p.number for p in event.players}
    order = list(lines[0].tiebreaks) if lines else list(settings.tiebreaks)
    heading = ["#", "No", "Name", *(["Rtg"] if ratings else []), "Pts"]
    heading += [HEADINGS[name] for name in order]
    heading += [f"R{r}" for r in range(1, len(event.rounds) + 1)]
    rows: list[list[tuple[str, tuple[int, int] | None]]] = [[(h, None) for h in heading]]
    for line in lines:
        cells = [str(line.place), str(line.number), line.name]
        if ratings:
            value = ratings.get(line.name)
            cells.append("" if value is None else _rating_text(value[0], settings.seats))
        cells.append(fraction_text(line.points))
        cells += [fraction_text(line.tiebreaks[name]) for name in order]
        row: list[tuple[str, tuple[int, int] | None]] = [(cell, None) for cell in cells]
        row += [
            (_cell(game, number, settings.seats), (game.round, game.table) if game.table else None)
            for game in line.rounds
        ]
        rows.append(row)
    return rows


def standings_text(
    event: Event, lines: list[Line], listed: Mapping[str, float] | None = None
) -> str:
    """The standings with the crosstable: one line per player, a cell per round.

    The columns are :func:`standings_rows`'s, aligned.
    """
    rows = standings_rows(event, lines, listed)
    rating = rows[0][3][0] == "Rtg"
    widths = [3, 3, max([len(line.name) for line in lines] + [4])]
    widths += [7] if rating else []
    widths += [5] + [6] * (len(rows[0]) - len(widths) - 1 - len(event.rounds))
    widths += [9] * len(event.rounds)
    out = [_title(event)]
    for index, row in enumerate(rows):
        texts = [text for text, _ in row]
        cells = [texts[0].rjust(widths[0]), texts[1].rjust(widths[1]), texts[2].ljust(widths[2])]
        cells += [text.rjust(width) for text, width in zip(texts[3:], widths[3:], strict=True)]
        joined = "  ".join(cells)
        out.append(joined if index == 0 else joined.rstrip())
    if any(game.adjudicated for line in lines for game in line.rounds):
        out.append(ADJUDICATED_LEGEND)
    return "\n".join(out)


def standings_html(
    event: Event,
    lines: list[Line],
    links: Mapping[tuple[int, int], str],
    listed: Mapping[str, float] | None = None,
) -> str:
    """The standings and crosstable as one offline HTML page.

    A game's cell links to ``links[(round, table)]`` (its viewer page) where there is one.
    """
    rows: list[list[Cell]] = []
    for row in standings_rows(event, lines, listed):
        rows.append([(t, links[at]) if at is not None and at in links else t for t, at in row])
    order = list(lines[0].tiebreaks) if lines else list(event.settings.tiebreaks)
    cells = (
        "opponent's number, colour (w, b) and result"
        if event.settings.seats == 2
        else "t table, s seat, p place"
    )
    facts = (
        f"Tie-breaks in order: {', '.join(order)}. A round's cell: {cells}; "
        "a game's cell opens its replay."
    )
    if any(game.adjudicated for line in lines for game in line.rounds):
        facts += f" {ADJUDICATED_LEGEND}."
    body = f"<p>{html.escape(facts)}</p>" + table_html(rows, left=2)
    return page(_title(event), body)


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def standings_json(
    event: Event, lines: list[Line], listed: Mapping[str, float] | None = None
) -> dict[str, Any]:
    """The standings as JSON data (numbers: whole or decimal).

    ``rating`` is the rating shown (see :func:`standings_text`), ``rating_from`` says where
    it is from: ``list``, ``entry`` or null.
    """
    settings = event.settings
    ratings = shown_ratings(lines, listed)
    number = {p.name: p.number for p in event.players}
    return {
        "event": settings.name,
        "game": settings.game,
        "seats": settings.seats,
        "format": settings.format,
        "rounds_paired": len(event.rounds),
        "rounds_planned": settings.rounds,
        "tiebreaks": list(lines[0].tiebreaks) if lines else list(settings.tiebreaks),
        "players": [
            {
                "place": line.place,
                "number": line.number,
                "name": line.name,
                "rating": ratings[line.name][0] if line.name in ratings else None,
                "rating_from": ratings[line.name][1] if line.name in ratings else None,
                "points": _number(line.points),
                "tiebreaks": {k: _number(v) for k, v in line.tiebreaks.items()},
                "rounds": [_game_json(game, number) for game in line.rounds],
            }
            for line in lines
        ],
    }


def _game_json(game: Game, number: dict[str, int]) -> dict[str, Any]:
    if game.bye:
        return {
            "round": game.round,
            "bye": True,
            "points": _number(game.points),
            "by_hand": game.manual,
        }
    if not game.opponents:
        return {"round": game.round, "paired": False}
    return {
        "round": game.round,
        "table": game.table,
        "seat": game.seat,
        "opponents": [number[o] for o in game.opponents],
        "place": game.place if game.played else None,
        "points": _number(game.points) if game.played else None,
        "by_hand": game.manual,
        "adjudicated": game.adjudicated or None,
    }
