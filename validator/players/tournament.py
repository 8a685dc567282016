"""Engine tournaments: the schedule, the openings, the games played N at a time, and resuming.

A tournament seats engines (each a command line under a name) in games of one game and
variant, refereed by :func:`play_engine_game` (the live match core: the server's rules,
clocks and forfeits), and hands every finished game to the caller as it ends.

**The schedule** (:func:`schedule`). With ``n`` seats, every table of ``n`` engines out of
the field (round robin), or every table that holds the first engine (gauntlet), plays once
per round in each of its ``n`` rotations (``A B C``, ``B C A``, ``C A B``), so every engine
sits in every seat of every table equally often; with two seats that is both colours. A table
in one round is an *encounter*: its rotations share one opening. Games are numbered in order;
the record's ``Round`` tag is ``<round>.<game of the round>`` (``3.2``), as PGN numbers the
games of a round.

**Openings** (:class:`Opening`): none, ``plies`` random plies per encounter (the random
policy, seeded by the tournament's seed and the encounter), or the first plies of the records
of a file, taken in order and cycled. Opening plies are played by the referee before the
engines are asked and carry the comment ``opening``.

**Resuming** (:func:`finished_rounds`). The games already in the output (records of the same
event) are matched to the schedule by their ``Round`` tag; a record whose seats, game or
time control differ from the schedule's game of that round belongs to another tournament and
stops the run. Only the missing games are played.

**Engines.** Each of the ``concurrency`` workers keeps one process per engine and plays its
games one after another on them (cutechess-cli's ``restart=auto``): an engine that crashed or
was stopped after a timeout is started again for its next game; one that cannot be started
forfeits that game before the first ply.

**Through a server.** With :attr:`Tournament.server`, every game is a match on a match server
instead (``gamerec.validator.service.tournament_games.MatchServer``): the server referees,
seals and signs it, and the record is the server's.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import shlex
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Final, Protocol

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.notation import format_action
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.standings import (
    competition_ranks,
    default_points,
    fraction_text,
    game_points,
)
from gamerec.validator.games import engine
from gamerec.validator.games.protocol import GameState
from gamerec.validator.generation import variant_options
from gamerec.validator.identity import RulesError, identify
from gamerec.validator.live.players import PolicyPlayer
from gamerec.validator.live.timecontrol import parse_time_control
from gamerec.validator.players.elo import EloEstimate, elo_estimate
from gamerec.validator.players.engine_game import (
    DEFAULT_MAX_PLIES,
    EngineGame,
    match_request,
    play_engine_game,
)
from gamerec.validator.players.faults import EngineFailedError
from gamerec.validator.players.host import EngineLimits, EngineProcess
from gamerec.validator.players.movers import EngineMover, Mover, UnstartedEngine

#: The event of a tournament's records when none is given.
DEFAULT_EVENT: Final = "gamerec tournament"
#: The record's ``Client`` tag.
CLIENT: Final = "gamerec tournament"
#: How many turns deep :func:`decided` searches an opening for a forced result.
DECIDED_TURNS: Final = 2
#: The most draws of one random opening, every one decided, before the tournament gives up.
MAX_DRAWS: Final = 100


class TournamentError(GamerecError):
    """The tournament cannot be run as asked (a field too small, a file of another event)."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """An engine of the field.

    Attributes:
        name: its name in the records and the table.
        command: its command line (split by ``shlex``, run without a shell).
    """

    name: str
    command: str


@dataclass(frozen=True, slots=True)
class ScheduledGame:
    """One game of the schedule.

    Attributes:
        number: its number in the tournament (1-based).
        round: its round (1-based).
        in_round: its number in the round (1-based).
        seats: the entrants' names, in seat order.
        encounter: the number of its encounter (1-based; its rotations share the opening).
    """

    number: int
    round: int
    in_round: int
    seats: tuple[str, ...]
    encounter: int

    @property
    def round_tag(self) -> str:
        """The record's ``Round`` tag: ``<round>.<game of the round>``."""
        return f"{self.round}.{self.in_round}"


def schedule(
    names: Sequence[str], seats: int, rounds: int, *, gauntlet: bool = False
) -> list[ScheduledGame]:
    """Every game of the tournament, in order (see the module docstring).

    Raises:
        TournamentError: fewer entrants than seats, a name twice, or fewer than one round.
    """
    if len(set(names)) != len(names):
        raise TournamentError("every engine needs a name of its own")
    if len(names) < seats:
        raise TournamentError(
            f"the game has {seats} seats and only {len(names)} engines were given"
        )
    if rounds < 1:
        raise TournamentError("a tournament has at least one round")
    tables = [
        table
        for table in itertools.combinations(range(len(names)), seats)
        if not gauntlet or table[0] == 0
    ]
    games: list[ScheduledGame] = []
    encounter = 0
    for round_number in range(1, rounds + 1):
        in_round = 0
        for table in tables:
            encounter += 1
            for turn in range(seats):
                in_round += 1
                order = table[turn:] + table[:turn]
                games.append(
                    ScheduledGame(
                        len(games) + 1,
                        round_number,
                        in_round,
                        tuple(names[index] for index in order),
                        encounter,
                    )
                )
    return games


@dataclass(frozen=True, slots=True)
class Opening:
    """The plies every game of an encounter starts with.

    Attributes:
        plies: the opening lines, as notation.md tokens; encounter ``k`` takes line
            ``(k - 1) mod len(plies)``. Empty: no opening.
    """

    plies: tuple[tuple[str, ...], ...] = ()

    def of(self, encounter: int) -> tuple[str, ...]:
        """The opening of encounter ``encounter`` (1-based)."""
        if not self.plies:
            return ()
        return self.plies[(encounter - 1) % len(self.plies)]


def random_openings(
    game: str,
    variant: Mapping[str, str],
    plies: int,
    count: int,
    seed: int,
    *,
    undecided: bool = False,
) -> Opening:
    """``count`` openings of ``plies`` random plies each (shorter if the game ends first).

    Opening ``i`` is drawn from the seed ``<seed>:opening:<i>``. With ``undecided``, an opening
    that is already decided (:func:`decided`) is drawn again, from ``<seed>:opening:<i>:<k>``
    for the ``k``-th draw, as engine-testing opening books leave decided openings out; an
    opening that is not decided is the same as without ``undecided``.

    Raises:
        VariantError: an unknown game or variant.
        TournamentError: ``undecided`` and :data:`MAX_DRAWS` draws of one opening all decided.
    """
    record = match_request(game, variant, ["-"] * _seats(game, variant), "-")
    start = pb.GameRecord(rules=record.rules)
    lines = []
    for index in range(1, count + 1):
        for draw in range(1, MAX_DRAWS + 1):
            suffix = f":{draw}" if draw > 1 else ""
            player = PolicyPlayer(start, "random", f"{seed}:opening:{index}{suffix}")
            line: list[str] = []
            while len(line) < plies and not player.state.is_over:
                token = player.next_ply()
                player.played(token)
                line.append(token)
            if not undecided or not decided(game, player.state):
                break
        else:
            raise TournamentError(
                f"opening {index}: {MAX_DRAWS} draws of {plies} random plies were all decided "
                "(a forced result within two turns); give fewer --opening-plies"
            )
        lines.append(tuple(line))
    return Opening(tuple(lines))


def decided(game: str, state: GameState[Any]) -> bool:
    """Whether a position is decided: over, or the seat to move forces a result at once.

    Decided: the game is over, or an alpha-beta search :data:`DECIDED_TURNS` turns deep (the
    game's own evaluation, no endgame table) proves that the seat to move wins whatever the
    others do, or, with two seats, that it loses whatever it does.
    """
    if state.is_over:
        return True
    from gamerec.validator.analysis.searcher import evaluation_of  # noqa: PLC0415 (only here)
    from gamerec.validator.games.registry import entry_named  # noqa: PLC0415
    from gamerec.validator.search.alphabeta import alphabeta  # noqa: PLC0415
    from gamerec.validator.search.core import Limits  # noqa: PLC0415

    found = alphabeta(state, Limits(depth=DECIDED_TURNS), evaluation_of(entry_named(game)))
    if found.proven is None:
        return False
    return found.proven > 0 or state.seats == 2


def file_openings(
    records: Iterable[pb.GameRecord],
    game: str,
    variant: Mapping[str, str],
    plies: int | None,
    source: str,
) -> Opening:
    """The first ``plies`` plies (None: all) of each record, checked against the game.

    Raises:
        TournamentError: a record of another game or variant, or one whose opening plies
            are not legal (the record and the ply are named); no record at all.
    """
    rules = match_request(game, variant, ["-"] * _seats(game, variant), "-").rules
    lines = []
    for number, record in enumerate(records, start=1):
        if not same_rules(record.rules, rules):
            raise TournamentError(
                f"{source}: record {number} is not a game of this tournament's game and variant"
            )
        tokens = [format_action(move, record.rules.game) for move in record.moves]
        line = tuple(tokens if plies is None else tokens[:plies])
        _check_opening(pb.GameRecord(rules=rules), line, f"{source}: record {number}")
        lines.append(line)
    if not lines:
        raise TournamentError(f"{source}: no record to take openings from")
    return Opening(tuple(lines))


def _check_opening(start: pb.GameRecord, line: Sequence[str], where: str) -> None:
    player = PolicyPlayer(start)
    for ply, token in enumerate(line, start=1):
        if player.state.is_over:
            raise TournamentError(f"{where}: the game is over before ply {ply} of its opening")
        try:
            player.played(token)
        except GamerecError as error:
            raise TournamentError(f"{where}, ply {ply} {token!r}: {error}") from None


def same_rules(first: pb.Rules, second: pb.Rules) -> bool:
    """Whether two records' rules are the same game and variant (a default tag or not)."""
    try:
        mine = identify(pb.GameRecord(rules=first))
        theirs = identify(pb.GameRecord(rules=second))
    except RulesError:
        return False
    return mine.engine.name == theirs.engine.name and mine.variant == theirs.variant


def _seats(game: str, variant: Mapping[str, str]) -> int:
    rules = engine(game)
    return rules.new_game(rules.variant_from_tags(variant_options(rules.name, variant))).seats


def seats_of(game: str, variant: Mapping[str, str]) -> int:
    """How many seats ``game`` has under ``variant``.

    Raises:
        VariantError: an unknown game or variant.
    """
    return _seats(game, variant)


class GameServer(Protocol):
    """Where a tournament's games are played as matches (a match server; see the docstring)."""

    async def play(
        self, request: mpb.CreateMatchRequest, movers: Sequence[Mover], opening: Sequence[str]
    ) -> EngineGame:
        """Create the match of ``request`` and play it with ``movers`` from ``opening``."""
        ...

    async def close(self) -> None:
        """Let go of the connection."""
        ...


@dataclass(frozen=True, slots=True)
class Tournament:
    """What a tournament plays.

    Attributes:
        game: the game, in any spelling.
        variant: its variant tags.
        entrants: the field, in order (the first is the gauntlet's engine).
        rounds: how many rounds.
        time_control: the clock of every game (docs/live.md notation).
        gauntlet: the first engine against each of the others, instead of round robin.
        opening: the openings.
        event: the records' event (and what a resumed run matches them by).
        concurrency: how many games at once.
        max_plies: the referee stops a game after this many plies.
        limits: what an engine is held to (handshake, replies, output).
        server: play every game as a match on this match server (None: in process).
    """

    game: str
    variant: Mapping[str, str]
    entrants: tuple[Entrant, ...]
    rounds: int
    time_control: str
    gauntlet: bool = False
    opening: Opening = field(default_factory=Opening)
    event: str = DEFAULT_EVENT
    concurrency: int = 1
    max_plies: int = DEFAULT_MAX_PLIES
    limits: EngineLimits = field(default_factory=EngineLimits)
    server: GameServer | None = None

    def games(self) -> list[ScheduledGame]:
        """The schedule.

        Raises:
            TournamentError: see :func:`schedule`.
            VariantError: an unknown game or variant.
        """
        names = [entrant.name for entrant in self.entrants]
        return schedule(names, _seats(self.game, self.variant), self.rounds, gauntlet=self.gauntlet)


def finished_rounds(
    tournament: Tournament, records: Iterable[pb.GameRecord], source: str
) -> set[str]:
    """The ``Round`` tags of the scheduled games ``records`` already hold (see the docstring).

    Raises:
        TournamentError: a record of another event, one that is not in the schedule, one
            whose seats, game or time control differ from its game of the schedule, or the
            same game twice.
    """
    by_round = {game.round_tag: game for game in tournament.games()}
    control = parse_time_control(tournament.time_control).notation
    rules = match_request(
        tournament.game, tournament.variant, next(iter(by_round.values())).seats, control
    ).rules
    done: set[str] = set()
    for number, record in enumerate(records, start=1):
        where = f"{source}: record {number} (round {record.metadata.round or '?'})"
        if record.metadata.event != tournament.event:
            raise TournamentError(
                f"{where} is of event {record.metadata.event!r}, not {tournament.event!r}: "
                "write this tournament to another file, or name its event with --event"
            )
        scheduled = by_round.get(record.metadata.round)
        if scheduled is None:
            raise TournamentError(f"{where} is not a game of this tournament's schedule")
        seats = tuple(seat.name for seat in record.seats)
        if seats != scheduled.seats or not same_rules(record.rules, rules):
            raise TournamentError(
                f"{where} seats {', '.join(seats)}, but this tournament seats "
                f"{', '.join(scheduled.seats)} there (or plays another game or variant): the "
                "file holds another tournament; write to another file"
            )
        if record.metadata.time_control != control:
            raise TournamentError(
                f"{where} was played at {record.metadata.time_control}, this tournament at "
                f"{control}: the file holds another tournament; write to another file"
            )
        if scheduled.round_tag in done:
            raise TournamentError(f"{where}: the file holds this game twice")
        done.add(scheduled.round_tag)
    return done


class _Worker:
    """One game at a time, on this worker's own engine processes (restarted when they died)."""

    def __init__(self, tournament: Tournament) -> None:
        self.tournament = tournament
        self.commands = {entrant.name: entrant.command for entrant in tournament.entrants}
        self.processes: dict[str, EngineProcess] = {}

    async def play(self, scheduled: ScheduledGame) -> EngineGame:
        tournament = self.tournament
        movers = [await self._mover(name) for name in scheduled.seats]
        if tournament.server is not None:
            return await self._play_on_server(tournament.server, scheduled, movers)
        return await play_engine_game(
            movers,
            tournament.game,
            tournament.variant,
            time_control=tournament.time_control,
            opening=tournament.opening.of(scheduled.encounter),
            max_plies=tournament.max_plies,
            match_id=f"{tournament.event} {scheduled.round_tag}",
            client=CLIENT,
            event=tournament.event,
            round=scheduled.round_tag,
        )

    async def _mover(self, name: str) -> Mover:
        process = self.processes.get(name)
        if process is None or not process.running:
            try:
                process = await EngineProcess.start(
                    shlex.split(self.commands[name]), limits=self.tournament.limits
                )
            except EngineFailedError as failure:
                self.processes.pop(name, None)
                return UnstartedEngine(name, failure.fault)
            self.processes[name] = process
        return EngineMover(process, name=name)

    async def _play_on_server(
        self, server: GameServer, scheduled: ScheduledGame, movers: Sequence[Mover]
    ) -> EngineGame:
        tournament = self.tournament
        request = match_request(
            tournament.game,
            tournament.variant,
            scheduled.seats,
            parse_time_control(tournament.time_control).notation,
            event=tournament.event,
            round=scheduled.round_tag,
        )
        return await server.play(request, movers, tournament.opening.of(scheduled.encounter))

    async def stop(self) -> None:
        await asyncio.gather(*(process.stop() for process in self.processes.values()))


async def run_tournament(
    tournament: Tournament,
    games: Sequence[ScheduledGame],
    finished: Callable[[ScheduledGame, EngineGame], Awaitable[None] | None],
) -> None:
    """Play ``games`` of ``tournament``, ``concurrency`` at a time; ``finished`` gets each.

    ``finished`` is called as each game ends, one call at a time, in the order they end.
    Every engine process is stopped at the end, also when the run is cancelled. A failure
    (of ``finished``, of the server) stops the other games and is raised as it is.
    """
    queue = list(reversed(games))
    reporting = asyncio.Lock()

    async def work() -> None:
        worker = _Worker(tournament)
        try:
            while queue:
                scheduled = queue.pop()
                played = await worker.play(scheduled)
                async with reporting:
                    reported = finished(scheduled, played)
                    if reported is not None:
                        await reported
        finally:
            with contextlib.suppress(Exception):
                await asyncio.shield(worker.stop())

    count = max(1, min(tournament.concurrency, len(games)))
    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(count):
                group.create_task(work())
    except ExceptionGroup as failed:  # the first failure, as a caller expects it
        first: BaseException = failed
        while isinstance(first, BaseExceptionGroup):
            first = first.exceptions[0]
        raise first from None
    finally:
        if tournament.server is not None:
            await asyncio.shield(tournament.server.close())


class Scoreboard:
    """The score so far: points by place, and wins, draws and losses of a two-engine match.

    Points are the standings' default table (``n - r`` for the ``r``-th of ``n`` seats); with
    two engines, the first engine's wins, draws and losses are counted too. Results are the
    records' claims: the referee's own results, forfeits included. A game with no result
    (stopped by the referee) counts for nobody.
    """

    def __init__(self, names: Sequence[str]) -> None:
        """A board for the field ``names`` (in order)."""
        self.names = tuple(names)
        self.points: dict[str, Fraction] = dict.fromkeys(self.names, Fraction(0))
        self.wins = self.draws = self.losses = 0
        self.unfinished = 0
        self.games = 0

    def add(self, record: pb.GameRecord) -> None:
        """Count a finished game."""
        self.games += 1
        seats = [seat.name for seat in record.seats]
        claim = record.result
        if not claim.winners and not claim.HasField("scores"):
            self.unfinished += 1
            return
        ranks = competition_ranks(claim.winners, claim.scores.values, len(seats))
        for name, points in zip(seats, game_points(ranks, default_points(len(seats))), strict=True):
            self.points[name] = self.points.get(name, Fraction(0)) + points
        if self.is_match and set(seats) == set(self.names):
            first, second = ranks[seats.index(self.names[0])], ranks[seats.index(self.names[1])]
            if first == second:
                self.draws += 1
            elif first < second:
                self.wins += 1
            else:
                self.losses += 1

    @property
    def is_match(self) -> bool:
        """Whether the field is two engines (a match: wins, draws, losses and Elo)."""
        return len(self.names) == 2

    def line(self) -> str:
        """``Score of A vs B: 5 - 3 - 2 [0.600] 10`` (cutechess's), or the points by name."""
        if self.is_match and self.wins + self.draws + self.losses:
            counted = self.wins + self.draws + self.losses
            score = (self.wins + self.draws / 2) / counted
            return (
                f"Score of {self.names[0]} vs {self.names[1]}: {self.wins} - {self.losses} - "
                f"{self.draws} [{score:.3f}] {counted}"
            )
        ordered = sorted(self.names, key=lambda name: (-self.points[name], name))
        return "Points: " + ", ".join(
            f"{name} {fraction_text(self.points[name])}" for name in ordered
        )

    def elo(self) -> EloEstimate | None:
        """The first engine's Elo difference to the second (a match with a counted game)."""
        if not self.is_match or not self.wins + self.draws + self.losses:
            return None
        return elo_estimate(self.wins, self.draws, self.losses)
