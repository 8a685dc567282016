"""``gamerec validate`` of one mixed archive in every encoding a user feeds in.

The same seeded mixed collection as ``bench_validate`` (all four games), written once as
``.pbs``, ``.grn`` and ``.jsonl`` (cached in ``bench/.data``), each validated by the real
command with one worker and with every core. The text encodings should not be the slow way
in: their records are decoded in the workers, like the binary ones.

Run: ``.venv/bin/python -m bench.bench_encodings [--records 5000] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
from dataclasses import dataclass
from pathlib import Path

from bench.bench_validate import ValidateRun, collection, median_of
from bench.bench_validate import measure as measure_run
from gamerec.recorder.codecs import read_records, write_records
from gamerec.validator.batch import default_workers

ENCODINGS = ("pbs", "grn", "jsonl")
#: Records in the archive (text validates slower than binary; fewer keep the run short).
RECORDS = 5_000


@dataclass(frozen=True, slots=True)
class EncodingRun:
    """One encoding validated with one worker count.

    Attributes:
        encoding: the file's suffix (or another name of what it holds).
        workers: worker processes.
        run: the median run.
    """

    encoding: str
    workers: int
    run: ValidateRun


def archive(count: int, encoding: str) -> Path:
    """The cached mixed collection of ``count`` records in ``encoding`` (made from the .pbs)."""
    binary = collection(count)
    if encoding == "pbs":
        return binary
    path = binary.with_suffix(f".{encoding}")
    if not path.exists():
        write_records(read_records(binary), path)  # atomic: never a half-written cache
    return path


def measure(count: int = RECORDS, repetitions: int = 3) -> list[EncodingRun]:
    """Every encoding with one worker and with all cores (see :func:`measure_files`).

    The runs take turns, so that a ratio compares runs made under the same load on a shared
    machine.
    """
    return measure_files(
        {encoding: archive(count, encoding) for encoding in ENCODINGS}, repetitions
    )


def measure_files(paths: dict[str, Path], repetitions: int) -> list[EncodingRun]:
    """Validate each file with one worker and with all cores, in turns.

    One run of each, then the next round; each figure is the median of its runs.
    """
    cases = [(name, workers) for name in paths for workers in sorted({1, default_workers()})]
    runs: dict[tuple[str, int], list[ValidateRun]] = {case: [] for case in cases}
    for _ in range(max(1, repetitions)):
        for name, workers in cases:
            runs[(name, workers)].append(measure_run(paths[name], workers))
    return [EncodingRun(name, workers, median_of(runs[(name, workers)])) for name, workers in cases]


def print_runs(title: str, runs: list[EncodingRun]) -> None:
    """A small table of records/s and plies/s per file and worker count."""
    print(title)
    print(f"{'file':>12} {'workers':>7} {'seconds':>8} {'records/s':>10} {'plies/s':>10}")
    for measured in runs:
        run = measured.run
        print(
            f"{measured.encoding:>12} {measured.workers:>7} {run.seconds:>8.2f} "
            f"{run.records / run.seconds:>10,.0f} {run.plies / run.seconds:>10,.0f}"
        )


def main() -> None:
    """Print records/s and plies/s per encoding and worker count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=RECORDS)
    parser.add_argument("--repeat", type=int, default=3)
    options = parser.parse_args()
    title = f"gamerec validate, {options.records:,} mixed records, median of {options.repeat}"
    print_runs(title, measure(options.records, options.repeat))


if __name__ == "__main__":
    main()
