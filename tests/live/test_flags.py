"""One timer for every match's flag: each falls at its moment, a replaced moment never."""

from __future__ import annotations

import asyncio

from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.flags import REBUILD_FLOOR, FlagTimer


def test_flags_fall_in_order_at_their_moments_and_replaced_moments_are_skipped() -> None:
    async def run() -> list[tuple[str, int]]:
        clock = ManualClock()
        fallen: list[tuple[str, int]] = []

        async def fall(match_id: str) -> None:
            fallen.append((match_id, clock.now().mono_ns // 10**9))

        timer = FlagTimer(clock, fall)
        timer.start()
        start = clock.now()
        timer.set("a", start.later(30 * 10**9))
        timer.set("b", start.later(10 * 10**9))
        timer.set("c", start.later(20 * 10**9))
        timer.set("c", start.later(40 * 10**9))  # c moved: 20 s no longer counts
        timer.set("d", start.later(5 * 10**9))
        timer.set("d", None)  # d's clock stopped
        for _ in range(50):
            clock.advance(1)
            for _ in range(5):
                await asyncio.sleep(0)
        await timer.stop()
        return fallen

    assert asyncio.run(run()) == [("b", 10), ("a", 30), ("c", 40)]


def test_the_heap_stays_the_size_of_the_matches_timed() -> None:
    async def run() -> int:
        clock = ManualClock()

        async def fall(match_id: str) -> None:
            raise AssertionError(match_id)

        timer = FlagTimer(clock, fall)
        for move in range(20 * REBUILD_FLOOR):
            timer.set(f"m{move % 10}", clock.now().later((3600 + move) * 10**9))
        return len(timer._heap)

    assert asyncio.run(run()) <= REBUILD_FLOOR + 1
