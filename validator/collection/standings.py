"""The crosstable of an event from its records (``gamerec standings``).

**Results.** By default from the rules, as ``adjudicate`` rules (a tournament director's
decision): a game that ended by its rules counts with the rules' ranking, whatever its
record claims; a timeout with two seats counts as a loss of the seat to move; an agreement
counts as agreed. A game without a result (abandoned or unfinished: a provisional standing)
and a void one (an illegal ply, rules that cannot be judged) do not count. ``use="claimed"``
takes the claimed result instead (winners, then claimed scores), and a record that claims
none does not count. Either way a record the referee finds fault with (a claim that differs,
an illegal ply) is marked in the table with its finding code.

**Points.** By rank: with ``n`` seats the ``r``-th place gets ``n - r`` points by default
(two seats: win 1, loss 0), and seats that share a rank share out the points of the places
they cover (two seats: a draw is 1/2 each). ``points_table`` gives another table (``3,1,0,0``
for four seats); it must have one value per seat of every game it scores.

**Tie-breaks.** Every game is read as pairings: each seat against each other seat of the
table, scoring 1 against a seat it ranks above, 1/2 against a seat of the same rank and 0
below. Buchholz is the sum of the points of the opponents met, and Sonneborn-Berger the sum
of the pairings' scores times the opponents' points. With two seats these are the usual
Buchholz and Sonneborn-Berger; with more seats each opponent at a table counts as one
pairing. Players are ordered by points, then Buchholz, then Sonneborn-Berger, then name;
players equal on all three share a place.

**Copies and conflicts.** The same game given twice in one event and round (the same rules,
seat names and moves, as ``gamerec dedupe`` finds them, in any encoding: two scorers' copies)
counts once; the later copy is listed with the place of the one that counts. Two different
records of one pairing of a round (the same players, in a round the records name) are a
conflict for the director: neither counts, and each is listed with the other and the
``gamerec diff`` command that shows how they differ.

A player is a seat's player id when set, else its name. One table is made per event
(``metadata.event``); ``event`` picks one.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from functools import partial
from typing import Literal, NamedTuple

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.inputs import InputFailure
from gamerec.recorder.limits import Limits
from gamerec.v1 import collections_pb2 as cpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.collection.dedupe import game_key
from gamerec.validator.collection.source import Collection, Entry, facts, readable

Use = Literal["computed", "claimed"]
#: What orders the table: points, Buchholz, Sonneborn-Berger.
Standing = tuple[Fraction, Fraction, Fraction]
#: The event of records that name none.
NO_EVENT = "(no event)"


class StandingsError(GamerecError):
    """The table cannot be made: a points table that does not fit a game's seats."""


class TableGame(NamedTuple):
    """One record as the table counts it.

    Attributes:
        source: its input; number: its number there.
        event: its event; round: its round.
        players: the player of each seat (id, else name); names: the names shown.
        ranks: the rank of each seat, None when the game does not count.
        mark: the first finding code when the record is not valid.
        note: the finding, or why the game does not count.
        key: a digest of what makes two records the same game (rules, seat names, moves).
    """

    source: str
    number: int
    event: str
    round: str
    players: tuple[str, ...]
    names: tuple[str, ...]
    ranks: tuple[int, ...] | None
    mark: str
    note: str
    key: str = ""


def game_digest(record: pb.GameRecord) -> str:
    """A digest of :func:`~gamerec.validator.collection.dedupe.game_key`: equal for copies."""
    hashed = hashlib.sha256()
    for part in game_key(record):
        hashed.update(len(part).to_bytes(8, "little"))
        hashed.update(part)
    return hashed.hexdigest()[:32]


def competition_ranks(winners: Sequence[int], scores: Sequence[int], seats: int) -> tuple[int, ...]:
    """Ranks from winners and scores: the winners first, the others by score (ties share)."""
    others = [seat for seat in range(1, seats + 1) if seat not in winners]
    value = {seat: scores[seat - 1] if seat <= len(scores) else 0 for seat in others}
    ranks = [1] * seats
    for seat in others:
        ranks[seat - 1] = len(winners) + 1 + sum(1 for o in others if value[o] > value[seat])
    return tuple(ranks)


def _computed_ranks(ruling: vpb.Ruling, seats: int) -> tuple[tuple[int, ...] | None, str]:
    """The ranks the ruling gives, or None with the reason the game does not count."""
    if ruling.decision == vpb.DECISION_VOID:
        return None, "void: not counted"
    if ruling.decision == vpb.DECISION_PROVISIONAL:
        return None, "no result by the rules (provisional standing): not counted"
    result = ruling.result
    if result.termination == pb.TERMINATION_AGREEMENT:
        return competition_ranks(result.winners, result.scores, seats), ""
    return tuple(result.ranks), ""


def _claimed_ranks(record: pb.GameRecord, seats: int) -> tuple[tuple[int, ...] | None, str]:
    """The ranks the record claims, or None when it claims no result."""
    claim = record.result
    if not claim.winners and not claim.HasField("scores"):
        return None, "no claimed result: not counted"
    return competition_ranks(claim.winners, claim.scores.values, seats), ""


def table_game(entry: Entry, record: pb.GameRecord, use: Use) -> TableGame:
    """Judge one record and keep what the table needs."""
    ruling = adjudicate(record, limits=entry.limits, serialized=entry.serialized)
    seats = len(record.seats) or len(ruling.result.scores)
    if use == "claimed":
        ranks, why = _claimed_ranks(record, seats)
    else:
        ranks, why = _computed_ranks(ruling, seats)
    players = tuple(seat.player_id or seat.name for seat in record.seats)
    if ranks is not None:
        ranks, why = _countable(ranks, players, why)
    errors = ruling.verdict.errors
    note = f"{errors[0].code}: {errors[0].message}" if errors else ""
    return TableGame(
        source=entry.source,
        number=entry.number,
        event=record.metadata.event or NO_EVENT,
        round=record.metadata.round,
        players=tuple(player or f"(seat {n})" for n, player in enumerate(players, start=1)),
        names=tuple(
            seat.name or seat.player_id or f"(seat {n})"
            for n, seat in enumerate(record.seats, start=1)
        ),
        ranks=ranks,
        mark=errors[0].code if errors else "",
        note="; ".join(part for part in (note, why) if part),
        key=game_digest(record),
    )


def _countable(
    ranks: tuple[int, ...], players: tuple[str, ...], why: str
) -> tuple[tuple[int, ...] | None, str]:
    """The ranks, unless the game cannot be put in a table (then None and the reason)."""
    if len(ranks) != len(players):
        return None, "the record's seats and result do not agree: not counted"
    if not all(players):
        return None, "a seat has neither a name nor a player id: not counted"
    if len(set(players)) != len(players):
        return None, "one player holds two seats: not counted"
    return ranks, why


def default_points(seats: int) -> tuple[Fraction, ...]:
    """The default table: ``seats - r`` points for the ``r``-th place."""
    return tuple(Fraction(seats - place) for place in range(1, seats + 1))


def game_points(ranks: Sequence[int], table: Sequence[Fraction]) -> tuple[Fraction, ...]:
    """The points of each seat: seats sharing a rank share the points of the places they cover."""
    points = []
    for rank in ranks:
        sharing = sum(1 for other in ranks if other == rank)
        places = table[rank - 1 : rank - 1 + sharing]
        points.append(sum(places, Fraction(0)) / sharing)
    return tuple(points)


def pairing_score(mine: int, theirs: int) -> Fraction:
    """1 against a seat ranked below, 1/2 against the same rank, 0 against one above."""
    if mine == theirs:
        return Fraction(1, 2)
    return Fraction(1) if mine < theirs else Fraction(0)


@dataclass
class _Player:
    name: str
    games: int = 0
    points: Fraction = Fraction(0)
    pairings: list[tuple[str, Fraction, bool]] = field(default_factory=list)


@dataclass
class _Event:
    """The games of one event, as read."""

    games: list[TableGame] = field(default_factory=list)
    same_as: dict[int, str] = field(default_factory=dict)

    def seats(self) -> int:
        counts = {len(game.players) for game in self.games}
        return counts.pop() if len(counts) == 1 else 0


def _place(game: TableGame) -> str:
    return f"{game.source} #{game.number}"


def _joined(note: str, more: str) -> str:
    return f"{note}; {more}" if note else more


def counted_once(games: Sequence[TableGame]) -> tuple[list[TableGame], dict[int, str]]:
    """The games with copies counted once and conflicts uncounted (see the module docstring).

    Returns the games (a copy or a conflicting record no longer has ranks, and its note says
    why) and, by index, the place of the copy that counts for each later copy.
    """
    out = list(games)
    same_as: dict[int, str] = {}
    first: dict[tuple[str, str], TableGame] = {}
    pairings: dict[tuple[str, tuple[str, ...]], list[int]] = {}
    for index, game in enumerate(games):
        if (game.round, game.key) in first:
            same_as[index] = _place(first[game.round, game.key])
            note = f"the same game as {same_as[index]}: counted once"
            out[index] = game._replace(ranks=None, note=_joined(game.note, note))
            continue
        first[game.round, game.key] = game
        if game.round:
            pairings.setdefault((game.round, tuple(sorted(game.players))), []).append(index)
    for indexes in pairings.values():
        if len(indexes) < 2:
            continue
        files = " ".join(dict.fromkeys(games[i].source for i in indexes))
        for index in indexes:
            others = ", ".join(_place(games[i]) for i in indexes if i != index)
            note = (
                f"conflict: {others} is another game of this pairing; none counts until the "
                f"director resolves it (gamerec diff {files})"
            )
            out[index] = out[index]._replace(ranks=None, note=_joined(out[index].note, note))
    return out, same_as


def _table_for(seats: int, points_table: Sequence[Fraction] | None) -> tuple[Fraction, ...]:
    if points_table is None:
        return default_points(seats)
    if len(points_table) != seats:
        raise StandingsError(
            f"the points table has {len(points_table)} places, but a game has {seats} seats"
        )
    return tuple(points_table)


def _scored(event: _Event, points_table: Sequence[Fraction] | None) -> dict[str, _Player]:
    """Every player's points and pairings over the event's counted games."""
    players: dict[str, _Player] = {}
    for game in event.games:
        for key, name in zip(game.players, game.names, strict=True):
            players.setdefault(key, _Player(name))
        if game.ranks is None:
            continue
        points = game_points(game.ranks, _table_for(len(game.ranks), points_table))
        for seat, key in enumerate(game.players):
            player = players[key]
            player.games += 1
            player.points += points[seat]
            for other, opponent in enumerate(game.players):
                if other != seat:
                    score = pairing_score(game.ranks[seat], game.ranks[other])
                    player.pairings.append((opponent, score, bool(game.mark)))
    return players


def _event_message(
    name: str, event: _Event, points_table: Sequence[Fraction] | None, use: Use
) -> cpb.EventStandings:
    players = _scored(event, points_table)
    buchholz = {
        key: sum((players[o].points for o, _, _ in p.pairings), Fraction(0))
        for key, p in players.items()
    }
    berger = {
        key: sum((s * players[o].points for o, s, _ in p.pairings), Fraction(0))
        for key, p in players.items()
    }
    order = sorted(
        players, key=lambda k: (-players[k].points, -buchholz[k], -berger[k], players[k].name, k)
    )
    seats = event.seats()
    message = cpb.EventStandings(event=name, seats=seats, use=use)
    if seats:
        message.points_table.extend(float(p) for p in _table_for(seats, points_table))
    places = _places(order, lambda k: (players[k].points, buchholz[k], berger[k]))
    position = {key: index for index, key in enumerate(order, start=1)}
    for key in order:
        player = players[key]
        line = message.players.add(
            place=places[key],
            player=key,
            name=player.name,
            games=player.games,
            points=float(player.points),
            buchholz=float(buchholz[key]),
            sonneborn_berger=float(berger[key]),
        )
        line.cells.extend(_cells(player, position))
    message.games.extend(_game_message(game, points_table) for game in event.games)
    for index, place in event.same_as.items():
        message.games[index].same_as = place
    return message


def _places(order: list[str], standing: Callable[[str], Standing]) -> dict[str, int]:
    """1-based places; players with the same standing share the first one of them."""
    places: dict[str, int] = {}
    previous: Standing | None = None
    for index, key in enumerate(order, start=1):
        current = standing(key)
        places[key] = places[order[index - 2]] if index > 1 and current == previous else index
        previous = current
    return places


def _cells(player: _Player, position: dict[str, int]) -> list[cpb.CrossCell]:
    results: dict[str, list[str]] = {}
    for opponent, score, marked in player.pairings:
        results.setdefault(opponent, []).append(fraction_text(score) + ("*" if marked else ""))
    return [
        cpb.CrossCell(opponent=position[opponent], results=texts)
        for opponent, texts in sorted(results.items(), key=lambda pair: position[pair[0]])
    ]


def _game_message(game: TableGame, points_table: Sequence[Fraction] | None) -> cpb.StandingGame:
    message = cpb.StandingGame(
        place=cpb.RecordPlace(source=game.source, record_number=game.number),
        round=game.round,
        players=game.players,
        scored=game.ranks is not None,
        mark=game.mark,
        note=game.note,
    )
    if game.ranks is not None:
        table = _table_for(len(game.ranks), points_table)
        message.points.extend(float(p) for p in game_points(game.ranks, table))
    return message


def fraction_text(value: Fraction | float) -> str:
    """``1``, ``½``, ``2½``, ``0.33``: points as a crosstable writes them."""
    value = Fraction(value).limit_denominator(1000)
    whole, part = divmod(value, 1)
    if part == 0:
        return str(whole)
    if part == Fraction(1, 2):
        return f"{whole}½" if whole else "½"
    return f"{float(value):.2f}"


def standings(
    collection: Collection,
    *,
    event: str | None = None,
    use: Use = "computed",
    points_table: Sequence[Fraction | int | float] | None = None,
    encoding: Encoding | None = None,
    limits: Limits | None = None,
    workers: int = 1,
    failures: list[InputFailure] | None = None,
) -> cpb.Standings:
    """The standings of every event of ``collection`` (see the module docstring).

    Args:
        collection: paths (files, folders, ``-``) or records in memory.
        event: only this event (``metadata.event``, without regard to case).
        use: ``computed`` (the rules' result, as adjudicated) or ``claimed``.
        points_table: points by place, first place first (default: ``n - r``).
        encoding: the encoding of every input path.
        limits: the limits records are read and judged under.
        workers: cores to judge on (0: all).
        failures: when given, what cannot be read is appended to it.

    Raises:
        StandingsError: the points table does not have one value per seat of a counted game.
    """
    if use not in ("computed", "claimed"):
        raise StandingsError(f"use is 'computed' or 'claimed', not {use!r}")
    table = None if points_table is None else tuple(Fraction(p) for p in points_table)
    events: dict[str, _Event] = {}
    unread: list[InputFailure] = [] if failures is None else failures
    before = len(unread)
    fact = partial(table_game, use=use)
    judged = facts(collection, fact, encoding=encoding, limits=limits, workers=workers)
    for _, game in readable(judged, unread):
        if event is None or game.event.lower() == event.strip().lower():
            events.setdefault(game.event, _Event()).games.append(game)
    for found in events.values():
        found.games, found.same_as = counted_once(found.games)
    result = cpb.Standings(unreadable=len(unread) - before)
    result.events.extend(_event_message(name, ev, table, use) for name, ev in events.items())
    return result
