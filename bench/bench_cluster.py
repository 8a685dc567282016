"""``gamerec validate`` on a Dask cluster against the local run, and the ``.pbs`` index scan.

The archive is the seeded mixed collection of ``bench_validate`` (20,000 records) repeated to
200,000 records (cached in ``bench/.data``). For 1 and 2 workers, a cluster of separate
processes is started on 127.0.0.1 (``dask scheduler`` and single-threaded ``dask worker``
processes without the profiler, up before the job as on a platform) and the real
``gamerec validate -q --scheduler`` is timed against ``gamerec validate -q --workers N`` on the
same file, the runs taking turns so that each pair meets the same load (medians of three pairs
by default). Times are wall times of the whole command (start-up, connecting, planning and the
index check included). The index scan (``recorder.index.scan``) is timed beside a plain read
of the same file in the same blocks.

Run: ``.venv/bin/python -m bench.bench_cluster [--records 200000] [--runs 3]``.
"""

from __future__ import annotations

import argparse
import json
import os
import signal
import statistics
import subprocess
import sys
import time
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bench.bench_validate import SUMMARY, collection
from bench.figures import DATA, Figure
from gamerec.recorder import index as frame_index

if TYPE_CHECKING:
    from collections.abc import Iterator

RECORDS = 200_000
BIN = Path(sys.executable).parent
WORKERS = (1, 2)
#: The workers are started as the README says to start them: without Dask's statistical
#: profiler (``distributed.worker.profile.enabled``), which costs a single-threaded worker
#: about 7% of its throughput on this pure-Python work.
WORKER_ENVIRONMENT = {**os.environ, "DASK_DISTRIBUTED__WORKER__PROFILE__ENABLED": "False"}


@dataclass(frozen=True, slots=True)
class ClusterFigures:
    """What one run of the section measured.

    Attributes:
        records: records in the archive.
        megabytes: its size in MB (10^6 bytes).
        local: records/s of ``--workers N``, by N.
        cluster: records/s on a cluster of N workers, by N.
        scan: MB/s of the index scan.
        read: MB/s of a plain read of the file.
    """

    records: int
    megabytes: float
    local: dict[int, float]
    cluster: dict[int, float]
    scan: float
    read: float


def archive(records: int) -> Path:
    """The 20,000-record mixed collection repeated to ``records`` records (cached)."""
    base = collection(20_000)
    if records <= 20_000:
        return collection(records)
    path = DATA / f"mixed-{records}.pbs"
    if not path.exists():
        data = base.read_bytes()
        temporary = path.with_suffix(".tmp")
        with temporary.open("wb") as stream:
            for _ in range(records // 20_000):
                stream.write(data)
        temporary.replace(path)
    return path


def run_validate(path: Path, *options: str) -> float:
    """Records/s of one ``gamerec validate -q`` run (wall time of the whole command)."""
    started = time.perf_counter()
    done = subprocess.run(
        [str(BIN / "gamerec"), "validate", "-q", *options, str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    seconds = time.perf_counter() - started
    match = SUMMARY.search(done.stderr)
    if done.returncode != 0 or match is None:
        raise SystemExit(f"validate failed ({done.returncode}): {done.stderr[-2000:]}")
    return int(match.group(1).replace(",", "")) / seconds


@contextmanager
def cluster(workers: int, folder: Path) -> Iterator[str]:
    """A scheduler and ``workers`` single-threaded workers on 127.0.0.1; yields the address."""
    file = folder / f"scheduler-{workers}.json"
    file.unlink(missing_ok=True)
    log = (folder / "cluster.log").open("ab")
    dask = str(BIN / "dask")
    processes = [
        subprocess.Popen(
            [
                dask,
                "scheduler",
                "--host",
                "127.0.0.1",
                "--port",
                "0",
                "--no-dashboard",
                "--scheduler-file",
                str(file),
            ],
            stdout=log,
            stderr=log,
            start_new_session=True,
        )
    ]
    try:
        address = _address(file)
        processes += [
            subprocess.Popen(
                [
                    dask,
                    "worker",
                    address,
                    "--host",
                    "127.0.0.1",
                    "--nthreads",
                    "1",
                    "--no-dashboard",
                ],
                stdout=log,
                stderr=log,
                start_new_session=True,
                env=WORKER_ENVIRONMENT,
            )
            for _ in range(workers)
        ]
        from distributed import Client  # noqa: PLC0415 (the cluster extra)

        with Client(address, timeout=60) as client:
            client.wait_for_workers(workers, timeout=120)
        yield address
    finally:
        for process in processes:
            os.killpg(process.pid, signal.SIGTERM)
        for process in processes:
            process.wait(timeout=30)


def _address(file: Path) -> str:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            address: str = json.loads(file.read_text())["address"]
        except (OSError, ValueError, KeyError):
            time.sleep(0.1)
            continue
        return address
    raise SystemExit("the Dask scheduler did not start")


def scan_rates(path: Path) -> tuple[float, float]:
    """MB/s of the index scan and of a plain read of the file in the same blocks."""
    size = path.stat().st_size / 1e6
    started = time.perf_counter()
    with path.open("rb", buffering=0) as stream:
        while stream.read(frame_index.BLOCK_BYTES):
            pass
    read = size / (time.perf_counter() - started)
    started = time.perf_counter()
    frame_index.scan(path)
    return size / (time.perf_counter() - started), read


def measure(records: int = RECORDS, runs: int = 3) -> ClusterFigures:
    """Every figure of the section (the index is scanned, and its sidecar written, first).

    For each worker count one cluster is started, then the local and the cluster run take
    turns ``runs`` times; each figure is the median of its runs.
    """
    path = archive(records)
    frame_index.load_index(path)  # the sidecar the cluster runs then check and use
    scan, read = scan_rates(path)
    local: dict[int, float] = {}
    on_cluster: dict[int, float] = {}
    for workers in WORKERS:
        pairs = []
        with cluster(workers, DATA) as address:
            for _ in range(runs):
                pairs.append(
                    (
                        run_validate(path, "--workers", str(workers)),
                        run_validate(path, "--scheduler", address),
                    )
                )
        local[workers] = statistics.median(pair[0] for pair in pairs)
        on_cluster[workers] = statistics.median(pair[1] for pair in pairs)
    return ClusterFigures(records, path.stat().st_size / 1e6, local, on_cluster, scan, read)


def figures(measured: ClusterFigures) -> list[Figure]:
    """The section's rows: the cluster against local at the same core count, and the scan."""
    rows = []
    for workers in WORKERS:
        label = f"{workers} worker{'s' * (workers > 1)}"
        rows.append(
            Figure(
                f"cluster: validate {measured.records:,} records, {label}",
                measured.cluster[workers],
                "records/s",
                f"local --workers {workers}",
                measured.local[workers],
                target=0.85,
            )
        )
    rows.append(
        Figure(
            f"index scan of a {measured.megabytes:,.0f} MB .pbs",
            measured.scan,
            "MB/s",
            "plain read of the file",
            measured.read,
        )
    )
    return rows


def main() -> None:
    """Print the section's figures."""
    from bench.figures import table  # noqa: PLC0415

    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=RECORDS)
    parser.add_argument("--runs", type=int, default=3)
    options = parser.parse_args()
    print(table(figures(measure(options.records, options.runs))))


if __name__ == "__main__":
    main()
