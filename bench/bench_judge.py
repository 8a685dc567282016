"""``validate(record)`` against ``Engine.replay`` of the same games, per game, in one process.

For each game (ONE and Oh-Wah-Ree with two seats, Aronda, Oust) 2,000 seeded random complete
records are generated (``gamerec generate``'s generator; not timed, cached in ``bench/.data``
with a digest of the sources that make them). Five things are timed, each against B in turn
(A, B, A, B, ...; then C, B, C, B, ...; then D and B; then E and B):

- A: ``gamerec.validator.judge.validate(record)`` of every record (the library's main job:
  read the moves, replay them, compute the result, compare the claim, shape the verdict);
- B: ``Engine.replay`` of the same games, their engine moves and seats read beforehand (the
  engine's checked replay alone, the floor of A);
- C: the engine's whole share of a verdict: B, then the final position's scores, ranks,
  winners and digest (what any ``validate`` must have its engine compute, with reading the
  moves and shaping the verdict costing nothing);
- D: C with each record's moves read in the run, as ``validate`` reads them
  (``MoveReader.main_line``: the record serialized, split into its moves' bytes, each looked
  up), and only the verdict's shaping left out;
- E: D with the answer built as cheaply as protobuf builds it: one ``Verdict`` whose result
  is filled in place from the final position's values (no rules identity looked up, no
  claim compared, no ``Judgement``): the floor of ``validate`` with the moves read as it
  reads them, answering with a ``Verdict`` on this engine.

The first figure is A's plies/s against B's, the median of the pairs' ratios with their
spread (the issue's target: at least 0.6x for each game). The others are C's, D's and E's
against B's, with no target: C is the ceiling of the first, the most any ``validate``
built on this engine could reach; D is that ceiling once the moves are read; E is the floor
of A's cost once a Verdict is answered, so a game whose E is below 0.6x cannot meet the
target without a cheaper reading of the moves or a cheaper engine share. Every verdict
must be valid, every replay legal: a benchmark that is not doing the job fails instead of
printing a figure.

Run: ``.venv/bin/python -m bench.bench_judge [--records 2000] [--repeat 5] [GAME ...]``.
"""

from __future__ import annotations

import argparse
import pickle
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from bench.figures import (
    DATA,
    Figure,
    Paired,
    engine_sources,
    paired,
    rate_figure,
    source_digest,
    table,
)
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator import generation
from gamerec.validator.identity import RulesIdentity, identify
from gamerec.validator.judge import validate
from gamerec.validator.moves import MoveReader, ReadMoves, reader_for

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
    """One game's timings, each pair taken in turn.

    Attributes:
        game: the game and its variant, as the table names it.
        records: records validated (and games replayed) per run.
        plies: plies in all of them.
        times: the runs of validate (first) and of Engine.replay (second).
        ceiling: the runs of the engine's share of a verdict (first) and of Engine.replay
            (second).
        read_ceiling: the same with the moves read in the run (first) and Engine.replay.
        answer_floor: the same with the Verdict built too (first) and Engine.replay.
    """

    game: str
    records: int
    plies: int
    times: Paired
    ceiling: Paired
    read_ceiling: Paired
    answer_floor: Paired


def records_of(game: str, tags: dict[str, str], count: int) -> list[bytes]:
    """``count`` seeded random complete records of ``game``, serialized (cached)."""
    sources = [Path(generation.__file__), *_engine_files(game)]
    variant = "-".join(f"{key}{value}" for key, value in sorted(tags.items()))
    path = DATA / f"judge-{game}-{variant}-{count}-{source_digest(*sources)}.pickle"
    if path.exists():
        cached: list[bytes] = pickle.loads(path.read_bytes())
        return cached
    made = [record.SerializeToString() for record in generation.generate(game, tags, count, 1)]
    DATA.mkdir(exist_ok=True)
    path.write_bytes(pickle.dumps(made))
    return made


def _engine_files(game: str) -> list[Path]:
    """The source files of ``game``'s engine (its games change when they do)."""
    from gamerec.validator.games import engine  # noqa: PLC0415

    return engine_sources(engine(game))


def validate_all(records: list[pb.GameRecord]) -> None:
    """``validate`` every record; fail on a verdict that is not valid."""
    for record in records:
        if not validate(record).valid:
            raise AssertionError(f"a generated {record.rules.game} record is not valid")


def _read_games(
    records: list[pb.GameRecord],
) -> list[tuple[pb.GameRecord, RulesIdentity, MoveReader, ReadMoves]]:
    """Each record with its rules identity, its move reader and its main line, read now."""
    games = []
    for record in records:
        identity = identify(record)
        reader = reader_for(identity)
        games.append((record, identity, reader, reader.main_line(record)))
    return games


def replayer(records: list[pb.GameRecord]) -> Callable[[], None]:
    """``Engine.replay`` of every record, its moves and seats read now (not timed)."""
    games = [
        (identity.engine.replay, identity.variant, read.moves, read.seats)
        for _, identity, _, read in _read_games(records)
    ]

    def replay_all() -> None:
        for replay, variant, moves, seats in games:
            if replay(variant, moves, seats).illegal is not None:
                raise AssertionError("a generated record does not replay")

    return replay_all


def engine_share(
    records: list[pb.GameRecord], *, reading: bool, answer: bool = False
) -> Callable[[], None]:
    """What a verdict needs of the engine: the replay, then the final position's result.

    The result is its scores, ranks, winners and digest. ``reading``: each record's moves
    are read in the run (``MoveReader.main_line``, as ``validate`` reads them), not
    beforehand. ``answer``: a ``Verdict`` holding them is built too, its result filled in
    place (the cheapest way protobuf builds it: 1.7 us against 2.4 us for a ComputedResult
    given to the constructor).
    """
    games = _read_games(records)

    def share_all() -> None:
        for record, identity, reader, read in games:
            moves = reader.main_line(record) if reading else read
            outcome = identity.engine.replay(identity.variant, moves.moves, moves.seats)
            state = outcome.state
            if outcome.illegal is not None or not state.is_over:
                raise AssertionError("a generated record does not replay to its end")
            scores, ranks, winners = state.scores(), state.ranking(), state.winners()
            digest = state.digest()
            if len(scores) != len(ranks) or not winners or not digest:
                raise AssertionError("a finished game has no result")
            if answer:
                _answer(
                    record,
                    outcome.plies,
                    scores=scores,
                    ranks=ranks,
                    winners=winners,
                    digest=digest,
                )

    return share_all


def _answer(
    record: pb.GameRecord,
    plies: int,
    *,
    scores: tuple[int, ...],
    ranks: tuple[int, ...],
    winners: tuple[int, ...],
    digest: str,
) -> vpb.Verdict:
    """The Verdict of a finished game with no finding, built with as few calls as protobuf needs."""
    verdict = vpb.Verdict(
        valid=True,
        plies_replayed=plies,
        game=record.rules.game,
        status=vpb.GAME_STATUS_FINISHED,
        final_digest=digest,
    )
    result = verdict.result
    result.scores.extend(scores)
    result.ranks.extend(ranks)
    result.winners.extend(winners)
    result.termination = pb.TERMINATION_NORMAL
    return verdict


def measure_game(game: str, tags: dict[str, str], count: int, repetitions: int) -> JudgeRun:
    """Time validate, then the engine's share (alone, with the reading, with the answer too).

    Each is timed in turn with ``Engine.replay`` of the same games.
    """
    records = [pb.GameRecord.FromString(data) for data in records_of(game, tags, count)]
    plies = sum(len(record.moves) for record in records)
    replay_all = replayer(records)
    validate_all(records)  # warm: every move of the archive read once, as a long run has
    times = paired(lambda: validate_all(records), replay_all, repetitions)
    shares = tuple(
        paired(engine_share(records, reading=reading, answer=answer), replay_all, repetitions)
        for reading, answer in ((False, False), (True, False), (True, True))
    )
    label = game + "".join(f", {value} {key.lower()}" for key, value in tags.items())
    return JudgeRun(label, len(records), plies, times, *shares)


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
    """Four rows per game, each in plies/s against Engine.replay's.

    They are validate (at least 0.6x); the engine's share of a verdict (validate's ceiling:
    no target); that share with the moves read in the run (the ceiling once the moves are
    read as validate reads them); that again with a Verdict built (the floor of validate's
    cost on this engine and protobuf).
    """
    rows = []
    for run in runs:
        rows.append(
            rate_figure(
                f"{run.game}: validate(record), {run.records:,} records",
                run.plies,
                "plies/s",
                "Engine.replay, same games",
                run.times,
                target=0.6,
            )
        )
        for name, times in (
            ("ceiling: replay, score, digest", run.ceiling),
            ("the same, moves read in the run", run.read_ceiling),
            ("the same, a Verdict built", run.answer_floor),
        ):
            rows.append(
                rate_figure(
                    f"{run.game}: {name}", run.plies, "plies/s", "Engine.replay, same games", times
                )
            )
    return rows


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
