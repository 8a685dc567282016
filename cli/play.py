"""``gamerec play``: a person at a terminal, in a server's live match or against a local bot.

Thin: it opens the table (``gamerec.validator.play.table``), runs the screen
(``gamerec.validator.play.app``) and, with ``-o``, writes the final record once the match is
over. Errors before the screen starts (an unknown match, a wrong token, a bad clock) are one
line on stderr and exit code 2. docs/playing.md describes the screen and the commands.
"""

from __future__ import annotations

import asyncio
from contextlib import AsyncExitStack
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.collected import output_encoding, written_note
from gamerec.cli.connection import Connection, with_optional_connection
from gamerec.cli.edge import fail, reported_errors
from gamerec.recorder.syntax.registered import known_games

if TYPE_CHECKING:
    from gamerec.v1 import match_pb2 as mpb
    from gamerec.validator.play.table import Table
    from gamerec.validator.players.movers import Mover


@with_optional_connection
def play(
    *,
    match_id: Annotated[
        str,
        typer.Option(
            "--match",
            metavar="ID",
            help="The live match (with --server; the token's, which the server says).",
        ),
    ] = "",
    token: Annotated[
        str, typer.Option("--token", metavar="T", help="Your seat's token (with --server).")
    ] = "",
    game: Annotated[
        str,
        typer.Option(
            "--game",
            metavar="GAME",
            help=f"Play a local game of {known_games(' or ')} against a bot (no server).",
        ),
    ] = "",
    against: Annotated[
        str,
        typer.Option(
            "--against",
            metavar="BOT",
            help="Who plays the other seats: random or greedy (gamerec's policies), or an "
            "engine's command line (docs/engine-protocol.md), e.g. './mybot --level 3'.",
        ),
    ] = "random",
    seats: Annotated[
        int | None,
        typer.Option("--seats", min=2, max=6, help="Seats at the table (games of 2 or more)."),
    ] = None,
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat",
            min=1,
            max=6,
            help="Your seat: locally the seat you play (default 1); with --server the token's "
            "(the server says it; if given, it must agree).",
        ),
    ] = None,
    clock: Annotated[
        str,
        typer.Option(
            "--clock",
            metavar="CONTROL",
            help="The local game's time control: - (none), 300, 300+3, 300d3, 300b3, 30/move.",
        ),
    ] = "-",
    variant: Annotated[
        list[str] | None,
        typer.Option("--variant", metavar="TAG=VALUE", help="A variant option (Board=5,5)."),
    ] = None,
    key: Annotated[
        str,
        typer.Option(
            "--key",
            metavar="FILE",
            help="With --server: your seat's private key, to sign each ply and the result.",
        ),
    ] = "",
    name: Annotated[str, typer.Option("--name", help="Your name in the local record.")] = "player",
    seed: Annotated[int, typer.Option("--seed", help="The seed of the bots' choices.")] = 1,
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            metavar="OUT",
            help="Write the final record here once the match is over (.grn, .pb, .json...).",
        ),
    ] = "",
    connection: Connection | None = None,
) -> None:
    """Play a game at the terminal: a seat of a server's live match, or a local game vs a bot.

    The board in colour, every seat's clock counting down, the plies, whose turn it is. Type
    moves in the game's notation (Tab completes, ``?`` lists the legal ones), or ``resign``,
    ``draw``, ``decline``, ``abort``, ``flip``, ``quit``, ``help``. Quitting a server's match
    leaves it going on: run the same command again to come back to it.
    """
    if output:
        output_encoding(output, None)
    if connection is not None:
        if game:
            fail("--game plays a local game; leave it out with --server")
        if not token:
            fail("--server needs --token T (gamerec match new prints it)")
        final = asyncio.run(_play_on_server(connection, match_id, token, seat or 0, key))
    elif game:
        if key:
            fail("--key signs a server's match; a local game is signed by its own host key")
        request = _local_request(
            game, variant=variant or [], seats=seats, clock=clock, name=name, seat=seat or 1
        )
        final = asyncio.run(_play_locally(request, seat or 1, against, seed))
    else:
        fail("say where to play: --server HOST:PORT --token T, or --game GAME")
    _write_final(final, output)


def _local_request(
    game: str, *, variant: list[str], seats: int | None, clock: str, name: str, seat: int
) -> mpb.CreateMatchRequest:
    """The local match: the game and variant, ``name`` in ``seat``, the bots named later."""
    from gamerec.cli.match import rules_of
    from gamerec.v1 import match_pb2 as mpb

    with reported_errors():
        given = [value for tag, _, value in (o.partition("=") for o in variant) if tag == "Players"]
        options = [*variant, *([] if given else [f"Players={seats or 2}"])]
        rules = rules_of(game, options)
    count = int(given[-1]) if given and given[-1].isdigit() else seats or 2
    if seat > count:
        fail(f"--seat {seat}: the game has seats 1 to {count}")
    players = [mpb.MatchSeat(name=f"seat {number}") for number in range(1, count + 1)]
    players[seat - 1].name = name
    return mpb.CreateMatchRequest(
        rules=rules,
        seats=players,
        time_control=clock,
        illegal_move_policy=mpb.ILLEGAL_MOVE_POLICY_REJECT,
        event="gamerec play",
    )


async def _play_locally(
    request: mpb.CreateMatchRequest, seat: int, against: str, seed: int
) -> mpb.MatchState | None:
    from gamerec.validator.play.table import LocalTable, TableRefusedError

    async with AsyncExitStack() as engines:
        movers = {}
        for other in range(1, len(request.seats) + 1):
            if other != seat:
                movers[other] = await _bot(engines, against, f"{seed}:{other}")
                request.seats[other - 1].name = movers[other].name
        try:
            table = await LocalTable.start(request, seat, movers)
        except TableRefusedError as refused:
            fail(f"{refused.reason}: {refused}")
        try:
            await _run_screen(table)
            await table.leave()
            return await table.state()
        finally:
            await table.close()
            for line in table.log:
                typer.echo(f"gamerec: {line}", err=True)


async def _bot(engines: AsyncExitStack, against: str, seed: str) -> Mover:
    """A built-in policy, or an engine started from its command line (exit 2 if it cannot)."""
    from gamerec.validator.players.faults import EngineFailedError
    from gamerec.validator.players.host import running_engine
    from gamerec.validator.players.movers import POLICY_NAMES, EngineMover, PolicyMover

    if against in POLICY_NAMES:
        return PolicyMover(against, seed)
    try:
        engine = await engines.enter_async_context(running_engine(against))
    except EngineFailedError as failure:
        fail(f"--against: {failure}")
    return EngineMover(engine)


async def _play_on_server(
    connection: Connection, match_id: str, token: str, seat: int, key_file: str
) -> mpb.MatchState | None:
    from gamerec.recorder.signing import load_private_key
    from gamerec.validator.play.table import TableLostError, TableRefusedError
    from gamerec.validator.service.seat_table import ServerTable

    with reported_errors():
        key = load_private_key(key_file) if key_file else None
    server = connection.server
    with reported_errors():
        channel = connection.transport.aio_channel(server)
    table = ServerTable(channel, match_id, token, seat, key)
    try:
        await table.check()
    except (TableRefusedError, TableLostError) as error:
        await channel.close()
        fail(f"{server}: {error}")
    try:
        shown = await _run_screen(table)
        try:
            return await table.state()  # the match as the referee has it as the person leaves
        except (TableRefusedError, TableLostError):
            return shown
    finally:
        await table.leave()


async def _run_screen(table: Table) -> mpb.MatchState | None:
    from gamerec.validator.play.app import PlayApp

    return await PlayApp(table).run_async()


def _write_final(final: mpb.MatchState | None, output: str) -> None:
    """Say how the match stands; with ``-o``, once it is over, write its record."""
    if final is None or not final.HasField("ended"):
        if final is not None and final.match_id:
            typer.echo(f"gamerec: match {final.match_id} goes on", err=True)
        if output:
            typer.echo(f"gamerec: the match is not over; nothing written to {output}", err=True)
        return
    from gamerec.validator.render.ending import match_ending

    typer.echo(f"match {final.match_id}: {match_ending(final.ended)}")
    if output:
        from gamerec.recorder.codecs import write_records

        encoding = output_encoding(output, None)
        with reported_errors():
            count = write_records([final.record], output, encoding)
        written_note(count, output, encoding)
