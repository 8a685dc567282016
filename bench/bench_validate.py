"""End-to-end ``gamerec validate`` on mixed collections: records/s, plies/s and peak memory.

Builds (once, cached in ``bench/.data/``) seeded ``.pbs`` collections of random complete games
of all four games, then runs the real ``gamerec validate -q`` on them with one worker and
with every core. Peak memory is the largest sum of the resident memory of the command and
all its worker processes, sampled from /proc every 10 ms; the main process's own peak is
shown too. Comparing 1,000 with 20,000 records shows whether memory grows with the input.

Run: ``.venv/bin/python -m bench.bench_validate [--counts 1000 20000] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import re
import statistics
import subprocess
import sys
import time
from dataclasses import dataclass
from pathlib import Path

from bench.figures import DATA
from bench.procfs import PeakSampler
from gamerec.recorder.codecs import write_records
from gamerec.validator.batch import default_workers
from gamerec.validator.generation import generate

MIX = [
    ("ONE", {"Players": "2"}),
    ("ONE", {"Players": "4"}),
    ("Aronda", {}),
    ("Oust", {}),
    ("Oh-Wah-Ree", {"Players": "2"}),
    ("Oh-Wah-Ree", {"Players": "3"}),
]
SUMMARY = re.compile(r"([\d,]+) records?: .*?; ([\d,]+) plies")


def collection(count: int) -> Path:
    """A cached .pbs of ``count`` mixed random games (seeded: the same file every time)."""
    path = DATA / f"mixed-{count}.pbs"
    if not path.exists():
        DATA.mkdir(exist_ok=True)
        per_game = -(-count // len(MIX))
        records = (
            record
            for seed, (game, tags) in enumerate(MIX)
            for record in generate(game, tags, per_game, seed=seed)
        )
        write_records((r for _, r in zip(range(count), records, strict=False)), path)
    return path


@dataclass(frozen=True, slots=True)
class ValidateRun:
    """One run of ``gamerec validate`` (or the median of several).

    Attributes:
        records: records validated.
        plies: plies replayed.
        seconds: wall time of the whole command, start-up included.
        peak_tree_kib: the largest resident memory of the command and its workers together.
        peak_main_kib: the largest resident memory of the command's own process.
    """

    records: int
    plies: int
    seconds: float
    peak_tree_kib: int
    peak_main_kib: int


def measure(path: Path, workers: int) -> ValidateRun:
    """Run ``gamerec validate -q`` once on ``path`` and sample its memory."""
    command = Path(sys.executable).parent / "gamerec"
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(command), "validate", "-q", "--workers", str(workers), str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    with PeakSampler(process) as peaks:
        _, stderr = process.communicate()
    seconds = time.perf_counter() - started
    match = SUMMARY.search(stderr)
    if process.returncode != 0 or match is None:
        raise SystemExit(f"validate failed ({process.returncode}): {stderr}")
    records, plies = (int(group.replace(",", "")) for group in match.groups())
    return ValidateRun(records, plies, seconds, peaks.tree_kib, peaks.main_kib)


def median_run(path: Path, workers: int, repetitions: int) -> ValidateRun:
    """The median time of several runs, with the largest memory any of them reached."""
    return median_of([measure(path, workers) for _ in range(max(1, repetitions))])


def median_of(runs: list[ValidateRun]) -> ValidateRun:
    """The median time of some runs of one command, with the largest memory any reached."""
    return ValidateRun(
        runs[0].records,
        runs[0].plies,
        statistics.median(run.seconds for run in runs),
        max(run.peak_tree_kib for run in runs),
        max(run.peak_main_kib for run in runs),
    )


def main() -> None:
    """Print records/s, plies/s and peak memory per collection size and worker count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--counts", type=int, nargs="+", default=[1000, 20000])
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    cores = default_workers()
    print(f"gamerec validate, mixed random games, median of {options.repeat}; {cores} cores")
    print(
        f"{'records':>8} {'workers':>7} {'seconds':>8} {'records/s':>10} {'plies/s':>10} "
        f"{'peak MiB (all)':>15} {'peak MiB (main)':>16}"
    )
    for count in options.counts:
        path = collection(count)
        for workers in (1, cores):
            run = median_run(path, workers, options.repeat)
            print(
                f"{run.records:>8,} {workers:>7} {run.seconds:>8.2f} "
                f"{run.records / run.seconds:>10,.0f} {run.plies / run.seconds:>10,.0f} "
                f"{run.peak_tree_kib / 1024:>15.1f} {run.peak_main_kib / 1024:>16.1f}"
            )


if __name__ == "__main__":
    main()
