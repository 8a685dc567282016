"""``gamerec find`` and ``stats`` over 200,000 records, against ``validate`` and pgn-extract.

``find`` and ``stats`` over a 200,000-record ``.pbs``, against ``validate`` of the same file
and against pgn-extract over a PGN collection of as many chess games.

The collection: the seeded 20,000-record mixed ``.pbs`` of the ``validate`` section
(``bench_validate.collection``), ten times over, each copy with its own ``GameId`` and
round (fresh random games would take half an hour to generate on a shared 2-core machine,
and judging a record costs the same whether it was seen before or not). Every command is the
real ``gamerec`` process on all cores; its wall time (start-up included) gives records/s,
and its peak memory is the largest sum of the resident memory of the command and its
workers, sampled every 10 ms. The same commands over the 20,000-record file show whether
memory grows with the input.

The commands: ``validate -q`` (the reference), ``find --player Ana --count`` (a criterion on
the record as written: nothing is replayed), ``find --invalid --count`` (a criterion of the
referee: every record is replayed) and ``stats``. pgn-extract (Debian's ``pgn-extract``,
C) selects by a player tag with ``-s -TpAna`` from 200,000 random legal chess games of as
many plies as the mixed games have on average (2,000 games made with python-chess, repeated
with their own round and players); it parses and plays every move of every game, as
``find --invalid`` does. When pgn-extract is not installed its figures are left out.

Run: ``.venv/bin/python -m bench.bench_collections [--records 200000 20000] [--runs 2]``.
"""

from __future__ import annotations

import argparse
import random
import shutil
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.bench_validate import collection as mixed_collection
from bench.figures import DATA, Figure, table
from bench.procfs import PeakSampler
from gamerec.recorder.codecs import read_records, write_records
from gamerec.v1 import record_pb2 as pb

#: The collection every larger one repeats.
BASE_RECORDS = 20_000
#: The commands measured (``gamerec`` arguments before the path).
COMMANDS: dict[str, list[str]] = {
    "validate": ["validate", "-q"],
    "find --player (record criteria)": ["find", "--player", "Ana", "--count"],
    "find --invalid (the referee)": ["find", "--invalid", "--count"],
    "stats": ["stats"],
}
PGN_EXTRACT = "pgn-extract -s -TpAna"
#: Distinct chess games in the PGN collection (python-chess makes them, slowly).
CHESS_DISTINCT = 2_000
CHESS_NAMES = ("Ana", "Ben", "Chi", "Dev", "Eli", "Fay", "Gus")


@dataclass(frozen=True, slots=True)
class Run:
    """One command's run (or the median of several): wall time and peak memory.

    Attributes:
        seconds: wall time, start-up included.
        peak_tree_kib: the largest resident memory of the command and its workers together.
    """

    seconds: float
    peak_tree_kib: int


def collection(count: int) -> Path:
    """A cached ``.pbs`` of ``count`` mixed records (a multiple of 20,000, or fewer)."""
    if count <= BASE_RECORDS:
        return mixed_collection(count)
    path = DATA / f"collections-{count}.pbs"
    if not path.exists():
        base = mixed_collection(BASE_RECORDS)
        copies = -(-count // BASE_RECORDS)
        write_records(_copies(base, copies, count), path)
    return path


def _copies(base: Path, copies: int, count: int) -> Iterator[pb.GameRecord]:
    written = 0
    for copy in range(copies):
        for number, record in enumerate(read_records(base), start=1):
            if written == count:
                return
            record.metadata.extra_tags["GameId"] = f"{copy}-{number}"
            record.metadata.round = f"{copy + 1}.{record.metadata.round}"
            written += 1
            yield record


def mean_plies(path: Path) -> float:
    """The mean plies per record of a collection."""
    lengths = [len(record.moves) for record in read_records(path)]
    return statistics.mean(lengths)


def chess_collection(count: int, plies: int, seed: int = 20261202) -> Path:
    """A cached PGN of ``count`` random legal chess games of at most ``plies`` plies."""
    path = DATA / f"chess-{count}-{plies}-{seed}.pgn"
    if path.exists():
        return path
    import chess  # noqa: PLC0415 (the bench extra)
    import chess.pgn  # noqa: PLC0415

    movetexts = []
    for number in range(CHESS_DISTINCT):
        rng = random.Random(seed + number)
        board = chess.Board()
        while not board.is_game_over() and board.ply() < plies:
            board.push(rng.choice(list(board.legal_moves)))
        game = chess.pgn.Game.from_board(board)
        movetexts.append((str(game).split("\n\n", 1)[1], board.result()))
    DATA.mkdir(exist_ok=True)
    with path.open("w") as out:
        for number in range(count):
            moves, result = movetexts[number % CHESS_DISTINCT]
            white = CHESS_NAMES[number % 7]
            black = CHESS_NAMES[(number + 3) % 7]
            out.write(
                f'[Event "bench"]\n[Site "?"]\n[Date "2026.12.02"]\n[Round "{number + 1}"]\n'
                f'[White "{white}"]\n[Black "{black}"]\n[Result "{result}"]\n\n{moves}\n\n'
            )
    return path


def sampled(argv: list[str]) -> Run:
    """Run a command once, sampling the memory of its process tree every 10 ms.

    Exit codes 0 and 1 (found nothing, found something invalid) are answers; any other
    stops the benchmark.
    """
    started = time.perf_counter()
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    with PeakSampler(process) as peaks:
        _, stderr = process.communicate()
    seconds = time.perf_counter() - started
    if process.returncode not in (0, 1):
        raise SystemExit(f"{' '.join(argv)} failed ({process.returncode}): {stderr[-2000:]}")
    return Run(seconds, peaks.tree_kib)


def median_run(argv: list[str], runs: int) -> Run:
    """The median time of ``runs`` runs, with the largest memory any of them reached."""
    return _median([sampled(argv) for _ in range(max(1, runs))])


def gamerec_command() -> str:
    """The ``gamerec`` of this environment."""
    return str(Path(sys.executable).parent / "gamerec")


@dataclass(frozen=True, slots=True)
class Measured:
    """Every run of the section.

    Attributes:
        records: records in the large collection; small: in the small one.
        runs: by command name, then by number of records.
        pgn_extract: pgn-extract over as many chess games (None when not installed).
        plies: mean plies per record (the chess games have as many at most).
    """

    records: int
    small: int
    runs: dict[str, dict[int, Run]]
    pgn_extract: Run | None
    plies: float


def measure(records: int, small: int, runs: int) -> Measured:
    """Run every command over both collections, the commands taking turns (same load)."""
    paths = {count: collection(count) for count in (records, small)}
    found: dict[str, dict[int, list[Run]]] = {name: {records: [], small: []} for name in COMMANDS}
    for _ in range(max(1, runs)):
        for count, path in paths.items():
            for name, arguments in COMMANDS.items():
                argv = [gamerec_command(), *arguments, str(path)]
                found[name][count].append(sampled(argv))
    plies = mean_plies(paths[small])
    return Measured(
        records,
        small,
        {name: {count: _median(done) for count, done in by.items()} for name, by in found.items()},
        _pgn_extract(records, round(plies), runs),
        plies,
    )


def _median(done: list[Run]) -> Run:
    """The median time of some runs of one command, with the largest memory any reached."""
    return Run(statistics.median(r.seconds for r in done), max(r.peak_tree_kib for r in done))


def _pgn_extract(count: int, plies: int, runs: int) -> Run | None:
    program = shutil.which("pgn-extract") or shutil.which("/usr/games/pgn-extract")
    if program is None:
        print("  pgn-extract is not installed: its figures are left out", file=sys.stderr)
        return None
    pgn = chess_collection(count, plies)
    return median_run([program, "-s", "-TpAna", "-o", "/dev/null", str(pgn)], runs)


def figures(measured: Measured) -> list[Figure]:
    """The section's figures: each command against validate and itself at 20,000 records."""
    large, small = measured.records, measured.small
    runs = measured.runs
    rate = {name: large / by[large].seconds for name, by in runs.items()}
    validate_mib = runs["validate"][large].peak_tree_kib / 1024
    found = [Figure(f"validate {large:,} records", rate["validate"], "records/s")]
    for name, by in runs.items():
        if name == "validate":
            continue
        mib = by[large].peak_tree_kib / 1024
        found += [
            Figure(
                f"{name}, {large:,} records",
                rate[name],
                "records/s",
                "validate, same file",
                rate["validate"],
                target=1.0 if "record criteria" in name else 0.8,
            ),
            Figure(
                f"{name} peak memory",
                mib,
                "MiB",
                f"the same at {small:,} records",
                by[small].peak_tree_kib / 1024,
                target=1.2,
                at_most=True,
            ),
            Figure(f"{name} peak memory", mib, "MiB", "validate, same file", validate_mib),
        ]
    if measured.pgn_extract is not None:
        chess = large / measured.pgn_extract.seconds
        peer = f"{PGN_EXTRACT}, {large:,} chess games"
        found.append(Figure(peer, chess, "games/s"))
        for name in ("find --player (record criteria)", "find --invalid (the referee)"):
            found.append(Figure(f"{name}, {large:,} records", rate[name], "records/s", peer, chess))
    return found


def main() -> None:
    """Measure and print the section's table."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, nargs=2, default=[200_000, 20_000])
    parser.add_argument("--runs", type=int, default=2)
    options = parser.parse_args()
    large, small = options.records
    measured = measure(large, small, options.runs)
    print(table(figures(measured)))


if __name__ == "__main__":
    main()
