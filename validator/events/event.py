"""The director's operations on an event: players, pairing a round, changes by hand, results.

Each operation checks everything first and changes the :class:`Event` only when all of it can
be done, so a refused request leaves the event (and the file it is saved to) as it was.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations

from gamerec.validator.events import dutch, roundrobin, tables, trf
from gamerec.validator.events.model import Event, Player, Result, Round, Table, place_points


def add_players(event: Event, entries: Sequence[tuple[str, int | None]]) -> list[Player]:
    """Enter players (name, rating); after round 1 is paired they are late entries.

    A late entry joins in the next round and has no points for the rounds before it.
    Raises :class:`EventError` for an empty name, a name entered twice (before or in
    ``entries``) and a late entry in a round robin.
    """
    known = {player.name for player in event.players}
    joined = len(event.rounds) + 1
    if joined > 1 and event.settings.format == "roundrobin":
        raise event.error("a round robin takes no late entries", joined - 1)
    added: list[Player] = []
    for given, rating in entries:
        name = given.strip()
        if not name:
            raise event.error("a player's name is empty")
        if name in known:
            raise event.error(f"player {name!r} is entered twice")
        known.add(name)
        added.append(Player(len(event.players) + len(added) + 1, name, rating, joined))
    event.players.extend(added)
    return added


def withdraw(event: Event, name: str) -> Player:
    """Withdraw a player: not paired after the rounds paired so far."""
    player = event.player(name)
    if player.withdrawn is not None:
        raise event.error(f"player {name!r} has already withdrawn after round {player.withdrawn}")
    player.withdrawn = len(event.rounds)
    return player


def scores(event: Event, upto: int | None = None) -> dict[str, Fraction]:
    """Each player's points after round ``upto`` (default: every round)."""
    total = {player.name: Fraction(0) for player in event.players}
    for round_ in event.rounds[:upto]:
        for name, points in round_.byes.items():
            total[name] += points
        for table in round_.tables:
            if table.result is not None:
                won = place_points(table.result.ranks, event.settings.points)
                for name, points in zip(table.seats, won, strict=True):
                    total[name] += points
    return total


def pair_next(event: Event) -> Round:
    """Pair the next round by the event's format and seats; refused while results are missing."""
    number = len(event.rounds) + 1
    if event.rounds:
        last = event.rounds[-1]
        missing = last.missing()
        if missing:
            seats = "; ".join(f"table {t.number}: {' - '.join(t.seats)}" for t in missing)
            raise event.error(f"round {last.number} has no result yet for {seats}", number)
    planned = event.settings.rounds or _format_rounds(event)
    if number > planned:
        raise event.error(f"the event has {planned} rounds, all paired", number)
    active = [p for p in event.players if p.active_in(number)]
    if len(active) < event.settings.seats:
        raise event.error(
            f"{len(active)} players cannot fill a table of {event.settings.seats}", number
        )
    if event.settings.format == "roundrobin":
        made = _round_robin(event, number, active)
    elif event.settings.seats == 2:
        made = _dutch(event, number)
    else:
        made = _table_swiss(event, number, active)
    event.rounds.append(made)
    return made


def _format_rounds(event: Event) -> int:
    count = len(event.players)
    if event.settings.seats == 2:
        return roundrobin.berger_rounds(count)
    return roundrobin.table_rounds(count, event.settings.seats)


def _names(event: Event) -> dict[int, str]:
    return {player.number: player.name for player in event.players}


def _made(event: Event, number: int, boards: Sequence[Sequence[int]], byes: Sequence[int]) -> Round:
    name = _names(event)
    made = Round(number)
    made.tables = [Table(i, tuple(name[p] for p in board)) for i, board in enumerate(boards, 1)]
    made.byes = {name[p]: event.settings.bye_points for p in byes}
    return made


def _round_robin(event: Event, number: int, active: list[Player]) -> Round:
    if event.settings.seats == 2:
        boards, bye = roundrobin.berger_round(len(event.players), number)
        numbers = {p.number for p in active}
        kept = [b for b in boards if set(b) <= numbers]
        byes = [p for b in boards if not set(b) <= numbers for p in b if p in numbers]
        byes += [bye] if bye is not None and bye in numbers else []
        return _made(event, number, kept, byes)
    history = _history(event)
    made, byes = roundrobin.table_round(
        [p.number for p in active],
        event.settings.seats,
        history.meetings,
        history.seats,
        history.byes,
    )
    return _made(event, number, made, byes)


@dataclass
class _History:
    meetings: tables.Meetings
    seats: tables.Seats
    byes: Counter[int]


def _history(event: Event) -> _History:
    number = {player.name: player.number for player in event.players}
    history = _History(Counter(), Counter(), Counter())
    for round_ in event.rounds:
        for table in round_.tables:
            seated = [number[name] for name in table.seats]
            for a, b in combinations(seated, 2):
                history.meetings[tables.pair(a, b)] += 1
            for index, player in enumerate(seated):
                history.seats[(player, index)] += 1
        for name in round_.byes:
            history.byes[number[name]] += 1
    return history


def _ranking(event: Event, active: list[Player]) -> list[Player]:
    points = scores(event)
    return sorted(active, key=lambda p: (-points[p.name], p.number))


def _table_swiss(event: Event, number: int, active: list[Player]) -> Round:
    history = _history(event)
    ranking = [p.number for p in _ranking(event, active)]
    made, byes = tables.swiss_round(
        ranking, event.settings.seats, history.meetings, history.seats, history.byes
    )
    return _made(event, number, made, byes)


def _dutch(event: Event, number: int) -> Round:
    """Pair by the FIDE Dutch system (py4swiss) from the event written as TRF(x)."""
    try:
        boards, bye = dutch.pair_trf(trf.pairing_text(event, number))
    except (dutch.NoPairingError, dutch.EngineMissingError, dutch.TrfRefusedError) as error:
        raise event.error(str(error), number) from None
    return _made(event, number, boards, [] if bye is None else [bye])


def swap(event: Event, number: int, first: str, second: str) -> Round:
    """Exchange two players' places (table and seat, or bye) in round ``number``, by hand.

    Refused when the round is not the latest, a player is not in it, or a table concerned
    already has a result. The tables (and byes) changed are marked as changed by hand.
    """
    made = event.round(number)
    if number != len(event.rounds):
        raise event.error(f"only the latest round ({len(event.rounds)}) can be changed", number)
    for name in (first, second):
        event.player(name, number)
        if name not in made.players():
            raise event.error(f"player {name!r} is not paired in this round", number)
    if first == second:
        raise event.error(f"player {first!r} cannot be swapped with itself", number)
    places = {first: _place(made, first), second: _place(made, second)}
    for table in made.tables:
        if table.result is not None and {first, second} & set(table.seats):
            raise event.error(f"table {table.number} already has a result", number)
    _put(made, places[first], second, first)
    _put(made, places[second], first, second)
    return made


def _place(made: Round, name: str) -> tuple[int, int] | None:
    for table in made.tables:
        if name in table.seats:
            return table.number, table.seats.index(name)
    return None


def _put(made: Round, place: tuple[int, int] | None, name: str, replaced: str) -> None:
    if place is None:
        points = made.byes.pop(replaced)
        made.byes[name] = points
        made.manual_byes.discard(replaced)
        made.manual_byes.add(name)
        return
    table = made.tables[place[0] - 1]
    seats = list(table.seats)
    seats[place[1]] = name
    table.seats = tuple(seats)
    table.manual = True


@dataclass(frozen=True)
class Outcome:
    """A game as read from a record: where, which round, who sat where and their places.

    Attributes:
        source: ``file#number``.
        round: the record's Round tag.
        players: the player of each seat.
        ranks: the places, None when the game has no result to count (``note`` says why).
        key: what identifies the game (rules, seats and moves).
        note: why it does not count, when it does not.
    """

    source: str
    round: str
    players: tuple[str, ...]
    ranks: tuple[int, ...] | None
    key: str
    note: str = ""


@dataclass
class Intake:
    """What :func:`add_results` did: results counted, copies counted once, conflicts."""

    counted: list[str]
    copies: list[str]
    conflicts: list[str]


def add_results(event: Event, outcomes: Sequence[Outcome]) -> Intake:
    """Match games to pairings by round and seats and record their results.

    A record whose round or players match no pairing, whose seats are those of a pairing in
    another order or with other players, or which has no result, is an error (nothing is
    recorded). The same game twice counts once (a line names both sources); two different
    games for one pairing are a conflict: that pairing keeps no result, the others are kept.
    """
    found: dict[tuple[int, int], list[Outcome]] = {}
    for outcome in outcomes:
        table, number = _pairing_of(event, outcome)
        found.setdefault((number, table.number), []).append(outcome)
    intake = Intake([], [], [])
    for (number, board), games in sorted(found.items()):
        _take(event.rounds[number - 1].tables[board - 1], number, games, intake)
    return intake


def _take(table: Table, number: int, given: list[Outcome], intake: Intake) -> None:
    """Record one table's result from the games given for it (see :func:`add_results`)."""
    where = f"round {number} table {table.number} ({' - '.join(table.seats)})"
    earlier = [table.result.sources[0]] if table.result else []
    known = set(table.result.sources) if table.result else set()
    intake.copies.extend(
        f"{where}: {game.source} is already counted" for game in given if game.source in known
    )
    games = [game for game in given if game.source not in known]
    if not games:
        return
    keys = {game.key for game in games} | ({table.result.key} if table.result else set())
    if len(keys) > 1:
        named = earlier + [game.source for game in games]
        files = " ".join(dict.fromkeys(source.rsplit("#", 1)[0] for source in named))
        intake.conflicts.append(
            f"{where}: different games in {', '.join(named)} (gamerec diff {files}); "
            "no result recorded for this pairing"
        )
        return
    sources = earlier + [game.source for game in games]
    for copy in sources[1:]:
        intake.copies.append(f"{where}: the same game in {sources[0]} and {copy}: counted once")
    if table.result is None:
        first = games[0]
        assert first.ranks is not None
        table.result = Result(first.ranks, first.key, sources)
        intake.counted.append(f"{where}: {_ranks_text(first.ranks, table.seats)} ({first.source})")
    else:
        table.result.sources += [game.source for game in games]


def _ranks_text(ranks: tuple[int, ...], seats: tuple[str, ...]) -> str:
    """``Ana 1st, Ben 2nd`` (a place shared: ``Chi 1st=, Dev 1st=``)."""
    words = []
    for name, rank in zip(seats, ranks, strict=True):
        suffix = {1: "st", 2: "nd", 3: "rd"}.get(rank, "th")
        shared = "=" if ranks.count(rank) > 1 else ""
        words.append(f"{name} {rank}{suffix}{shared}")
    return ", ".join(words)


def _pairing_of(event: Event, outcome: Outcome) -> tuple[Table, int]:
    try:
        number = int(outcome.round)
    except ValueError:
        raise event.error(
            f"{outcome.source}: the record's round {outcome.round!r} is not a number"
        ) from None
    made = event.round(number)
    players = set(outcome.players)
    for table in made.tables:
        if table.seats == outcome.players:
            if outcome.ranks is None:
                raise event.error(f"{outcome.source}: {outcome.note}", number)
            return table, number
        if players & set(table.seats):
            raise event.error(
                f"{outcome.source}: the record's seats ({' - '.join(outcome.players)}) do not "
                f"match table {table.number} ({' - '.join(table.seats)})",
                number,
            )
    raise event.error(
        f"{outcome.source}: no pairing of {' - '.join(outcome.players)} in this round", number
    )
