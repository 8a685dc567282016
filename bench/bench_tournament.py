"""Tournaments: games/s of ``gamerec tournament`` against the same games by ``gamerec generate``.

``gamerec tournament`` plays Aronda between the two built-in engines as engine processes
(``gamerec engine --policy random`` against ``--policy greedy``, every move a ``position`` and
``go`` over a pipe, every game refereed by the live match core and appended to a ``.pbs``),
with one game at a time and with one per core. ``gamerec generate`` plays as many games of
the same game in one process, with no protocol, no referee and no clock, once with each
policy; its reference figure is the games/s of the two runs together (all the games over
the time of both, halved: a tournament's game is half random moves, half greedy ones). The
ratio is the cost of the protocol, the processes and the refereeing.

Each figure is one run of the command, start-up included, timed from outside.

Run alone: ``.venv/bin/python -m bench.bench_tournament [--games 200]``.
"""

from __future__ import annotations

import argparse
import shlex
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

from bench.figures import Figure, table
from gamerec.validator.batch import default_workers

GAMEREC = Path(sys.executable).parent / "gamerec"
GAME = "Aronda"


@dataclass(frozen=True, slots=True)
class TournamentFigures:
    """What one run measured: seconds of each command for ``games`` games.

    Attributes:
        games: the games each command played.
        cores: the concurrency of the parallel tournament.
        serial_s: ``tournament --concurrency 1``.
        parallel_s: ``tournament --concurrency <cores>``.
        generate_random_s: ``generate --policy random``.
        generate_greedy_s: ``generate --policy greedy``.
    """

    games: int
    cores: int
    serial_s: float
    parallel_s: float
    generate_random_s: float
    generate_greedy_s: float


def _timed(arguments: list[str]) -> float:
    started = time.perf_counter()
    subprocess.run([str(GAMEREC), *arguments], check=True, capture_output=True)
    return time.perf_counter() - started


def _tournament(games: int, concurrency: int, folder: Path) -> float:
    engine = f"{shlex.quote(str(GAMEREC))} engine --policy"
    out = folder / f"tournament-{concurrency}.pbs"
    return _timed(
        [
            *("tournament", "--game", GAME, "--rounds", str(games // 2), "--clock", "-"),
            *("--engine", f"Random={engine} random", "--engine", f"Greedy={engine} greedy"),
            *("--concurrency", str(concurrency), "-q", "-o", str(out)),
        ]
    )


def measure(games: int) -> TournamentFigures:
    """Run the four commands once each on ``games`` games (rounded down to an even count)."""
    games -= games % 2
    cores = default_workers()
    with tempfile.TemporaryDirectory(prefix="gamerec-bench-tournament-") as name:
        folder = Path(name)
        generated = {
            policy: _timed(
                [
                    *("generate", "--game", GAME, "--count", str(games)),
                    *("--policy", policy, "-o", str(folder / f"{policy}.pbs")),
                ]
            )
            for policy in ("random", "greedy")
        }
        serial = _tournament(games, 1, folder)
        parallel = _tournament(games, cores, folder)
    return TournamentFigures(
        games, cores, serial, parallel, generated["random"], generated["greedy"]
    )


def figures(measured: TournamentFigures) -> list[Figure]:
    """Games/s of the tournaments against games/s of generate (its two policies together)."""
    games = measured.games
    generate = 2 * games / (measured.generate_random_s + measured.generate_greedy_s)
    reference = f"gamerec generate, random and greedy ({games:,} {GAME} games)"
    return [
        Figure(
            f"tournament, 1 game at a time ({games:,} {GAME} games)",
            games / measured.serial_s,
            "games/s",
            reference,
            generate,
        ),
        Figure(
            f"tournament, {measured.cores} games at a time",
            games / measured.parallel_s,
            "games/s",
            reference,
            generate,
        ),
    ]


def main() -> None:
    """Run the tournament benchmark alone and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--games", type=int, default=200, help="games per command")
    options = parser.parse_args()
    print(table(figures(measure(options.games))))


if __name__ == "__main__":
    main()
