"""A tournament's game played as a match on a match server (``gamerec tournament --server``).

The organiser's server referees, seals and signs the game: the game is created there
(``CreateMatch``, with the admin token when the server has one), and each seat is a
:class:`MoverSeat` on the worker's engine process, as ``gamerec bot`` plays it. The opening
plies are played by the seats themselves (the server has no opening to set up): the seat to
move sends the opening's next ply instead of asking its engine. The game is over when the
server says so; the record is the one the ``ended`` event carries, sealed and signed by the
host.

What differs from a game refereed in process: an engine that fails its turn resigns (its
seat's bot cannot go on), so the record's termination is ``resignation`` where the local
referee writes ``abandoned`` or ``adjudicated``; a hang still loses on time; an engine that
cannot be started resigns before its first ply. The engines' ``info`` lines are not kept
(``Play`` has no field for a move comment).
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence

import grpc
import grpc.aio

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.players.clocks import ClockState
from gamerec.validator.players.engine_game import EngineGame
from gamerec.validator.players.movers import Choice, Mover, UnstartedEngine
from gamerec.validator.service.match_client import BotError, refusal_text
from gamerec.validator.service.mover_seat import MoverSeat
from gamerec.validator.service.transport import ClientTransport

#: Seconds a CreateMatch or Resign call may take.
CALL_SECONDS = 30.0


class OpeningMover:
    """A mover that plays ``opening``'s plies first, then asks ``mover``."""

    def __init__(self, mover: Mover, opening: Sequence[str]) -> None:
        """Wrap ``mover``."""
        self.mover = mover
        self.opening = tuple(opening)

    @property
    def name(self) -> str:
        """The wrapped mover's name."""
        return self.mover.name

    async def start(self, record: pb.GameRecord, seat: int) -> None:
        """The wrapped mover's ``start``."""
        await self.mover.start(record, seat)

    async def choose(self, tokens: Sequence[str], clock: ClockState) -> Choice:
        """The opening's next ply while it lasts, else the wrapped mover's choice."""
        if len(tokens) < len(self.opening):
            return Choice(self.opening[len(tokens)], "opening")
        return await self.mover.choose(tokens, clock)

    async def refused(self, reason: str) -> None:
        """The wrapped mover's ``refused``."""
        await self.mover.refused(reason)

    async def finish(self, record: pb.GameRecord) -> None:
        """The wrapped mover's ``finish``."""
        await self.mover.finish(record)


class MatchServer:
    """A match server a tournament plays its games on (one connection, shared by its workers).

    Args:
        address: the server's ``HOST:PORT``.
        transport: how to reach it (TLS or not) and the organiser's token (``authorization:
            Bearer <admin token>`` on the organiser's calls, when the server has one).
    """

    def __init__(self, address: str, transport: ClientTransport | None = None) -> None:
        """A server at ``address`` (connected at the first game)."""
        self.address = address
        self.transport = transport or ClientTransport()
        self.metadata = self.transport.metadata()
        self._channel: grpc.aio.Channel | None = None

    async def play(
        self, request: mpb.CreateMatchRequest, movers: Sequence[Mover], opening: Sequence[str]
    ) -> EngineGame:
        """Create the match, play every seat with its mover until it ends; the game.

        Raises:
            BotError: the server refused the match or stayed unreachable (its status and
                details), or a seat's call was refused for a reason the match does not explain.
        """
        try:
            return await self._play(request, movers, opening)
        except grpc.aio.AioRpcError as error:
            failure = refusal_text(error.code(), error.details() or "")
            raise BotError(f"the match server: {failure}") from None

    async def _play(
        self, request: mpb.CreateMatchRequest, movers: Sequence[Mover], opening: Sequence[str]
    ) -> EngineGame:
        """:meth:`play`, with the server's refusals as gRPC raises them."""
        if self._channel is None:
            self._channel = self.transport.aio_channel(self.address)
        stub = mgrpc.MatchServiceStub(self._channel)
        created = await stub.CreateMatch(request, timeout=CALL_SECONDS, metadata=self.metadata)
        log: list[str] = []
        seats: list[MoverSeat] = []
        for seat, (token, mover) in enumerate(zip(created.seat_tokens, movers, strict=True), 1):
            if isinstance(mover, UnstartedEngine):
                log.append(f"seat {seat} ({mover.name}) resigns: {mover.fault.describe()}")
                await _resign(stub, created.match_id, token)
            else:
                playing = OpeningMover(mover, opening)
                seats.append(MoverSeat(stub, created.match_id, token, seat, mover=playing))
        if seats:
            ended = (await asyncio.gather(*(seat.run() for seat in seats)))[0]
        else:
            ended = await _ended(stub, created.match_id, self.metadata)
        log += [f"seat {seat.seat}: {line}" for seat in seats for line in seat.log]
        return EngineGame(ended.record, log=tuple(log), ended=ended)

    async def close(self) -> None:
        """Close the connection."""
        if self._channel is not None:
            await self._channel.close()
            self._channel = None


async def _resign(stub: mgrpc.MatchServiceAsyncStub, match_id: str, token: str) -> None:
    """Resign a seat; a match already over (another seat resigned) is no error."""
    try:
        await stub.Resign(mpb.ResignRequest(match_id=match_id, token=token), timeout=CALL_SECONDS)
    except grpc.aio.AioRpcError as error:
        if error.code() is not grpc.StatusCode.FAILED_PRECONDITION:
            raise


async def _ended(
    stub: mgrpc.MatchServiceAsyncStub, match_id: str, metadata: tuple[tuple[str, str], ...]
) -> mpb.MatchEnded:
    """The ``ended`` event of a match that is over (read with the organiser's token)."""
    request = mpb.WatchRequest(match_id=match_id, from_event=1)
    async for event in stub.Watch(request, metadata=metadata):
        if event.HasField("ended"):
            return event.ended
    raise BotError(f"match {match_id}: the server's log of it has no end")
