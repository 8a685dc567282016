"""A seat at a match: the calls a person's screen makes, on a server or in this process.

A :class:`Table` is what ``gamerec play`` needs of a match, in MatchService's own terms
(docs/live.md): the events from a number on, the state (``GetMatch``, with the decisions
already made this turn), and the seat's commands. Two kinds:

- :class:`~gamerec.validator.service.seat_table.ServerTable`: a seat in a live match on a
  ``gamerec serve --matches`` server, over gRPC (in ``validator/service``, where gRPC lives);
  its token proves the seat. Leaving it leaves the match going on.
- :class:`LocalTable`: a match refereed in this process by the server's own referee
  (:class:`~gamerec.validator.live.referee.Referee` on a store in a temporary folder, the
  system clock, the flags on its timer), the person's seat against bots in the others.
  Leaving a match that is not over calls it off (there is no one to come back to it).

A bot is a :class:`~gamerec.validator.players.movers.Mover`: a built-in policy (``random``,
``greedy``) or an engine process speaking docs/engine-protocol.md. It is asked for its ply
with the whole game so far and the clocks; an illegal answer is told to it and it is asked
again; an engine that fails its turn resigns. Bots decline draw offers.
"""

from __future__ import annotations

import asyncio
import contextlib
import shutil
import tempfile
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Final, Protocol

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.live.clocks import Clock, Instant, SystemClock
from gamerec.validator.live.match import ADMIN, CommandRefusedError, Match, Outcome
from gamerec.validator.live.store import StoreError
from gamerec.validator.live.timecontrol import parse_time_control
from gamerec.validator.players.clocks import clock_state
from gamerec.validator.players.faults import EngineFailedError
from gamerec.validator.players.host import EngineStoppedError
from gamerec.validator.players.movers import Choice, Mover

if TYPE_CHECKING:
    from gamerec.validator.live.referee import Referee

#: Refused moves in a row after which a bot resigns (as ``gamerec bot``'s seats do).
MAX_REFUSALS: Final = 10


class TableRefusedError(GamerecError):
    """A command the match refused (nothing changed).

    Attributes:
        reason: the stable code (``NOT_YOUR_TURN``, ``ABORT_TOO_LATE``, ``BAD_TOKEN``...).
    """

    def __init__(self, message: str, *, reason: str) -> None:
        """The refusal: its sentence and its code."""
        self.reason = reason
        super().__init__(message)


class TableLostError(GamerecError):
    """The server cannot be reached (or failed); the call may be tried again."""


@dataclass(frozen=True, slots=True)
class PlayAnswer:
    """What became of a move sent.

    Attributes:
        events: the events it caused (the move first), empty when it was refused.
        illegal: the rules' finding when the move is illegal (the engine's sentence).
    """

    events: tuple[mpb.MatchEvent, ...] = ()
    illegal: vpb.Finding | None = None


class Table(Protocol):
    """One seat's side of a match (see the module docstring)."""

    match_id: str
    seat: int

    def events(self, from_event: int) -> AsyncIterator[mpb.MatchEvent]:
        """The match's events from ``from_event`` on, each as it comes, to the match's end."""
        ...

    async def state(self, decided: Sequence[str] = ()) -> mpb.MatchState:
        """The match now, with the legal decisions after ``decided`` (GetMatch)."""
        ...

    async def play(self, ply: int, text: str) -> PlayAnswer:
        """Play ``text`` (a move token) for ``ply``."""
        ...

    async def resign(self) -> None:
        """Resign."""
        ...

    async def offer_draw(self) -> None:
        """Offer a draw (accepting one on offer)."""
        ...

    async def answer_draw(self, accept: bool) -> None:
        """Accept or decline the draw on offer."""
        ...

    async def abort(self) -> None:
        """Call the match off (until every seat has moved)."""
        ...

    async def leave(self) -> None:
        """Stop using the table (see the module docstring for what becomes of the match)."""
        ...


# -- a match in this process --------------------------------------------------------------------


@dataclass
class LocalTable:
    """A match refereed in this process (see the module docstring); :meth:`start` makes one.

    Attributes:
        referee: the referee (its store in ``folder``).
        match_id: the match.
        seat: the person's seat.
        movers: the bot of every other seat.
        folder: the temporary folder of the store, removed by :meth:`close`.
        log: what the bots did that the match does not show (refused moves, an engine's fault).
    """

    referee: Referee
    match_id: str
    seat: int
    movers: dict[int, Mover]
    folder: Path
    log: list[str] = field(default_factory=list)
    _bots: list[asyncio.Task[None]] = field(default_factory=list)

    @classmethod
    async def start(
        cls,
        request: mpb.CreateMatchRequest,
        seat: int,
        movers: Mapping[int, Mover],
        clock: Clock | None = None,
    ) -> LocalTable:
        """Create the match of ``request``, the person in ``seat``, ``movers`` in the others.

        The record is sealed and signed by a host key made for the match. Each mover's game
        is started (an engine's ``newgame``) before the first ply. ``clock``: the referee's
        (None: the system's; tests give a manual one).

        Raises:
            TableRefusedError: the request makes no match (an unknown variant, a bad clock), or
                an engine refuses the game.
            ValueError: the person's seat outside the match, or a seat with no mover.
        """
        from gamerec.recorder.signing import new_key, public_bytes  # noqa: PLC0415
        from gamerec.validator.live.referee import Referee  # noqa: PLC0415
        from gamerec.validator.live.sqlite_store import SQLiteMatchStore  # noqa: PLC0415

        others = set(range(1, len(request.seats) + 1)) - {seat}
        if seat not in range(1, len(request.seats) + 1) or set(movers) != others:
            raise ValueError(f"seat {seat} is the person's; seats {sorted(others)} need movers")
        folder = Path(tempfile.mkdtemp(prefix="gamerec-play-"))
        host = new_key()
        store = await SQLiteMatchStore(folder / "match.db").open(public_bytes(host))
        referee = Referee(store, clock or SystemClock(), host)
        await referee.start()
        table = cls(referee, "", seat, dict(movers), folder)
        try:
            created = await referee.create(request)
            table.match_id = created.match_id
            for other, mover in movers.items():
                await mover.start(created.created.created.record, other)
        except (CommandRefusedError, EngineFailedError) as error:
            await table.close()
            reason = error.reason if isinstance(error, CommandRefusedError) else "ENGINE_FAILED"
            raise TableRefusedError(str(error), reason=reason) from None
        table._bots = [
            asyncio.create_task(table._run_bot(other, mover), name=f"gamerec-play-bot-{other}")
            for other, mover in movers.items()
        ]
        return table

    async def events(self, from_event: int) -> AsyncIterator[mpb.MatchEvent]:
        """See :class:`Table`."""
        async for event in await self.referee.watch(self.match_id, from_event):
            yield event

    async def state(self, decided: Sequence[str] = ()) -> mpb.MatchState:
        """See :class:`Table`."""
        try:
            return await self.referee.state(self.match_id, decided)
        except CommandRefusedError as error:
            raise TableRefusedError(str(error), reason=error.reason) from None

    async def play(self, ply: int, text: str) -> PlayAnswer:
        """See :class:`Table`."""
        outcome = await self._command(lambda match, at: match.play(self.seat, ply, text, at))
        return PlayAnswer(tuple(entry.event for entry in outcome.events), outcome.finding)

    async def resign(self) -> None:
        """See :class:`Table`."""
        await self._command(lambda match, at: match.resign(self.seat, at))

    async def offer_draw(self) -> None:
        """See :class:`Table`."""
        await self._command(lambda match, at: match.offer_draw(self.seat, at))

    async def answer_draw(self, accept: bool) -> None:
        """See :class:`Table`."""
        await self._command(lambda match, at: match.answer_draw(self.seat, accept, at))

    async def abort(self) -> None:
        """See :class:`Table`."""
        await self._command(lambda match, at: match.abort(self.seat, at))

    async def leave(self) -> None:
        """Call the match off if it is not over, and stop the bots (:meth:`close` after)."""
        with contextlib.suppress(TableRefusedError):
            await self._command(lambda match, at: match.abort(ADMIN, at))
        await self._stop_bots()

    async def close(self) -> None:
        """Stop the bots and the referee; remove the store."""
        await self._stop_bots()
        await self.referee.stop()
        shutil.rmtree(self.folder, ignore_errors=True)

    async def _stop_bots(self) -> None:
        for task in self._bots:
            task.cancel()
        for task in self._bots:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    async def _command(self, command: Callable[[Match, Instant], Outcome]) -> Outcome:
        """Run a command of the match now (a seat's or the admin's)."""
        at = self.referee.clock.now()
        try:
            return await self.referee.command(self.match_id, command, at)
        except CommandRefusedError as error:
            raise TableRefusedError(str(error), reason=error.reason) from None
        except StoreError as error:  # nothing changed; the command may be tried again
            raise TableLostError(f"the match's store failed: {error}") from None

    async def _run_bot(self, seat: int, mover: Mover) -> None:
        """Follow the match; play the seat's plies on its turns; decline draws; end its game."""
        tokens: list[str] = []
        to_move = 1
        async for event in self.events(1):
            kind = event.WhichOneof("kind")
            if kind == "move":
                tokens.append(event.move.token)
                to_move = event.move.to_move
            elif kind == "draw_offered" and event.draw_offered.seat != seat:
                with contextlib.suppress(TableRefusedError):
                    await self._command(lambda match, at: match.answer_draw(seat, False, at))
            elif kind == "ended":
                with contextlib.suppress(EngineFailedError, EngineStoppedError):  # it failed
                    await mover.finish(event.ended.record)
                return
            if to_move == seat and kind in ("created", "move"):
                await self._bot_turn(seat, mover, tokens)

    async def _bot_turn(self, seat: int, mover: Mover, tokens: list[str]) -> None:
        """Ask the mover for its ply (telling it why one was refused); resign if it fails."""
        for _ in range(MAX_REFUSALS):
            state = await self.referee.state(self.match_id)
            clocks = [clock.ToMilliseconds() for clock in state.clocks]
            try:
                choice = await mover.choose(
                    tokens, clock_state(parse_time_control(state.time_control), clocks, seat)
                )
            except EngineFailedError as failure:
                await self._bot_resigns(seat, state.plies + 1, failure.fault.describe())
                return
            try:
                outcome = await self._bot_plays(seat, state.plies + 1, choice)
            except TableRefusedError:
                return  # the match moved on (a flag, an abort): its events tell the rest
            if outcome.finding is None or outcome.events:
                return
            reason = f"the move {choice.token} is illegal: {outcome.finding.code}: "
            reason += outcome.finding.message
            self.log.append(f"seat {seat}, ply {state.plies + 1}: {reason}")
            await mover.refused(reason)
        await self._bot_resigns(seat, len(tokens) + 1, f"{MAX_REFUSALS} illegal moves in a row")

    async def _bot_plays(self, seat: int, ply: int, choice: Choice) -> Outcome:
        """Play a mover's choice, its search information as the move's comment."""
        return await self._command(
            lambda match, at: match.play(seat, ply, choice.token, at, comment=choice.comment)
        )

    async def _bot_resigns(self, seat: int, ply: int, why: str) -> None:
        self.log.append(f"seat {seat}, ply {ply}: the engine failed its turn and resigns: {why}")
        with contextlib.suppress(TableRefusedError):
            await self._command(lambda match, at: match.resign(seat, at))
