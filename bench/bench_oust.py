"""Oust: placements per second of ENGINE.replay over 2,000 seeded random side-7 games.

Run with ``.venv/bin/python -m bench.bench_oust``. The reference printed next to it is the
turn-by-turn ``check``/``play`` path of :class:`OustState` over the same games, measured in the
same run. The goal of issue 5 is at least 500,000 placements per second (wall clock). The
CPU-time rate is printed too: on a shared machine it shows what the engine does when it gets a
whole core.
"""

from __future__ import annotations

import random
import statistics
import time

from validator.games.oust import ENGINE, Move, OustState, OustVariant

GAMES = 2_000
REPETITIONS = 5
GOAL = 500_000


def seeded_games(variant: OustVariant, count: int) -> list[list[Move]]:
    """``count`` random games, game i from ``random.Random(i)``."""
    return [ENGINE.random_game(variant, random.Random(seed)) for seed in range(count)]


def placements_in(games: list[list[Move]]) -> int:
    """Stones placed in all games (pass and swap place none)."""
    return sum(len(move) for moves in games for move in moves if isinstance(move, tuple))


def time_replay(variant: OustVariant, games: list[list[Move]]) -> tuple[float, float]:
    """Wall and CPU seconds for one ENGINE.replay of every game; fails on an illegal verdict."""
    replay = ENGINE.replay
    wall, cpu = time.perf_counter(), time.process_time()
    for moves in games:
        if replay(variant, moves).illegal is not None:
            raise AssertionError("a random legal game was rejected")
    return time.perf_counter() - wall, time.process_time() - cpu


def time_check_and_play(variant: OustVariant, games: list[list[Move]]) -> float:
    """Seconds for checking and playing every game turn by turn on an OustState."""
    start = time.perf_counter()
    for moves in games:
        state = OustState(variant)
        for move in moves:
            if state.check(move) is not None:
                raise AssertionError("a random legal game was rejected")
            state.play(move)
    return time.perf_counter() - start


def main() -> None:
    variant = ENGINE.variant()
    start = time.perf_counter()
    games = seeded_games(variant, GAMES)
    placements = placements_in(games)
    plies = sum(len(moves) for moves in games)
    lengths = sorted(len(moves) for moves in games)
    print(
        f"oust: {GAMES} games, {plies} plies, {placements} placements "
        f"(generated in {time.perf_counter() - start:.1f} s, not timed); plies per game: "
        f"min {lengths[0]}, median {lengths[len(lengths) // 2]}, max {lengths[-1]}"
    )
    runs = [time_replay(variant, games) for _ in range(REPETITIONS)]
    wall = statistics.median(run[0] for run in runs)
    cpu = statistics.median(run[1] for run in runs)
    rate = placements / wall
    verdict = "meets" if rate >= GOAL else "misses"
    print(
        f"ENGINE.replay: {rate:,.0f} placements/s, {plies / wall:,.0f} plies/s wall clock "
        f"(median of {REPETITIONS}: {wall * 1000:.1f} ms; {verdict} the goal of {GOAL:,}); "
        f"{placements / cpu:,.0f} placements/s of process CPU time"
    )
    reference = time_check_and_play(variant, games)
    print(
        f"reference, OustState check+play: {placements / reference:,.0f} placements/s "
        f"({reference * 1000:.0f} ms, once)"
    )


if __name__ == "__main__":
    main()
