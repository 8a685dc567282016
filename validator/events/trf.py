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


def _player_line(number: int, name: str, rating: int | None, points: Fraction) -> str:
    """A ``001`` line up to its points (columns 1-84)."""
    shown = "" if rating is None else str(rating)
    return (
        f"001 {number:>4} {'':1}{'':>3} {name[:33]:<33} {shown:>4} {'':>3} "
        f"{'':>11} {'':>10} {_points(points)}"
    )


def _tenths(event: Event, value: Fraction, what: str) -> str:
    if (value * 10).denominator != 1:
        raise event.error(f"the Dutch system counts points in tenths; {what} is {value}")
    return f"{float(value):.1f}"


def _scoring(event: Event) -> str:
    """The ``XXS`` line: the event's points for a win, draw and loss, and for byes."""
    win, loss = event.settings.points[:2]
    draw = (win + loss) / 2
    bye = event.settings.bye_points
    values = {
        "WW": win, "BW": win, "WD": draw, "BD": draw, "WL": loss, "BL": loss,
        "ZPB": Fraction(0), "HPB": draw, "FPB": bye, "PAB": bye, "FW": win, "FL": loss,
    }  # fmt: skip
    return "XXS " + " ".join(f"{k}={_tenths(event, v, k)}" for k, v in values.items())


def pairing_text(event: Event, number: int) -> str:
    """The TRF(x) that asks a Dutch engine for round ``number`` of a two-seat Swiss.

    One ``001`` line per player (start number = pairing number, points from the rounds before,
    ``rank`` = the number) with a block per round before ``number``: a game (``1``, ``=``,
    ``0``), a pairing-allocated bye ``U``, a bye given by hand ``F`` (it is not a
    pairing-allocated one, C.04.1 d), a round not paired ``0000 - Z``. ``XXR`` the planned
    rounds, ``XXS`` the event's points, ``XXC white1``, and ``XXZ`` the players not paired in
    round ``number`` (withdrawn). Every round before ``number`` must have its results.
    """
    number_of = {p.name: p.number for p in event.players}
    blocks: dict[str, list[str]] = {p.name: [] for p in event.players}
    points = {p.name: Fraction(0) for p in event.players}
    win, loss = event.settings.points[:2]
    for made in event.rounds[: number - 1]:
        for table in made.tables:
            assert table.result is not None, "a round is paired only after the last one's results"
            ranks = table.result.ranks
            for seat, (name, other) in enumerate(
                zip(table.seats, reversed(table.seats), strict=True)
            ):
                mine, theirs = ranks[seat], ranks[1 - seat]
                code = "1" if mine < theirs else ("0" if mine > theirs else "=")
                points[name] += {"1": win, "0": loss, "=": (win + loss) / 2}[code]
                blocks[name].append(f"{number_of[other]:>4} {'wb'[seat]} {code}")
        for name, bye in made.byes.items():
            points[name] += bye
            blocks[name].append("0000 - " + ("F" if name in made.manual_byes else "U"))
        for given in blocks.values():
            if len(given) < made.number:
                given.append("0000 - Z")
    planned = max(event.settings.rounds, number)
    out = [f"012 {event.settings.name}", f"XXR {planned}", _scoring(event), "XXC white1"]
    absent = [p.number for p in event.players if not p.active_in(number)]
    if absent:
        out.append("XXZ " + " ".join(str(n) for n in absent))
    for player in event.players:
        line = _player_line(player.number, f"P{player.number}", None, points[player.name])
        out.append(f"{line} {player.number:>4}" + "".join(f"  {b}" for b in blocks[player.name]))
    return "\n".join(out) + "\n"


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
        text = _player_line(player.number, player.name, player.rating, line.points)
        text += f" {rank[player.name]:>4}"
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
