"""End-to-end ``gamerec validate`` on mixed collections: records/s, plies/s and peak memory.

Builds (once, cached in ``bench/.data/``) seeded ``.pbs`` collections of random complete games
of all four games, then runs the real ``gamerec validate -q`` on them with one worker and
with every core. Peak memory is the largest sum of the resident memory of the command and
all its worker processes, sampled from /proc every 20 ms; the main process's own peak is
shown too. Comparing 1,000 with 20,000 records shows whether memory grows with the input.

Run: ``.venv/bin/python -m bench.bench_validate [--counts 1000 20000] [--repeat 3]``.
"""

from __future__ import annotations

import argparse
import os
import re
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

from recorder.codecs import write_records
from validator.batch import default_workers
from validator.generation import generate

DATA = Path(__file__).resolve().parent / ".data"
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


def tree_rss_kib(root: int) -> tuple[int, int]:
    """(resident KiB of ``root`` and all its descendants, of ``root`` alone)."""
    parents: dict[int, int] = {}
    rss: dict[int, int] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            status = Path(f"/proc/{entry}/status").read_text()
        except OSError:
            continue
        fields = dict(line.split(":", 1) for line in status.splitlines() if ":" in line)
        parents[int(entry)] = int(fields.get("PPid", "0"))
        rss[int(entry)] = int(fields.get("VmRSS", "0 kB").split()[0])
    members = {root}
    changed = True
    while changed:
        changed = False
        for pid, parent in parents.items():
            if parent in members and pid not in members:
                members.add(pid)
                changed = True
    return sum(rss.get(pid, 0) for pid in members), rss.get(root, 0)


def measure(path: Path, workers: int) -> tuple[float, int, int, int, int]:
    """Run validate once: (seconds, records, plies, peak tree KiB, peak main KiB)."""
    command = Path(sys.executable).parent / "gamerec"
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(command), "validate", "-q", "--workers", str(workers), str(path)],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    peaks = [0, 0]

    def sample() -> None:
        while process.poll() is None:
            tree, main = tree_rss_kib(process.pid)
            peaks[0], peaks[1] = max(peaks[0], tree), max(peaks[1], main)
            time.sleep(0.02)

    sampler = threading.Thread(target=sample)
    sampler.start()
    _, stderr = process.communicate()
    seconds = time.perf_counter() - started
    sampler.join()
    match = SUMMARY.search(stderr)
    if process.returncode != 0 or match is None:
        raise SystemExit(f"validate failed ({process.returncode}): {stderr}")
    records, plies = (int(group.replace(",", "")) for group in match.groups())
    return seconds, records, plies, peaks[0], peaks[1]


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
            runs = [measure(path, workers) for _ in range(options.repeat)]
            seconds = statistics.median(run[0] for run in runs)
            _, records, plies, _, _ = runs[0]
            tree = max(run[3] for run in runs) / 1024
            main_rss = max(run[4] for run in runs) / 1024
            print(
                f"{records:>8,} {workers:>7} {seconds:>8.2f} {records / seconds:>10,.0f} "
                f"{plies / seconds:>10,.0f} {tree:>15.1f} {main_rss:>16.1f}"
            )


if __name__ == "__main__":
    main()
