"""``validate(record)`` against ``Engine.replay`` of the same games, per game, in one process.

For each game (ONE and Oh-Wah-Ree with two seats, Aronda, Oust) 2,000 seeded random complete
records are generated (``gamerec generate``'s generator; not timed, cached in ``bench/.data``
with a digest of the sources that make them). Two things are timed in turn (A, B, A, B, ...):

- A: ``gamerec.validator.judge.validate(record)`` of every record (the library's main job:
  read the moves, replay them, compute the result, compare the claim, shape the verdict);
- B: ``Engine.replay`` of the same games, their engine moves and seats read beforehand (the
  engine's checked replay alone, the floor of A).

The figure is A's plies/s against B's, the median of the pairs' ratios with their spread
(the issue's target: at least 0.6x for each game). Every verdict must be valid, every replay
legal: a benchmark that is not doing the job fails instead of printing a figure.

Run: ``.venv/bin/python -m bench.bench_judge [--records 2000] [--repeat 5] [GAME ...]``.
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.figures import DATA, Figure, Paired, paired, rate_figure, source_digest, table
from gamerec.v1 import record_pb2 as pb
from gamerec.validator import generation
from gamerec.validator.identity import identify
from gamerec.validator.judge import validate
from gamerec.validator.moves import reader_for

#: The games and their variants (the registry's names and GRN variant tags).
CASES: tuple[tuple[str, dict[str, str]], ...] = (
    ("ONE", {"Players": "2"}),
    ("Aronda", {}),
    ("Oust", {}),
    ("Oh-Wah-Ree", {"Players": "2"}),
)
RECORDS = 2_000


@dataclass(frozen=True, slots=True)
class JudgeRun:
    """One game's two timings, taken in turn.

    Attributes:
        game: the game and its variant, as the table names it.
        records: records validated (and games replayed) per run.
        plies: plies in all of them.
        times: the runs of validate (first) and of Engine.replay (second).
    """

    game: str
    records: int
    plies: int
    times: Paired


def records_of(game: str, tags: dict[str, str], count: int) -> list[bytes]:
    """``count`` seeded random complete records of ``game``, serialized (cached)."""
    sources = [Path(generation.__file__), *map(Path, _engine_files(game))]
    variant = "-".join(f"{key}{value}" for key, value in sorted(tags.items()))
    path = DATA / f"judge-{game}-{variant}-{count}-{source_digest(*sources)}.pickle"
    if path.exists():
        cached: list[bytes] = pickle.loads(path.read_bytes())
        return cached
    made = [record.SerializeToString() for record in generation.generate(game, tags, count, 1)]
    DATA.mkdir(exist_ok=True)
    path.write_bytes(pickle.dumps(made))
    return made


def _engine_files(game: str) -> list[str]:
    """The source file of ``game``'s engine (its games change when it does)."""
    import sys  # noqa: PLC0415

    from gamerec.validator.games import engine  # noqa: PLC0415

    module = sys.modules[type(engine(game)).__module__]
    return [module.__file__] if module.__file__ else []


def validate_all(records: list[pb.GameRecord]) -> None:
    """``validate`` every record; fail on a verdict that is not valid."""
    for record in records:
        if not validate(record).valid:
            raise AssertionError(f"a generated {record.rules.game} record is not valid")


def replayer(records: list[pb.GameRecord]) -> Callable[[], None]:
    """``Engine.replay`` of every record, its moves and seats read now (not timed)."""
    games = []
    for record in records:
        identity = identify(record)
        read = reader_for(identity).main_line(record)
        games.append((identity.engine.replay, identity.variant, read.moves, read.seats))

    def replay_all() -> None:
        for replay, variant, moves, seats in games:
            if replay(variant, moves, seats).illegal is not None:
                raise AssertionError("a generated record does not replay")

    return replay_all


def measure_game(game: str, tags: dict[str, str], count: int, repetitions: int) -> JudgeRun:
    """Time validate against Engine.replay for one game, in turn."""
    records = [pb.GameRecord.FromString(data) for data in records_of(game, tags, count)]
    plies = sum(len(record.moves) for record in records)
    replay_all = replayer(records)
    validate_all(records)  # warm: every move of the archive read once, as a long run has
    times = paired(lambda: validate_all(records), replay_all, repetitions)
    label = game + "".join(f", {value} {key.lower()}" for key, value in tags.items())
    return JudgeRun(label, len(records), plies, times)


def measure(
    count: int = RECORDS, repetitions: int = 5, games: tuple[str, ...] = ()
) -> list[JudgeRun]:
    """Every case (or those of ``games``), one after the other."""
    return [
        measure_game(game, tags, count, repetitions)
        for game, tags in CASES
        if not games or game.lower() in games
    ]


def figures(runs: list[JudgeRun]) -> list[Figure]:
    """A row per game: validate's plies/s against Engine.replay's (at least 0.6x)."""
    return [
        rate_figure(
            f"{run.game}: validate(record), {run.records:,} records",
            run.plies,
            "plies/s",
            "Engine.replay, same games",
            run.times,
            target=0.6,
        )
        for run in runs
    ]


def main() -> None:
    """Print the table of the games named (default: all four)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=RECORDS)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("games", nargs="*")
    options = parser.parse_args()
    games = tuple(name.lower() for name in options.games)
    print(table(figures(measure(options.records, options.repeat, games))))


if __name__ == "__main__":
    main()
