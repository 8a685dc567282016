"""When a match's clocks start (docs/live.md "When the clocks start").

The turn's clock, the scheduled start's checks, and the words the record uses for each way.

A match's creation says one of three ways: a scheduled start (``MatchCreated.clocks_start``:
from then the clock of the seat to move runs, plies before it are untimed), each seat's
first move (``MatchCreated.abort_after``: a seat's first ply is untimed up to that limit,
then the match is aborted), or neither (the clocks run from the creation). Pure: readings
of time in, numbers and sentences out.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from google.protobuf.timestamp_pb2 import Timestamp

from gamerec.validator.live.clocks import NS_PER_MS, NS_PER_SECOND, Instant, elapsed_ms, elapsed_ns
from gamerec.validator.render.ending import NO_FIRST_MOVE

#: How far ahead a scheduled start may be (seconds): 30 days.
MAX_START_AHEAD: Final = 30 * 24 * 3600


@dataclass(slots=True)
class Turn:
    """The clock of the seat to move: since when it runs, and what it used before an outage.

    ``started`` is when the turn began (or the server came back); the clock runs from then,
    or from the scheduled start of the clocks (``not_before``) when that is later.
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
        """The time the turn has used at ``at`` (0 before the clock runs)."""
        return self.used_before_ms + elapsed_ms(self.runs_from, at)


def stamp(at: Instant) -> Timestamp:
    """The instant's wall time, to the millisecond."""
    value = Timestamp()
    value.FromMilliseconds(at.wall_ns // NS_PER_MS)
    return value


def stamp_text(value: Timestamp) -> str:
    """A timestamp as RFC 3339 text, or its seconds when it is outside what that can write."""
    try:
        return value.ToJsonString()
    except ValueError:
        return f"{value.seconds} s after 1970"


def start_problem(start: Timestamp, at: Instant, timed: bool) -> tuple[str, str] | None:
    """Why a scheduled start cannot be, as (reason code, sentence); None: it can.

    It must start a clock (``timed``), be after ``at`` and at most MAX_START_AHEAD later.
    """
    if not timed:
        return (
            "NO_CLOCK",
            "a scheduled start starts the clocks, and this match has none (time control -)",
        )
    ahead = start.ToNanoseconds() - at.wall_ns
    when, now = f"start_at {stamp_text(start)}", stamp_text(stamp(at))
    if ahead <= 0:
        return "START_PASSED", f"{when} is not after the server's time now, {now}"
    if ahead > MAX_START_AHEAD * NS_PER_SECOND:
        days = MAX_START_AHEAD // 86400
        return (
            "START_TOO_FAR",
            f"{when} is more than {days} days after the server's time now, {now}",
        )
    return None


def untimed_first_note(seat: int) -> str:
    """The comment of a seat's untimed first ply."""
    return f"Seat {seat}'s first ply, untimed: its clock starts with its next turn."


def before_start_note(start: Instant) -> str:
    """The comment of a ply played before the clocks' scheduled start."""
    return f"Played before the clocks' scheduled start, {stamp_text(stamp(start))}: untimed."


def no_first_move_reason(seat: int, limit_ms: int) -> str:
    """Why a match was aborted: ``seat`` did not make its first ply within the limit."""
    return (
        f"seat {seat} {NO_FIRST_MOVE} within {limit_ms / 1000:g} s of its turn (the abort "
        "limit), so the match is aborted with no result"
    )


def clocks_sentence(start: Instant | None, abort_after_ms: int | None) -> str:
    """How the clocks started, as the final record's comment says it; "": from the creation."""
    if start is not None:
        return f"The clocks started at their scheduled start, {stamp_text(stamp(start))}."
    if abort_after_ms is not None:
        return (
            "Each seat's clock started with its first move; its first ply was untimed "
            f"(abort limit {abort_after_ms / 1000:g} s)."
        )
    return ""
