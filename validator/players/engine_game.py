"""One game between engines, refereed by the live match core: the game of a tournament.

:func:`play_engine_game` seats one player per seat (an :class:`EngineProcess`, or any
:class:`~gamerec.validator.players.movers.Mover`), starts the game on each (``newgame``), and
asks the seat to move for its move (``position`` and ``go``) until the game ends. The referee
is a live :class:`~gamerec.validator.live.match.Match`, the same code and clocks as the match
service's: every answer is judged the moment it comes, the clocks are the match's time control
on the given :class:`~gamerec.validator.live.clocks.Clock` (each engine gets its
:class:`ClockState` from them), and the record it returns carries ``[%clk]`` and ``[%ts]`` on
every ply, the engines' ``info`` as move comments, and validates as it stands.

How a game ends:

- **by the rules**: the record claims the rules' result (termination ``normal`` or
  ``resignation``);
- **by a forfeit**: the seat to move fails its move (any :class:`EngineFault`, an illegal move
  included). The game ends there, as the live match service ends it under its forfeit policy
  (``Match.forfeit``): the record stops after the last legal ply, the seat that failed ranks
  last, the others keep the standing of the position reached, and ``Winner`` names the best of
  them (with two seats: the other seat). The record format has no forfeit termination; the one
  that fits is used (docs/engine-protocol.md, "Faults"), as PGN tools and cutechess-cli do:
  ``timeout`` when the seat ran out of time (``ENGINE_TIMEOUT``, or a move that came after
  the match's flag fell), ``abandoned`` when its engine left the game (``ENGINE_EXITED``,
  ``ENGINE_NOT_STARTED``), ``adjudicated`` for every breach of the rules or of the protocol
  (PGN's "rules infraction"). The game's comment says who forfeited and why, in the fault's own
  sentence;
- **stopped by the referee** (``Match.stop``), with termination ``adjudicated``, result ``*``
  and no winner, when the game cannot end (every ply since a position came back was forced: a
  cycle, as Oh-Wah-Ree with four seats can run) or reaches ``max_plies``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.grn_tags import read_tag
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games import engine
from gamerec.validator.games.protocol import Engine, GameState
from gamerec.validator.generation import variant_options
from gamerec.validator.identity import identify
from gamerec.validator.live.clocks import Clock, SystemClock
from gamerec.validator.live.match import Match, Outcome
from gamerec.validator.live.timecontrol import ClockKind, TimeControl, parse_time_control
from gamerec.validator.players.clocks import clock_state
from gamerec.validator.players.faults import EngineFailedError, EngineFault, FaultCode
from gamerec.validator.players.host import EngineProcess, EngineStoppedError
from gamerec.validator.players.movers import EngineMover, Mover

#: The per-move limit when the caller gives no time control.
DEFAULT_MOVE_TIME_MS: Final = 10_000
#: The plies after which the referee stops a game (far beyond any real game of the four).
DEFAULT_MAX_PLIES: Final = 5_000
#: The termination a forfeit writes, by the fault's code (``adjudicated`` for the others).
FORFEIT_TERMINATIONS: Final = {
    FaultCode.TIMEOUT: "timeout",
    FaultCode.EXITED: "abandoned",
    FaultCode.NOT_STARTED: "abandoned",
}
_TERMINATION_VALUES: Final = {
    "timeout": pb.TERMINATION_TIMEOUT,
    "abandoned": pb.TERMINATION_ABANDONED,
    "adjudicated": pb.TERMINATION_ADJUDICATED,
}


@dataclass(frozen=True, slots=True)
class Forfeit:
    """A seat that lost the game by failing its move.

    Attributes:
        seat: the seat (1-based).
        ply: the ply it failed to make (0: it failed before the game started).
        engine: its engine's name.
        fault: what went wrong.
        termination: the record's termination (``timeout``, ``abandoned``, ``adjudicated``).
    """

    seat: int
    ply: int
    engine: str
    fault: EngineFault
    termination: str

    def sentence(self) -> str:
        """``Seat 2 (gamerec random) forfeits at ply 17: ENGINE_EXITED during go ...``."""
        when = f"at ply {self.ply}" if self.ply else "before the first ply"
        return f"Seat {self.seat} ({self.engine}) forfeits {when}: {self.fault.describe()}"


@dataclass(frozen=True, slots=True)
class EngineGame:
    """A game the engines played.

    Attributes:
        record: the record, refereed ply by ply (it validates as it stands).
        forfeit: the seat that forfeited, if one did.
        stopped: why the referee stopped a game that would not end, or ``""``.
        log: what happened on the way, one line each: ignored ``info``, the forfeit, the stop.
        ended: how the match ended, as the match service's ``ended`` event says it.
    """

    record: pb.GameRecord
    forfeit: Forfeit | None = None
    stopped: str = ""
    log: tuple[str, ...] = ()
    ended: mpb.MatchEnded | None = None


def match_request(
    game: str,
    variant: Mapping[str, str] | None,
    names: Sequence[str],
    time_control: str,
    **metadata: str,
) -> mpb.CreateMatchRequest:
    """The CreateMatch request of a game between ``names`` (a tournament's games, local or not).

    Raises:
        VariantError: an unknown game or variant.
        GamerecError: not as many names as the game has seats.
    """
    rules = engine(game)
    parsed = rules.variant_from_tags(variant_options(rules.name, variant or {}))
    seats = rules.new_game(parsed).seats
    if len(names) != seats:
        raise GamerecError(f"the game has {seats} seats, but {len(names)} players were given")
    record = pb.GameRecord()
    read_tag(record, "Game", rules.name)
    for tag, value in {"Players": str(seats), **rules.variant_tags(parsed)}.items():
        read_tag(record, tag, value)
    record.rules.SetInParent()
    return mpb.CreateMatchRequest(
        rules=record.rules,
        seats=[mpb.MatchSeat(name=name) for name in names],
        time_control=time_control,
        illegal_move_policy=mpb.ILLEGAL_MOVE_POLICY_REJECT,
        event=metadata.get("event", ""),
        site=metadata.get("site", ""),
        round=metadata.get("round", ""),
    )


async def play_engine_game(
    players: Sequence[EngineProcess | Mover],
    game: str,
    variant: Mapping[str, str] | None = None,
    *,
    time_control: str = "",
    move_time_ms: int = DEFAULT_MOVE_TIME_MS,
    clock: Clock | None = None,
    opening: Sequence[str] = (),
    max_plies: int = DEFAULT_MAX_PLIES,
    match_id: str = "local",
    client: str = "gamerec engine game",
    **metadata: str,
) -> EngineGame:
    """Play one game of ``game`` with ``players[k]`` in seat k+1 (see the module docstring).

    Args:
        players: one player per seat, in seat order; engine processes must all differ.
        game: the game, in any spelling.
        variant: its GRN variant tags (``{"Players": "3"}``); a missing tag is the default.
        time_control: the match's time control (docs/live.md); empty: ``move_time_ms`` for
            every move (``10/move``).
        move_time_ms: the time of every move when no time control is given.
        clock: the referee's clock (default: the system's).
        opening: plies played first, as tokens, before the players are asked (each with the
            comment ``opening``).
        max_plies: the referee stops the game after this many plies.
        match_id: the match's id (for its events).
        client: the record's ``Client`` tag.
        **metadata: the record's ``event``, ``site`` and ``round``.

    Raises:
        VariantError: an unknown game or variant.
        TimeControlError: a time control not in the notation.
        GamerecError: not one player per seat, the same process twice, or an opening ply
            that is not legal.
    """
    movers = [EngineMover(p) if isinstance(p, EngineProcess) else p for p in players]
    _check_players(movers)
    control = parse_time_control(time_control) if time_control else per_move(move_time_ms)
    request = match_request(
        game, variant, [mover.name for mover in movers], control.notation, **metadata
    )
    clock = clock or SystemClock()
    match = Match.create(match_id, request, clock.now(), client=client, max_plies=max_plies + 1)
    referee = _Referee(match, movers, clock, control)
    record = match.record
    for seat, mover in enumerate(movers, start=1):
        try:
            await mover.start(record, seat)
        except EngineFailedError as failure:
            return await referee.forfeit(seat, failure.fault)
    referee.play_opening(opening)
    return await referee.play(max_plies)


def per_move(milliseconds: int) -> TimeControl:
    """The time control that gives every move ``milliseconds`` (``10/move``)."""
    return TimeControl(ClockKind.PER_MOVE, milliseconds)


def _check_players(movers: Sequence[Mover]) -> None:
    processes = [id(m.engine) for m in movers if isinstance(m, EngineMover)]
    if len(set(processes)) != len(processes):
        raise GamerecError("every seat needs an engine process of its own")


class _Referee:
    """One game under way: the match, the players, and what the log has to say."""

    def __init__(
        self, match: Match, movers: Sequence[Mover], clock: Clock, control: TimeControl
    ) -> None:
        self.match = match
        self.movers = movers
        self.clock = clock
        self.control = control
        identity = identify(match.record)
        self.rules: Engine[Any, Any] = identity.engine
        self.variant = identity.variant
        self.tokens: list[str] = []
        self.log: list[str] = []
        self.forced: set[str] = set()

    def play_opening(self, opening: Sequence[str]) -> None:
        """Play the opening's plies for the seats to move (checked by the referee)."""
        for token in opening:
            seat, ply = self.match.to_move, self.match.plies + 1
            if not seat:
                raise GamerecError(f"the opening goes on after the game ended at ply {ply - 1}")
            outcome = self.match.play(seat, ply, token, self.clock.now(), comment="opening")
            if outcome.finding is not None:
                finding = outcome.finding
                raise GamerecError(
                    f"the opening's ply {ply} {token!r} is illegal: {finding.code}: "
                    f"{finding.message}"
                )
            self.tokens.append(outcome.events[0].event.move.token)

    async def play(self, max_plies: int) -> EngineGame:
        """Ask for moves until the game ends, a seat forfeits, or the referee stops it."""
        match = self.match
        while match.is_open:
            state = match.position()
            stop = self._reason_to_stop(state, max_plies)
            if stop:
                match.stop(stop, self.clock.now())
                self.log.append(match.record.comment)
                return await self._finish(stopped=match.record.comment)
            seat = match.to_move
            forfeit = await self._turn(seat)
            if forfeit is not None:
                return forfeit
            self._note_forced(state, self.tokens[-1])
        return await self._finish()

    async def _turn(self, seat: int) -> EngineGame | None:
        """Ask the seat to move for its ply and referee it; the game when it ends in a forfeit."""
        match = self.match
        ply = match.plies + 1
        state = clock_state(self.control, match.clocks_ms(self.clock.now()), seat)
        try:
            choice = await self.movers[seat - 1].choose(self.tokens, state)
        except EngineFailedError as failure:
            return await self.forfeit(seat, failure.fault)
        self.log += [f"seat {seat}, ply {ply}: {warning}" for warning in choice.warnings]
        outcome = match.play(seat, ply, choice.token, self.clock.now(), comment=choice.comment)
        if outcome.finding is not None:
            finding = outcome.finding
            fault = EngineFault(
                FaultCode.ILLEGAL_MOVE,
                f"the move {choice.token} is illegal: {finding.code}: {finding.message}",
                "go",
                ply=ply,
                line=f"move {choice.token}",
                reason=finding.code,
            )
            return await self.forfeit(seat, fault)
        if outcome.refusal is not None:  # the flag fell before the move came
            return await self._flagged(seat, ply, outcome)
        self.tokens.append(outcome.events[0].event.move.token)
        return None

    async def _flagged(self, seat: int, ply: int, outcome: Outcome) -> EngineGame:
        fault = EngineFault(
            FaultCode.TIMEOUT, "the move came after the seat's time ran out", "go", ply=ply
        )
        ended = outcome.events[-1].event.ended
        forfeit = Forfeit(seat, ply, self.movers[seat - 1].name, fault, "timeout")
        self.log.append(f"{forfeit.sentence()} ({ended.reason})")
        return await self._finish(forfeit=forfeit)

    def _reason_to_stop(self, state: GameState[Any], max_plies: int) -> str:
        """Why the referee stops the game before this ply, or ``""``."""
        plies = self.match.plies
        if plies >= max_plies:
            return f"stopped by the referee after ply {plies}: the game's limit of {max_plies}"
        if state.digest() in self.forced:
            return (
                f"stopped by the referee after ply {plies}: the position came back and every "
                "ply since was forced, so the game would repeat for ever"
            )
        return ""

    def _note_forced(self, before: GameState[Any], token: str) -> None:
        """Remember the position before a forced ply; forget them all after a choice."""
        move = self.rules.parse_move(self.variant, token)
        forced = len(before.legal_moves()) == 1 and self.rules.first_decision(move) == move
        if forced:
            self.forced.add(before.digest())
        else:
            self.forced.clear()

    async def forfeit(self, seat: int, fault: EngineFault) -> EngineGame:
        """End the game: ``seat`` failed its move (see the module docstring)."""
        match = self.match
        termination = FORFEIT_TERMINATIONS.get(fault.code, "adjudicated")
        forfeit = Forfeit(seat, fault.ply, self.movers[seat - 1].name, fault, termination)
        now = self.clock.now()
        flagged = match.flag(now) if fault.code is FaultCode.TIMEOUT else Outcome()
        if not flagged.events:
            match.forfeit(seat, _TERMINATION_VALUES[termination], forfeit.sentence(), now)
        self.log.append(forfeit.sentence())
        mover = self.movers[seat - 1]
        if _still_running(mover):
            with contextlib.suppress(EngineFailedError, EngineStoppedError):
                await mover.refused(fault.message)
        return await self._finish(forfeit=forfeit)

    async def _finish(self, forfeit: Forfeit | None = None, stopped: str = "") -> EngineGame:
        """Tell every player still running that the game is over (``gameover``)."""
        record = self.match.record
        for seat, mover in enumerate(self.movers, start=1):
            if not _still_running(mover):
                continue
            try:
                await mover.finish(record)
            except (EngineFailedError, EngineStoppedError) as error:
                self.log.append(f"seat {seat}: gameover was not read: {error}")
        return EngineGame(record, forfeit, stopped, tuple(self.log), self.match.ended)


def _still_running(mover: Mover) -> bool:
    return not isinstance(mover, EngineMover) or mover.engine.running
