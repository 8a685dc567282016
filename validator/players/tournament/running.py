"""A tournament played: its settings, resuming from a file, and the games N at a time.

:class:`Tournament`, :func:`finished_rounds`, :func:`run_tournament` (workers that each keep
one process per engine) and :class:`GameServer` (games played as matches on a server). It
imports ``gamerec.v1``, ``validator.live.timecontrol``, the ``players`` host, movers and
``engine_game``, and the package's ``schedule`` and ``openings``.
"""

from __future__ import annotations

import asyncio
import contextlib
import shlex
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.timecontrol import parse_time_control
from gamerec.validator.players.engine_game import (
    DEFAULT_MAX_PLIES,
    EngineGame,
    match_request,
    play_engine_game,
)
from gamerec.validator.players.faults import EngineFailedError
from gamerec.validator.players.host import EngineLimits, EngineProcess
from gamerec.validator.players.movers import EngineMover, Mover, UnstartedEngine
from gamerec.validator.players.tournament.openings import (
    Opening,
    same_rules,
)
from gamerec.validator.players.tournament.schedule import (
    CLIENT,
    DEFAULT_EVENT,
    Entrant,
    ScheduledGame,
    TournamentError,
    _seats,
    schedule,
)


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
