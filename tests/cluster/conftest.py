"""A real Dask cluster of separate processes on 127.0.0.1, and archives to judge on it.

``dask scheduler`` and ``dask worker`` run as processes of their own (each in its own process
group, stopped with it at the end); the workers run under their nannies, which start a worker
again when it dies, as on a real cluster.
"""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from itertools import cycle, islice
from pathlib import Path
from typing import BinaryIO

import pytest
from distributed import Client

from gamerec.recorder.codecs import read_records
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
GAMEREC = str(BIN / "gamerec")
DASK = str(BIN / "dask")
#: Generous: the machine is shared and has two cores.
START_SECONDS = 90
RUN_SECONDS = 240
#: A frame that is not a GameRecord: an unreadable record in its place.
NOT_A_RECORD = b"\x0a\x05\xff\xff"
MIX = [
    ("ONE", {"Players": "2"}),
    ("ONE", {"Players": "3"}),
    ("Aronda", {}),
    ("Oust", {"Board": "5"}),
    ("Oh-Wah-Ree", {"Players": "2"}),
]


def sample_records() -> list[pb.GameRecord]:
    """A few games of every game, and the records of the invalid fixtures."""
    records = [r for seed, (game, tags) in enumerate(MIX) for r in generate(game, tags, 6, seed)]
    for path in sorted((ROOT / "fixtures" / "invalid").glob("*.grn"))[:12]:
        records += list(read_records(path))
    return records


def write_archive(path: Path, count: int, poison_at: int = 0) -> Path:
    """A ``.pbs`` of ``count`` records: the sample records in turn, every 997th unreadable.

    With ``poison_at``, that record's event is ``poison`` (``POISON_PRELOAD`` kills a worker
    that judges it).
    """
    frames = [record.SerializeToString(deterministic=True) for record in sample_records()]
    poison = pb.GameRecord()
    poison.ParseFromString(frames[0])
    poison.metadata.event = "poison"
    with path.open("wb") as stream:
        for number, sample in enumerate(islice(cycle(frames), count), start=1):
            frame = sample
            if number == poison_at:
                frame = poison.SerializeToString(deterministic=True)
            elif number % 997 == 0:
                frame = NOT_A_RECORD
            stream.write(encode_varint(len(frame)) + frame)
    return path


#: A worker preload that kills the worker judging a record whose event is ``poison``.
POISON_PRELOAD = """
import os
import signal

import gamerec.validator.batch as batch

_judge = vars(batch).setdefault("unpoisoned_judge", batch.judge)  # preloaded twice


def judge(record, *args, **options):
    if record.metadata.event == "poison":
        os.kill(os.getpid(), signal.SIGKILL)
    return _judge(record, *args, **options)


batch.judge = judge
"""


@dataclass
class Cluster:
    """A scheduler and its workers, each a process of its own."""

    address: str
    scheduler: subprocess.Popen[bytes]
    workers: list[subprocess.Popen[bytes]]

    def worker_pids(self) -> dict[str, int]:
        """The pid of each worker process (not its nanny), by worker address."""
        with Client(self.address, timeout=30) as client:
            pids: dict[str, int] = client.run(os.getpid)
        return pids


def start_cluster(
    folder: Path, workers: int, preload: str = "", env: dict[str, str] | None = None
) -> Cluster:
    """Start ``dask scheduler`` and ``workers`` single-threaded ``dask worker`` processes."""
    environment = {**os.environ, **(env or {})}
    file = folder / "scheduler.json"
    log = (folder / "scheduler.log").open("wb")
    scheduler = subprocess.Popen(
        [DASK, "scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard",
         "--scheduler-file", str(file)],
        stdout=log, stderr=log, env=environment, start_new_session=True,
    )  # fmt: skip
    try:
        return _join_workers(
            scheduler, file, log=log, workers=workers, preload=preload, environment=environment
        )
    except BaseException:
        stop([scheduler])
        raise


def _join_workers(
    scheduler: subprocess.Popen[bytes],
    file: Path,
    *,
    log: BinaryIO,
    workers: int,
    preload: str,
    environment: dict[str, str],
) -> Cluster:
    """Start the workers once the scheduler has written its address; wait until they joined."""
    deadline = time.monotonic() + START_SECONDS
    while (address := _address(file)) is None:
        assert scheduler.poll() is None and time.monotonic() < deadline, "no scheduler"
        time.sleep(0.1)
    worker = [DASK, "worker", address, "--host", "127.0.0.1", "--nthreads", "1", "--no-dashboard"]
    extra = ["--preload", preload] if preload else []
    started = [
        subprocess.Popen(
            [*worker, "--name", f"w{n}", *extra],
            stdout=log,
            stderr=log,
            env=environment,
            start_new_session=True,
        )
        for n in range(workers)
    ]
    cluster = Cluster(address, scheduler, started)
    try:
        with Client(address, timeout=START_SECONDS) as client:
            client.wait_for_workers(workers, timeout=START_SECONDS)
    except BaseException:
        stop(started)
        raise
    return cluster


def _address(file: Path) -> str | None:
    """The address in a scheduler file, once it is whole."""
    try:
        address: str = json.loads(file.read_text())["address"]
    except (OSError, ValueError, KeyError):
        return None
    return address


def stop(processes: Sequence[subprocess.Popen[bytes]]) -> None:
    """Stop processes this test started, and their children (each leads its own group)."""
    for process in processes:
        if process.poll() is None:
            os.killpg(process.pid, signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


@pytest.fixture(scope="module")
def cluster(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Cluster]:
    """Two workers on 127.0.0.1."""
    started = start_cluster(tmp_path_factory.mktemp("cluster"), 2)
    yield started
    stop([*started.workers, started.scheduler])


@dataclass(frozen=True)
class Run:
    """What one ``gamerec validate`` printed."""

    code: int
    stdout: str
    stderr: str

    @property
    def errors(self) -> list[str]:
        """The error lines of stderr (unreadable records and inputs)."""
        return [line for line in self.stderr.splitlines() if line.startswith("gamerec: error:")]


def validate(*arguments: str, env: dict[str, str] | None = None) -> Run:
    """Run ``gamerec validate`` with these arguments to the end."""
    done = subprocess.run(
        [GAMEREC, "validate", *arguments],
        capture_output=True,
        text=True,
        timeout=RUN_SECONDS,
        env={**os.environ, **(env or {})},
        check=False,
    )
    return Run(done.returncode, done.stdout, done.stderr)


class Started:
    """A ``gamerec validate`` started in the background, its stdout going to a file."""

    def __init__(self, stdout: Path, *arguments: str) -> None:
        self._stdout = stdout
        with stdout.open("wb") as sink:
            self.process = subprocess.Popen(
                [GAMEREC, "validate", *arguments],
                stdout=sink,
                stderr=subprocess.PIPE,
                start_new_session=True,
            )

    def finish(self, timeout: float = RUN_SECONDS) -> Run:
        """Wait for the end; what it printed."""
        _, stderr = self.process.communicate(timeout=timeout)
        return Run(self.process.returncode, self._stdout.read_text(), stderr.decode())

    def kill(self) -> None:
        """SIGKILL it."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.communicate()


def wait_for_shards(folder: Path, at_least: int, started: Started) -> int:
    """Wait until ``folder`` holds ``at_least`` shard files; how many it holds then."""
    deadline = time.monotonic() + RUN_SECONDS
    while (count := len(list(folder.glob("*.shard")))) < at_least:
        assert started.process.poll() is None, "the run ended before its shards were written"
        assert time.monotonic() < deadline, "no shard was written"
        time.sleep(0.05)
    return count


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """20,000 records: 10 shards of 2,000."""
    return write_archive(tmp_path_factory.mktemp("archive") / "archive.pbs", 20_000)


@pytest.fixture(scope="module")
def reference(archive: Path) -> Run:
    """``gamerec validate --workers 1`` of the archive: what every cluster run must print."""
    run = validate("--workers", "1", str(archive))
    headlines = [line for line in run.stdout.splitlines() if not line.startswith(" ")]
    assert run.code == 2 and len(run.errors) == 20 and len(headlines) == 20_000 - 20
    return run
