"""FIDE's Tournament Report File (TRF, the 2016 layout) of a two-seat event.

Lines written: ``012`` the event's name, ``062`` the number of players, ``092`` the type
(Swiss, Dutch system / round robin), then one ``001`` line per player in pairing-number
order: start number in columns 5-8, name 15-47, rating 49-52, points 81-84, rank 86-89, and
for each round from column 92 a block of 8 characters (2 spaces between blocks): the
opponent's number (4), a space, the colour (``w``, ``b``, ``-``), a space, the result
(``1``, ``=``, ``0``; a pairing-allocated bye ``U`` for the win's points, ``H`` for a half,
``Z`` for none; a round not paired ``0000 - Z``; a result still missing ``*``).
"""

from __future__ import annotations

from fractions import Fraction

from gamerec.validator.events.model import Event
from gamerec.validator.events.tiebreaks import standings


def _points(value: Fraction) -> str:
    return f"{float(value):4.1f}"


def _result(share: Fraction) -> str:
    return "1" if share == 1 else ("0" if share == 0 else "=")


def export(event: Event) -> str:
    """The TRF text of ``event`` (two seats only)."""
    if event.settings.seats != 2:
        raise event.error("TRF holds two-seat events only")
    lines = standings(event)
    rank = {line.name: line.place for line in lines}
    number = {p.name: p.number for p in event.players}
    kind = "Round robin" if event.settings.format == "roundrobin" else "Swiss, Dutch system"
    out = [
        f"012 {event.settings.name}",
        f"062 {len(event.players)}",
        f"092 {kind}",
    ]
    by_name = {line.name: line for line in lines}
    win = event.settings.points[0]
    for player in event.players:
        line = by_name[player.name]
        rating = "" if player.rating is None else str(player.rating)
        text = (
            f"001 {player.number:>4} {'':1}{'':>3} {player.name[:33]:<33} {rating:>4} {'':>3} "
            f"{'':>11} {'':>10} {_points(line.points)} {rank[player.name]:>4}"
        )
        for game in line.rounds:
            if game.bye:
                code = "U" if game.points == win else ("H" if game.points else "Z")
                text += f"  0000 - {code}"
            elif not game.opponents:
                text += "  0000 - Z"
            else:
                colour = "w" if game.seat == 1 else "b"
                result = "*" if not game.played else _result(game.shares[0])
                text += f"  {number[game.opponents[0]]:>4} {colour} {result}"
        out.append(text.rstrip())
    return "\n".join(out) + "\n"
