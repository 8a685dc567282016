"""The search: MCTS playouts/s and alpha-beta nodes/s per game, OpenSpiel's MCTS on Oware.

For each game and seat count the search starts from the position after 6 seeded random
plies (the opening's full board, the game's typical branching):

- MCTS (``validator.search.mcts``, one process): a fixed number of playouts, timed; the
  Oh-Wah-Ree two-seat figure is timed in turn with OpenSpiel's ``MCTSBot`` (C++ Oware under
  its Python MCTS, one random rollout per simulation, ``solve`` off) making as many
  simulations from Oware's start: both are one random playout per iteration over a 12-pit
  ring; the rules differ (docs/analysis.md), so the games' lengths differ too.
- alpha-beta (``validator.search.alphabeta``, paranoid with more seats) with the game's
  evaluation, a fixed number of nodes, timed.
- root parallel: MCTS on Oh-Wah-Ree with 2 worker processes (the pool started beforehand)
  against 1 process, the same playouts, timed in turn: does a second core pay?

Run alone: ``.venv/bin/python -m bench.bench_search [--quick]``.
"""

from __future__ import annotations

import argparse
import importlib
import random
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from typing import Any

from bench.figures import Figure, Paired, median_seconds, paired, rate_figure, table
from gamerec.validator.analysis.searcher import evaluation_of
from gamerec.validator.games.protocol import GameState
from gamerec.validator.games.registry import GameEntry, entry_named
from gamerec.validator.search.alphabeta import alphabeta
from gamerec.validator.search.core import Limits
from gamerec.validator.search.mcts import mcts

#: The games and seat counts measured.
TABLES = (("ONE", 2), ("ONE", 3), ("Aronda", 2), ("Oust", 2), ("Oh-Wah-Ree", 2), ("Oh-Wah-Ree", 3))
OPENSPIEL_MCTS = "OpenSpiel MCTSBot on Oware (random rollouts)"
OPENING_PLIES = 6


@dataclass(frozen=True, slots=True)
class SearchScale:
    """How much each figure searches.

    Attributes:
        playouts: MCTS playouts a run.
        nodes: alpha-beta nodes a run.
        repetitions: runs (pairs) a figure.
    """

    playouts: int = 2_000
    nodes: int = 50_000
    repetitions: int = 3


QUICK = SearchScale(playouts=200, nodes=5_000, repetitions=1)


def opening(game: str, seats: int) -> tuple[GameEntry, GameState[Any]]:
    """The game's entry and the position after :data:`OPENING_PLIES` seeded random plies."""
    entry = entry_named(game)
    variant = entry.engine.variant_from_tags({"Players": str(seats)})
    state = entry.engine.new_game(variant)
    rng = random.Random(1)
    for _ in range(OPENING_PLIES):
        entry.engine.play_chosen(state, lambda _, options: rng.choice(options))
    return entry, state


def _openspiel_mcts(simulations: int) -> Any:
    """A function that runs OpenSpiel's MCTS bot for one move from Oware's start."""
    np = importlib.import_module("numpy")  # the bench extra, untyped
    pyspiel = importlib.import_module("pyspiel")
    spiel_mcts = importlib.import_module("open_spiel.python.algorithms.mcts")
    game = pyspiel.load_game("oware")
    evaluator = spiel_mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
    bot = spiel_mcts.MCTSBot(
        game, 2.0, simulations, evaluator, random_state=np.random.RandomState(1), solve=False
    )

    def step() -> None:
        bot.step(game.new_initial_state())

    return step


def figures(scale: SearchScale) -> list[Figure]:
    """Every figure of the section (see the module docstring)."""
    found: list[Figure] = []
    for game, seats in TABLES:
        entry, state = opening(game, seats)
        label = f"{game}, {seats} seats"

        def run_mcts(state: GameState[Any] = state) -> None:
            mcts(state, Limits(playouts=scale.playouts), seed=1)

        if (game, seats) == ("Oh-Wah-Ree", 2):
            times: Paired = paired(run_mcts, _openspiel_mcts(scale.playouts), scale.repetitions)
            found.append(
                rate_figure(f"{label}: MCTS", scale.playouts, "playouts/s", OPENSPIEL_MCTS, times)
            )
        else:
            seconds = median_seconds(run_mcts, scale.repetitions)
            found.append(Figure(f"{label}: MCTS", scale.playouts / seconds, "playouts/s"))

        def run_alphabeta(state: GameState[Any] = state, entry: GameEntry = entry) -> None:
            alphabeta(state, Limits(nodes=scale.nodes), evaluation_of(entry))

        seconds = median_seconds(run_alphabeta, scale.repetitions)
        kind = "alpha-beta" if seats == 2 else "paranoid alpha-beta"
        found.append(Figure(f"{label}: {kind}", scale.nodes / seconds, "nodes/s"))
    found.append(_root_parallel(scale))
    return found


def _root_parallel(scale: SearchScale) -> Figure:
    """MCTS with 2 worker processes against 1 process, the same playouts, timed in turn."""
    _, state = opening("Oh-Wah-Ree", 2)
    limits = Limits(playouts=scale.playouts)
    with ProcessPoolExecutor(2) as pool:
        mcts(state, Limits(playouts=2), workers=2, executor=pool)  # start the workers

        def two() -> None:
            mcts(state, limits, seed=1, workers=2, executor=pool)

        def one() -> None:
            mcts(state, limits, seed=1)

        times = paired(two, one, scale.repetitions)
    return rate_figure(
        "Oh-Wah-Ree, 2 seats: MCTS root parallel, 2 processes",
        scale.playouts,
        "playouts/s",
        "the same search in 1 process",
        times,
    )


def main() -> None:
    """Run the section alone and print its table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="less search, one run each")
    options = parser.parse_args()
    print(table(figures(QUICK if options.quick else SearchScale())))


if __name__ == "__main__":
    main()
