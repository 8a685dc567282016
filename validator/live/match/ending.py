"""How a match ends: a flag, an abort limit, a full log, a forfeit, the rules, a draw.

:class:`MatchEnding` adds to :class:`~.core.MatchCore` the steps that end a match: the
result, the ranks and the final record's comment. It may import what :mod:`.core` does.
"""

from __future__ import annotations

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import winners_sentence
from gamerec.validator.judge import TERMINATION_WORDS, format_scores, format_seats
from gamerec.validator.live.clocks import Instant
from gamerec.validator.live.match.core import MatchCore
from gamerec.validator.live.match.events import (
    ABORTED,
    EVENTS_ROOM,
    FINISHED,
    FORFEIT,
    Logged,
    Outcome,
    _precondition,
    _ranks,
)
from gamerec.validator.live.starts import no_first_move_reason


class MatchEnding(MatchCore):
    """The steps that end a match (see the module docstring)."""

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
        reason = no_first_move_reason(seat, limit)
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

    # -- the end ----------------------------------------------------------------------------------

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
