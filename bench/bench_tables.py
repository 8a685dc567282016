"""Oh-Wah-Ree endgame tables: build time and lookups per second (docs/tables.md).

Two figures:

- build: ``solve`` of every two-seat position of up to N stones (8; 5 with ``--quick``),
  positions/s, against the engine playing every move of every one of those positions once
  (``from_position``, ``legal_moves``, ``copy`` and ``play``: the part of the build that is the
  rules), timed in turn. The ratio is the share of the build the rules take; the rest is the
  numbering and the retrograde propagation.
- lookup: ``Table.lookup`` of 20,000 seeded random covered positions (seat to move drawn too),
  lookups/s, against one ply of the engine on the same states (``copy`` and ``play`` of the
  first legal move: what a search pays to expand one child), timed in turn; target at least
  1x, so that a search can probe every node it reaches.

Run alone: ``.venv/bin/python -m bench.bench_tables [--stones 8]``.
"""

from __future__ import annotations

import argparse
import random
import tempfile
from dataclasses import dataclass
from pathlib import Path

from bench.figures import Figure, Paired, paired, rate_figure, table
from gamerec.validator.games.ohwahree import OhWahReeState, OhWahReeVariant
from gamerec.validator.tables import Table, open_table
from gamerec.validator.tables.build import solve
from gamerec.validator.tables.positions import level, table_size
from gamerec.validator.tables.tablefile import write

LOOKUPS = 20_000
VARIANT = OhWahReeVariant(players=2)


@dataclass(frozen=True, slots=True)
class TableFigures:
    """What one run measured.

    Attributes:
        stones: N of the table built.
        positions: its positions.
        size: its file's bytes.
        build: the build against the engine playing every move, in turn.
        lookups: the states looked up (each run of ``lookup``).
        lookup: the lookups against one engine ply per state, in turn.
    """

    stones: int
    positions: int
    size: int
    build: Paired
    lookups: int
    lookup: Paired


def _states(stones: int, count: int) -> list[OhWahReeState]:
    """``count`` seeded random two-seat states in play with up to ``stones`` on the board."""
    rng = random.Random(37)
    states: list[OhWahReeState] = []
    while len(states) < count:
        placed = [rng.randrange(12) for _ in range(rng.randint(1, stones))]
        pits = [placed.count(pit) for pit in range(12)]
        rest = VARIANT.total_stones - sum(pits)
        state = OhWahReeState.from_position(VARIANT, pits, (rest, 0), rng.choice((1, 2)))
        if not state.is_over:
            states.append(state)
    return states


def _play_everything(stones: int) -> None:
    """The rules' part of a build: every move of every position of up to ``stones`` stones."""
    for count in range(stones + 1):
        stores = (VARIANT.total_stones - count, 0)
        for _, pits in level(count):
            state = OhWahReeState.from_position(VARIANT, pits, stores, 1)
            for move in state.legal_moves():
                state.copy().play(move)


def measure(stones: int, repetitions: int = 1) -> TableFigures:
    """Build a table of up to ``stones`` stones and probe it (see the module text)."""
    built = paired(lambda: solve(stones), lambda: _play_everything(stones), repetitions)
    with tempfile.TemporaryDirectory(prefix="gamerec-bench-tables-") as folder:
        path = Path(folder) / "bench.owrt"
        size = write(solve(stones), path)
        opened: Table = open_table(path)
    states = _states(stones, LOOKUPS)
    firsts = [state.legal_moves()[0] for state in states]

    def look() -> None:
        for state in states:
            opened.lookup(state)

    def expand() -> None:
        for state, move in zip(states, firsts, strict=True):
            state.copy().play(move)

    lookup = paired(look, expand, max(3, repetitions))
    return TableFigures(stones, table_size(stones), size, built, LOOKUPS, lookup)


def figures(measured: TableFigures) -> list[Figure]:
    """The build and lookup figures of one run."""
    n = measured.stones
    return [
        rate_figure(
            f"Oh-Wah-Ree tables: build, N={n} ({measured.positions:,} positions)",
            measured.positions,
            "positions/s",
            "engine plays every move once",
            measured.build,
        ),
        Figure(f"Oh-Wah-Ree tables: build time, N={n}", measured.build.first_seconds, "s"),
        Figure(f"Oh-Wah-Ree tables: file size, N={n}", measured.size / 1e6, "MB"),
        rate_figure(
            "Oh-Wah-Ree tables: lookup",
            measured.lookups,
            "lookups/s",
            "engine copy+play, one ply",
            measured.lookup,
            target=1.0,
        ),
    ]


def main() -> None:
    """Run the tables benchmark alone and print its table."""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_tables")
    parser.add_argument("--stones", type=int, default=8)
    options = parser.parse_args()
    print(table(figures(measure(options.stones))))


if __name__ == "__main__":
    main()
