"""The match's commands: create, play, resign, offer and answer draws, abort, sign, stop.

:class:`Match` is the live match the referee, the tournaments and the tables drive (see
the package docstring). It may import what :mod:`.ending` does.
"""

from __future__ import annotations

from collections.abc import Iterable
from datetime import timedelta
from typing import TYPE_CHECKING

from gamerec.recorder.errors import NotationError, excerpt
from gamerec.recorder.limits import DEFAULT_LIMITS
from gamerec.recorder.notation import format_action
from gamerec.recorder.seal import HOST
from gamerec.recorder.signing import SealError
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.builder import IllegalPlyError, RecordBuilder
from gamerec.validator.identity import RulesError
from gamerec.validator.live.clocks import Instant, elapsed_ms
from gamerec.validator.live.match.creation import (
    _canonical,
    _seat_keys,
    _starting_record,
    _time_control,
    _token_of,
)
from gamerec.validator.live.match.ending import MatchEnding
from gamerec.validator.live.match.events import (
    ABORTED,
    ADMIN,
    FORFEIT,
    MALFORMED_MOVE,
    MAX_EVENTS,
    REJECT,
    Logged,
    MatchLogError,
    Outcome,
    _datetime,
    _duration,
    _invalid,
    _precondition,
    _signature_finding,
    _timestamp,
)
from gamerec.validator.live.starts import start_problem

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


class Match(MatchEnding):
    """One live match (see the package docstring): :meth:`create` or :meth:`from_log` it."""

    # -- making one -------------------------------------------------------------------------------

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
        if request.HasField("start_at"):
            problem = start_problem(request.start_at, at, time_control.timed)
            if problem is not None:
                raise _invalid("start_at", *problem)
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

    # -- commands ---------------------------------------------------------------------------------

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

    # -- the steps of a command -------------------------------------------------------------------

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

    def _answer(self, seat: int, accept: bool, at: Instant) -> Outcome:
        events = [self._append(at, draw_answered=mpb.DrawAnswered(seat=seat, accept=accept))]
        waiting = [
            s for s in self._playing() if s != self._draw_by and s not in self._draw_accepted
        ]
        if accept and not waiting:
            events.append(self._end_by_agreement(at))
        return Outcome(events)
