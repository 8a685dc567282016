"""What a match is: its state, rebuilt from its log event by event, and its clocks.

:class:`MatchCore` holds a match's log and everything it implies (the record builder, the
clocks, the offers, the resignations waiting), applies events (its own and those read back
from a store) and answers what the match is now; it decides nothing. It may import
``gamerec.recorder``, ``gamerec.v1``, ``gamerec.validator`` (the builder, the engines'
protocol, the judge's words), :mod:`.events` and :mod:`.creation`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC
from typing import TYPE_CHECKING, Any

from gamerec.recorder.errors import NotationError
from gamerec.recorder.signing import SealError, fingerprint, public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.builder import IllegalPlyError
from gamerec.validator.games.protocol import GameState, IllegalMoveError, MoveSyntaxError
from gamerec.validator.judge import TERMINATION_WORDS
from gamerec.validator.live.clocks import NS_PER_MS, Instant, elapsed_ns
from gamerec.validator.live.match.creation import _builder_of
from gamerec.validator.live.match.events import (
    _STATE_ONLY,
    MAX_EVENTS,
    OPEN,
    REJECT,
    Logged,
    MatchLogError,
    _duration,
    _invalid,
    _outage_note,
    _timestamp,
)
from gamerec.validator.live.starts import (
    Turn,
    before_start_note,
    clocks_sentence,
    untimed_first_note,
)
from gamerec.validator.live.timecontrol import ClockKind, parse_time_control

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


class MatchCore:
    """A match's state and log (see the module docstring); :class:`~.commands.Match` acts on it."""

    def __init__(
        self,
        created: Logged,
        host_key: Ed25519PrivateKey | None,
        max_plies: int,
        max_events: int = MAX_EVENTS,
    ) -> None:
        """Start from the ``created`` event (use :meth:`create` or :meth:`from_log`).

        Raises:
            MatchLogError: the event is no creation, or names another host key.
        """
        event = created.event
        if event.WhichOneof("kind") != "created" or event.number != 1:
            raise MatchLogError("a match's log must begin with its creation as event 1")
        start = event.created
        self.match_id = event.match_id
        self.time_control = parse_time_control(start.time_control)
        self.policy = start.illegal_move_policy or REJECT
        self.max_plies = max_plies
        self.max_events = max_events
        seal = start.record.seal
        if seal.host_key and (host_key is None or public_bytes(host_key) != seal.host_key):
            raise MatchLogError(
                f"match {self.match_id} is sealed with the host key {fingerprint(seal.host_key)}; "
                "the referee's host key must be that one"
            )
        self._builder = _builder_of(start.record, host_key)
        self.seat_keys = tuple(
            seal.seat_keys[i] if i < len(seal.seat_keys) else b""
            for i in range(len(start.record.seats))
        )
        self.seats = len(start.record.seats)
        if self.seats != self._builder.state.seats:
            raise MatchLogError(
                f"match {self.match_id}: its creation lists {self.seats} seats, its variant "
                f"has {self._builder.state.seats} players"
            )
        self.status: mpb.MatchStatus.ValueType = OPEN
        self._events: list[Logged] = [created]
        self._clocks = [self.time_control.start_ms() or 0] * self.seats
        #: The scheduled start of the clocks, on the creation's timeline; None: none.
        self._clock_start: Instant | None = None
        if start.HasField("clocks_start"):
            ahead = start.clocks_start.ToNanoseconds() - created.at.wall_ns
            self._clock_start = created.at.later(ahead)
        #: Each seat's first ply is untimed up to this limit (ms); None: it is timed.
        self._abort_after_ms = (
            start.abort_after.ToMilliseconds() if start.HasField("abort_after") else None
        )
        self._turn = Turn(created.at, not_before=self._clock_start)
        self._moved: set[int] = set()
        self._started: set[int] = set()
        self._draw_by = 0
        self._draw_accepted: set[int] = set()
        self._offered_after: dict[int, int] = {}
        self._pending_resign: list[int] = []
        self._notes: list[str] = []
        self._ended: mpb.MatchEnded | None = None

    # -- what it is now ---------------------------------------------------------------------------

    @property
    def events(self) -> Sequence[Logged]:
        """Its log so far."""
        return self._events

    @property
    def last_event(self) -> int:
        """The number of its last event."""
        return len(self._events)

    @property
    def plies(self) -> int:
        """The plies played."""
        return self._builder.plies

    @property
    def to_move(self) -> int:
        """The seat to move; 0 once the match is over."""
        return self._builder.to_move if self.status == OPEN else 0

    @property
    def is_open(self) -> bool:
        """Whether the match is still being played."""
        return self.status == OPEN

    @property
    def ended(self) -> mpb.MatchEnded | None:
        """How it ended, once over."""
        return self._ended

    @property
    def record(self) -> pb.GameRecord:
        """A copy of the record so far (the final record, with every signature, once over)."""
        return self._builder.record

    def position(self) -> GameState[Any]:
        """A copy of the game's position now (safe to keep or explore)."""
        return self._builder.state

    def clocks_ms(self, at: Instant) -> list[int]:
        """Every seat's clock at ``at`` (the running one as it shows then); empty: no clock."""
        if not self.time_control.timed:
            return []
        clocks = list(self._clocks)
        seat = self.to_move
        if seat and not self._first_ply_untimed(seat):
            used = self._turn.used_ms(at)
            clocks[seat - 1] = max(0, self._showing(self._clocks[seat - 1], used))
        return clocks

    def clock_running(self, at: Instant) -> bool:
        """Whether the clock of the seat to move runs at ``at`` (docs/live.md)."""
        seat = self.to_move
        if not seat or not self.time_control.timed or self._first_ply_untimed(seat):
            return False
        return elapsed_ns(at, self._turn.runs_from) == 0

    def flag_falls_at(self) -> Instant | None:
        """When the flag of the seat to move falls; None when no clock runs.

        During a seat's untimed first ply: when the match is aborted for want of it.
        """
        seat = self.to_move
        if not seat:
            return None
        limit = self._abort_after_ms if self._first_ply_untimed(seat) else self._budget(seat)
        if limit is None:
            return None
        return self._turn.runs_from.later((limit - self._turn.used_before_ms) * NS_PER_MS)

    def acceptance(self, ply: int) -> list[Logged]:
        """The events of the call that played ``ply``: its move, and what came with it."""
        for index, entry in enumerate(self._events):
            move = entry.event.move
            if entry.event.HasField("move") and move.ply == ply and not move.by_referee:
                return [entry, *self._followers(index + 1)]
        return []

    def _followers(self, start: int) -> list[Logged]:
        """Events after a move that came with it: a lapsed offer, referee plies, the end."""
        followers = []
        for entry in self._events[start:]:
            kind = entry.event.WhichOneof("kind")
            referee = kind == "move" and entry.event.move.by_referee
            if not (referee or kind in ("draw_offer_lapsed", "ended")):
                break
            followers.append(entry)
            if kind == "ended":
                break
        return followers

    def state(self, at: Instant, decided: Sequence[str] = ()) -> mpb.MatchState:
        """The match as GetMatch answers (``decided``: decisions already made this turn).

        Raises:
            CommandRefusedError: a decision that is not legal (INVALID_ARGUMENT, ``decided[i]``).
        """
        answer = mpb.MatchState(
            match_id=self.match_id,
            status=self.status,
            to_move=self.to_move,
            plies=self.plies,
            last_event=self.last_event,
            time_control=self.time_control.notation,
            illegal_move_policy=self.policy,
            clocks=[_duration(ms) for ms in self.clocks_ms(at)],
            draw_offered_by=self._draw_by,
            draw_accepted_by=sorted(self._draw_accepted),
            pending_resignations=self._pending_resign,
            record=self.record,
        )
        if self.is_open:
            moves, complete = self._legal_after(decided)
            answer.legal_moves.extend(moves)
            answer.turn_complete = complete
            answer.clock_running = self.clock_running(at)
            if self._first_ply_untimed(self.to_move):
                abort_at = self.flag_falls_at()
                if abort_at is not None:
                    answer.abort_at.CopyFrom(_timestamp(abort_at))
        if self._clock_start is not None:
            answer.clocks_start.CopyFrom(_timestamp(self._clock_start))
        if self._ended is not None:
            answer.ended.CopyFrom(self._ended)
        return answer

    def summary(self) -> mpb.MatchSummary:
        """The match as ListMatches lists it."""
        start = self._events[0].event
        created = start.created.record
        answer = mpb.MatchSummary(
            match_id=self.match_id,
            status=self.status,
            game=created.rules.game,
            seats=[seat.name for seat in created.seats],
            time_control=self.time_control.notation,
            plies=self.plies,
            to_move=self.to_move,
            created=start.time,
        )
        if self._ended is not None:
            answer.result.CopyFrom(self._ended.result)
        return answer

    def _legal_after(self, decided: Sequence[str]) -> tuple[list[str], bool]:
        """The legal next decisions after ``decided``, and whether those complete the turn."""
        identity = self._builder.identity
        engine, variant = identity.engine, identity.variant
        state = self._builder.state
        start = state.ply
        for index, text in enumerate(decided):
            if state.ply != start or state.is_over:
                raise _invalid(f"decided[{index}]", "TURN_OVER", "the turn ended before it")
            try:
                state.decide(engine.parse_move(variant, text))
            except (MoveSyntaxError, IllegalMoveError) as error:
                raise _invalid(f"decided[{index}]", "ILLEGAL_DECISION", str(error)) from None
        if state.ply != start or state.is_over:
            return [], True
        return [engine.format_move(variant, move) for move in state.legal_moves()], False

    def _playing(self) -> list[int]:
        """The seats still playing: not resigned, no resignation waiting."""
        resigned = set(self._resigned()) | set(self._pending_resign)
        return [seat for seat in range(1, self.seats + 1) if seat not in resigned]

    def _resigned(self) -> tuple[int, ...]:
        return tuple(self._builder.state.position().resigned)

    # -- applying the log -------------------------------------------------------------------------

    def apply(self, entry: Logged) -> None:
        """Apply one event of the log (made by another process on the same store, or read back).

        Raises:
            MatchLogError: the event's number is not the next one, or it does not rebuild the
                same record.
        """
        event = entry.event
        if event.number != self.last_event + 1:
            raise MatchLogError(
                f"match {self.match_id}: event {event.number} follows event {self.last_event}"
            )
        try:
            self._replay_on_builder(event)
        except (IllegalPlyError, NotationError, SealError, IndexError) as error:
            raise MatchLogError(f"match {self.match_id}, event {event.number}: {error}") from None
        self._take(entry)

    def _replay_on_builder(self, event: mpb.MatchEvent) -> None:
        """What an event of the log changes in the record."""
        kind = event.WhichOneof("kind")
        builder = self._builder
        if kind == "move":
            move = event.move
            recorded = move.move
            builder.play(
                move.token,
                comment=recorded.comment,
                clock=recorded.clock.ToTimedelta() if recorded.HasField("clock") else None,
                timestamp=recorded.timestamp.ToDatetime(UTC),
            )
            if builder.head_after(move.ply) != move.head or builder.to_move != move.to_move:
                raise MatchLogError(f"match {self.match_id}, ply {move.ply}: the chain differs")
        elif kind == "signature":
            signed = event.signature
            builder.add_signature(signed.ply, signed.seat, signed.signature)
        elif kind == "ended":
            claim = event.ended.record.result
            if not builder.is_over:
                builder.stop(
                    TERMINATION_WORDS[claim.termination],
                    winners=claim.winners,
                    unfinished=claim.HasField("unfinished"),
                )
            builder.comment = event.ended.record.comment
            if builder.record != event.ended.record:
                raise MatchLogError(f"match {self.match_id}: the final record differs")
        elif kind not in _STATE_ONLY:
            raise MatchLogError(f"match {self.match_id}: event {event.number} is unknown")

    def _take(self, entry: Logged) -> None:
        """Take an event whose change to the record is made: the rest of the state, the log."""
        event = entry.event
        kind = event.WhichOneof("kind")
        if kind == "move":
            self._take_move(entry)
        elif kind == "draw_offered":
            self._draw_by, self._draw_accepted = event.draw_offered.seat, set()
            self._offered_after[event.draw_offered.seat] = event.draw_offered.after_ply
        elif kind == "draw_answered":
            answer = event.draw_answered
            if answer.accept:
                self._draw_accepted.add(answer.seat)
            else:
                self._draw_by, self._draw_accepted = 0, set()
        elif kind == "draw_offer_lapsed":
            self._draw_by, self._draw_accepted = 0, set()
        elif kind == "resignation_pending":
            self._pending_resign.append(event.resignation_pending.seat)
        elif kind == "outage":
            charged = event.outage.charged.ToMilliseconds()
            self._turn = Turn(entry.at, charged, self._clock_start)
            self._notes.append(_outage_note(event.outage))
        elif kind == "ended":
            self.status = event.ended.status
            self._ended = event.ended
        self._events.append(entry)

    def _take_move(self, entry: Logged) -> None:
        move = entry.event.move
        if move.clocks:
            self._clocks = [
                self.time_control.next_turn_ms(duration.ToMilliseconds())
                for duration in move.clocks
            ]
        if move.by_referee:
            self._pending_resign.remove(move.seat)
        else:
            self._moved.add(move.seat)
        self._started.add(move.seat)
        self._turn = Turn(entry.at, not_before=self._clock_start)
        self._notes.clear()

    def _new(self, at: Instant, **kind: Any) -> Logged:
        """The next event of the log, of one kind, taking effect at ``at`` (not yet taken)."""
        event = mpb.MatchEvent(
            match_id=self.match_id, number=self.last_event + 1, time=_timestamp(at), **kind
        )
        return Logged(event, at)

    def _append(self, at: Instant, **kind: Any) -> Logged:
        """Append an event that changes nothing in the record."""
        entry = self._new(at, **kind)
        self._take(entry)
        return entry

    # -- clocks -----------------------------------------------------------------------------------

    def _budget(self, seat: int) -> int | None:
        return self.time_control.budget_ms(self._clocks[seat - 1])

    def _showing(self, remaining: int, used: int) -> int:
        control = self.time_control
        if control.kind is ClockKind.SIMPLE_DELAY:
            return remaining - max(0, used - control.extra_ms)
        if control.kind is ClockKind.PER_MOVE:
            return control.base_ms - used
        return remaining - used

    def _clock_after(self, seat: int, used: int) -> int | None:
        if not self.time_control.timed:
            return None
        return self.time_control.after_move_ms(self._clocks[seat - 1], used)

    def _clock_value(self, seat: int) -> int | None:
        return self._clocks[seat - 1] if self.time_control.timed else None

    def _first_ply_untimed(self, seat: int) -> bool:
        """Whether ``seat`` is on its first ply and that ply is untimed (an abort limit)."""
        return self._abort_after_ms is not None and seat not in self._started

    def _untimed_note(self, seat: int, at: Instant) -> str:
        """The comment of a ply played at ``at`` that no clock times; "": it is timed."""
        if self._first_ply_untimed(seat):
            return untimed_first_note(seat)
        start = self._clock_start
        if start is not None and elapsed_ns(at, start) > 0:
            return before_start_note(start)
        return ""

    def clocks_sentence(self) -> str:
        """How the clocks started, as the final record's comment says it; "": from creation."""
        if not self.time_control.timed:
            return ""
        return clocks_sentence(self._clock_start, self._abort_after_ms)
