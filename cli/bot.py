"""``gamerec bot --server HOST:PORT --token T --engine CMD``: play the token's seat.

Over :class:`gamerec.validator.service.mover_seat.MoverSeat`: an engine process (the engine
protocol, docs/engine-protocol.md) or a built-in policy plays one seat of one match on a
match server, through lost connections and server restarts, signing with ``--key``. The
server says which match and seat the token is (WhoAmI); ``--match`` and ``--seat``, when
given, must agree.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import Policy
from gamerec.cli.connection import Connection, with_connection
from gamerec.cli.edge import EXIT_FINDINGS, EXIT_OK, fail, reported_errors

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

    from gamerec.v1 import match_pb2 as mpb
    from gamerec.validator.players.movers import Mover


@with_connection
def bot(
    token: Annotated[
        str, typer.Option("--token", metavar="T", help="The seat's token (gamerec match new).")
    ],
    match_id: Annotated[
        str,
        typer.Option(
            "--match", metavar="ID", help="The match (the token's; if given, it must agree)."
        ),
    ] = "",
    seat: Annotated[
        int | None,
        typer.Option(
            "--seat", min=1, help="The token's seat (the server says it; if given, it must agree)."
        ),
    ] = None,
    *,
    engine: Annotated[
        str | None,
        typer.Option(
            "--engine",
            metavar="COMMAND",
            help="The engine's command line (it speaks docs/engine-protocol.md).",
        ),
    ] = None,
    policy: Annotated[
        Policy | None,
        typer.Option("--policy", help="Play by a built-in policy instead of an engine."),
    ] = None,
    seed: Annotated[int, typer.Option("--seed", help="The seed of --policy.")] = 1,
    key: Annotated[
        str | None,
        typer.Option(
            "--key",
            metavar="PEM",
            help="The seat's Ed25519 private key: sign every ply and the result.",
        ),
    ] = None,
    connection: Connection | None = None,
) -> None:
    """Play one seat of a match on a server with an engine (or a built-in policy).

    The bot watches the match, asks the engine for each of its seat's moves with the whole
    game and the clocks (less the time since the server gave them), plays the move, signs it
    with --key, and tells the engine why when the referee refuses one (and asks again). It
    reconnects after a lost connection or a server restart (from the last event it saw) and
    resigns when the engine fails its turn (a crash, a hang, garbage). At the end it prints
    how the match ended. Exit code 0: the seat won or shared first place (a draw); 1: the
    match ended otherwise (a loss, an abort, no result); 2: the bot could not play (the
    server unreachable for two minutes, the token or match refused, the engine did not
    start, a --match or --seat that is not the token's). One match per run: the match
    server has no challenge queue to wait on.
    """
    if (engine is None) == (policy is None):
        fail("give one of --engine COMMAND and --policy random|greedy")
    with reported_errors():
        signing = None
        if key is not None:
            from gamerec.recorder.signing import load_private_key

            signing = load_private_key(key)
        assert connection is not None  # given by with_connection
        place = _Seat(connection, match_id, token, seat or 0)
        ended, log, seat = asyncio.run(
            _play(place, engine=engine, policy=policy, seed=seed, key=signing)
        )
    for line in log:
        typer.echo(f"gamerec bot: {line}", err=True)
    raise typer.Exit(_report(ended, seat))


@dataclass(frozen=True, slots=True)
class _Seat:
    """Where the bot plays: the server, the token, the match and seat given ("", 0: none)."""

    connection: Connection
    match_id: str
    token: str
    seat: int


async def _play(
    place: _Seat,
    *,
    engine: str | None,
    policy: Policy | None,
    seed: int,
    key: Ed25519PrivateKey | None,
) -> tuple[mpb.MatchEnded, list[str], int]:
    import grpc
    import grpc.aio

    from gamerec.v1 import match_pb2_grpc as mgrpc
    from gamerec.validator.service.match_client import BotError, refusal_text, whose_token
    from gamerec.validator.service.mover_seat import MoverSeat

    server = place.connection.server
    channel = place.connection.transport.aio_channel(server)
    async with _mover(engine, policy, seed) as mover, channel:
        stub = mgrpc.MatchServiceStub(channel)
        try:
            found = await whose_token(stub, place.token, place.match_id, place.seat)
        except BotError as error:
            fail(f"{server}: {error}")
        except grpc.aio.AioRpcError as error:
            fail(f"{server}: {refusal_text(error.code(), error.details() or '')}")
        match_id, seat = found.match_id, found.seat
        seat_bot = MoverSeat(stub, match_id, place.token, seat, key=key, mover=mover)
        try:
            return await seat_bot.run(), seat_bot.log, seat
        except BotError as error:
            fail(f"{server}, match {match_id}, seat {seat}: {error}")
        except grpc.aio.AioRpcError as error:
            fail(f"{server}: {refusal_text(error.code(), error.details() or '')}")


@contextlib.asynccontextmanager
async def _mover(engine: str | None, policy: Policy | None, seed: int) -> AsyncIterator[Mover]:
    from gamerec.validator.players.faults import EngineFailedError
    from gamerec.validator.players.host import EngineProcess
    from gamerec.validator.players.movers import EngineMover, PolicyMover

    if engine is None:
        yield PolicyMover(policy.value if policy else "random", seed)
        return
    try:
        process = await EngineProcess.start(engine)
    except EngineFailedError as failure:
        fail(f"--engine {engine!r}: {failure.fault.describe()}")
    try:
        yield EngineMover(process)
    finally:
        await process.stop()


def _report(ended: mpb.MatchEnded, seat: int) -> int:
    """Print how the match ended; the exit code (0: the seat won or drew, 1: otherwise)."""
    result = ended.result
    won = seat in result.winners
    record = ended.record
    name = record.seats[seat - 1].name if len(record.seats) >= seat else f"seat {seat}"
    outcome = "wins" if won and len(result.winners) == 1 else "shares first" if won else "loses"
    if not result.winners:
        outcome = "has no result"
    typer.echo(f"{ended.reason}; seat {seat} ({name}) {outcome}")
    return EXIT_OK if won else EXIT_FINDINGS
