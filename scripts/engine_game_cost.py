"""What playing through the engine protocol costs, beside the same kind of games in process.

Usage: ``python scripts/engine_game_cost.py [--games 20] [--game Oh-Wah-Ree] [--players 2]``
plays that many games between two ``gamerec engine --policy random`` processes (seats
alternating) and prints: the engines' start-up with the handshake (median of 3), plies per
second and milliseconds per ply of the engine games, the CPU per ply of the host and of both
engines, and ``gamerec generate``'s plies per second and CPU per ply for as many games in this
process (random policy). The seed of issue 27's tournament benchmark; run it on a quiet machine.
"""

from __future__ import annotations

import argparse
import asyncio
import resource
import statistics
import sys
import time
from pathlib import Path

from gamerec.validator.generation import generate
from gamerec.validator.players.engine_game import play_engine_game
from gamerec.validator.players.host import EngineProcess

GAMEREC = str(Path(sys.executable).parent / "gamerec")


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


async def _start_up() -> float:
    """The median seconds from spawning ``gamerec engine`` to the end of the handshake."""
    seconds = []
    for _ in range(3):
        started = time.perf_counter()
        engine = await EngineProcess.start([GAMEREC, "engine"])
        seconds.append(time.perf_counter() - started)
        await engine.stop()
    return statistics.median(seconds)


async def _engine_games(games: int, game: str, variant: dict[str, str]) -> None:
    print(f"engine start-up and handshake: {await _start_up():.3f} s (median of 3)")
    children = _children_cpu()
    first = await EngineProcess.start([GAMEREC, "engine", "--seed", "1"])
    second = await EngineProcess.start([GAMEREC, "engine", "--seed", "2"])
    started, cpu, plies = time.perf_counter(), time.process_time(), 0
    for number in range(games):
        seats = [first, second] if number % 2 else [second, first]
        plies += len((await play_engine_game(seats, game, variant)).record.moves)
    seconds, host_cpu = time.perf_counter() - started, time.process_time() - cpu
    await first.stop()
    await second.stop()
    engines_cpu = _children_cpu() - children
    print(
        f"engine games: {games} games, {plies:,} plies in {seconds:.2f} s: "
        f"{plies / seconds:,.0f} plies/s, {1000 * seconds / plies:.2f} ms per ply"
    )
    print(
        f"CPU per ply: host {1000 * host_cpu / plies:.2f} ms, both engines "
        f"{1000 * engines_cpu / plies:.2f} ms (their start-up included)"
    )


def _generated(games: int, game: str, variant: dict[str, str]) -> None:
    started, cpu = time.perf_counter(), time.process_time()
    plies = sum(len(record.moves) for record in generate(game, variant, games, seed=1))
    seconds, spent = time.perf_counter() - started, time.process_time() - cpu
    print(
        f"gamerec generate: {games} games, {plies:,} plies in {seconds:.3f} s: "
        f"{plies / seconds:,.0f} plies/s, CPU {1000 * spent / plies:.3f} ms per ply"
    )


def main() -> None:
    """Measure and print (see the module docstring)."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--game", default="Oh-Wah-Ree")
    parser.add_argument("--players", default="2")
    options = parser.parse_args()
    variant = {"Players": options.players}
    asyncio.run(_engine_games(options.games, options.game, variant))
    _generated(options.games, options.game, variant)


if __name__ == "__main__":
    main()
