"""Standings: points, the director's tie-breaks in order, places and the crosstable.

One definition serves every seat count and reduces to FIDE's (C.07) with two seats. A game
is read as pairings: a player scores against each other seat of its table 1 when it placed
above, 1/2 when level, 0 below (with two seats: the game's result).

- **buchholz**: per round, the mean final points of the player's table opponents; a round
  the player did not play (bye, absence, before a late entry, after a withdrawal) counts the
  player's own final points (FIDE's dummy opponent); a game whose result is still missing
  does not count. **buchholz-cut1** drops the lowest of
  these round values, **buchholz-median** the highest and the lowest.
- **sonneborn-berger**: per game, the sum over opponents of pairing score times the
  opponent's final points, divided by the number of opponents.
- **direct**: among players still equal, the sum of their pairing scores against each other,
  used only when each two of them met; else it leaves them equal.
- **wins**: games in which the player alone placed first (byes do not count).
- **progressive**: the sum of the player's points after each round.

Players are ordered by points, then the tie-breaks in the director's order, then pairing
number; players equal on points and every tie-break share a place.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction

from gamerec.validator.events.model import TIEBREAKS, Event, place_points


@dataclass
class Game:
    """One round of one player: a game, a bye, or nothing (not paired)."""

    round: int
    table: int = 0
    seat: int = 0
    opponents: tuple[str, ...] = ()
    shares: tuple[Fraction, ...] = ()
    place: int = 0
    points: Fraction = Fraction(0)
    bye: bool = False
    played: bool = False
    manual: bool = False
    adjudicated: str = ""


@dataclass
class Line:
    """A player's line of the standings."""

    name: str
    number: int
    rating: int | None
    points: Fraction
    rounds: list[Game]
    tiebreaks: dict[str, Fraction] = field(default_factory=dict)
    place: int = 0


def _rounds(event: Event) -> dict[str, list[Game]]:
    lines: dict[str, list[Game]] = {p.name: [] for p in event.players}
    for made in event.rounds:
        seen = set()
        for table in made.tables:
            result = table.result
            won = place_points(result.ranks, event.settings.points) if result else ()
            for seat, name in enumerate(table.seats):
                seen.add(name)
                game = Game(made.number, table.number, seat + 1, manual=table.manual)
                game.opponents = tuple(o for o in table.seats if o != name)
                if result is not None:
                    mine = result.ranks[seat]
                    game.shares = tuple(
                        _share(mine, result.ranks[i]) for i in range(len(table.seats)) if i != seat
                    )
                    game.place, game.points, game.played = mine, won[seat], True
                    game.adjudicated = result.adjudicated
                lines[name].append(game)
        for name, points in made.byes.items():
            seen.add(name)
            lines[name].append(
                Game(made.number, points=points, bye=True, manual=name in made.manual_byes)
            )
        for name, games in lines.items():
            if name not in seen:
                games.append(Game(made.number))
    return lines


def _share(mine: int, theirs: int) -> Fraction:
    if mine == theirs:
        return Fraction(1, 2)
    return Fraction(1) if mine < theirs else Fraction(0)


def standings(event: Event, order: Sequence[str] | None = None) -> list[Line]:
    """The standings of ``event`` with the tie-breaks of ``order`` (default: the event's)."""
    chosen = tuple(order if order is not None else event.settings.tiebreaks)
    unknown = [name for name in chosen if name not in TIEBREAKS]
    if unknown:
        raise event.error(f"unknown tie-break {unknown[0]!r} (known: {', '.join(TIEBREAKS)})")
    rounds = _rounds(event)
    lines = [
        Line(
            p.name,
            p.number,
            p.rating,
            sum((g.points for g in rounds[p.name]), Fraction(0)),
            rounds[p.name],
        )
        for p in event.players
    ]
    points = {line.name: line.points for line in lines}
    for line in lines:
        values = _buchholz_values(line, points)
        line.tiebreaks = {
            "buchholz": sum(values, Fraction(0)),
            "buchholz-cut1": sum(sorted(values)[1:], Fraction(0)),
            "buchholz-median": sum(sorted(values)[1:-1], Fraction(0)),
            "sonneborn-berger": _berger(line, points),
            "wins": Fraction(
                sum(1 for g in line.rounds if g.played and g.place == 1 and _alone(g))
            ),
            "progressive": _progressive(line),
            "direct": Fraction(0),
        }
    groups = _ordered([lines], chosen)
    ordered: list[Line] = []
    for group in groups:
        for line in group:
            line.place = len(ordered) + 1 - lines_before(group, line)
            ordered.append(line)
    for line in ordered:
        line.tiebreaks = {name: line.tiebreaks[name] for name in chosen}
    return ordered


def lines_before(group: list[Line], line: Line) -> int:
    """How many lines of ``group`` come before ``line`` (they share one place)."""
    return group.index(line)


def _alone(game: Game) -> bool:
    return all(share == 1 for share in game.shares)


def _buchholz_values(line: Line, points: dict[str, Fraction]) -> list[Fraction]:
    values = []
    for game in line.rounds:
        if game.played:
            values.append(
                sum((points[o] for o in game.opponents), Fraction(0)) / len(game.opponents)
            )
        elif not game.opponents:
            values.append(line.points)
    return values


def _berger(line: Line, points: dict[str, Fraction]) -> Fraction:
    total = Fraction(0)
    for game in line.rounds:
        if game.played:
            weighted = sum(
                (s * points[o] for s, o in zip(game.shares, game.opponents, strict=True)),
                Fraction(0),
            )
            total += weighted / len(game.opponents)
    return total


def _progressive(line: Line) -> Fraction:
    running, total = Fraction(0), Fraction(0)
    for game in line.rounds:
        running += game.points
        total += running
    return total


def _direct(group: list[Line]) -> dict[str, Fraction]:
    names = {line.name for line in group}
    met: set[frozenset[str]] = set()
    scored = {line.name: Fraction(0) for line in group}
    for line in group:
        for game in line.rounds:
            if not game.played:
                continue
            for share, other in zip(game.shares, game.opponents, strict=True):
                if other in names:
                    met.add(frozenset((line.name, other)))
                    scored[line.name] += share
    everyone = len(names) * (len(names) - 1) // 2
    if len(met) < everyone:
        return {name: Fraction(0) for name in names}
    return scored


def _ordered(groups: list[list[Line]], order: tuple[str, ...]) -> list[list[Line]]:
    """Split groups of equal lines by points, then each tie-break in turn."""
    keys: list[str] = ["points", *order]
    for key in keys:
        split: list[list[Line]] = []
        for group in groups:
            if len(group) == 1:
                split.append(group)
                continue
            value = _values(group, key)
            buckets: dict[Fraction, list[Line]] = {}
            for line in sorted(group, key=lambda x: (-value[x.name], x.number)):
                buckets.setdefault(value[line.name], []).append(line)
            split.extend(buckets.values())
        groups = split
    return [sorted(group, key=lambda line: line.number) for group in groups]


def _values(group: list[Line], key: str) -> dict[str, Fraction]:
    if key == "points":
        return {line.name: line.points for line in group}
    if key == "direct":
        direct = _direct(group)
        for line in group:
            line.tiebreaks["direct"] = direct[line.name]
        return direct
    return {line.name: line.tiebreaks[key] for line in group}
