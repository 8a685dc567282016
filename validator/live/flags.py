"""When flags fall: one timer for every match a process holds.

A :class:`FlagTimer` keeps each match's next flag moment in a heap and runs one task that
sleeps until the earliest (on the referee's clock, which may be a test's) and then calls back
with the match's id. Each move replaces its match's moment (:meth:`FlagTimer.set`); a moment
that was replaced is skipped when it comes up (its entry carries the match's version). The
heap is rebuilt when it holds many more entries than matches, so it stays the size of the
matches held.
"""

from __future__ import annotations

import asyncio
import contextlib
import heapq
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final

from gamerec.validator.live.clocks import Clock, Instant, elapsed_ns

#: The heap is rebuilt when it holds this many times more entries than matches (and more
#: than REBUILD_FLOOR).
REBUILD_FACTOR: Final = 4
REBUILD_FLOOR: Final = 256


class FlagTimer:
    """The flags of many matches on one task (see the module docstring).

    Args:
        clock: the referee's clock.
        fall: called with a match's id when its moment comes (as a task of its own, so that
            one slow flag holds up no other; its errors are the callback's to handle).
    """

    def __init__(self, clock: Clock, fall: Callable[[str], Coroutine[Any, Any, None]]) -> None:
        """Time nothing yet; :meth:`start` the task."""
        self._clock = clock
        self._fall = fall
        self._heap: list[tuple[int, int, str]] = []
        self._moments: dict[str, tuple[int, int]] = {}
        self._version = 0
        self._earlier = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._falling: set[asyncio.Task[None]] = set()

    def start(self) -> None:
        """Run the timer's task."""
        self._task = asyncio.create_task(self._run(), name="gamerec-flags")

    async def stop(self) -> None:
        """Stop the task (and the flags being appended)."""
        tasks = [task for task in (self._task, *self._falling) if task is not None]
        for task in tasks:
            task.cancel()
        for task in tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task

    def set(self, match_id: str, moment: Instant | None) -> None:
        """The match's flag falls at ``moment`` (None: no clock runs; forget it)."""
        if moment is None:
            self._moments.pop(match_id, None)
            return
        now = self._clock.now()
        # The key is on this process's own timeline (a moment may be read on another boot).
        key = now.mono_ns + _until(now, moment)
        self._version += 1
        self._moments[match_id] = (key, self._version)
        if self._heap and key < self._heap[0][0]:
            self._earlier.set()
        heapq.heappush(self._heap, (key, self._version, match_id))
        if len(self._heap) > max(REBUILD_FLOOR, REBUILD_FACTOR * len(self._moments)):
            self._heap = [(key, version, held) for held, (key, version) in self._moments.items()]
            heapq.heapify(self._heap)
        if len(self._heap) == 1:
            self._earlier.set()

    async def _run(self) -> None:
        while True:
            if not self._heap:
                self._earlier.clear()
                await self._earlier.wait()
                continue
            key, version, match_id = self._heap[0]
            if self._moments.get(match_id) != (key, version):
                heapq.heappop(self._heap)
                continue
            now = self._clock.now()
            if key > now.mono_ns:
                self._earlier.clear()
                moment = now.later(key - now.mono_ns)
                await _first_of(self._clock.sleep_until(moment), self._earlier.wait())
                continue
            heapq.heappop(self._heap)
            del self._moments[match_id]
            falling = asyncio.create_task(self._fall(match_id), name=f"flag {match_id}")
            self._falling.add(falling)
            falling.add_done_callback(self._falling.discard)


def _until(now: Instant, moment: Instant) -> int:
    """Nanoseconds from ``now`` to ``moment`` (negative when it has passed)."""
    if moment.boot == now.boot:
        return moment.mono_ns - now.mono_ns
    return elapsed_ns(now, moment) or -elapsed_ns(moment, now)


async def _first_of(awaited: Awaitable[object], other: Awaitable[object]) -> None:
    """Run two awaitables until either finishes; cancel the other."""
    leading = asyncio.ensure_future(awaited)
    trailing = asyncio.ensure_future(other)
    _, pending = await asyncio.wait({leading, trailing}, return_when=asyncio.FIRST_COMPLETED)
    for task in pending:
        task.cancel()
