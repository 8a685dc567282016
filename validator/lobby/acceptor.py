"""The bot that takes the lobby's open challenges it can play, and plays them (``--accept-any``).

:class:`Acceptor` looks at the open challenges every :data:`POLL_SECONDS` while it has room
(at most ``most`` matches at once), takes a free seat of the oldest challenge whose game and
seat count its player plays (a challenge it already holds a seat of is left alone: it never
plays itself), waits with its token for the table to fill, and plays the match as
``gamerec bot`` plays one (:class:`~gamerec.validator.service.mover_seat.MoverSeat`, one
mover each: an engine process per match). A seat taken by someone else first is passed over.
A challenge that closes before it fills (cancelled, expired) frees its room. It stops after
``games`` matches (0: never), or when its stop event is set: then it leaves the tables that
have not filled yet (their seats stay taken until they expire) and plays out the matches
it is in.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

import grpc
import grpc.aio

from gamerec.recorder.notation import game_label
from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import lobby_pb2_grpc as lgrpc
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.players.movers import Mover
from gamerec.validator.service.match_client import BotError
from gamerec.validator.service.mover_seat import MoverSeat

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

#: Seconds between two looks at the lobby (for challenges to take, for a table to fill).
POLL_SECONDS: Final = 0.5
#: Codes of a TakeSeat that someone else won, or of a challenge gone meanwhile: passed over.
PASSED_OVER: Final = (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.NOT_FOUND)

#: Whether the player plays a game (its canonical name) with this many seats.
Plays = Callable[[str, int], bool]
#: A new mover for one match (an engine process started for it, stopped after).
MoverFactory = Callable[[], AbstractAsyncContextManager[Mover]]


@dataclass(frozen=True, slots=True)
class Played:
    """A match the acceptor played: its id, its seat, how it ended."""

    match_id: str
    seat: int
    ended: mpb.MatchEnded


@dataclass
class Acceptor:
    """Takes open challenges it can play and plays them (see the module docstring).

    Attributes:
        channel: an asyncio channel to the server.
        player: the seat it takes (name, platform id, public key).
        plays: which games and seat counts it plays.
        movers: makes the mover of each match.
        most: matches at once.
        games: matches to play before it stops (0: never).
        key: signs its plies and the results; None: no signing.
        say: called with a line for each thing that happens (taken, started, ended).
    """

    channel: grpc.aio.Channel
    player: mpb.MatchSeat
    plays: Plays
    movers: MoverFactory
    most: int = 1
    games: int = 0
    key: Ed25519PrivateKey | None = None
    say: Callable[[str], None] = print
    played: list[Played] = field(default_factory=list)
    _mine: set[str] = field(default_factory=set)
    _running: set[asyncio.Task[None]] = field(default_factory=set)
    _taken: int = 0
    _stopping: bool = False

    async def run(self, stop: asyncio.Event | None = None) -> list[Played]:
        """Take and play until ``games`` matches are played or ``stop`` is set.

        Raises:
            grpc.aio.AioRpcError: the lobby refused a call for another reason than a seat
                taken first (no lobby on the server, a wrong token).
        """
        stop = stop or asyncio.Event()
        lobby = lgrpc.LobbyServiceStub(self.channel)
        try:
            while not stop.is_set() and not self._done():
                if len(self._running) < self.most and self._wanted():
                    await self._take_one(lobby)
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), POLL_SECONDS)
                self._reap()
            self._stopping = True
            if self._running:
                await asyncio.gather(*self._running)
        finally:
            for task in self._running:
                task.cancel()
        self._reap()
        return self.played

    def _done(self) -> bool:
        return bool(self.games) and len(self.played) >= self.games and not self._running

    def _wanted(self) -> bool:
        """Whether another seat may be taken (the matches asked for are not all taken)."""
        return not self.games or self._taken < self.games

    def _reap(self) -> None:
        for task in [task for task in self._running if task.done()]:
            self._running.discard(task)
            task.result()  # a bug in a seat's task ends the run

    async def _take_one(self, lobby: lgrpc.LobbyServiceAsyncStub) -> None:
        """Take a seat of the oldest challenge that fits, if any; play it in a task."""
        listed = await lobby.ListChallenges(lpb.ListChallengesRequest(), timeout=30)
        for challenge in listed.challenges:
            if challenge.challenge_id in self._mine or not self._fits(challenge):
                continue
            try:
                taken = await lobby.TakeSeat(
                    lpb.TakeSeatRequest(challenge_id=challenge.challenge_id, player=self.player),
                    timeout=30,
                )
            except grpc.aio.AioRpcError as error:
                if error.code() in PASSED_OVER:
                    continue
                raise
            self._mine.add(challenge.challenge_id)
            self._taken += 1
            seat = taken.challenge.your_seat
            self.say(
                f"took seat {seat} of challenge {challenge.challenge_id} "
                f"({game_label(challenge.rules.game)}, {len(challenge.seats)} seats)"
            )
            task = asyncio.create_task(self._seat(lobby, taken))
            self._running.add(task)
            return

    def _fits(self, challenge: lpb.Challenge) -> bool:
        return self.plays(str(game_label(challenge.rules.game)), len(challenge.seats))

    async def _seat(self, lobby: lgrpc.LobbyServiceAsyncStub, taken: lpb.TakeSeatResponse) -> None:
        """Wait for the table to fill, then play the seat to the match's end."""
        challenge = await self._filled(lobby, taken)
        if challenge is None:
            self._taken -= 1
            return
        self.say(f"match {challenge.match_id}: playing seat {challenge.your_seat}")
        async with self.movers() as mover:
            seat = MoverSeat(
                mgrpc.MatchServiceStub(self.channel),
                challenge.match_id,
                taken.token,
                challenge.your_seat,
                key=self.key,
                mover=mover,
            )
            try:
                ended = await seat.run()
            except BotError as error:
                self.say(f"match {challenge.match_id}: {error}")
                self._taken -= 1
                return
        self.played.append(Played(challenge.match_id, challenge.your_seat, ended))
        self.say(f"match {challenge.match_id}: {ended.reason}")

    async def _filled(
        self, lobby: lgrpc.LobbyServiceAsyncStub, taken: lpb.TakeSeatResponse
    ) -> lpb.Challenge | None:
        """The challenge once its match started; None when it closed first."""
        challenge = taken.challenge
        while not challenge.match_id:
            if challenge.status not in (lpb.CHALLENGE_STATUS_OPEN, lpb.CHALLENGE_STATUS_FULL):
                self.say(f"challenge {challenge.challenge_id} closed before it filled")
                return None
            if self._stopping:
                self.say(f"challenge {challenge.challenge_id} left before it filled")
                return None
            await asyncio.sleep(POLL_SECONDS)
            answer = await lobby.ListChallenges(
                lpb.ListChallengesRequest(token=taken.token), timeout=30
            )
            (challenge,) = answer.challenges
        return challenge


@contextlib.asynccontextmanager
async def fixed(mover: Mover) -> AsyncIterator[Mover]:
    """A mover factory's answer that is always ``mover`` (a policy needs no process)."""
    yield mover
