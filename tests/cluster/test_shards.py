"""Shards without separate processes: the plan, the shard files, and shards judged in turn.

Judging every shard of a plan one after the other must give exactly what the local run gives
(the same outcomes in the same order, faults placed the same), whatever the inputs hold; the
in-process Dask cluster then checks the client's side (order, and inputs a fault ends).
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from distributed import Client, LocalCluster
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.cli.verdicts import render_verdict_text
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits
from gamerec.recorder.wire import encode_varint
from gamerec.validator import cluster as on_cluster
from gamerec.validator.batch import OnlyInvalid, Outcome, judge_sources
from gamerec.validator.cluster import (
    ClusterError,
    Job,
    decode_shard,
    judge_shard,
    plan_shards,
    read_shard_file,
    validate_on_cluster,
    write_shard_file,
)
from tests.cluster.conftest import ROOT, write_archive

JOB = Job(render_verdict_text, None, DEFAULT_LIMITS, None)
#: The in-process cluster's HTTP server (127.0.0.1) takes another port when another test's
#: cluster holds 8787, and says so; that is no concern of these tests.
pytestmark = pytest.mark.filterwarnings("ignore:Port 8787 is already in use:UserWarning")


@pytest.fixture(scope="module")
def folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Small files of every encoding, two indexed .pbs (one cut short), a small broken .pbs."""
    here = tmp_path_factory.mktemp("inputs")
    shutil.copytree(ROOT / "fixtures" / "games", here / "a-games")
    write_archive(here / "b-archive.pbs", 3_500)
    broken = write_archive(here / "c-broken.pbs", 2_500)
    with broken.open("ab") as stream:
        stream.write(encode_varint(500) + b"cut short")
    shutil.copy(ROOT / "fixtures" / "broken" / "truncated.pbs", here / "d-small-broken.pbs")
    return here


def local(paths: list[str], limits: Limits = DEFAULT_LIMITS) -> list[Outcome]:
    return list(judge_sources(paths, render_verdict_text, workers=1, limits=limits))


def test_the_plan_indexes_large_pbs_files_and_groups_the_rest(folder: Path) -> None:
    shards = plan_shards([str(folder)], JOB)
    kinds = [("range", s.pbs.source) if s.pbs else ("files", len(s.files)) for s in shards]
    games = len(list((folder / "a-games").iterdir()))
    archive, broken = str(folder / "b-archive.pbs"), str(folder / "c-broken.pbs")
    assert kinds == [
        ("files", games),
        *[("range", archive)] * 2,
        *[("range", broken)] * 2,
        ("files", 1),
    ]
    first, second = (s.pbs for s in shards[1:3] if s.pbs)
    assert (first.first_number, second.first_number) == (1, 2_001)
    assert first.bounds[-1] == second.bounds[0]
    assert len({shard.key for shard in shards}) == len(shards)
    assert [s.key for s in plan_shards([str(folder)], JOB)] == [s.key for s in shards]


def test_the_shards_judged_in_turn_are_the_local_run(folder: Path) -> None:
    judged = [
        outcome
        for shard in plan_shards([str(folder)], JOB)
        for outcome in decode_shard(judge_shard(shard, JOB), shard.key) or []
    ]
    assert judged == local([str(folder)])


def test_a_quiet_run_plans_its_own_shards_and_judges_as_the_local_run(folder: Path) -> None:
    """``validate -q`` (OnlyInvalid) on a cluster: shards keyed apart from a full run's."""
    quiet = JOB._replace(render=OnlyInvalid(render_verdict_text))
    shards = plan_shards([str(folder)], quiet)
    assert {s.key for s in shards}.isdisjoint(s.key for s in plan_shards([str(folder)], JOB))
    judged = [
        outcome
        for shard in shards
        for outcome in decode_shard(judge_shard(shard, quiet), shard.key) or []
    ]
    assert judged == list(judge_sources([str(folder)], OnlyInvalid(render_verdict_text), workers=1))


def test_a_shard_task_returns_the_bytes_of_its_shard_file(folder: Path, tmp_path: Path) -> None:
    # One bytes value, not a list of Outcomes that Dask would serialize one by one.
    job = JOB._replace(out=str(tmp_path))
    shard = plan_shards([str(folder)], job)[1]
    data = judge_shard(shard, job)
    assert isinstance(data, bytes)
    assert (tmp_path / f"{shard.key}.shard").read_bytes() == data
    assert read_shard_file(tmp_path, shard.key) == decode_shard(data, shard.key)


def test_standard_input_cannot_go_to_a_cluster() -> None:
    with pytest.raises(ClusterError, match="standard input cannot be judged on a cluster"):
        plan_shards(["-"], JOB)


def test_a_changed_file_changes_its_shard_keys(tmp_path: Path) -> None:
    archive = write_archive(tmp_path / "a.pbs", 2_500)
    before = [shard.key for shard in plan_shards([str(archive)], JOB)]
    data = bytearray(archive.read_bytes())
    data[-3] ^= 1
    archive.write_bytes(bytes(data))
    after = [shard.key for shard in plan_shards([str(archive)], JOB)]
    assert before[0] == after[0] and before[1] != after[1]  # only the last granule changed


def test_shard_files_round_trip_and_refuse_what_is_not_whole(tmp_path: Path) -> None:
    outcomes = [
        Outcome("valid", "a.pbs", 1, 60, "a.pbs #1: valid", "ONE"),
        Outcome("invalid", "a.pbs", 2, 3, "two\n  lines", "Oust", ("A", "B")),
        Outcome("unreadable", "a.pbs", 0, 0, "a.pbs: record 3 at byte 9: cut"),
    ]
    write_shard_file(tmp_path, "k1", outcomes)
    assert read_shard_file(tmp_path, "k1") == outcomes
    assert read_shard_file(tmp_path, "k2") is None
    data = (tmp_path / "k1.shard").read_bytes()
    assert decode_shard(data, "k2") is None  # another shard's file
    assert decode_shard(data[:-1], "k1") is None  # cut short
    assert (
        decode_shard(data.replace(b"Oust", b"Oust", 1)[: data.rindex(b"\n[")] + b"\n", "k1") is None
    )
    assert [p.name for p in tmp_path.iterdir()] == ["k1.shard"]  # no temporary file is left


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_the_shard_decoder_takes_any_bytes(data: bytes) -> None:
    decoded = decode_shard(data, "k")
    assert decoded is None or all(isinstance(o, Outcome) for o in decoded)


@pytest.fixture(scope="module")
def threads() -> Iterator[Client]:
    """An in-process Dask cluster: the client's side without processes."""
    with (
        LocalCluster(
            n_workers=1, threads_per_worker=2, processes=False, dashboard_address=None
        ) as cluster,
        Client(cluster, set_as_default=False) as client,
    ):
        yield client


def test_a_fault_that_ends_an_input_drops_its_later_shards(tmp_path: Path, threads: Client) -> None:
    archive = write_archive(tmp_path / "a.pbs", 6_500)
    limits = Limits(max_record_bytes=1_000)  # some sample record is larger: the input ends
    expected = local([str(archive)], limits)
    assert expected[-1].number == 0 and len(expected) < 2_000
    run = validate_on_cluster([str(archive)], threads, render_verdict_text, limits=limits)
    assert list(run) == expected


def test_a_file_named_twice_is_two_inputs(tmp_path: Path, threads: Client) -> None:
    archive = str(write_archive(tmp_path / "a.pbs", 4_500))
    limits = Limits(max_record_bytes=1_000)  # each copy ends at the same record
    expected = local([archive, archive], limits)
    assert sum(outcome.number == 0 for outcome in expected) == 2
    run = validate_on_cluster([archive, archive], threads, render_verdict_text, limits=limits)
    assert list(run) == expected


def test_a_run_on_the_cluster_writes_and_reuses_its_shards(tmp_path: Path, threads: Client) -> None:
    archive = write_archive(tmp_path / "a.pbs", 4_500)
    out = tmp_path / "out"
    first = validate_on_cluster([str(archive)], threads, render_verdict_text, out=out)
    assert (len(first.shards), first.stored) == (3, 0)
    outcomes = list(first)
    assert outcomes == local([str(archive)])
    again = validate_on_cluster([str(archive)], threads, render_verdict_text, out=out)
    assert again.stored == 3 and list(again) == outcomes
    assert on_cluster.DEFAULT_SHARD_RECORDS == 2_000
