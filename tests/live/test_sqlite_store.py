"""The SQLite match store: conditional appends across connections and processes, and the rest."""

from __future__ import annotations

import asyncio
import multiprocessing
import time
from pathlib import Path

import pytest

from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.match import Logged, Match
from gamerec.validator.live.sqlite_store import SQLiteMatchStore, final_records
from gamerec.validator.live.store import OpenMatchesLimitError, Start, StoreError, create_one
from tests.live.matches import HOST, new_match, play_out, request
from tests.sealing import key

HOST_PUBLIC = public_bytes(HOST)


async def opened(path: Path) -> SQLiteMatchStore:
    return await SQLiteMatchStore(path).open(HOST_PUBLIC)


async def stored_match(store: SQLiteMatchStore, match_id: str = "m1") -> tuple[Match, ManualClock]:
    clock = ManualClock()
    match = Match.create(match_id, request("ONE", 2), clock.now(), host_key=HOST)
    await create_one(store, match.events[0], [bytes(32)] * 2, match.summary(), 100)
    return match, clock


def test_of_two_connections_appending_the_same_ply_exactly_one_wins(tmp_path: Path) -> None:
    async def run() -> None:
        first, second = await opened(tmp_path / "m.db"), await opened(tmp_path / "m.db")
        match, clock = await stored_match(first)
        rival = Match.from_log(match.events, host_key=HOST)
        match.play(1, 1, "c7", clock.now())
        rival.play(1, 1, "d9", clock.now())
        answers = await asyncio.gather(
            first.append("m1", list(match.events[1:]), 1, match.summary(), None),
            second.append("m1", list(rival.events[1:]), 1, rival.summary(), None),
        )
        assert sorted(answers) == [False, True]
        winner = match if answers[0] else rival
        log = await second.log("m1")
        assert [entry.event for entry in log] == [entry.event for entry in winner.events]
        assert Match.from_log(log, host_key=HOST).record == winner.record
        await first.close()
        await second.close()

    asyncio.run(run())


def _append_in_a_process(path: str, go: str, seed: int, answers: multiprocessing.Queue) -> None:  # type: ignore[type-arg]
    async def run() -> bool:
        store = await opened(Path(path))
        log = await store.log("m1")
        match = Match.from_log(log, host_key=HOST)
        token = ("c7", "d9", "a1", "b2", "c3", "d4")[seed]
        match.play(1, 1, token, ManualClock().now())
        answers.put("ready")
        while not Path(go).exists():
            time.sleep(0.001)
        done = await store.append("m1", list(match.events[1:]), 1, match.summary(), None)
        await store.close()
        return done

    answers.put(asyncio.run(run()))


def test_of_four_processes_appending_the_same_ply_exactly_one_wins(tmp_path: Path) -> None:
    path = tmp_path / "m.db"

    async def prepare() -> None:
        store = await opened(path)
        await stored_match(store)
        await store.close()

    asyncio.run(prepare())
    context = multiprocessing.get_context("spawn")
    answers = context.Queue()
    go = tmp_path / "go"
    processes = [
        context.Process(target=_append_in_a_process, args=(str(path), str(go), n, answers))
        for n in range(4)
    ]
    for process in processes:
        process.start()
    assert [answers.get(timeout=120) for _ in processes] == ["ready"] * len(processes)
    go.touch()
    results = [answers.get(timeout=120) for _ in processes]
    for process in processes:
        process.join(timeout=60)
    assert sorted(results) == [False] * 3 + [True]

    async def check() -> None:
        store = await opened(path)
        log = await store.log("m1")
        assert [entry.event.number for entry in log] == [1, 2]
        await store.close()

    asyncio.run(check())


def test_changes_report_what_another_connection_appended_in_order(tmp_path: Path) -> None:
    async def run() -> None:
        writer, reader = await opened(tmp_path / "m.db"), await opened(tmp_path / "m.db")
        assert await reader.changes() == []
        match, clock = await stored_match(writer)
        for ply, token in enumerate(("c7", "d9", "a1"), start=1):
            before = match.last_event
            match.play(2 - ply % 2, ply, token, clock.now())
            assert await writer.append(
                "m1", list(match.events[before:]), before, match.summary(), None
            )
        changes = await reader.changes()
        assert [(c.match_id, c.entry.event.number) for c in changes] == [
            ("m1", n) for n in range(1, 5)
        ]
        assert [c.entry for c in changes] == list(match.events)
        assert await reader.changes() == []
        await writer.close()
        await reader.close()

    asyncio.run(run())


def test_the_open_matches_limit_is_kept_in_the_same_transaction(tmp_path: Path) -> None:
    async def run() -> None:
        store = await opened(tmp_path / "m.db")
        clock = ManualClock()
        for number in range(2):
            match = Match.create(f"m{number}", request("ONE", 2), clock.now(), host_key=HOST)
            await create_one(store, match.events[0], [bytes(32)] * 2, match.summary(), 2)
        third = Match.create("m3", request("ONE", 2), clock.now(), host_key=HOST)
        with pytest.raises(OpenMatchesLimitError, match="2 open matches"):
            await create_one(store, third.events[0], [bytes(32)] * 2, third.summary(), 2)
        assert await store.open_matches() == ["m0", "m1"]
        assert await store.token_hashes("m3") is None
        await store.close()

    asyncio.run(run())


def test_a_store_sealed_with_another_host_key_or_no_store_at_all_is_refused(tmp_path: Path) -> None:
    async def run() -> None:
        store = await opened(tmp_path / "m.db")
        await store.close()
        with pytest.raises(StoreError, match="sealed with the host key SHA256"):
            await SQLiteMatchStore(tmp_path / "m.db").open(public_bytes(key(9)))
        (tmp_path / "junk.db").write_bytes(b"not a database, " * 100)
        with pytest.raises(StoreError, match=r"junk\.db"):
            await SQLiteMatchStore(tmp_path / "junk.db").open(HOST_PUBLIC)

    asyncio.run(run())


def test_the_first_process_to_start_is_alone_and_learns_the_last_heartbeat(tmp_path: Path) -> None:
    async def run() -> None:
        clock = ManualClock()
        first = await opened(tmp_path / "m.db")
        assert await first.start(clock.now()) == Start(alone=True, last_alive=None)
        await first.started(clock.now())
        second = await opened(tmp_path / "m.db")
        assert await second.start(clock.now()) == Start(alone=False, last_alive=None)
        await second.started(clock.now())
        await second.close()
        clock.advance(3)
        await first.heartbeat(clock.now())
        last = clock.now()
        await first.close()
        clock.advance(60)
        third = await opened(tmp_path / "m.db")
        begun = await third.start(clock.now())
        assert begun.alone and begun.last_alive == last
        await third.close()

    asyncio.run(run())


def test_export_reads_the_final_records_of_the_statuses_asked(tmp_path: Path) -> None:
    async def run() -> tuple[Match, Match]:
        store = await opened(tmp_path / "m.db")
        finished, clock = await stored_match(store, "a")
        finished.resign(1, clock.now())
        await store.append("a", list(finished.events[1:]), 1, finished.summary(), finished.record)
        aborted, clock = await stored_match(store, "b")
        aborted.abort(1, clock.now())
        await store.append("b", list(aborted.events[1:]), 1, aborted.summary(), aborted.record)
        await stored_match(store, "c")
        summaries = await store.summaries(mpb.MATCH_STATUS_UNSPECIFIED, 10, "")
        assert [summary.match_id for summary in summaries] == ["c", "b", "a"]
        assert [s.match_id for s in await store.summaries(mpb.MATCH_STATUS_OPEN, 10, "")] == ["c"]
        assert [
            s.match_id for s in await store.summaries(mpb.MATCH_STATUS_UNSPECIFIED, 10, "b")
        ] == ["a"]
        await store.close()
        return finished, aborted

    finished, aborted = asyncio.run(run())
    path = tmp_path / "m.db"
    assert list(final_records(path, [mpb.MATCH_STATUS_FINISHED])) == [finished.record]
    both = [mpb.MATCH_STATUS_FINISHED, mpb.MATCH_STATUS_ABORTED]
    assert list(final_records(path, both)) == [finished.record, aborted.record]
    with pytest.raises(StoreError, match="no such match store"):
        list(final_records(tmp_path / "missing.db", both))


def test_a_stored_log_rebuilds_the_same_match(tmp_path: Path) -> None:
    async def run() -> None:
        store = await opened(tmp_path / "m.db")
        match, clock = new_match("Oh-Wah-Ree", 3, clock="60+1")
        await create_one(store, match.events[0], [bytes(32)] * 3, match.summary(), 10)
        play_out(match, clock)
        assert await store.append("m1", list(match.events[1:]), 1, match.summary(), match.record)
        log = await store.log("m1")
        assert all(isinstance(entry, Logged) for entry in log)
        assert Match.from_log(log, host_key=HOST).record == match.record
        await store.close()

    asyncio.run(run())
