"""Time controls: their notation (docs/live.md "Time controls") and each kind's clock arithmetic.

The notation is PGN's ``TimeControl`` for what PGN has (seconds; ``-`` for none, ``300``
sudden death, ``300+3`` Fischer increment), with delays and GGP's play clock added:

==============  ===================  ==========================================================
notation        kind                 a move that uses ``u`` of a clock showing ``r``
==============  ===================  ==========================================================
``-`` (or "")   none                 no clock
``300``         sudden death         leaves ``r - u``; the flag falls when ``u`` reaches ``r``
``300+3``       Fischer increment    leaves ``r - u + 3``; the flag falls when ``u`` reaches ``r``
``300d3``       simple (US) delay    the first 3 s of each move are free: leaves
                                     ``r - max(0, u - 3)``; the flag falls at ``u = r + 3``
``300b3``       Bronstein delay      gives back what the move used, up to 3 s: leaves
                                     ``r - u + min(u, 3)``; the flag falls when ``u`` reaches ``r``
``30/move``     a limit per move     every move has 30 s, nothing carries over; the clock after
                                     a move shows what was left of it, ``30 - u``; the flag
                                     falls at ``u = 30``
==============  ===================  ==========================================================

Times are seconds, whole or with up to three decimals (``60+0.5``); the referee counts in
milliseconds. Everything here is arithmetic on numbers: the readings of time are the caller's.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum
from typing import Final

from gamerec.recorder.errors import GamerecError, excerpt

#: The longest time a control may give (in seconds): about eleven and a half days.
MAX_SECONDS: Final = 1_000_000
MS_PER_SECOND: Final = 1000

_NUMBER = r"(\d{1,7}(?:\.\d{1,3})?)"
_FORMS: Final = (
    (re.compile(rf"{_NUMBER}"), "SUDDEN_DEATH"),
    (re.compile(rf"{_NUMBER}\+{_NUMBER}"), "FISCHER"),
    (re.compile(rf"{_NUMBER}d{_NUMBER}"), "SIMPLE_DELAY"),
    (re.compile(rf"{_NUMBER}b{_NUMBER}"), "BRONSTEIN"),
    (re.compile(rf"{_NUMBER}/move"), "PER_MOVE"),
)
#: The forms, as the error for an unknown one lists them.
NOTATION_HELP: Final = (
    "- (no clock), 300 (sudden death), 300+3 (Fischer increment), 300d3 (simple delay), "
    "300b3 (Bronstein delay) or 30/move (a limit per move), in seconds (up to 3 decimals)"
)


class TimeControlError(GamerecError):
    """A time control that is not written in the notation, or outside its bounds."""


class ClockKind(StrEnum):
    """The kinds of time control."""

    NONE = "no clock"
    SUDDEN_DEATH = "sudden death"
    FISCHER = "Fischer increment"
    SIMPLE_DELAY = "simple delay"
    BRONSTEIN = "Bronstein delay"
    PER_MOVE = "limit per move"


_SEPARATOR: Final = {
    ClockKind.FISCHER: "+",
    ClockKind.SIMPLE_DELAY: "d",
    ClockKind.BRONSTEIN: "b",
}


@dataclass(frozen=True, slots=True)
class TimeControl:
    """A time control: its kind, the main time and the increment or delay, in milliseconds.

    Attributes:
        kind: the kind.
        base_ms: the time for the game (for a limit per move: the time of every move).
        extra_ms: the increment (Fischer) or the delay (simple, Bronstein); 0 otherwise.
    """

    kind: ClockKind
    base_ms: int = 0
    extra_ms: int = 0

    @property
    def timed(self) -> bool:
        """Whether there is a clock at all."""
        return self.kind is not ClockKind.NONE

    @property
    def notation(self) -> str:
        """The control as the notation writes it (``300+3``; ``-`` for none)."""
        if self.kind is ClockKind.NONE:
            return "-"
        base = _seconds_text(self.base_ms)
        if self.kind is ClockKind.SUDDEN_DEATH:
            return base
        if self.kind is ClockKind.PER_MOVE:
            return f"{base}/move"
        return f"{base}{_SEPARATOR[self.kind]}{_seconds_text(self.extra_ms)}"

    def start_ms(self) -> int | None:
        """Every seat's clock at the start; None with no clock."""
        return self.base_ms if self.timed else None

    def budget_ms(self, remaining_ms: int) -> int | None:
        """How long a move may take from a clock showing ``remaining_ms`` before the flag falls.

        None with no clock. The move must be received before this much has passed.
        """
        if self.kind is ClockKind.NONE:
            return None
        if self.kind is ClockKind.PER_MOVE:
            return self.base_ms
        if self.kind is ClockKind.SIMPLE_DELAY:
            return remaining_ms + self.extra_ms
        return remaining_ms

    def after_move_ms(self, remaining_ms: int, used_ms: int) -> int:
        """The clock after a move that used ``used_ms`` of a clock showing ``remaining_ms``.

        ``used_ms`` is below :meth:`budget_ms` (the flag did not fall).
        """
        kind = self.kind
        if kind is ClockKind.FISCHER:
            return remaining_ms - used_ms + self.extra_ms
        if kind is ClockKind.SIMPLE_DELAY:
            return remaining_ms - max(0, used_ms - self.extra_ms)
        if kind is ClockKind.BRONSTEIN:
            return remaining_ms - used_ms + min(used_ms, self.extra_ms)
        if kind is ClockKind.PER_MOVE:
            return self.base_ms - used_ms
        return remaining_ms - used_ms

    def next_turn_ms(self, clock_ms: int) -> int:
        """What a seat's clock shows when its next turn starts (a limit per move starts anew)."""
        return self.base_ms if self.kind is ClockKind.PER_MOVE else clock_ms


NO_CLOCK: Final = TimeControl(ClockKind.NONE)


def parse_time_control(text: str) -> TimeControl:
    """Read a time control written in the notation (see the module docstring).

    Raises:
        TimeControlError: not one of the forms, a main time of 0, or a time over
            :data:`MAX_SECONDS`.
    """
    written = text.strip().lower()
    if written in ("", "-"):
        return NO_CLOCK
    for pattern, kind in _FORMS:
        match = pattern.fullmatch(written)
        if match is None:
            continue
        numbers = [_milliseconds(group, text) for group in match.groups()]
        base = numbers[0]
        if base == 0:
            raise TimeControlError(
                f"time control {excerpt(text)}: the main time must be more than 0 seconds"
            )
        return TimeControl(ClockKind[kind], base, numbers[1] if len(numbers) > 1 else 0)
    raise TimeControlError(f"time control {excerpt(text)} is not one of {NOTATION_HELP}")


def _milliseconds(number: str, text: str) -> int:
    whole, _, fraction = number.partition(".")
    milliseconds = int(whole) * MS_PER_SECOND + int((fraction + "000")[:3])
    if milliseconds > MAX_SECONDS * MS_PER_SECOND:
        raise TimeControlError(
            f"time control {excerpt(text)}: {number} s is more than the most a control may "
            f"give ({MAX_SECONDS:,} s)"
        )
    return milliseconds


def _seconds_text(milliseconds: int) -> str:
    """Seconds as the notation writes them: ``300``, ``0.5``, ``2.125``."""
    whole, part = divmod(milliseconds, MS_PER_SECOND)
    if not part:
        return str(whole)
    return f"{whole}.{part:03d}".rstrip("0")
