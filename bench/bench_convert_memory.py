"""Peak memory of ``gamerec convert`` on large collections: it must not grow with the count.

Builds ``.pbs`` files of 10,000 and 100,000 records (the bundled fixtures, repeated, each copy
with its own round number), converts each to ``.jsonl`` and back with the real command in a
fresh process, checks that the records survived, and prints the child's peak resident set
size (``ru_maxrss`` from ``os.wait4``) and wall time for every run.

Run: ``.venv/bin/python bench/bench_convert_memory.py [COUNT ...]``.
"""

from __future__ import annotations

import itertools
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

from gamerec.recorder.codecs import read_records, write_records
from gamerec.v1 import record_pb2 as pb

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "valid" / "collection.pbs"
GAMEREC = Path(sys.executable).parent / "gamerec"
COUNTS = (10_000, 100_000)


def varied_records(count: int) -> Iterator[pb.GameRecord]:
    """``count`` records: the fixtures over and over, each copy with its own round."""
    fixtures = list(read_records(FIXTURES))
    for number, fixture in enumerate(itertools.islice(itertools.cycle(fixtures), count)):
        record = pb.GameRecord()
        record.CopyFrom(fixture)
        record.metadata.round = str(number + 1)
        yield record


def convert(source: Path, dest: Path) -> tuple[float, float]:
    """Run ``gamerec convert`` in a fresh process; return (seconds, peak RSS in MiB)."""
    started = time.perf_counter()
    child = subprocess.Popen(
        [str(GAMEREC), "convert", str(source), str(dest)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
    )
    _, status, usage = os.wait4(child.pid, 0)
    seconds = time.perf_counter() - started
    assert child.stderr is not None
    message = child.stderr.read().decode().strip()
    child.stderr.close()
    if os.waitstatus_to_exitcode(status) != 0:
        sys.exit(f"convert {source.name} -> {dest.name} failed: {message}")
    return seconds, usage.ru_maxrss / 1024  # ru_maxrss is in KiB on Linux


def same_records(left: Path, right: Path) -> bool:
    """Whether two files hold equal records, compared as messages, one pair at a time."""
    sentinel = object()
    pairs = itertools.zip_longest(read_records(left), read_records(right), fillvalue=sentinel)
    return all(a == b for a, b in pairs)


def main() -> None:
    """Build, convert both ways, verify, and print one line per conversion."""
    counts = [int(argument) for argument in sys.argv[1:]] or list(COUNTS)
    print(f"{'records':>8}  {'conversion':<14}  {'MB in':>7}  {'seconds':>8}  {'peak RSS MiB':>12}")
    with tempfile.TemporaryDirectory() as folder:
        for count in counts:
            original = Path(folder) / f"{count}.pbs"
            lines = Path(folder) / f"{count}.jsonl"
            back = Path(folder) / f"{count}-back.pbs"
            write_records(varied_records(count), original)
            for source, dest in ((original, lines), (lines, back)):
                seconds, peak = convert(source, dest)
                size = source.stat().st_size / 1e6
                direction = f"{source.suffix[1:]} -> {dest.suffix[1:]}"
                print(f"{count:>8}  {direction:<14}  {size:>7.1f}  {seconds:>8.1f}  {peak:>12.1f}")
            if not same_records(original, back):
                sys.exit(f"{count} records: the round trip changed a record")
    print("every round trip gave back equal records")


if __name__ == "__main__":
    main()
