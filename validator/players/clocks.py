"""The clock state a seat is asked to move with (the ``go`` line of docs/engine-protocol.md).

The engine host does not run clocks: whoever referees the game does (a live match's
:class:`~gamerec.validator.live.match.Match`, in a tournament or on a server), and hands the
host a :class:`ClockState` for every move (:func:`clock_state` makes it from the match's time
control and clocks). The host tells the engine the state and waits as long as
:meth:`ClockState.budget_ms` allows.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from gamerec.recorder.errors import GamerecError
from gamerec.validator.live.timecontrol import ClockKind, TimeControl


class ClockError(GamerecError):
    """A clock state that cannot be: a negative time, or two kinds of delay at once."""


@dataclass(frozen=True, slots=True)
class ClockState:
    """Every seat's clock when a seat is asked for its move; all times in milliseconds.

    Attributes:
        remaining_ms: every seat's remaining time, in seat order; empty when the game has no
            running clocks.
        increment_ms: the Fischer increment added to the mover's clock after each move.
        delay_ms: the simple (US) delay: the mover's clock starts only after this long.
        bronstein_ms: the Bronstein delay: time used, up to this much, is given back after the
            move.
        move_limit_ms: the most any single move may take (GGP's play clock), or None.
    """

    remaining_ms: tuple[int, ...] = ()
    increment_ms: int = 0
    delay_ms: int = 0
    bronstein_ms: int = 0
    move_limit_ms: int | None = None

    def __post_init__(self) -> None:
        """Check the times (see :class:`ClockError`)."""
        times = (*self.remaining_ms, self.increment_ms, self.delay_ms, self.bronstein_ms)
        if any(time < 0 for time in times) or (self.move_limit_ms or 0) < 0:
            raise ClockError(f"a clock time is negative: {self}")
        if self.delay_ms and self.bronstein_ms:
            raise ClockError("a clock has either a simple delay or a Bronstein delay, not both")

    def budget_ms(self, seat: int) -> int | None:
        """How long ``seat`` may think on this move before its flag falls, or None (no limit).

        A simple delay adds to the budget (the clock starts late); an increment and a
        Bronstein delay are paid after the move, so they do not. The move limit caps it.

        Raises:
            ClockError: the state has running clocks but none for ``seat``.
        """
        limits: list[int] = []
        if self.remaining_ms:
            if not 1 <= seat <= len(self.remaining_ms):
                seats = len(self.remaining_ms)
                raise ClockError(f"the clock state has {seats} seats' times, not seat {seat}'s")
            limits.append(self.remaining_ms[seat - 1] + self.delay_ms)
        if self.move_limit_ms is not None:
            limits.append(self.move_limit_ms)
        return min(limits) if limits else None


def clock_state(control: TimeControl, clocks_ms: Sequence[int], seat: int) -> ClockState:
    """The clock state ``seat`` is asked to move with, from a match's time control and clocks.

    ``clocks_ms`` are every seat's clocks now (``Match.clocks_ms``: the running one as it
    shows), empty with no clock. A limit per move is the ``movetime`` of what is left of this
    move; the other kinds send every seat's time with the increment or delay.
    """
    if not control.timed or not clocks_ms:
        return ClockState()
    remaining = tuple(max(0, ms) for ms in clocks_ms)
    if control.kind is ClockKind.PER_MOVE:
        return ClockState(move_limit_ms=remaining[seat - 1])
    extra = control.extra_ms
    return ClockState(
        remaining_ms=remaining,
        increment_ms=extra if control.kind is ClockKind.FISCHER else 0,
        delay_ms=extra if control.kind is ClockKind.SIMPLE_DELAY else 0,
        bronstein_ms=extra if control.kind is ClockKind.BRONSTEIN else 0,
    )
