"""The event as text and JSON: players, a round's pairings, standings with the crosstable."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from gamerec.validator.collection.standings import fraction_text
from gamerec.validator.events.model import Event, Round
from gamerec.validator.events.tiebreaks import Game, Line

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


def standings_text(event: Event, lines: list[Line]) -> str:
    """The standings with the crosstable: one line per player, a cell per round."""
    settings = event.settings
    number = {p.name: p.number for p in event.players}
    order = list(lines[0].tiebreaks) if lines else list(settings.tiebreaks)
    rounds = len(event.rounds)
    head = [
        f"{settings.name}: standings after round {rounds} "
        f"({settings.format}, {settings.seats} seats, {settings.game})"
    ]
    width = max([len(line.name) for line in lines] + [4])
    columns = ["  #", " No", "Name".ljust(width), "  Pts"]
    columns += [HEADINGS[name].rjust(6) for name in order]
    columns += [f"R{r}".rjust(9) for r in range(1, rounds + 1)]
    head.append("  ".join(columns))
    for line in lines:
        cells = [f"{line.place:>3}", f"{line.number:>3}", line.name.ljust(width)]
        cells.append(fraction_text(line.points).rjust(5))
        cells += [fraction_text(line.tiebreaks[name]).rjust(6) for name in order]
        cells += [_cell(game, number, settings.seats).rjust(9) for game in line.rounds]
        head.append("  ".join(cells).rstrip())
    if any(game.adjudicated for line in lines for game in line.rounds):
        head.append(f"{ADJUDICATED_MARK}: adjudicated from the position reached (not finished)")
    return "\n".join(head)


def _number(value: Fraction) -> int | float:
    return int(value) if value.denominator == 1 else float(value)


def standings_json(event: Event, lines: list[Line]) -> dict[str, Any]:
    """The standings as JSON data (numbers: whole or decimal)."""
    settings = event.settings
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
                "rating": line.rating,
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
