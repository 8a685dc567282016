"""Oh-Wah-Ree: moves per second of ``ENGINE.replay`` validating random two-player games.

Run ``.venv/bin/python -m bench.bench_ohwahree``. It generates 2,000 seeded random games (not
timed), then times ``ENGINE.replay`` over all of them (median of several repetitions). Two
references are measured in the same run:

- the step-by-step replay through the state class (``check`` then ``play`` per ply), which is
  what ``replay`` would cost without its packed board and sowing tables;
- OpenSpiel's C++ Oware, the closest relative, replayed with a legality check per move (``a in
  state.legal_actions()`` then ``apply_action``), when ``pyspiel`` can be imported. It is not a
  project dependency; to include it, run the benchmark with an interpreter that has it, e.g.
  ``PYTHONPATH=. /tmp/ospiel/bin/python -m bench.bench_ohwahree``.
"""

from __future__ import annotations

import importlib
import random
import statistics
import time
from collections.abc import Callable
from typing import Any

from validator.games.ohwahree import ENGINE, Move, Variant

GAMES = 2000
REPEATS = 7
SEED = 20261129


def median_seconds(run: Callable[[], object], repeats: int) -> float:
    """The median wall time of ``repeats`` calls of ``run``."""
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def replay_all(variant: Variant, games: list[list[Move]]) -> None:
    """Validate every game with ``ENGINE.replay``; fail loudly if one is not legal."""
    replay = ENGINE.replay
    for moves in games:
        if replay(variant, moves).illegal is not None:
            raise AssertionError("a generated game does not replay")


def check_and_play_all(variant: Variant, games: list[list[Move]]) -> None:
    """Validate every game step by step with the state's ``check`` and ``play``."""
    for moves in games:
        state = ENGINE.new_game(variant)
        for move in moves:
            if state.check(move) is not None:
                raise AssertionError("a generated game does not replay")
            state.play(move)


def openspiel_oware_games(pyspiel: Any, count: int, seed: int) -> tuple[Any, list[list[int]]]:
    """OpenSpiel's Oware and ``count`` random games of it, as action lists."""
    game = pyspiel.load_game("oware")
    rng = random.Random(seed)
    games = []
    for _ in range(count):
        state = game.new_initial_state()
        actions = []
        while not state.is_terminal():
            action = rng.choice(state.legal_actions())
            state.apply_action(action)
            actions.append(action)
        games.append(actions)
    return game, games


def openspiel_replay_all(game: Any, games: list[list[int]]) -> None:
    """Replay every Oware game, checking each action against the legal actions."""
    for actions in games:
        state = game.new_initial_state()
        for action in actions:
            if action not in state.legal_actions():
                raise AssertionError("a generated Oware game does not replay")
            state.apply_action(action)


def bench_openspiel(ours_per_second: float) -> None:
    """Time OpenSpiel's Oware replays, if ``pyspiel`` is importable, and print the ratio."""
    try:
        pyspiel = importlib.import_module("pyspiel")
    except ImportError:
        print("OpenSpiel Oware: pyspiel not importable here (see the module docstring)")
        return
    game, games = openspiel_oware_games(pyspiel, GAMES, SEED)
    moves = sum(map(len, games))
    seconds = median_seconds(lambda: openspiel_replay_all(game, games), REPEATS)
    theirs = moves / seconds
    print(
        f"OpenSpiel Oware (C++, legal_actions check): {moves} moves in {seconds:.3f} s"
        f" = {theirs:,.0f} moves/s"
    )
    print(f"ratio ENGINE.replay / OpenSpiel Oware: {ours_per_second / theirs:.2f}")


def main() -> None:
    variant = ENGINE.variant(players=2)
    rng = random.Random(SEED)
    games = [ENGINE.random_game(variant, rng) for _ in range(GAMES)]
    plies = sum(map(len, games))
    print(f"Oh-Wah-Ree, 2 seats: {GAMES} random games, {plies} plies (median of {REPEATS} runs)")

    seconds = median_seconds(lambda: replay_all(variant, games), REPEATS)
    ours = plies / seconds
    print(f"ENGINE.replay: {seconds:.3f} s = {ours:,.0f} plies/s")

    seconds = median_seconds(lambda: check_and_play_all(variant, games), 3)
    print(f"state check + play, step by step: {seconds:.3f} s = {plies / seconds:,.0f} plies/s")

    bench_openspiel(ours)


if __name__ == "__main__":
    main()
