"""A store one request cannot break, and a damaged store that still serves (issue 38).

A real ``gamerec serve --matches`` on 127.0.0.1: CreateMatch is checked whole before anything
is stored; a store holding matches the server cannot load (the shape the old CreateMatch
without seats left, a corrupt event body, a corrupt final record) starts, names each such
match in one line, and serves the others; ``gamerec match export`` says what it skipped; a
supervisor whose replacement process cannot start reports it and leaves no zombie.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sqlite3
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import grpc
import pytest

from bench.procfs import process_tree
from gamerec.recorder.codecs import read_records
from gamerec.recorder.seal import HOST
from gamerec.recorder.signing import load_private_key
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.builder import RecordBuilder
from tests.live.conftest import LiveServer, create, details, play_match
from tests.live.matches import request, rules
from tests.live.test_match_cli import gamerec

GARBAGE = b"\xff\xff\xff"


def rewrite_event(
    store: str | Path, match_id: str, number: int, change: Callable[[bytes], bytes]
) -> None:
    """Change one stored event's body in place, as a damaged disk or a bad tool would."""
    with sqlite3.connect(store) as connection:
        (body,) = connection.execute(
            "SELECT body FROM events WHERE match_id = ? AND number = ?", (match_id, number)
        ).fetchone()
        connection.execute(
            "UPDATE events SET body = ? WHERE match_id = ? AND number = ?",
            (change(bytes(body)), match_id, number),
        )


def without_seats(host_key_file: str) -> Callable[[bytes], bytes]:
    """The creation event as CreateMatch with rules and no seats stored it (sealed so)."""

    def change(body: bytes) -> bytes:
        event = mpb.MatchEvent.FromString(body)
        record = event.created.record
        del record.seats[:]
        record.ClearField("seal")
        host = load_private_key(host_key_file)
        builder = RecordBuilder.from_record(record, signing_keys={HOST: host}, public_keys={})
        event.created.record.CopyFrom(builder.record)
        del event.created.clocks[:]
        return event.SerializeToString()

    return change


def refusal(call: Callable[[], Any]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def wait_for(predicate: Callable[[], bool], seconds: float = 60.0) -> None:
    end = time.monotonic() + seconds
    while not predicate():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.05)


@pytest.mark.parametrize("game", ["ONE", "Aronda", "Oust", "Oh-Wah-Ree"])
def test_create_match_with_rules_and_no_seats_is_refused_and_stores_nothing(
    tmp_path: Path, game: str
) -> None:
    server = LiveServer(tmp_path)
    try:
        stub = mgrpc.MatchServiceStub(grpc.insecure_channel(server.address))
        error = refusal(
            lambda: stub.CreateMatch(mpb.CreateMatchRequest(rules=rules(game, 2)), timeout=30)
        )
        assert error.code() is grpc.StatusCode.INVALID_ARGUMENT, error.details()
        violation = details(error)["BadRequest"].field_violations[0]
        assert violation.field == "seats"
        assert "lists 0 seats but its variant has 2 players" in violation.description
        assert not stub.ListMatches(mpb.ListMatchesRequest(), timeout=30).matches
        with sqlite3.connect(server.store) as connection:
            assert connection.execute("SELECT count(*) FROM events").fetchone() == (0,)
        server.stop()
        server.restart()  # the store still starts
        assert create(server.address, request(game, 2)).match_id
    finally:
        server.stop()


def test_a_damaged_store_starts_names_each_damaged_match_and_serves_the_rest(
    tmp_path: Path,
) -> None:
    server = LiveServer(tmp_path)
    try:
        seatless = create(server.address, request("ONE", 2, keyed=False)).match_id
        damaged = create(server.address, request("ONE", 2))
        healthy = create(server.address, request("ONE", 2))
        stub = mgrpc.MatchServiceStub(grpc.insecure_channel(server.address))
        stub.Play(
            mpb.PlayRequest(
                match_id=damaged.match_id, token=damaged.seat_tokens[0], ply=1, text="c7"
            ),
            timeout=30,
        )
        finished, _, state = asyncio.run(play_match(server.address, request("Oust", 2)))
        kept, _, _ = asyncio.run(play_match(server.address, request("ONE", 2), seed=1))
        server.stop()
        rewrite_event(server.store, seatless, 1, without_seats(f"{server.store}.host-key"))
        rewrite_event(server.store, damaged.match_id, 2, lambda _: GARBAGE)
        rewrite_event(
            server.store, finished.match_id, len(state.record.moves) + 2, lambda _: GARBAGE
        )
        with sqlite3.connect(server.store) as connection:
            connection.execute(
                "UPDATE matches SET final = ? WHERE match_id = ?", (GARBAGE, finished.match_id)
            )

        server.restart()
        reported = [line for line in server.process.lines if line.get("event") == "damaged match"]
        assert [line["match_id"] for line in reported] == [seatless, damaged.match_id]
        assert "its creation lists 0 seats, its variant has 2 players" in reported[0]["message"]
        assert (
            f"match {damaged.match_id} event 2: the stored event cannot be read"
            in (reported[1]["message"])
        )
        assert all(len(line["message"]) <= 400 for line in reported)

        stub = mgrpc.MatchServiceStub(grpc.insecure_channel(server.address))
        for match_id, why in ((seatless, "0 seats"), (damaged.match_id, "event 2")):
            error = refusal(partial(stub.GetMatch, mpb.GetMatchRequest(match_id=match_id)))
            assert error.code() is grpc.StatusCode.DATA_LOSS and why in str(error.details())
        error = refusal(
            lambda: list(stub.Watch(mpb.WatchRequest(match_id=finished.match_id), timeout=30))
        )
        assert error.code() is grpc.StatusCode.DATA_LOSS, error.details()
        assert f"match {finished.match_id} event " in str(error.details())
        played = stub.Play(
            mpb.PlayRequest(
                match_id=healthy.match_id, token=healthy.seat_tokens[0], ply=1, text="c7"
            ),
            timeout=30,
        )
        assert [event.WhichOneof("kind") for event in played.events] == ["move"]
        assert create(server.address, request("ONE", 2)).match_id

        out = tmp_path / "out.pbs"
        exported = gamerec("match", "export", str(server.store), "-o", str(out))
        assert exported.returncode == 1, exported.stderr
        assert exported.stderr.splitlines() == [
            f"gamerec: 1 record written to {out} (pbs)",
            f"gamerec: error: {server.store}: match {finished.match_id}: its final record "
            "cannot be read (Error parsing message with type 'gamerec.v1.GameRecord': Wire "
            "format was corrupt); skipped",
        ]
        assert [record.seats[0].name for record in read_records(str(out))] == ["Ana"]
        assert kept.match_id
    finally:
        server.stop()


def server_processes(supervisor: int) -> list[int]:
    """The supervisor's server processes (its spawned children, not the resource tracker)."""
    found = []
    for pid in process_tree(supervisor)[1:]:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
        except OSError:
            continue
        parent = int(stat.rsplit(")", 1)[1].split()[1])
        if parent == supervisor and b"spawn_main" in command and b"resource_tracker" not in command:
            found.append(pid)
    return found


def zombies(supervisor: int) -> list[int]:
    """The supervisor's children that ended and were never reaped."""
    found = []
    for pid in process_tree(supervisor)[1:]:
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            continue
        if stat.rsplit(")", 1)[1].split()[0] == "Z":
            found.append(pid)
    return found


def test_a_replacement_process_that_cannot_start_is_reported_and_reaped(tmp_path: Path) -> None:
    server = LiveServer(tmp_path, processes=2)
    try:
        match_id = create(server.address, request("ONE", 2)).match_id
        supervisor = server.process.process.pid
        wait_for(lambda: len(server_processes(supervisor)) == 2)
        Path(f"{server.store}.host-key").write_text("not a key\n")  # no process can start now
        victim = server_processes(supervisor)[0]
        os.kill(victim, signal.SIGKILL)

        def reported() -> list[dict[str, Any]]:
            lines = server.process.lines
            return [line for line in lines if line.get("event") == "server process not replaced"]

        wait_for(lambda: bool(reported()))
        (line,) = reported()
        assert line["serving"] == 1 and "1 of 2 server processes serve" in line["message"]
        assert "host" in line["message"] or "key" in line["message"], line
        wait_for(lambda: len(server_processes(supervisor)) == 1)
        assert victim not in process_tree(supervisor) and not zombies(supervisor)
        for _ in range(8):  # every new connection reaches the process that still serves
            with grpc.insecure_channel(server.address) as channel:
                state = mgrpc.MatchServiceStub(channel).GetMatch(
                    mpb.GetMatchRequest(match_id=match_id), timeout=30
                )
            assert state.status == mpb.MATCH_STATUS_OPEN
    finally:
        server.stop()


def test_on_a_damaged_store_a_killed_server_process_is_replaced(tmp_path: Path) -> None:
    server = LiveServer(tmp_path)
    try:
        seatless = create(server.address, request("ONE", 2, keyed=False)).match_id
        healthy = create(server.address, request("ONE", 2)).match_id
        server.stop()
        rewrite_event(server.store, seatless, 1, without_seats(f"{server.store}.host-key"))
        server = LiveServer(tmp_path, processes=2)
        supervisor = server.process.process.pid
        wait_for(lambda: len(server_processes(supervisor)) == 2)
        victim = server_processes(supervisor)[0]
        os.kill(victim, signal.SIGKILL)

        def replaced() -> bool:
            processes = server_processes(supervisor)
            return len(processes) == 2 and victim not in processes

        wait_for(replaced)
        events = [line.get("event") for line in server.process.lines]
        assert "server process ended" in events and "server process not replaced" not in events
        damaged = [line for line in server.process.lines if line.get("event") == "damaged match"]
        assert {line["match_id"] for line in damaged} == {seatless}
        assert not zombies(supervisor)
        with grpc.insecure_channel(server.address) as channel:
            state = mgrpc.MatchServiceStub(channel).GetMatch(
                mpb.GetMatchRequest(match_id=healthy), timeout=30
            )
        assert state.status == mpb.MATCH_STATUS_OPEN
        assert server.process.terminate() == 0  # after the replacement listens: it stops too
    finally:
        server.stop()
