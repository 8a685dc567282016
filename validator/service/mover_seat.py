"""A seat on a match server played by a :class:`Mover`: what ``gamerec bot`` runs.

:class:`MoverSeat` is the match client's :class:`SeatBot` (watch from the last event seen,
retry through a lost connection or a server restart, sign each ply and the result) with the
choice of the move handed to a mover: an engine process speaking docs/engine-protocol.md, or
a built-in policy. On top of the seat bot it

- starts the mover's game at ``created`` (``newgame`` with the match's rules, variant, time
  control and seat) and ends it at ``ended`` (``gameover``);
- asks for each move with the whole game so far and the clocks as the server last gave them,
  less the time since that event arrived (``go clock ...``), so an engine plans with what it
  really has left;
- under the match's ``REJECT`` policy, tells the engine why a move was refused (``error``)
  and asks again, its clock running, as the server allows;
- resigns the match when the engine fails its turn (a crash, a hang past its time, garbage):
  the engine cannot go on, and a resignation ends the match now instead of at the flag.

The engine's ``info`` is not sent: ``Play`` has no field for a move comment.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Final

from google.protobuf import duration_pb2

from gamerec.recorder.seal import ply_message
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.timecontrol import NO_CLOCK, TimeControl, parse_time_control
from gamerec.validator.players.clocks import ClockState, clock_state
from gamerec.validator.players.faults import EngineFailedError
from gamerec.validator.players.host import EngineStoppedError
from gamerec.validator.players.movers import Mover
from gamerec.validator.service.match_client import BotError, SeatBot

#: Refused moves in a row after which the seat resigns (an engine that cannot find a legal one).
MAX_REFUSALS: Final = 10


@dataclass
class MoverSeat(SeatBot):
    """A seat played by ``mover`` (see the module docstring; the other fields: SeatBot's).

    Attributes:
        mover: who chooses the moves.
        log: what happened on the way, a line each (refusals, the engine's fault).
    """

    mover: Mover | None = None
    log: list[str] = field(default_factory=list)
    _tokens: list[str] = field(default_factory=list)
    _clocks_ms: list[int] = field(default_factory=list)
    _clocks_at: float = 0.0
    _control: TimeControl = NO_CLOCK
    _started: bool = False

    async def _take(self, event: mpb.MatchEvent) -> mpb.MatchEnded | None:
        """Keep the game and the clocks, start and end the mover's game; then the seat bot's."""
        kind = event.WhichOneof("kind")
        if kind == "created":
            await self._start(event.created)
        elif kind == "move":
            self._tokens.append(event.move.token)
            self._set_clocks(event.move.clocks)
        elif kind == "outage":
            self._clocks_at = time.monotonic()  # the server charged the downtime to no one
        ended = await super()._take(event)
        if ended is not None and self._started:
            self._started = False
            with contextlib.suppress(EngineFailedError, EngineStoppedError):
                await self._mover().finish(ended.record)  # an engine that failed hears nothing
        return ended

    async def _start(self, created: mpb.MatchCreated) -> None:
        self._control = parse_time_control(created.time_control)
        self._set_clocks(created.clocks)
        if not self._started:
            try:
                await self._mover().start(created.record, self.seat)
            except EngineFailedError as failure:
                self.log.append(f"the engine cannot play this match: {failure.fault.describe()}")
                raise BotError(self.log[-1]) from None
            self._started = True

    def _set_clocks(self, clocks: Iterable[duration_pb2.Duration]) -> None:
        self._clocks_ms = [clock.ToMilliseconds() for clock in clocks]
        self._clocks_at = time.monotonic()

    def _mover(self) -> Mover:
        if self.mover is None:
            raise BotError("a seat needs a mover (an engine or a policy)")
        return self.mover

    async def _move(self) -> None:
        """Ask the mover, play its move, sign the ply; tell it of a refusal and ask again."""
        mover = self._mover()
        for _ in range(MAX_REFUSALS):
            if self.think is not None:
                await self.think(self._plies + 1)
            try:
                choice = await mover.choose(self._tokens, self._clock_now())
            except EngineFailedError as failure:
                await self._resign(failure.fault.describe())
                return
            answer = await self._call(
                self.stub.Play,
                mpb.PlayRequest(
                    match_id=self.match_id, token=self.token, ply=self._plies + 1, text=choice.token
                ),
            )
            if answer is None or not answer.HasField("illegal"):
                await self._accepted(answer)
                return
            finding = answer.illegal
            reason = f"the move {choice.token} is illegal: {finding.code}: {finding.message}"
            self.log.append(f"ply {self._plies + 1}: {reason}")
            if answer.events:  # the FORFEIT policy: the match is over
                return
            await mover.refused(reason)
        await self._resign(f"{MAX_REFUSALS} illegal moves in a row")

    def _clock_now(self) -> ClockState:
        clocks = list(self._clocks_ms)
        if clocks and self._to_move:
            spent = int((time.monotonic() - self._clocks_at) * 1000)
            clocks[self._to_move - 1] -= spent
        return clock_state(self._control, clocks, self.seat)

    async def _accepted(self, answer: mpb.PlayResponse | None) -> None:
        if answer is None:
            return
        accepted = answer.events[0].move if answer.events else None
        if self.key is not None and accepted is not None and accepted.head:
            await self._sign(accepted.ply, self.key.sign(ply_message(accepted.ply, accepted.head)))

    async def _resign(self, why: str) -> None:
        self.log.append(f"ply {self._plies + 1}: the engine failed its turn and resigns: {why}")
        await self._call(
            self.stub.Resign, mpb.ResignRequest(match_id=self.match_id, token=self.token)
        )
