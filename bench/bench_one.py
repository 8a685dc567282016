"""ONE: plies per second of ``ENGINE.replay`` over 2,000 seeded random games, 2 and 4 players.

Run with ``.venv/bin/python -m bench.bench_one``. For each player count it generates 2,000
random games on the default board (game i from ``random.Random(i)``, not timed), then times
``ENGINE.replay`` over all of them (median of several repetitions; wall clock and process CPU
time, since the machine may be shared). The reference printed next to it is the step-by-step
``check``/``play`` path of :class:`OneState` over the same games, measured in the same run.
The goal of issue 3 is at least 500,000 plies per second.
"""

from __future__ import annotations

import random
import statistics
import time

from validator.games.one import ENGINE, Move, OneState, Variant

GAMES = 2_000
REPETITIONS = 5
GOAL = 500_000


def seeded_games(variant: Variant, count: int) -> list[list[Move]]:
    """``count`` random games, game i from ``random.Random(i)``."""
    return [ENGINE.random_game(variant, random.Random(seed)) for seed in range(count)]


def time_replay(variant: Variant, games: list[list[Move]]) -> tuple[float, float]:
    """Wall and CPU seconds for one ENGINE.replay of every game; fails on an illegal verdict."""
    replay = ENGINE.replay
    wall, cpu = time.perf_counter(), time.process_time()
    for moves in games:
        if replay(variant, moves).illegal is not None:
            raise AssertionError("a random legal game was rejected")
    return time.perf_counter() - wall, time.process_time() - cpu


def time_check_and_play(variant: Variant, games: list[list[Move]]) -> float:
    """Seconds for checking and playing every game ply by ply on a OneState."""
    start = time.perf_counter()
    for moves in games:
        state = OneState(variant)
        for move in moves:
            if state.check(move) is not None:
                raise AssertionError("a random legal game was rejected")
            state.play(move)
    return time.perf_counter() - start


def bench(players: int) -> None:
    """Generate, time and print the figures for one player count."""
    variant = ENGINE.variant(players=players)
    start = time.perf_counter()
    games = seeded_games(variant, GAMES)
    plies = sum(map(len, games))
    captures = sum(1 for moves in games for move in moves if len(move) > 1)
    print(
        f"one, {players} players: {GAMES} games, {plies} plies of which {captures} captures "
        f"(generated in {time.perf_counter() - start:.1f} s, not timed)"
    )
    runs = [time_replay(variant, games) for _ in range(REPETITIONS)]
    wall = statistics.median(run[0] for run in runs)
    cpu = statistics.median(run[1] for run in runs)
    verdict = "meets" if plies / wall >= GOAL else "misses"
    print(
        f"  ENGINE.replay: {plies / wall:,.0f} plies/s wall clock (median of {REPETITIONS}: "
        f"{wall * 1000:.1f} ms; {verdict} the goal of {GOAL:,}); "
        f"{plies / cpu:,.0f} plies/s of process CPU time"
    )
    reference = time_check_and_play(variant, games)
    print(
        f"  reference, OneState check+play: {plies / reference:,.0f} plies/s "
        f"({reference * 1000:.0f} ms, once)"
    )


def main() -> None:
    for players in (2, 4):
        bench(players)


if __name__ == "__main__":
    main()
