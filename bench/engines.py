"""Engine replay with full legality checks, per game: plies per second of ``Engine.replay``.

One generic benchmark over the registry (``gamerec.validator.games``): for each case it plays 2,000
seeded random games (game i from ``random.Random(i)``; not timed, cached in ``bench/.data``
with a digest of the engine's source so a changed engine makes new games), then times
``ENGINE.replay`` over all of them, median of several repetitions. The replay is the
validator's own checked path: every ply is checked (``NOT_YOUR_TURN`` included, with the seats
stated) and a rejected ply fails the benchmark. The step-by-step ``check``/``play`` path of the
engine's state class is measured too, on the same games and in turn with the replay (A B A
B: the machine is noisy; the ratio is the median of each pair's), as the reference of what
the fast replay saves: :func:`speedup_figure` is the table's row "fast replay vs check+play".

Run one game alone with ``.venv/bin/python -m bench.engines ONE`` (any registry name).
"""

from __future__ import annotations

import pickle
import random
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bench.figures import DATA, Figure, paired, source_digest
from gamerec.validator.games import engine, game_names
from gamerec.validator.games.protocol import Engine

#: Games per case (the issue's figure).
GAMES = 2_000


@dataclass(frozen=True, slots=True)
class EngineCase:
    """One game and variant to replay.

    Attributes:
        game: the registry name (``ONE``).
        options: the variant's options (``{"players": 2}``).
    """

    game: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        """``ONE, 2 seats`` (the seats named when the case fixes them)."""
        players = self.options.get("players")
        return f"{self.game}, {players} seats" if players else self.game


#: The cases of the table: every game, ONE with a small and a large table.
CASES = (
    EngineCase("ONE", {"players": 2}),
    EngineCase("ONE", {"players": 4}),
    EngineCase("Aronda"),
    EngineCase("Oust"),
    EngineCase("Oh-Wah-Ree", {"players": 2}),
)


@dataclass(frozen=True, slots=True)
class ReplayFigures:
    """What one case measured.

    Attributes:
        case: the game and variant.
        games: how many games.
        plies: plies in all of them.
        replay_per_second: plies per second of ``Engine.replay`` (median).
        step_per_second: plies per second of ``check`` then ``play`` on the state (median).
        pairs: the ratio of the two rates in each pair of runs (taken in turn).
        replay: one run of ``Engine.replay`` over every game (to time beside a peer).
    """

    case: EngineCase
    games: int
    plies: int
    replay_per_second: float
    step_per_second: float
    pairs: tuple[float, ...] = ()
    replay: Callable[[], object] = lambda: None

    @property
    def speedup(self) -> float:
        """How many times faster the fast replay is than ``check`` + ``play`` ply by ply."""
        return self.replay_per_second / self.step_per_second


def seeded_games(case: EngineCase, count: int) -> list[list[Any]]:
    """``count`` random legal games of ``case`` (game i from ``random.Random(i)``), cached."""
    found = engine(case.game)
    module = sys.modules[type(found).__module__]
    assert module.__file__ is not None
    digest = source_digest(Path(module.__file__))
    options = "-".join(f"{key}{value}" for key, value in sorted(case.options.items()))
    path = DATA / f"engine-{found.name}-{options}-{count}-{digest}.pickle"
    if path.exists():
        games: list[list[Any]] = pickle.loads(path.read_bytes())
        return games
    variant = found.variant(**case.options)
    games = [found.random_game(variant, random.Random(seed)) for seed in range(count)]
    DATA.mkdir(exist_ok=True)
    path.write_bytes(pickle.dumps(games))
    return games


def seats_of(found: Engine[Any, Any], variant: Any, games: list[list[Any]]) -> list[list[int]]:
    """The seat that plays each ply, so the replay checks the turn order as a record states it."""
    seats = []
    for moves in games:
        state = found.new_game(variant)
        played = []
        for move in moves:
            played.append(state.to_move)
            state.play(move)
        seats.append(played)
    return seats


def replay_all(
    found: Engine[Any, Any], variant: Any, games: list[list[Any]], seats: list[list[int]]
) -> None:
    """Replay every game with its stated seats; fail if one is rejected."""
    replay = found.replay
    for moves, stated in zip(games, seats, strict=True):
        if replay(variant, moves, stated).illegal is not None:
            raise AssertionError(f"a random legal game of {found.name} was rejected")


def check_and_play_all(found: Engine[Any, Any], variant: Any, games: list[list[Any]]) -> None:
    """Check and play every game ply by ply on the state class (the slow, plain path)."""
    for moves in games:
        state = found.new_game(variant)
        for move in moves:
            if state.check(move) is not None:
                raise AssertionError(f"a random legal game of {found.name} was rejected")
            state.play(move)


def measure(case: EngineCase, count: int, repetitions: int) -> ReplayFigures:
    """Generate (or load) the games of ``case`` and time both replays, taking turns."""
    found = engine(case.game)
    variant = found.variant(**case.options)
    games = seeded_games(case, count)
    seats = seats_of(found, variant, games)
    plies = sum(map(len, games))

    def replay() -> None:
        replay_all(found, variant, games, seats)

    times = paired(replay, lambda: check_and_play_all(found, variant, games), repetitions)
    return ReplayFigures(
        case,
        len(games),
        plies,
        plies / times.first_seconds,
        plies / times.second_seconds,
        times.rate_ratios(),
        replay,
    )


def speedup_figure(figures: ReplayFigures) -> Figure:
    """The table's row for a case: the fast replay's plies/s next to check+play's.

    Its ratio is how many times the fast path saves; below 1x it would not pay its code.
    """
    return Figure(
        f"{figures.case.label}: fast replay vs check+play",
        figures.replay_per_second,
        "plies/s",
        "check+play per ply",
        figures.step_per_second,
        target=1.0,
        pairs=figures.pairs,
    )


def main() -> None:
    """Print the figures of the games named on the command line (default: every case)."""
    names = {name.lower() for name in sys.argv[1:]}
    known = {name.lower() for name in game_names()}
    if names - known:
        sys.exit(f"unknown game(s): {', '.join(sorted(names - known))}")
    for case in CASES:
        if names and case.game.lower() not in names:
            continue
        started = time.perf_counter()
        figures = measure(case, GAMES, 5)
        print(
            f"{case.label}: {figures.games:,} games, {figures.plies:,} plies; "
            f"Engine.replay {figures.replay_per_second:,.0f} plies/s (median of 5), "
            f"check+play {figures.step_per_second:,.0f} plies/s, "
            f"fast replay {figures.speedup:.1f}x ({time.perf_counter() - started:.1f} s in all)"
        )


if __name__ == "__main__":
    main()
