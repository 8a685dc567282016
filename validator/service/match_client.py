"""A seat's bot over gRPC: watches its match, plays by a policy, signs, survives restarts.

Enough of a client to play whole matches through a real server (tests, ``make bench``, the
Python side of the Node example); docs/live.md describes the protocol it follows:

1. ``Watch`` the match from event 1 (from the last event seen plus one after a reconnect);
2. follow every ``MoveAccepted`` (its token) to know the position;
3. when an event leaves the bot's seat to move, ``Play`` the next ply (the plies played plus
   one), and, holding a key, ``Sign`` the head its acceptance gives;
4. at ``MatchEnded``, ``Sign`` the final head (ply 0) and stop.

A call refused because the match moved on (FAILED_PRECONDITION: a stale ply, not its turn,
the match over) is not an error: the events that moved it are on their way. A lost
connection (UNAVAILABLE: a server restarting) is retried with the same ply and the same move,
which the referee answers with the first acceptance when it had been accepted; a call over
a limit (RESOURCE_EXHAUSTED with RetryInfo) is tried again after the delay it names. Every
call carries the seat's token as ``authorization: Bearer`` metadata too, so the server
counts the bot's calls against its token (gamerec.validator.service.quotas).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final

import grpc
import grpc.aio

from gamerec.recorder.seal import final_message, ply_message
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.live.players import PolicyPlayer
from gamerec.validator.service.transport import bearer, retry_delay

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

#: Statuses after which a call is tried again: the server is restarting or overloaded, or the
#: transport cancelled the call (the bot never cancels one). A move sent again is safe: the
#: referee answers a ply it accepted with that acceptance, or as stale.
RETRIED: Final = (
    grpc.StatusCode.UNAVAILABLE,
    grpc.StatusCode.UNKNOWN,
    grpc.StatusCode.CANCELLED,
)
#: Seconds between tries, at first, and at most.
FIRST_PAUSE: Final = 0.05
LONGEST_PAUSE: Final = 1.0
#: Seconds a bot keeps trying to reach a server that is down.
PATIENCE_SECONDS: Final = 120.0
#: Seconds one call may take.
CALL_SECONDS: Final = 30.0


#: What an UNIMPLEMENTED status from MatchService means: the server serves no live matches.
NO_MATCHES: Final = (
    "this server has no live matches (it was started without --matches); start one that "
    "has them with: gamerec serve --matches FILE.db"
)


def refusal_text(code: grpc.StatusCode | None, details: str) -> str:
    """A MatchService call's failure in one line: ``CODE: details``, or :data:`NO_MATCHES`.

    A server started without ``--matches`` has no MatchService, so gRPC itself answers every
    call with UNIMPLEMENTED (``Method not found!``): that is said in words.
    """
    if code is grpc.StatusCode.UNIMPLEMENTED:
        return NO_MATCHES
    return f"{code.name if code is not None else 'ERROR'}: {details}"


class BotError(Exception):
    """A bot that cannot go on: a call refused for a reason the match does not explain."""


def token_mismatch(found: mpb.WhoAmIResponse, match_id: str, seat: int) -> str | None:
    """Why a token's seat (WhoAmI's answer) is not the match and seat given; None: it is.

    An empty ``match_id`` or a ``seat`` of 0 was not given and matches any.
    """
    if match_id and found.match_id != match_id:
        return f"the token is a seat's of match {found.match_id}, not of match {match_id}"
    if seat and found.seat != seat:
        return f"the token is seat {found.seat}'s, not seat {seat}'s"
    return None


async def whose_token(
    stub: mgrpc.MatchServiceAsyncStub, token: str, match_id: str = "", seat: int = 0
) -> mpb.WhoAmIResponse:
    """The match and seat ``token`` plays (WhoAmI), checked against those given.

    Raises:
        BotError: the token is another match's or another seat's than given.
        grpc.aio.AioRpcError: the call failed (UNAUTHENTICATED: the token is no seat's), or
            the server stayed unreachable for PATIENCE_SECONDS.
    """
    give_up = time.monotonic() + PATIENCE_SECONDS
    pause = FIRST_PAUSE
    while True:
        try:
            found: mpb.WhoAmIResponse = await stub.WhoAmI(
                mpb.WhoAmIRequest(token=token), timeout=CALL_SECONDS, metadata=bearer(token)
            )
            break
        except grpc.aio.AioRpcError as error:  # a server starting or restarting: wait for it
            if error.code() not in RETRIED or time.monotonic() > give_up:
                raise
        await asyncio.sleep(pause)
        pause = min(LONGEST_PAUSE, pause * 2)
    wrong = token_mismatch(found, match_id, seat)
    if wrong is not None:
        raise BotError(wrong)
    return found


@dataclass
class SeatBot:
    """One seat's bot (see the module docstring).

    Attributes:
        stub: a MatchService stub on an asyncio channel.
        match_id: the match.
        token: the seat's token.
        seat: the seat (1-based).
        policy: ``random`` or ``greedy``.
        seed: the seed of its choices.
        key: the seat's private key, to sign its plies and the result; None: no signing.
        think: awaited before each move (tests move a test clock here).
        round_trips: the seconds of every accepted Play call (for the bench).
    """

    stub: mgrpc.MatchServiceAsyncStub
    match_id: str
    token: str
    seat: int
    policy: str = "random"
    seed: int | str = 0
    key: Ed25519PrivateKey | None = None
    think: Callable[[int], Awaitable[None]] | None = None
    round_trips: list[float] = field(default_factory=list)
    _player: PolicyPlayer | None = None
    _last: int = 0
    _plies: int = 0
    _to_move: int = 0

    async def run(self) -> mpb.MatchEnded:
        """Play the seat until the match ends; how it ended.

        Raises:
            BotError: a call refused for a reason other than the match moving on.
            grpc.aio.AioRpcError: the server stayed unreachable for PATIENCE_SECONDS.
        """
        give_up = time.monotonic() + PATIENCE_SECONDS
        pause = FIRST_PAUSE
        while True:
            try:
                ended = await self._follow()
            except grpc.aio.AioRpcError as error:
                delay = retry_delay(error)
                if delay is not None:
                    await asyncio.sleep(delay)
                    continue
                if error.code() not in RETRIED or time.monotonic() > give_up:
                    raise
                await asyncio.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)
                continue
            if ended is not None:
                return ended
            give_up = time.monotonic() + PATIENCE_SECONDS

    async def _follow(self) -> mpb.MatchEnded | None:
        """Watch from the next event; play at each turn; the end, or None if the stream ended.

        Back after a lost connection on its own turn, it plays at once: no event will come
        before it does (a move it had sent and that was accepted is refused as stale, and
        its event comes on the stream).
        """
        request = mpb.WatchRequest(match_id=self.match_id, from_event=self._last + 1)
        stream = self.stub.Watch(request, metadata=bearer(self.token))
        try:
            if self._player is not None and self._to_move == self.seat:
                await self._move()
            async for event in stream:
                self._last = event.number
                ended = await self._take(event)
                if ended is not None:
                    return ended
            return None
        finally:
            # A Play or Sign that failed leaves here with the stream open: left to the
            # garbage collector, it held one of the connection's streams, and enough such
            # streams left no room for any call on it (bots stalled; issue 38).
            stream.cancel()

    async def _take(self, event: mpb.MatchEvent) -> mpb.MatchEnded | None:
        kind = event.WhichOneof("kind")
        if kind == "created":
            self._player = PolicyPlayer(event.created.record, self.policy, self.seed)
            self._to_move = 1
        elif kind == "move":
            assert self._player is not None
            self._player.played(event.move.token)
            self._plies, self._to_move = event.move.ply, event.move.to_move
        elif kind == "ended":
            await self._sign_result(event.ended)
            return event.ended
        if self._to_move == self.seat and kind in ("created", "move", "outage"):
            await self._move()
        return None

    async def _move(self) -> None:
        assert self._player is not None
        if self.think is not None:
            await self.think(self._plies + 1)
        token = self._player.next_ply()
        request = mpb.PlayRequest(
            match_id=self.match_id, token=self.token, ply=self._plies + 1, text=token
        )
        started = time.perf_counter()
        answer = await self._call(self.stub.Play, request)
        if answer is None:
            return
        if answer.HasField("illegal"):
            raise BotError(f"seat {self.seat}: the referee refused {token}: {answer.illegal}")
        self.round_trips.append(time.perf_counter() - started)
        accepted = answer.events[0].move if answer.events else None
        if self.key is not None and accepted is not None and accepted.head:
            signature = self.key.sign(ply_message(accepted.ply, accepted.head))
            await self._sign(accepted.ply, signature)

    async def _sign_result(self, ended: mpb.MatchEnded) -> None:
        seal = ended.record.seal
        if self.key is not None and seal.final_head:
            await self._sign(0, self.key.sign(final_message(seal.final_head)))

    async def _sign(self, ply: int, signature: bytes) -> None:
        request = mpb.SignRequest(
            match_id=self.match_id, token=self.token, ply=ply, signature=signature
        )
        answer = await self._call(self.stub.Sign, request)
        if answer is not None and answer.HasField("rejected"):
            raise BotError(f"seat {self.seat}: the signature was rejected: {answer.rejected}")

    async def _call(self, method: Any, request: Any) -> Any:
        """A call; None when refused because the match moved on (FAILED_PRECONDITION).

        A call over a limit is made again after the delay the server names.
        """
        while True:
            try:
                return await method(request, metadata=bearer(self.token))
            except grpc.aio.AioRpcError as error:
                delay = retry_delay(error)
                if delay is not None:
                    await asyncio.sleep(delay)
                    continue
                if error.code() is grpc.StatusCode.FAILED_PRECONDITION:
                    return None
                if error.code() in RETRIED:
                    raise
                message = f"seat {self.seat}: {error.code().name}: {error.details()}"
                raise BotError(message) from None
