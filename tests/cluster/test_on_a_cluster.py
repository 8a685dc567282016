"""``gamerec validate --scheduler`` on a real cluster of separate processes, faults included.

Every run is compared record for record with ``gamerec validate --workers 1`` of the same
archive (stdout, and the error lines of the unreadable records): the cluster must print the
same verdicts in the same order, whatever died on the way.
"""

from __future__ import annotations

import os
import signal
import time
from pathlib import Path

import pytest

from tests.cluster.conftest import (
    POISON_PRELOAD,
    Cluster,
    Run,
    Started,
    start_cluster,
    stop,
    validate,
    wait_for_shards,
    write_archive,
)

pytestmark = pytest.mark.xdist_group("cluster")


def same_verdicts(run: Run, reference: Run) -> None:
    assert run.code == reference.code, run.stderr[-2000:]
    assert run.stdout == reference.stdout
    assert run.errors == reference.errors
    assert (
        run.stderr.splitlines()[-3].split(" plies in ")[0]
        == (reference.stderr.splitlines()[-3].split(" plies in ")[0])
    )


def shard_files(folder: Path) -> dict[str, tuple[int, int]]:
    """Each shard file with its inode and modification time: a file written again differs."""
    return {
        path.name: (path.stat().st_ino, path.stat().st_mtime_ns) for path in folder.glob("*.shard")
    }


def test_a_worker_killed_mid_run_loses_and_doubles_nothing(
    cluster: Cluster, archive: Path, reference: Run, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    before = cluster.worker_pids()
    client = Started(tmp_path / "stdout", "--scheduler", cluster.address, "--out", str(out),
                     str(archive))  # fmt: skip
    wait_for_shards(out, 1, client)
    victim = sorted(before.values())[0]
    os.kill(victim, signal.SIGKILL)  # mid-shard: both workers are busy, 9 shards to go
    same_verdicts(client.finish(), reference)
    after = cluster.worker_pids()
    assert victim not in after.values() and len(after) == 2  # its nanny started a new one
    again = validate("--scheduler", cluster.address, "--out", str(out), str(archive))
    assert "10 shards, 10 finished before" in again.stderr
    same_verdicts(again, reference)


def test_a_killed_client_s_run_resumes_and_judges_no_shard_again(
    cluster: Cluster, archive: Path, reference: Run, tmp_path: Path
) -> None:
    out = tmp_path / "out"
    client = Started(tmp_path / "stdout", "--scheduler", cluster.address, "--out", str(out),
                     str(archive))  # fmt: skip
    wait_for_shards(out, 3, client)
    client.kill()
    time.sleep(1)
    kept = shard_files(out)
    assert 3 <= len(kept) < 10
    run = validate("--scheduler", cluster.address, "--out", str(out), str(archive))
    same_verdicts(run, reference)
    finished = int(run.stderr.split(" shards, ")[1].split(" finished before")[0])
    assert finished >= len(kept)
    now = shard_files(out)
    assert len(now) == 10
    assert {name: now[name] for name in kept} == kept  # not one of them was judged again


def test_a_record_that_kills_every_worker_is_unreadable_in_its_place(tmp_path: Path) -> None:
    archive = write_archive(tmp_path / "poisoned.pbs", 2_100, poison_at=2_050)
    reference = validate("--workers", "1", str(archive))
    preload = tmp_path / "poison.py"
    preload.write_text(POISON_PRELOAD)
    env = {"DASK_DISTRIBUTED__SCHEDULER__ALLOWED_FAILURES": "1"}
    cluster = start_cluster(tmp_path, 2, preload=str(preload), env=env)
    try:
        run = validate("--scheduler", cluster.address, str(archive))
    finally:
        stop([*cluster.workers, cluster.scheduler])
    assert run.code == 2
    lost = [line for line in run.errors if line not in reference.errors]
    assert len(lost) == 1 and "poisoned.pbs: record 2050 at byte " in lost[0]
    assert "the worker judging it died each time" in lost[0]
    poisoned = f"{archive} #2050: "
    expected = [line for line in reference.stdout.splitlines() if not line.startswith(poisoned)]
    assert run.stdout.splitlines() == expected
    assert "2,100 records:" in run.stderr and "3 unreadable" in run.stderr


def test_a_lost_scheduler_is_exit_2_and_the_run_resumes_elsewhere(tmp_path: Path) -> None:
    archive = write_archive(tmp_path / "archive.pbs", 8_000)  # 4 shards
    reference = validate("--workers", "1", str(archive))
    cluster = start_cluster(tmp_path, 2)
    out = tmp_path / "out"
    try:
        client = Started(tmp_path / "stdout", "--scheduler", cluster.address, "--out", str(out),
                         str(archive))  # fmt: skip
        wait_for_shards(out, 1, client)
        os.kill(cluster.scheduler.pid, signal.SIGKILL)
        lost = client.finish(timeout=120)
    finally:
        stop([*cluster.workers, cluster.scheduler])
    assert lost.code == 2
    assert "gamerec: error: lost the Dask scheduler" in lost.stderr
    assert "Traceback" not in lost.stderr
    assert reference.stdout.startswith(lost.stdout)  # what it printed is the start of the whole
    run = validate("--cluster", "local:2", "--out", str(out), str(archive))
    same_verdicts(run, reference)
    assert int(run.stderr.split(" shards, ")[1].split(" finished before")[0]) >= 1


def _profiler_state(dask_worker: object) -> tuple[object, bool]:
    import dask.config  # noqa: PLC0415

    callbacks = getattr(dask_worker, "periodic_callbacks", {})
    return dask.config.get("distributed.worker.profile.enabled"), "profile" in callbacks


def test_the_embedded_cluster_starts_its_workers_without_the_profiler() -> None:
    from gamerec.cli.on_cluster import _client  # noqa: PLC0415

    with _client(None, "local:1") as (client, where):
        states = client.run(_profiler_state)
    assert where == "local:1"
    assert list(states.values()) == [(False, False)]
