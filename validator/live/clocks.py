"""The readings of time the referee takes, and the clocks that give them (injectable).

An :class:`Instant` is one reading: the wall time (UTC, for records and for readings taken
on another machine) and a monotonic reading with the name of the monotonic clock it belongs
to. Two readings of the same monotonic clock are compared by it, so a change of the wall
clock (NTP, a person) never charges a seat; readings of different monotonic clocks (another
boot, another machine) are compared by their wall times. On Linux every process of one boot
reads the same monotonic clock (``CLOCK_MONOTONIC``, named by the kernel's boot id), so the
server processes that share a port, and a server restarted after SIGKILL, compare exactly.

Clocks: :class:`SystemClock` (the real one), :class:`ManualClock` (advanced by the program:
a tournament's tests, the referee's unit tests) and :class:`FileClock` (a number in a file,
advanced by another process: tests of a real server in its own process, ``gamerec serve
--test-clock FILE``).
"""

from __future__ import annotations

import asyncio
import time
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Final, Protocol

from gamerec.recorder.atomic import atomic_output
from gamerec.recorder.errors import GamerecError

NS_PER_MS: Final = 1_000_000
NS_PER_SECOND: Final = 1_000_000_000
#: Where the wall time of a manual or file clock starts (its reading 0).
TEST_EPOCH: Final = datetime(2026, 1, 1, tzinfo=UTC)
_TEST_EPOCH_NS: Final = int(TEST_EPOCH.timestamp()) * NS_PER_SECOND
#: How often a file clock is read while something waits for it.
FILE_POLL_SECONDS: Final = 0.005


@dataclass(frozen=True, slots=True)
class Instant:
    """One reading of time.

    Attributes:
        wall_ns: the wall time, nanoseconds since 1970 (UTC).
        mono_ns: the monotonic reading, nanoseconds.
        boot: the monotonic clock the reading is of (readings of one compare by it).
    """

    wall_ns: int
    mono_ns: int
    boot: str

    @property
    def wall(self) -> datetime:
        """The wall time as a ``datetime`` (UTC, microseconds)."""
        return datetime.fromtimestamp(self.wall_ns / NS_PER_SECOND, UTC)

    def later(self, nanoseconds: int) -> Instant:
        """The reading ``nanoseconds`` after this one."""
        return Instant(self.wall_ns + nanoseconds, self.mono_ns + nanoseconds, self.boot)


def elapsed_ns(start: Instant, end: Instant) -> int:
    """The time from ``start`` to ``end`` (0 when ``end`` is not after ``start``)."""
    if start.boot == end.boot:
        return max(0, end.mono_ns - start.mono_ns)
    return max(0, end.wall_ns - start.wall_ns)


def elapsed_ms(start: Instant, end: Instant) -> int:
    """:func:`elapsed_ns` in whole milliseconds (rounded down: the referee counts in ms)."""
    return elapsed_ns(start, end) // NS_PER_MS


class Clock(Protocol):
    """Where the referee reads the time, and how it waits for a moment to come."""

    def now(self) -> Instant:
        """The reading now."""
        ...

    async def sleep_until(self, moment: Instant) -> None:
        """Return once this clock reads ``moment`` or later."""
        ...


class SystemClock:
    """The machine's clocks: ``time.time_ns`` and ``time.monotonic_ns``."""

    def __init__(self) -> None:
        """Name the monotonic clock by the kernel's boot id (a random name elsewhere)."""
        self.boot = _boot_id()

    def now(self) -> Instant:
        """The reading now."""
        return Instant(time.time_ns(), time.monotonic_ns(), self.boot)

    async def sleep_until(self, moment: Instant) -> None:
        """Sleep until ``moment`` (asyncio's timer)."""
        while (left := _left_ns(moment, self.now())) > 0:
            await asyncio.sleep(left / NS_PER_SECOND)


def _boot_id() -> str:
    try:
        return "boot:" + Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    except OSError:
        return f"process:{uuid.uuid4()}"


def _left_ns(moment: Instant, now: Instant) -> int:
    """How long until ``moment`` (negative or 0 once it has come)."""
    if moment.boot == now.boot:
        return moment.mono_ns - now.mono_ns
    return moment.wall_ns - now.wall_ns


class ManualClock:
    """A clock that moves only when :meth:`advance` is called (wall time from TEST_EPOCH)."""

    def __init__(self, start_ns: int = 0) -> None:
        """Start at ``start_ns`` past the epoch."""
        self._ns = start_ns
        self._moved: asyncio.Event | None = None

    def now(self) -> Instant:
        """The reading now."""
        return Instant(_TEST_EPOCH_NS + self._ns, self._ns, "manual")

    def advance(self, seconds: float) -> None:
        """Move the clock on (and wake whatever waits for it)."""
        self._ns += round(seconds * NS_PER_SECOND)
        if self._moved is not None:
            self._moved.set()

    async def sleep_until(self, moment: Instant) -> None:
        """Wait until the clock is advanced to ``moment``."""
        while _left_ns(moment, self.now()) > 0:
            self._moved = self._moved or asyncio.Event()
            self._moved.clear()
            await self._moved.wait()


class ClockFileError(GamerecError):
    """A test clock's file that cannot be read as a number of nanoseconds."""


class FileClock:
    """A clock whose reading is the number of nanoseconds written in a file.

    Another process moves it by writing a larger number (:func:`set_clock_file`); readings
    are that many nanoseconds past :data:`TEST_EPOCH`. Every process reading the file reads
    the same clock, so the server processes of one ``gamerec serve`` agree.
    """

    def __init__(self, path: str | Path) -> None:
        """Read ``path`` (it must hold a number already).

        Raises:
            ClockFileError: the file cannot be read or holds no number.
        """
        self.path = Path(path)
        self.now()

    def now(self) -> Instant:
        """The reading now (the file is read every time)."""
        try:
            ns = int(self.path.read_text().strip())
        except (OSError, ValueError) as error:
            raise ClockFileError(
                f"{self.path}: a test clock's file must hold a number of nanoseconds ({error})"
            ) from None
        return Instant(_TEST_EPOCH_NS + ns, ns, f"file:{self.path}")

    async def sleep_until(self, moment: Instant) -> None:
        """Read the file every few milliseconds until it reaches ``moment``."""
        while _left_ns(moment, self.now()) > 0:
            await asyncio.sleep(FILE_POLL_SECONDS)


def set_clock_file(path: str | Path, nanoseconds: int) -> None:
    """Write a test clock's reading (atomically: a reader sees the old or the new number)."""
    with atomic_output(Path(path)) as stream:
        stream.write(f"{nanoseconds}\n".encode())
