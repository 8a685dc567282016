"""Standings as a tournament director reads them: a text crosstable, or CSV for a spreadsheet."""

from __future__ import annotations

import csv
import io
from typing import TYPE_CHECKING

from gamerec.validator.collection.standings import fraction_text

if TYPE_CHECKING:
    from gamerec.v1 import collections_pb2 as cpb

#: The cell of a player against itself.
SELF = "x"


def table_lines(event: cpb.EventStandings) -> list[str]:
    """The crosstable of one event, then its marked and uncounted games."""
    counted = sum(1 for game in event.games if game.scored)
    copies = sum(1 for game in event.games if game.same_as)
    seats = f"{event.seats} seats" if event.seats else "mixed seats"
    table = ", ".join(fraction_text(p) for p in event.points_table) or "n-r"
    once = f", {copies} {'copy' if copies == 1 else 'copies'} counted once" if copies else ""
    lines = [
        f"{event.event}: {len(event.players)} players, {counted} of {len(event.games) - copies} "
        f"games counted{once} ({seats}; points by place {table}; results {event.use})"
    ]
    count = len(event.players)
    rows = [_header(event)]
    rows += [_row(line, player, count) for line, player in enumerate(event.players, start=1)]
    widths = [max(len(row[column]) for row in rows) for column in range(len(rows[0]))]
    for row in rows:
        cells = [row[0].rjust(widths[0]), row[1].ljust(widths[1])]
        cells += [text.rjust(width) for text, width in zip(row[2:], widths[2:], strict=True)]
        lines.append("  ".join(cells).rstrip())
    lines += _notes(event)
    return lines


def _header(event: cpb.EventStandings) -> list[str]:
    numbers = [str(place) for place in range(1, len(event.players) + 1)]
    return ["#", "player", "games", "points", "Buchholz", "S-B", *numbers]


def _row(line: int, player: cpb.PlayerStanding, players: int) -> list[str]:
    against = _against(line, player, players, missing=".")
    return [
        str(player.place),
        player.name,
        str(player.games),
        fraction_text(player.points),
        fraction_text(player.buchholz),
        fraction_text(player.sonneborn_berger),
        *against,
    ]


def _against(line: int, player: cpb.PlayerStanding, columns: int, missing: str) -> list[str]:
    """The player's results against the players of each line (its own line: ``x``)."""
    cells = {cell.opponent: " ".join(cell.results) for cell in player.cells}
    return [SELF if n == line else cells.get(n, missing) for n in range(1, columns + 1)]


def _notes(event: cpb.EventStandings) -> list[str]:
    lines = []
    for game in event.games:
        if game.mark or not game.scored:
            where = f"{game.place.source} #{game.place.record_number}"
            round_ = f", round {game.round}" if game.round else ""
            lines.append(f"  * {where}{round_}, {' - '.join(game.players)}: {game.note}")
    return ["marked or not counted:", *lines] if lines else []


def csv_text(found: cpb.Standings) -> str:
    """Every event's table as CSV rows: event, place, player, ..., then one column per place."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    most = max((len(event.players) for event in found.events), default=0)
    writer.writerow(
        ["event", "place", "player", "name", "games", "points", "buchholz", "sonneborn_berger"]
        + [f"vs {n}" for n in range(1, most + 1)]
    )
    for event in found.events:
        for line, player in enumerate(event.players, start=1):
            against = [cell.replace("½", "0.5") for cell in _against(line, player, most, "")]
            figures = (player.points, player.buchholz, player.sonneborn_berger)
            writer.writerow(
                [
                    event.event,
                    player.place,
                    player.player,
                    player.name,
                    player.games,
                    *(_number(value) for value in figures),
                    *against,
                ]
            )
    return buffer.getvalue().rstrip("\n")


def _number(value: float) -> str:
    return f"{value:g}"
