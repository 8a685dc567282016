"""``gamerec tournament --game G --engine A=CMD --engine B=CMD -o OUT``: engines against each other.

Over :mod:`gamerec.validator.players.tournament`: the schedule (round robin or gauntlet, seats
balanced), openings, the games refereed by the live match core, ``concurrency`` at a time, each
record appended to OUT as it ends (:mod:`gamerec.validator.players.record_file`), a line on
stderr per finished game, and the standings (``gamerec standings --use claimed``) at the end.
"""

from __future__ import annotations

import asyncio
import dataclasses
import os
import shlex
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from gamerec.cli.arguments import PlayersOption, VariantOption, naming_players, variant_tags
from gamerec.cli.connection import Connection, with_optional_connection
from gamerec.cli.edge import EXIT_FAILED, fail, reported_errors
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.syntax.registered import known_games
from gamerec.validator.games import engine
from gamerec.validator.players.engine_game import EngineGame
from gamerec.validator.players.record_file import RecordFile, read_finished
from gamerec.validator.players.tournament import (
    DEFAULT_EVENT,
    Entrant,
    GameServer,
    Opening,
    ScheduledGame,
    Scoreboard,
    Tournament,
    file_openings,
    finished_rounds,
    random_openings,
    run_tournament,
)

#: The opening plies of ``--openings random`` when ``--opening-plies`` is not given.
RANDOM_OPENING_PLIES = 4


@with_optional_connection
def tournament(
    game: Annotated[str, typer.Option("--game", help=f"{known_games(' or ')}, in any spelling.")],
    engines: Annotated[
        list[str],
        typer.Option(
            "--engine",
            metavar="NAME=COMMAND",
            help="An engine: its name in the records, = and its command line (repeatable, "
            "two at least). Without NAME=, the program's file name is its name.",
        ),
    ],
    dest: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            metavar="OUT",
            help="The records, appended as games end (.pbs, .jsonl or .grn). Running the same "
            "command again plays only the games OUT does not hold yet.",
        ),
    ],
    *,
    rounds: Annotated[
        int,
        typer.Option(
            "--rounds",
            min=1,
            help="Rounds: in each, every table of engines plays once in every seat order.",
        ),
    ] = 1,
    clock: Annotated[
        str,
        typer.Option(
            "--clock",
            metavar="TC",
            help="The time control of every game: 60+1, 300, 60d2, 60b2, 5/move (docs/live.md).",
        ),
    ] = "10/move",
    concurrency: Annotated[
        int, typer.Option("--concurrency", min=0, help="Games at once (0: one per core).")
    ] = 1,
    gauntlet: Annotated[
        bool,
        typer.Option(
            "--gauntlet", help="The first engine against each of the others, not round robin."
        ),
    ] = False,
    players: PlayersOption = None,
    variant: VariantOption = None,
    openings: Annotated[
        str | None,
        typer.Option(
            "--openings",
            metavar="FILE|random",
            help="Each encounter starts with the next record's plies of FILE, or with random "
            "plies (both seat orders play the same opening). Default: none.",
        ),
    ] = None,
    opening_plies: Annotated[
        int | None,
        typer.Option(
            "--opening-plies",
            min=0,
            help=f"Plies of each opening (default: random {RANDOM_OPENING_PLIES}, FILE all).",
        ),
    ] = None,
    redraw_decided: Annotated[
        bool,
        typer.Option(
            "--redraw-decided",
            help="With --openings random: draw again an opening that is already decided (a "
            "search two turns deep proves a forced result for the seat to move).",
        ),
    ] = False,
    seed: Annotated[int, typer.Option("--seed", help="The seed of random openings.")] = 1,
    event: Annotated[
        str, typer.Option("--event", help="The records' event (a resumed run matches it).")
    ] = DEFAULT_EVENT,
    max_plies: Annotated[
        int, typer.Option("--max-plies", min=1, help="The referee stops a game at this ply.")
    ] = 5_000,
    quiet: Annotated[
        bool, typer.Option("-q", "--quiet", help="No line per game on stderr.")
    ] = False,
    connection: Connection | None = None,
) -> None:
    """Play engines against each other: round robin or gauntlet, records as games end.

    Every game is refereed by the live match core (the server's rules, clocks and forfeits):
    an engine that crashes, hangs past its clock, breaks the protocol or plays an illegal
    move loses that game, and the tournament goes on. Seats are balanced: every table of
    engines plays in every rotation of its seats each round. Each game is appended to OUT the
    moment it ends; the same command run again plays only what OUT is missing. At the end,
    the standings (as gamerec standings --use claimed prints them) and, for two engines, the
    Elo difference with its 95 % error margin, as cutechess-cli reports it. With --server,
    every game is a match on that server instead (created with --token-file's admin token,
    over TLS with --tls/--ca/--client-cert as for gamerec match; each seat
    played as gamerec bot plays it), and OUT gets the server's sealed and signed records.
    Exit code 0; 2 when the tournament cannot be run or is interrupted (OUT keeps every
    finished game).
    """
    tags = variant_tags(variant or [])
    if players is not None:
        tags["Players"] = str(players)
    with reported_errors(), naming_players(players is None and "Players" not in tags):
        plan = Tournament(
            game=engine(game).name,
            variant=tags,
            entrants=_entrants(engines),
            rounds=rounds,
            time_control=clock,
            gauntlet=gauntlet,
            event=event,
            concurrency=concurrency or os.cpu_count() or 1,
            max_plies=max_plies,
            server=_server(connection),
        )
        games = plan.games()
        opening = _opening(
            plan, openings, opening_plies, seed, games[-1].encounter, redraw=redraw_decided
        )
        plan = dataclasses.replace(plan, opening=opening)
        finished = read_finished(dest)
        done = finished_rounds(plan, finished, dest)
        board = Scoreboard([entrant.name for entrant in plan.entrants])
        for record in finished:
            board.add(record)
        missing = [scheduled for scheduled in games if scheduled.round_tag not in done]
        _say_plan(plan, games, missing, dest, quiet)
        progress = _Progress(len(games), len(done), len(missing), board, quiet)
        interrupted = _play(plan, missing, dest, progress)
    _report(plan, dest, board)
    if interrupted:
        typer.echo(
            f"gamerec: interrupted: {progress.done} of {len(games)} games are in {dest}; "
            "run the same command to play the rest",
            err=True,
        )
        raise typer.Exit(EXIT_FAILED)


def _entrants(engines: list[str]) -> tuple[Entrant, ...]:
    """``NAME=COMMAND`` (or a bare command, named after its program) for each ``--engine``."""
    entrants = []
    for text in engines:
        name, equals, command = text.partition("=")
        if not equals or " " in name.strip() or not name.strip():
            name, command = "", text
        try:
            words = shlex.split(command)
        except ValueError as error:
            fail(f"--engine {text!r}: {error}")
        if not words:
            fail(f"--engine {text!r}: no command line")
        entrants.append(Entrant(name.strip() or Path(words[0]).name, command))
    if len(entrants) < 2:
        fail("a tournament needs two --engine options at least")
    return tuple(entrants)


def _server(connection: Connection | None) -> GameServer | None:
    """The match server the games are played on; None: in this process."""
    if connection is None:
        return None
    from gamerec.validator.service.tournament_games import MatchServer

    return MatchServer(connection.server, connection.transport)


def _opening(
    plan: Tournament,
    openings: str | None,
    plies: int | None,
    seed: int,
    encounters: int,
    *,
    redraw: bool,
) -> Opening:
    if redraw and openings != "random":
        fail("--redraw-decided draws random openings again: it needs --openings random")
    if openings is None:
        return Opening()
    if openings == "random":
        count = plies if plies is not None else RANDOM_OPENING_PLIES
        return random_openings(plan.game, plan.variant, count, encounters, seed, undecided=redraw)
    from gamerec.recorder.codecs import read_records

    return file_openings(read_records(openings), plan.game, plan.variant, plies, openings)


def _say_plan(
    plan: Tournament,
    games: list[ScheduledGame],
    missing: list[ScheduledGame],
    dest: str,
    quiet: bool,
) -> None:
    if quiet:
        return
    kind = "gauntlet" if plan.gauntlet else "round robin"
    names = ", ".join(entrant.name for entrant in plan.entrants)
    held = len(games) - len(missing)
    resumed = f"; {held} already in {dest}, {len(missing)} to play" if held else ""
    typer.echo(
        f"gamerec: {kind} of {names}: {len(games)} games of {plan.game}, {plan.rounds} "
        f"round{'s' if plan.rounds != 1 else ''}, clock {plan.time_control}, "
        f"{plan.concurrency} at once{resumed}",
        err=True,
    )


class _Progress:
    """A line on stderr per finished game: the result, the score so far, the time left."""

    def __init__(self, total: int, done: int, missing: int, board: Scoreboard, quiet: bool) -> None:
        self.total = total
        self.done = done
        self.played = 0
        self.missing = missing
        self.board = board
        self.quiet = quiet
        self.start = time.monotonic()

    def finished(self, scheduled: ScheduledGame, played: EngineGame) -> None:
        self.done += 1
        self.played += 1
        self.board.add(played.record)
        if self.quiet:
            return
        elapsed = time.monotonic() - self.start
        left = elapsed / self.played * (self.missing - self.played)
        typer.echo(
            f"Finished game {scheduled.number} of {self.total} (round {scheduled.round_tag}, "
            f"{' vs '.join(scheduled.seats)}): {_result(played)}\n"
            f"{self.board.line()}; {self.done} of {self.total} games, ETA {_clock_text(left)}",
            err=True,
        )


def _result(played: EngineGame) -> str:
    record = played.record
    names = [seat.name for seat in record.seats]
    winners = [names[seat - 1] for seat in record.result.winners]
    if not winners:
        outcome = "no result"
    elif len(winners) == len(names):
        outcome = "draw"
    else:
        outcome = f"{' and '.join(winners)} win{'s' if len(winners) == 1 else ''}"
    reason = record.comment or (played.ended.reason if played.ended else "")
    return f"{outcome} {{{reason}}}" if reason else outcome


def _clock_text(seconds: float) -> str:
    whole = int(seconds)
    return f"{whole // 3600}:{whole // 60 % 60:02d}:{whole % 60:02d}"


def _play(plan: Tournament, missing: list[ScheduledGame], dest: str, progress: _Progress) -> bool:
    """Play the missing games, appending each to ``dest``; True when interrupted (Ctrl-C)."""
    if not missing:
        return False
    from gamerec.validator.service.match_client import BotError

    with RecordFile(dest) as output:

        def finished(scheduled: ScheduledGame, played: EngineGame) -> None:
            output.append(played.record)
            progress.finished(scheduled, played)

        try:
            asyncio.run(run_tournament(plan, missing, finished))
        except KeyboardInterrupt:
            return True
        except BotError as error:
            fail(str(error))
    return False


def _report(plan: Tournament, dest: str, board: Scoreboard) -> None:
    """The standings of the event (``gamerec standings --use claimed``) and the Elo line."""
    from gamerec.cli.crosstable import table_lines
    from gamerec.validator.collection.standings import standings

    if not Path(dest).exists():
        return
    try:
        found = standings([dest], event=plan.event, use="claimed")
    except GamerecError as error:
        fail(str(error))
    lines = ["\n".join(table_lines(event)) for event in found.events]
    estimate = board.elo()
    if estimate is not None:
        lines.append(f"{board.line()}\n{estimate.line()}")
    typer.echo("\n\n".join(lines))
    sys.stdout.flush()
