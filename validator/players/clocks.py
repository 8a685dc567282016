"""The clock state a seat is asked to move with (the ``go`` line of docs/engine-protocol.md).

The engine host does not run clocks: whoever referees the game does (the local engine game
here, the live match service), and hands the host a :class:`ClockState` for every move. The
host tells the engine the state and waits as long as :meth:`ClockState.budget_ms` allows.
"""

from __future__ import annotations

from dataclasses import dataclass

from gamerec.recorder.errors import GamerecError


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
