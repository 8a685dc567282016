"""One live match as a state machine: commands in, events out, no I/O (docs/live.md).

A :class:`Match` referees one game over the engines, the record builder (which checks every
ply the moment it is played and seals and signs the record as it grows, docs/seals.md) and the
clocks of its time control. It knows nothing of networks, stores or the time of day: every
command takes the :class:`~gamerec.validator.live.clocks.Instant` at which it was received,
and answers with the events it appended (:class:`Logged`: the event and that instant). Events
are the match's log: :meth:`Match.from_log` rebuilds the same match from them, with the same
record bit for bit (Ed25519 signatures are deterministic), which is how a server resumes
after a restart and how several processes that share one store agree.

A command changes the match before it returns; a caller whose store does not accept the
events (another process appended first) rebuilds the match from the store's log.

How a match ends (docs/live.md says it for each game):

- by the rules: the engine says the game is over; the result is the rules' result
  (``normal``, or ``resignation`` when a resignation ended it);
- a flag falls: ``timeout``; the seat whose time ran out ranks last, the seats still playing
  are ranked by the scores of the position reached (resigned seats below them, in the rules'
  order), as ``gamerec adjudicate`` rules a timeout; with two seats playing the other wins;
- an illegal move under the FORFEIT policy, or a resignation by a seat that is not to move
  with two seats playing: ``adjudicated`` (the format has no ``forfeit``: the referee decided
  the result), ranked the same way;
- every seat still playing accepts a draw: ``agreement``, those seats share first place;
- an abort (a seat before every seat has moved, the admin at any time), or the plies limit:
  ``abandoned`` with no result (``Result *``).

With three or more seats a resignation is a ply of the seat to move (the rules of ONE and
Oh-Wah-Ree, §7): the seat leaves the turn order and the game goes on. A seat that resigns
while it is not its turn has its ``resign`` played by the referee the moment its turn comes.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Final

from google.protobuf.duration_pb2 import Duration
from google.protobuf.timestamp_pb2 import Timestamp

from gamerec.recorder.ed25519_checks import key_weakness
from gamerec.recorder.errors import (
    EncodingError,
    GamerecError,
    LimitExceededError,
    NotationError,
    excerpt,
)
from gamerec.recorder.limits import DEFAULT_LIMITS, check_record
from gamerec.recorder.notation import format_action
from gamerec.recorder.seal import HOST, KEY_BYTES
from gamerec.recorder.signing import SealError, fingerprint, public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import winners_sentence
from gamerec.validator.builder import IllegalPlyError, RecordBuilder
from gamerec.validator.games.protocol import GameState, IllegalMoveError, MoveSyntaxError
from gamerec.validator.identity import RulesError
from gamerec.validator.judge import TERMINATION_WORDS, format_scores, format_seats
from gamerec.validator.live.clocks import NS_PER_MS, NS_PER_SECOND, Instant, elapsed_ms, elapsed_ns
from gamerec.validator.live.timecontrol import (
    ClockKind,
    TimeControl,
    TimeControlError,
    parse_time_control,
)
from gamerec.validator.render.ending import NO_FIRST_MOVE

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

OPEN: Final = mpb.MATCH_STATUS_OPEN
FINISHED: Final = mpb.MATCH_STATUS_FINISHED
ABORTED: Final = mpb.MATCH_STATUS_ABORTED
REJECT: Final = mpb.ILLEGAL_MOVE_POLICY_REJECT
FORFEIT: Final = mpb.ILLEGAL_MOVE_POLICY_FORFEIT
#: The admin, as the ``seat`` of a command (:meth:`Match.abort`).
ADMIN: Final = 0
#: The longest name, id, event, site or round a match takes (characters).
MAX_MATCH_TEXT: Final = 200
#: The code of a finding about a move that is no token of the game.
MALFORMED_MOVE: Final = "MALFORMED_MOVE"
#: The events of one match, at most (``gamerec limits``: events).
MAX_EVENTS: Final = 250_000
#: Events kept below the events limit for a command's own (a ply, the resignations it
#: brings due, a lapsed offer, the end): a command that finds less room abandons the match.
EVENTS_ROOM: Final = 2 * DEFAULT_LIMITS.max_seats + 8
#: How far ahead a scheduled start may be (seconds): 30 days.
MAX_START_AHEAD: Final = 30 * 24 * 3600


class Refusal(StrEnum):
    """Why a command cannot be carried out (the service's gRPC status)."""

    INVALID = "INVALID_ARGUMENT"
    PRECONDITION = "FAILED_PRECONDITION"


class CommandRefusedError(GamerecError):
    """A command the match cannot carry out; nothing changed.

    Attributes:
        refusal: the kind (the service's status code).
        field: the request's field at fault (``ply``, ``seats[1].public_key``).
        reason: a stable UPPER_SNAKE code (``NOT_YOUR_TURN``, ``STALE_PLY``, ``MATCH_OVER``).
        current_ply: the ply the match is at (played plies plus one), for plies refused.
    """

    def __init__(
        self, refusal: Refusal, field: str, reason: str, message: str, *, current_ply: int = 0
    ) -> None:
        """Build the refusal; its message is the sentence."""
        self.refusal = refusal
        self.field = field
        self.reason = reason
        self.current_ply = current_ply
        super().__init__(message)


class MatchLogError(GamerecError):
    """A log that does not rebuild into a match (another host key, a corrupted store)."""


@dataclass(frozen=True, slots=True)
class Logged:
    """One event of a match's log with the instant it took effect (kept beside it)."""

    event: mpb.MatchEvent
    at: Instant


@dataclass(slots=True)
class Outcome:
    """What a command did.

    Attributes:
        events: the events it appended (for a repeated Play: those of the first call).
        finding: a move the rules refuse (Play) or a signature that does not hold (Sign).
        refusal: raise it once ``events`` are stored (a flag that fell before the command).
        repeated: nothing new was appended: ``events`` are an earlier call's.
    """

    events: list[Logged] = field(default_factory=list)
    finding: vpb.Finding | None = None
    refusal: CommandRefusedError | None = None
    repeated: bool = False


@dataclass(slots=True)
class _Turn:
    """The clock of the seat to move: since when it runs, and what it used before an outage.

    ``started`` is when the turn began (or the server came back); the clock runs from then,
    or from the scheduled start of the clocks when that is later.
    """

    started: Instant
    used_before_ms: int = 0
    not_before: Instant | None = None

    @property
    def runs_from(self) -> Instant:
        """When the clock runs from: the turn's start, or the scheduled start if later."""
        start, scheduled = self.started, self.not_before
        if scheduled is not None and elapsed_ns(start, scheduled) > 0:
            return scheduled
        return start

    def used_ms(self, at: Instant) -> int:
        return self.used_before_ms + elapsed_ms(self.runs_from, at)


class Match:
    """One live match (see the module docstring): :meth:`create` or :meth:`from_log` it."""

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
        self._turn = _Turn(created.at, not_before=self._clock_start)
        self._moved: set[int] = set()
        self._started: set[int] = set()
        self._draw_by = 0
        self._draw_accepted: set[int] = set()
        self._offered_after: dict[int, int] = {}
        self._pending_resign: list[int] = []
        self._notes: list[str] = []
        self._ended: mpb.MatchEnded | None = None

    # -- making one -----------------------------------------------------------------------------

    @classmethod
    def create(
        cls,
        match_id: str,
        request: mpb.CreateMatchRequest,
        at: Instant,
        *,
        host_key: Ed25519PrivateKey | None = None,
        client: str = "",
        max_plies: int = DEFAULT_LIMITS.max_plies,
        max_events: int = MAX_EVENTS,
        abort_after_ms: int | None = None,
    ) -> Match:
        """A new match for ``request`` (its first event: :attr:`events` ``[0]``).

        When the clocks start (docs/live.md): at the request's ``start_at``, when it gives
        one; else, with ``abort_after_ms``, each seat's clock starts with its first move (its
        first ply is untimed; a seat that has not made it ``abort_after_ms`` after its turn
        began aborts the match); else (a referee that runs the players itself) the clocks
        run from the creation.

        Raises:
            CommandRefusedError: an unknown game, an impossible variant, seats that do not fit it, a
                key that is not 32 bytes, a malformed time control, an unknown policy, a
                text that is too long, or a scheduled start that is past, too far ahead or
                without a clock (INVALID_ARGUMENT, naming the field).
        """
        time_control = _time_control(request.time_control)
        _check_start(request, at, time_control)
        policy = request.illegal_move_policy or REJECT
        if policy not in (REJECT, FORFEIT):
            raise _invalid("illegal_move_policy", "BAD_POLICY", f"unknown policy {policy}")
        record = _starting_record(request, at, time_control, client)
        keys = _seat_keys(request)
        try:
            builder = RecordBuilder.from_record(
                record,
                signing_keys={HOST: host_key} if host_key else None,
                public_keys=keys,
            )
        except RulesError as error:
            field_name = "seats" if error.code == "SEAT_COUNT_MISMATCH" else "rules"
            raise _invalid(field_name, error.code, str(error)) from None
        players = builder.state.seats
        if len(record.seats) != players:
            # A record may leave its seats out; a match cannot: every seat plays and has a clock.
            raise _invalid(
                "seats",
                "SEAT_COUNT_MISMATCH",
                f"the match lists {len(record.seats)} seats but its variant has {players} "
                "players: give one seat per player",
            )
        start_ms = time_control.start_ms()
        created = mpb.MatchCreated(
            record=builder.record,
            time_control=time_control.notation,
            illegal_move_policy=policy,
            clocks=[_duration(start_ms)] * len(record.seats) if start_ms is not None else [],
        )
        if request.HasField("start_at"):
            created.clocks_start.CopyFrom(request.start_at)
        elif abort_after_ms is not None and time_control.timed:
            created.abort_after.CopyFrom(_duration(abort_after_ms))
        event = mpb.MatchEvent(match_id=match_id, number=1, time=_timestamp(at), created=created)
        match = cls(Logged(event, at), host_key, max_plies, max_events)
        try:  # what is stored must load again: a server restarts from it
            cls.from_log(match.events, host_key=host_key, max_plies=max_plies)
        except MatchLogError as error:
            raise _invalid("(request)", "NOT_A_MATCH", str(error)) from None
        return match

    @classmethod
    def from_log(
        cls,
        events: Iterable[Logged],
        *,
        host_key: Ed25519PrivateKey | None = None,
        max_plies: int = DEFAULT_LIMITS.max_plies,
        max_events: int = MAX_EVENTS,
    ) -> Match:
        """The match its log describes, every event applied in order.

        Raises:
            MatchLogError: the log does not begin with a creation, skips a number, or does
                not rebuild into the same record (another host key, a changed event).
        """
        logged = iter(events)
        first = next(logged, None)
        if first is None:
            raise MatchLogError("an empty log holds no match")
        match = cls(first, host_key, max_plies, max_events)
        for entry in logged:
            match.apply(entry)
        return match

    # -- what it is now -------------------------------------------------------------------------

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

    # -- commands -------------------------------------------------------------------------------

    def play(
        self, seat: int, ply: int, action: pb.Move | str, at: Instant, *, comment: str = ""
    ) -> Outcome:
        """Seat ``seat`` plays ``action`` for ``ply`` (received at ``at``).

        ``comment`` becomes the move's comment (an engine's search information, written by a
        referee that runs the engine itself: a tournament); the server's seats send none.

        Raises:
            CommandRefusedError: a ply that is not the current one (the same move for an accepted
                ply is answered with its acceptance instead), another seat's turn, the match
                over, or a ``Move`` with no action.
        """
        token = _token_of(action)
        accepted = self._earlier_acceptance(seat, ply, token)
        if accepted is not None:
            return accepted
        late = self._flag_if_fallen(at) or self._full(at)
        if late is not None:
            return late
        self._check_ply(seat, ply)
        return self._play_now(seat, token, at, comment)

    def resign(self, seat: int, at: Instant) -> Outcome:
        """Seat ``seat`` resigns (a ply on its turn; see the module docstring otherwise).

        Raises:
            CommandRefusedError: the match is over, or the seat has resigned already.
        """
        late = self._flag_if_fallen(at) or self._full(at)
        if late is not None:
            return late
        self._check_open()
        self._check_playing(seat)
        if seat == self.to_move:
            return self._play_now(seat, "resign", at)
        if len(self._playing()) == 2:
            (other,) = (s for s in self._playing() if s != seat)
            reason = (
                f"seat {seat} resigned during seat {other}'s turn (after ply {self.plies}), so "
                "the referee ends the game"
            )
            return Outcome([self._end_against(seat, pb.TERMINATION_ADJUDICATED, reason, at)])
        return Outcome([self._append(at, resignation_pending=mpb.ResignationPending(seat=seat))])

    def offer_draw(self, seat: int, at: Instant) -> Outcome:
        """Seat ``seat`` offers a draw; offering while another's offer stands accepts it.

        Raises:
            CommandRefusedError: the match is over, or the seat has resigned.
        """
        late = self._flag_if_fallen(at) or self._full(at)
        if late is not None:
            return late
        self._check_open()
        self._check_playing(seat)
        if self._draw_by == seat:
            return Outcome(repeated=True)
        if self._draw_by:
            return self._answer(seat, accept=True, at=at)
        if self._offered_after.get(seat) == self.plies:
            raise _precondition(
                "token",
                "DRAW_OFFERED_ALREADY",
                f"seat {seat} offered a draw after ply {self.plies} already; it may offer "
                "again once another ply is played",
            )
        offer = mpb.DrawOffered(seat=seat, after_ply=self.plies)
        return Outcome([self._append(at, draw_offered=offer)])

    def answer_draw(self, seat: int, accept: bool, at: Instant) -> Outcome:
        """Seat ``seat`` accepts or declines the draw on offer.

        Raises:
            CommandRefusedError: no draw on offer, the seat made it, the seat has resigned, or the
                match is over.
        """
        late = self._flag_if_fallen(at) or self._full(at)
        if late is not None:
            return late
        self._check_open()
        self._check_playing(seat)
        if not self._draw_by:
            raise _precondition("accept", "NO_DRAW_OFFER", "no draw is on offer")
        if self._draw_by == seat:
            raise _precondition(
                "accept", "OWN_DRAW_OFFER", f"seat {seat} made the offer; the others answer it"
            )
        if accept and seat in self._draw_accepted:
            return Outcome(repeated=True)
        return self._answer(seat, accept, at)

    def abort(self, seat: int, at: Instant) -> Outcome:
        """Call the match off: a seat until every seat has moved, the admin (seat 0) any time.

        Raises:
            CommandRefusedError: the match is over, or every seat has moved already (for a
                seat's abort).
        """
        late = self._flag_if_fallen(at) or self._full(at)
        if late is not None:
            return late
        self._check_open()
        if seat != ADMIN and len(self._moved) == self.seats:
            raise _precondition(
                "token",
                "ABORT_TOO_LATE",
                "every seat has moved, so the match can no longer be aborted (resign, or "
                "offer a draw)",
            )
        who = "the admin" if seat == ADMIN else f"seat {seat}"
        reason = f"{who} aborted the match after ply {self.plies}; it has no result"
        return Outcome([self._end_abandoned(reason, seat, at)])

    def sign(self, seat: int, ply: int, signature: bytes, at: Instant) -> Outcome:
        """Add seat ``seat``'s signature over the head after ``ply`` (0: the final head).

        Raises:
            CommandRefusedError: no such ply yet, or the final head before the match is over.
        """
        if ply > self.plies:
            raise _precondition(
                "ply", "NO_SUCH_PLY", f"ply {ply} has not been played (plies so far: {self.plies})"
            )
        if ply == 0 and self.is_open:
            raise _precondition(
                "ply", "MATCH_NOT_OVER", "the final head is signed once the match is over"
            )
        head = self._builder.head_after(ply)
        earlier = self._earlier_signature(seat, ply, signature)
        if earlier is not None:
            return earlier
        if not self.seat_keys[seat - 1]:
            return Outcome(finding=_signature_finding(seat, ply, "NO_KEY", "registered no key"))
        if not head:
            return Outcome(finding=_signature_finding(seat, ply, "NOT_SEALED", "cannot sign"))
        try:
            self._builder.add_signature(ply, seat, signature)
        except SealError as error:
            return Outcome(finding=_signature_finding(seat, ply, "SIGNATURE_INVALID", str(error)))
        added = mpb.SignatureAdded(ply=ply, seat=seat, signature=signature)
        return Outcome([self._append(at, signature=added)])

    def forfeit(
        self, seat: int, termination: pb.Termination.ValueType, reason: str, at: Instant
    ) -> Outcome:
        """The referee rules that ``seat`` loses: it failed its turn in a way no rule covers.

        For a referee that runs the players itself (a tournament's engines): an engine that
        crashed (``abandoned``), broke the protocol (``adjudicated``) or stopped answering
        (``timeout``, when its flag has not fallen by this match's clock). The seat is ranked
        last as for a flag; ``reason`` is the sentence the game's comment begins with.

        Raises:
            CommandRefusedError: the match is over.
        """
        self._check_open()
        return Outcome([self._end_against(seat, termination, reason, at)])

    def stop(self, reason: str, at: Instant) -> Outcome:
        """The referee stops a game that cannot end (a cycle of forced plies, a plies limit).

        The record ends with termination ``adjudicated``, ``Result *`` and no winner; the
        match is aborted (no result), its comment ``reason``.

        Raises:
            CommandRefusedError: the match is over.
        """
        self._check_open()
        result = vpb.ComputedResult(
            scores=self._builder.scores(),
            termination=pb.TERMINATION_ADJUDICATED,
            provisional=True,
        )
        self._builder.stop("adjudicated", unfinished=True)
        return Outcome([self._finish(ABORTED, result, reason, at)])

    def flag(self, at: Instant) -> Outcome:
        """The flag of the seat to move, if its time has run out at ``at`` (else no event)."""
        return self._flag_if_fallen(at) or Outcome()

    def outage(self, at: Instant, down_since: Instant) -> Outcome:
        """The server was down from ``down_since`` until it came back at ``at``.

        That time is charged to no one: the seat to move keeps what it had used of its turn
        up to ``down_since`` (or up to the turn's start, when that came later), and its clock
        runs again from ``at``.
        """
        if not self.is_open:
            return Outcome()
        if elapsed_ms(self._turn.started, down_since) == 0:
            down_since = self._turn.started
        note = mpb.ServerOutage(
            down_since=_timestamp(down_since),
            up_at=_timestamp(at),
            seat=self.to_move,
            ply=self.plies + 1,
            charged=_duration(self._turn.used_ms(down_since)),
        )
        return Outcome([self._append(at, outage=note)])

    # -- applying the log -----------------------------------------------------------------------

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
            self._turn = _Turn(entry.at, charged, self._clock_start)
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
        self._turn = _Turn(entry.at, not_before=self._clock_start)
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

    # -- the steps of a command -----------------------------------------------------------------

    def _earlier_acceptance(self, seat: int, ply: int, token: str) -> Outcome | None:
        """The first call's events when ``ply`` was accepted from this seat with this move."""
        if not 1 <= ply <= self.plies:
            return None
        events = self.acceptance(ply)
        if not events or events[0].event.move.seat != seat:
            return None
        try:
            same = _canonical(self._builder, token) == events[0].event.move.token
        except NotationError:
            same = False
        return Outcome(events, repeated=True) if same else None

    def _earlier_signature(self, seat: int, ply: int, signature: bytes) -> Outcome | None:
        for entry in self._events:
            signed = entry.event.signature
            if entry.event.HasField("signature") and (
                (signed.seat, signed.ply, signed.signature) == (seat, ply, signature)
            ):
                return Outcome([entry], repeated=True)
        return None

    def _check_open(self) -> None:
        if self._ended is not None:
            raise _precondition(
                "match_id", "MATCH_OVER", f"the match is over: {self._ended.reason}"
            )

    def _check_ply(self, seat: int, ply: int) -> None:
        self._check_open()
        current = self.plies + 1
        if ply != current:
            when = "was played already" if ply < current else "is not reached yet"
            raise _precondition(
                "ply",
                "STALE_PLY" if ply < current else "FUTURE_PLY",
                f"ply {ply} {when}; the current ply is {current}",
                current_ply=current,
            )
        if seat != self.to_move:
            raise _precondition(
                "token",
                "NOT_YOUR_TURN",
                f"it is seat {self.to_move}'s turn, not seat {seat}'s (ply {current})",
                current_ply=current,
            )

    def _check_playing(self, seat: int) -> None:
        if seat not in self._playing():
            raise _precondition("token", "RESIGNED", f"seat {seat} has resigned")

    def _playing(self) -> list[int]:
        """The seats still playing: not resigned, no resignation waiting."""
        resigned = set(self._resigned()) | set(self._pending_resign)
        return [seat for seat in range(1, self.seats + 1) if seat not in resigned]

    def _resigned(self) -> tuple[int, ...]:
        return tuple(self._builder.state.position().resigned)

    def _play_now(self, seat: int, token: str, at: Instant, comment: str = "") -> Outcome:
        """Play the seat to move's ``token`` received at ``at`` (its flag checked already)."""
        untimed = self._untimed_note(seat, at)
        used = 0 if untimed else self._turn.used_ms(at)
        clock = self._clock_value(seat) if untimed else self._clock_after(seat, used)
        try:
            self._builder.play(
                token,
                comment=" ".join(part for part in (comment, *self._notes, untimed) if part),
                clock=None if clock is None else timedelta(milliseconds=clock),
                timestamp=_datetime(at),
            )
        except IllegalPlyError as illegal:
            return self._refuse(illegal.finding, at)
        except NotationError as error:
            finding = vpb.Finding(
                ply=self.plies + 1,
                seat=seat,
                code=MALFORMED_MOVE,
                message=str(error),
                move=excerpt(token, 80, quoted=False),
            )
            return self._refuse(finding, at)
        events = [self._ply_event(seat, used, clock, at, by_referee=False)]
        return Outcome(events + self._after_ply(seat, at))

    def _ply_event(
        self, seat: int, used: int, clock: int | None, at: Instant, *, by_referee: bool
    ) -> Logged:
        """Take the ply the builder just played as its event."""
        ply = self.plies
        recorded = self._builder.move(ply)
        clocks = list(self._clocks)
        if clock is not None:
            clocks[seat - 1] = clock
        accepted = mpb.MoveAccepted(
            ply=ply,
            seat=seat,
            move=recorded,
            token=format_action(recorded),
            head=self._builder.head_after(ply),
            clocks=[_duration(ms) for ms in clocks] if self.time_control.timed else [],
            to_move=self._builder.to_move,
            time_used=_duration(used),
            by_referee=by_referee,
        )
        entry = self._new(at, move=accepted)
        self._take(entry)
        return entry

    def _after_ply(self, seat: int, at: Instant) -> list[Logged]:
        """What follows a ply: a lapsed offer, waiting resignations played, the end."""
        events = []
        if self._draw_by == seat:
            events.append(self._append(at, draw_offer_lapsed=mpb.DrawOfferLapsed(seat=seat)))
        while not self._builder.is_over and self._builder.to_move in self._pending_resign:
            resigning = self._builder.to_move
            clock = self._clock_value(resigning)
            self._builder.play(
                "resign",
                clock=None if clock is None else timedelta(milliseconds=clock),
                timestamp=_datetime(at),
            )
            events.append(self._ply_event(resigning, 0, clock, at, by_referee=True))
        if self._builder.is_over:
            events.append(self._end_by_rules(at))
        elif self.plies >= self.max_plies:
            reason = (
                f"the match reached {self.max_plies:,} plies, the most a record may hold "
                "(limit plies); it is abandoned with no result"
            )
            events.append(self._end_abandoned(reason, 0, at))
        return events

    def _refuse(self, finding: vpb.Finding, at: Instant) -> Outcome:
        """An illegal move: refused (REJECT), or the seat forfeits (FORFEIT)."""
        if self.policy != FORFEIT:
            return Outcome(finding=finding)
        seat = finding.seat or self.to_move
        reason = (
            f"seat {seat} forfeited at ply {finding.ply} by the illegal move {finding.move!r} "
            f"({finding.code}: {finding.message})"
        )
        events = [self._end_against(seat, pb.TERMINATION_ADJUDICATED, reason, at, finding)]
        return Outcome(events, finding=finding)

    def _flag_if_fallen(self, at: Instant) -> Outcome | None:
        """The flag of the seat to move when its time has run out at ``at``; else None.

        During a seat's untimed first ply: the match aborted when the abort limit has passed.
        """
        seat = self.to_move
        if seat and self._first_ply_untimed(seat):
            return self._abort_if_late(seat, at)
        budget = self._budget(seat) if seat else None
        if budget is None or self._turn.used_ms(at) < budget:
            return None
        reason = f"seat {seat}'s time ran out on ply {self.plies + 1}"
        ended = self._end_against(seat, pb.TERMINATION_TIMEOUT, reason, at)
        refusal = _precondition(
            "match_id", "TIME_RAN_OUT", f"the match is over: {ended.event.ended.reason}"
        )
        return Outcome([ended], refusal=refusal)

    def _abort_if_late(self, seat: int, at: Instant) -> Outcome | None:
        """The match aborted when ``seat`` has not made its first ply within the abort limit."""
        limit = self._abort_after_ms
        if limit is None or self._turn.used_ms(at) < limit:
            return None
        reason = (
            f"seat {seat} {NO_FIRST_MOVE} within {limit / 1000:g} s "
            "of its turn (the abort limit), so the match is aborted with no result"
        )
        ended = self._end_abandoned(reason, seat, at)
        refusal = _precondition("match_id", "NO_FIRST_MOVE", f"the match is over: {reason}")
        return Outcome([ended], refusal=refusal)

    def _full(self, at: Instant) -> Outcome | None:
        """The match abandoned when its log has no room for a command's events; else None."""
        if self._ended is not None or self.last_event + EVENTS_ROOM <= self.max_events:
            return None
        reason = (
            f"the match reached {self.last_event:,} events: the limit (events "
            f"{self.max_events:,}) less {EVENTS_ROOM} kept for a command's own; it is abandoned "
            "with no result"
        )
        ended = self._end_abandoned(reason, 0, at)
        refusal = _precondition("match_id", "TOO_MANY_EVENTS", f"the match is over: {reason}")
        return Outcome([ended], refusal=refusal)

    def _answer(self, seat: int, accept: bool, at: Instant) -> Outcome:
        events = [self._append(at, draw_answered=mpb.DrawAnswered(seat=seat, accept=accept))]
        waiting = [
            s for s in self._playing() if s != self._draw_by and s not in self._draw_accepted
        ]
        if accept and not waiting:
            events.append(self._end_by_agreement(at))
        return Outcome(events)

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

    # -- the end --------------------------------------------------------------------------------

    def _end_by_rules(self, at: Instant) -> Logged:
        """The engine says the game is over: the rules' result (the builder claims it)."""
        state = self._builder.state
        claim = self._builder.record.result
        result = vpb.ComputedResult(
            scores=state.scores(),
            ranks=state.ranking(),
            winners=state.winners(),
            termination=claim.termination,
        )
        reason = (
            f"the game ended by its rules at ply {self.plies} "
            f"({TERMINATION_WORDS[claim.termination]}): Result {format_scores(result.scores)}, "
            f"{winners_sentence(result.winners)}"
        )
        return self._finish(FINISHED, result, reason, at, rules_end=True)

    def _end_against(
        self,
        seat: int,
        termination: pb.Termination.ValueType,
        reason: str,
        at: Instant,
        finding: vpb.Finding | None = None,
    ) -> Logged:
        """``seat`` loses (a flag, a forfeit, a resignation out of turn): ranked last.

        The seats still playing are ranked by the scores of the position reached; below
        ``seat`` come the seats whose resignation waits, then those that resigned, later
        resignations first (as ``gamerec adjudicate`` rules a timeout).
        """
        scores = self._builder.scores()
        others = [s for s in self._playing() if s != seat]
        below = [seat, *reversed(self._pending_resign), *reversed(self._resigned())]
        ranks = _ranks(scores, others, below)
        winners = [s for s in others if ranks[s - 1] == 1]
        result = vpb.ComputedResult(
            scores=scores,
            ranks=ranks,
            winners=winners,
            termination=termination,
            provisional=len(others) > 1,
        )
        self._builder.stop(TERMINATION_WORDS[termination], winners=winners)
        if len(others) > 1:
            reason += (
                f"; seat {seat} ranks last, the seats still playing are ranked by the scores "
                f"of the position reached, {format_scores(scores)}"
            )
        else:
            reason += f"; {winners_sentence(winners)}"
        return self._finish(FINISHED, result, reason, at, seat=seat, finding=finding)

    def _end_by_agreement(self, at: Instant) -> Logged:
        """Every seat still playing accepted the draw: they share first place."""
        scores = self._builder.scores()
        playing = self._playing()
        ranks = _ranks(
            [0] * self.seats,
            playing,
            [*reversed(self._pending_resign), *reversed(self._resigned())],
        )
        result = vpb.ComputedResult(
            scores=scores, ranks=ranks, winners=playing, termination=pb.TERMINATION_AGREEMENT
        )
        self._builder.stop("agreement", winners=playing)
        reason = (
            f"seats {format_seats(playing)} agreed to a draw after ply {self.plies}; they share "
            "first place"
        )
        return self._finish(FINISHED, result, reason, at)

    def _end_abandoned(self, reason: str, seat: int, at: Instant) -> Logged:
        """Called off with no result (an abort, the plies limit)."""
        result = vpb.ComputedResult(
            scores=self._builder.scores(),
            termination=pb.TERMINATION_ABANDONED,
            provisional=True,
        )
        self._builder.stop("abandoned", unfinished=True)
        return self._finish(ABORTED, result, reason, at, seat=seat)

    def _finish(
        self,
        status: mpb.MatchStatus.ValueType,
        result: vpb.ComputedResult,
        reason: str,
        at: Instant,
        *,
        seat: int = 0,
        finding: vpb.Finding | None = None,
        rules_end: bool = False,
    ) -> Logged:
        """The end event with the final record; the game's comment says why it ended.

        After a rules end the record says it all: the comment holds only the notes of an
        outage during the last ply that found no ply to go on.
        """
        sentence = "" if rules_end else reason[0].upper() + reason[1:] + "."
        parts = (sentence, *self._notes, self.clocks_sentence())
        self._builder.comment = " ".join(part for part in parts if part)
        ended = mpb.MatchEnded(
            status=status,
            result=result,
            reason=reason,
            seat=seat,
            finding=finding,
            record=self._builder.record,
        )
        return self._append(at, ended=ended)

    # -- clocks ---------------------------------------------------------------------------------

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
            return f"Seat {seat}'s first ply, untimed: its clock starts with its next turn."
        start = self._clock_start
        if start is not None and elapsed_ns(at, start) > 0:
            return (
                f"Played before the clocks' scheduled start, {_stamp_text(_timestamp(start))}: "
                "untimed."
            )
        return ""

    def clocks_sentence(self) -> str:
        """How the clocks started, as the final record's comment says it; "": from creation."""
        if not self.time_control.timed:
            return ""
        if self._clock_start is not None:
            when = _stamp_text(_timestamp(self._clock_start))
            return f"The clocks started at their scheduled start, {when}."
        if self._abort_after_ms is not None:
            return (
                "Each seat's clock started with its first move; its first ply was untimed "
                f"(abort limit {self._abort_after_ms / 1000:g} s)."
            )
        return ""


#: Events that change nothing in the record.
_STATE_ONLY: Final = frozenset(
    {"draw_offered", "draw_answered", "draw_offer_lapsed", "resignation_pending", "outage"}
)


# -- requests, records and messages --------------------------------------------------------------


def _time_control(text: str) -> TimeControl:
    try:
        return parse_time_control(text)
    except TimeControlError as error:
        raise _invalid("time_control", "BAD_TIME_CONTROL", str(error)) from None


def _check_start(request: mpb.CreateMatchRequest, at: Instant, time_control: TimeControl) -> None:
    """Refuse a scheduled start that is past, too far ahead, or for a match with no clock."""
    if not request.HasField("start_at"):
        return
    start = request.start_at
    if not time_control.timed:
        raise _invalid(
            "start_at",
            "NO_CLOCK",
            "a scheduled start starts the clocks, and this match has none (time control -)",
        )
    ahead = start.ToNanoseconds() - at.wall_ns
    when = f"start_at {_stamp_text(start)}"
    if ahead <= 0:
        raise _invalid(
            "start_at",
            "START_PASSED",
            f"{when} is not after the server's time now, {_stamp_text(_timestamp(at))}",
        )
    if ahead > MAX_START_AHEAD * NS_PER_SECOND:
        raise _invalid(
            "start_at",
            "START_TOO_FAR",
            f"{when} is more than {MAX_START_AHEAD // 86400} days after the server's time "
            f"now, {_stamp_text(_timestamp(at))}",
        )


def _stamp_text(stamp: Timestamp) -> str:
    """A timestamp as RFC 3339 text, or its seconds when it is outside what that can write."""
    try:
        return stamp.ToJsonString()
    except ValueError:
        return f"{stamp.seconds} s after 1970"


def _starting_record(
    request: mpb.CreateMatchRequest, at: Instant, time_control: TimeControl, client: str
) -> pb.GameRecord:
    """The record a new match starts from: rules, seats, metadata (checked against limits)."""
    record = pb.GameRecord(format_version=1)
    record.rules.CopyFrom(request.rules)
    for index, seat in enumerate(request.seats):
        if not seat.name.strip():
            raise _invalid(f"seats[{index}].name", "NO_NAME", "every seat needs a name")
        record.seats.add(name=seat.name, player_id=seat.player_id)
    metadata = record.metadata
    metadata.event, metadata.site, metadata.round = request.event, request.site, request.round
    metadata.date = at.wall.date().isoformat()
    metadata.start_time.CopyFrom(_timestamp(at))
    metadata.time_control = time_control.notation
    metadata.client = client
    texts = [*(f"seats[{i}].name" for i in range(len(request.seats))), "event", "site", "round"]
    values = [*(seat.name for seat in request.seats), request.event, request.site, request.round]
    values += [seat.player_id for seat in request.seats]
    texts += [f"seats[{i}].player_id" for i in range(len(request.seats))]
    for name, value in zip(texts, values, strict=True):
        if len(value) > MAX_MATCH_TEXT:
            raise _invalid(
                name, "TOO_LONG", f"{len(value):,} characters, more than {MAX_MATCH_TEXT}"
            )
    try:
        check_record(record)
    except LimitExceededError as error:
        raise _invalid("seats", "TOO_MANY_SEATS", str(error)) from None
    return record


def _seat_keys(request: mpb.CreateMatchRequest) -> dict[int, bytes]:
    keys = {}
    for index, seat in enumerate(request.seats):
        if seat.public_key and len(seat.public_key) != KEY_BYTES:
            raise _invalid(
                f"seats[{index}].public_key",
                "BAD_KEY",
                f"an Ed25519 public key is {KEY_BYTES} bytes, not {len(seat.public_key)}",
            )
        weakness = key_weakness(seat.public_key) if seat.public_key else None
        if weakness is not None:
            reason = f"the key is refused: {weakness}"
            raise _invalid(f"seats[{index}].public_key", "BAD_KEY", reason)
        if seat.public_key:
            keys[index + 1] = seat.public_key
    return keys


def _builder_of(record: pb.GameRecord, host_key: Ed25519PrivateKey | None) -> RecordBuilder:
    """The builder of a match's record, from the record its creation holds."""
    seal = record.seal
    keys = {seat: key for seat, key in enumerate(seal.seat_keys, start=1) if key}
    signing = {HOST: host_key} if host_key is not None and seal.host_key else None
    try:
        builder = RecordBuilder.from_record(record, signing_keys=signing, public_keys=keys)
    except GamerecError as error:
        raise MatchLogError(f"the match's creation does not start a record: {error}") from None
    if builder.record != record:
        raise MatchLogError("the match's creation does not rebuild into the same record")
    return builder


def _token_of(action: pb.Move | str) -> str:
    """The text of a move as a Play gives it (a Move message's action as its token).

    Raises:
        CommandRefusedError: a Move with no action, or one whose places have no token.
    """
    if isinstance(action, str):
        return action
    try:
        return format_action(action)
    except EncodingError as error:
        raise _invalid("move", "BAD_MOVE", str(error)) from None


def _canonical(builder: RecordBuilder, token: str) -> str:
    """The canonical token of a move text in the match's game.

    Raises:
        NotationError: the text is no token of the game.
    """
    from gamerec.recorder.notation import parse_action  # noqa: PLC0415 (a rare path)

    return format_action(parse_action(builder.identity.game, token))


def _ranks(scores: Sequence[int], leaders: Sequence[int], below: Sequence[int]) -> list[int]:
    """Competition ranks: ``leaders`` by score, then each of ``below`` in its order."""
    ranks = [0] * len(scores)
    for seat in leaders:
        ranks[seat - 1] = 1 + sum(1 for o in leaders if scores[o - 1] > scores[seat - 1])
    for offset, seat in enumerate(below):
        ranks[seat - 1] = len(leaders) + 1 + offset
    return ranks


def _outage_note(outage: mpb.ServerOutage) -> str:
    """The comment on the ply a server outage interrupted."""
    down = outage.up_at.ToNanoseconds() - outage.down_since.ToNanoseconds()
    return (
        f"The server was down during this ply from {outage.down_since.ToJsonString()} to "
        f"{outage.up_at.ToJsonString()} ({_seconds(down)}); that time was charged to no one."
    )


def _seconds(nanoseconds: int) -> str:
    return f"{max(0, nanoseconds) / 1e9:.3f} s"


def _signature_finding(seat: int, ply: int, code: str, why: str) -> vpb.Finding:
    head = "the final head" if ply == 0 else f"the head after ply {ply}"
    sentence = why if code == "SIGNATURE_INVALID" else f"seat {seat} {why}"
    return vpb.Finding(
        ply=ply, seat=seat, code=code, message=f"{sentence} (signing {head}; docs/seals.md §4)"
    )


def _invalid(field_name: str, reason: str, message: str) -> CommandRefusedError:
    return CommandRefusedError(Refusal.INVALID, field_name, reason, message)


def _precondition(
    field_name: str, reason: str, message: str, *, current_ply: int = 0
) -> CommandRefusedError:
    return CommandRefusedError(
        Refusal.PRECONDITION, field_name, reason, message, current_ply=current_ply
    )


def _duration(milliseconds: int | None) -> Duration:
    duration = Duration()
    duration.FromMilliseconds(milliseconds or 0)
    return duration


def _timestamp(at: Instant) -> Timestamp:
    """The instant's wall time, to the millisecond."""
    stamp = Timestamp()
    stamp.FromMilliseconds(at.wall_ns // NS_PER_MS)
    return stamp


def _datetime(at: Instant) -> datetime:
    """The instant's wall time as a ``datetime``, to the millisecond."""
    return datetime.fromtimestamp(at.wall_ns // NS_PER_MS / 1000, UTC)
