"""One game between engine processes, refereed by the rules engines: the seed of tournaments.

:func:`play_engine_game` seats one :class:`EngineProcess` per seat, starts the game on each
(``newgame``), asks the seat to move for its move (``position`` and ``go``) until the game
ends, and checks every answer with the rules as it comes (the :class:`RecordBuilder`), so the
record it returns validates as it stands. The moves carry the engines' ``info`` as comments
(``search_info``). The same processes can play any number of games one after another.

How a game ends:

- **by the rules**: the record claims the rules' result (termination ``normal`` or
  ``resignation``);
- **by a forfeit**: the seat to move fails its move (any :class:`EngineFault`, an illegal
  move included). The game ends there, as the live match service ends it under its forfeit
  policy: the record stops after the last legal ply, the seat that failed ranks last, the
  others keep the standing of the position reached, and ``Winner`` names the best of them
  (with two seats: the other seat). The record format has no forfeit termination; the one
  that fits is used (docs/engine-protocol.md, "Faults"), as PGN tools and cutechess-cli do:
  ``timeout`` when the seat ran out of time (``ENGINE_TIMEOUT``), ``abandoned`` when its
  engine left the game (``ENGINE_EXITED``, ``ENGINE_NOT_STARTED``), ``adjudicated`` for every
  breach of the rules or of the protocol (PGN's "rules infraction"). The game's comment says
  who forfeited and why, in the fault's own sentence;
- **stopped by the referee**, with termination ``adjudicated``, result ``*`` and no winner,
  when the game cannot end (every ply since a position came back was forced: a cycle, as
  Oh-Wah-Ree with four seats can run) or reaches ``max_plies``.

Clocks: until the live match service's clock core lands, every move has the same plain
per-move limit (``move_time_ms``, GGP's play clock); :class:`ClockState` is what its clocks
will hand over instead.
"""

from __future__ import annotations

import contextlib
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, cast

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.builder import IllegalPlyError, RecordBuilder
from gamerec.validator.games import engine
from gamerec.validator.games.protocol import Engine, GameState
from gamerec.validator.generation import variant_options
from gamerec.validator.judge import TERMINATION_WORDS
from gamerec.validator.players.clocks import ClockState
from gamerec.validator.players.faults import EngineFailedError, EngineFault, FaultCode
from gamerec.validator.players.host import EngineMove, EngineProcess, EngineStoppedError

#: The per-move limit when the caller gives none.
DEFAULT_MOVE_TIME_MS: Final = 10_000
#: The plies after which the referee stops a game (far beyond any real game of the four).
DEFAULT_MAX_PLIES: Final = 5_000
#: The termination a forfeit writes, by the fault's code (``adjudicated`` for the others).
FORFEIT_TERMINATIONS: Final = {
    FaultCode.TIMEOUT: "timeout",
    FaultCode.EXITED: "abandoned",
    FaultCode.NOT_STARTED: "abandoned",
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
    """

    record: pb.GameRecord
    forfeit: Forfeit | None = None
    stopped: str = ""
    log: tuple[str, ...] = ()


async def play_engine_game(
    players: Sequence[EngineProcess],
    game: str,
    variant: Mapping[str, str] | None = None,
    *,
    move_time_ms: int = DEFAULT_MOVE_TIME_MS,
    max_plies: int = DEFAULT_MAX_PLIES,
    **metadata: str,
) -> EngineGame:
    """Play one game of ``game`` with ``players[k]`` in seat k+1 (see the module docstring).

    Args:
        players: one running engine per seat, in seat order, each a different process.
        game: the game, in any spelling.
        variant: its GRN variant tags (``{"Players": "3"}``); a missing tag is the default.
        move_time_ms: the time every move may take.
        max_plies: the referee stops the game after this many plies.
        **metadata: the record's ``event``, ``site``, ``round``, ``date``, ``client``.

    Raises:
        VariantError: an unknown game or variant.
        GamerecError: not one engine process per seat.
    """
    rules = engine(game)
    parsed = rules.variant_from_tags(variant_options(rules.name, variant or {}))
    tags = {"Players": str(rules.new_game(parsed).seats), **rules.variant_tags(parsed)}
    _check_players(players, int(tags["Players"]))
    metadata.setdefault("client", "gamerec engine game")
    names = [player.identity.name for player in players]
    builder = RecordBuilder(rules.name, tags, seats=names, **cast(dict[str, Any], metadata))
    referee = _Referee(rules, parsed, players, builder)
    for seat, player in enumerate(players, start=1):
        try:
            await player.new_game(rules.name, tags, seat)
        except EngineFailedError as failure:
            return await referee.forfeit(seat, failure.fault)
    return await referee.play(ClockState(move_limit_ms=move_time_ms), max_plies)


def _check_players(players: Sequence[EngineProcess], seats: int) -> None:
    if len(players) != seats:
        raise GamerecError(f"the game has {seats} seats, but {len(players)} engines were given")
    if len({id(player) for player in players}) != seats:
        raise GamerecError("every seat needs an engine process of its own")


class _Referee:
    """One game under way: the record, the engines, and what the log has to say."""

    def __init__(
        self,
        rules: Engine[Any, Any],
        variant: Any,
        players: Sequence[EngineProcess],
        builder: RecordBuilder,
    ) -> None:
        self.rules = rules
        self.variant = variant
        self.players = players
        self.builder = builder
        self.tokens: list[str] = []
        self.log: list[str] = []
        self.forced: set[str] = set()

    async def play(self, clock: ClockState, max_plies: int) -> EngineGame:
        """Ask for moves until the game ends, a seat forfeits, or the referee stops it."""
        builder = self.builder
        while not builder.is_over:
            state = builder.state
            stop = self._reason_to_stop(state, max_plies)
            if stop:
                return await self._stop(stop)
            seat = state.to_move
            try:
                answer = await self.players[seat - 1].go(self.tokens, clock)
                self._play(seat, answer)
            except EngineFailedError as failure:
                return await self.forfeit(seat, failure.fault)
            self._note_forced(state, answer.token)
        return await self._finish(EngineGame(builder.record, log=tuple(self.log)))

    def _play(self, seat: int, answer: EngineMove) -> None:
        """Referee one answer: play it, or raise the ``ILLEGAL_MOVE`` fault."""
        ply = self.builder.plies + 1
        self.log += [f"seat {seat}, ply {ply}: {warning}" for warning in answer.warnings]
        try:
            self.builder.play(answer.token, comment=answer.info.comment())
        except IllegalPlyError as error:
            finding = error.finding
            fault = EngineFault(
                FaultCode.ILLEGAL_MOVE,
                f"the move {answer.token} is illegal: {finding.code}: {finding.message}",
                "go",
                ply=ply,
                line=f"move {answer.token}",
                reason=finding.code,
            )
            raise EngineFailedError(fault) from None
        self.tokens.append(answer.token)

    def _reason_to_stop(self, state: GameState[Any], max_plies: int) -> str:
        """Why the referee stops the game before this ply, or ``""``."""
        plies = self.builder.plies
        if plies >= max_plies:
            return f"Stopped by the referee after ply {plies}: the game's limit of {max_plies}."
        if state.digest() in self.forced:
            return (
                f"Stopped by the referee after ply {plies}: the position came back and every "
                "ply since was forced, so the game would repeat for ever."
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
        termination = FORFEIT_TERMINATIONS.get(fault.code, "adjudicated")
        player = self.players[seat - 1]
        forfeit = Forfeit(seat, fault.ply, player.identity.name, fault, termination)
        record = self.builder.stop(termination, winners=_best_others(self.builder.state, seat))
        record.result.unfinished.SetInParent()  # GRN writes Result "*"
        record.comment = forfeit.sentence()
        self.log.append(forfeit.sentence())
        if player.running:
            with contextlib.suppress(EngineFailedError, EngineStoppedError):
                await player.refuse(fault.message)
        return await self._finish(EngineGame(record, forfeit, log=tuple(self.log)))

    async def _stop(self, reason: str) -> EngineGame:
        record = self.builder.stop("adjudicated")
        record.result.unfinished.SetInParent()
        record.comment = reason
        self.log.append(reason)
        return await self._finish(EngineGame(record, stopped=reason, log=tuple(self.log)))

    async def _finish(self, played: EngineGame) -> EngineGame:
        """Tell every engine still running that the game is over (``gameover``)."""
        result = played.record.result
        scores = "-".join(map(str, result.scores.values)) if result.HasField("scores") else "*"
        termination = TERMINATION_WORDS[result.termination]
        log = list(played.log)
        for seat, player in enumerate(self.players, start=1):
            if not player.running:
                continue
            try:
                await player.game_over(scores, list(result.winners), termination)
            except (EngineFailedError, EngineStoppedError) as error:
                log.append(f"seat {seat}: gameover was not read: {error}")
        return EngineGame(played.record, played.forfeit, played.stopped, tuple(log))


def _best_others(state: GameState[Any], loser: int) -> list[int]:
    """The seats ranked first among those still playing other than ``loser``, by score."""
    resigned = state.position().resigned
    scores = state.scores()
    others = [seat for seat in range(1, state.seats + 1) if seat != loser and seat not in resigned]
    if not others:
        return []
    best = max(scores[seat - 1] for seat in others)
    return [seat for seat in others if scores[seat - 1] == best]
