"""``gamerec serve --processes N``: N server processes share the port under one supervisor."""

from __future__ import annotations

import os
import signal
import socket
import time
from collections.abc import Callable
from pathlib import Path

import grpc

from bench.procfs import process_tree
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.validator.judge import validate
from tests.service.conftest import ServeProcess

#: TCP states in /proc/net/tcp.
ESTABLISHED, LISTEN = "01", "0A"


def server_processes(supervisor: int) -> list[int]:
    """The server processes under a supervisor (started by multiprocessing's spawn)."""
    return [
        pid
        for pid in process_tree(supervisor)[1:]
        if parent_of(pid) == supervisor and b"spawn_main" in cmdline(pid)
    ]


def parent_of(pid: int) -> int:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except OSError:
        return 0


def cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return b""


def sockets_on_port(port: int, state: str) -> set[str]:
    """The inodes of this machine's TCP sockets on local ``port`` in ``state``.

    gRPC listens on IPv6 sockets that also take IPv4 (``::ffff:127.0.0.1``), so both tables
    are read.
    """
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        for line in Path(table).read_text().splitlines()[1:]:
            fields = line.split()
            if int(fields[1].rsplit(":", 1)[1], 16) == port and fields[3] == state:
                inodes.add(fields[9])
    return inodes


def socket_inodes(pid: int) -> set[str]:
    """The inodes of the sockets a process holds open."""
    found = set()
    for entry in Path(f"/proc/{pid}/fd").iterdir():
        try:
            target = os.readlink(entry)
        except OSError:
            continue
        if target.startswith("socket:["):
            found.add(target[len("socket:[") : -1])
    return found


def call_on_fresh_connections(address: str, record: pb.GameRecord, count: int) -> list[bool]:
    """For each of ``count`` new connections, whether Validate answered as the library does."""
    expected = validate(record)
    channels = [
        grpc.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(count)
    ]
    try:
        answers = [
            sgrpc.RecordServiceStub(channel).Validate(spb.ValidateRequest(record=record))
            for channel in channels
        ]
        return [answer == expected for answer in answers]
    finally:
        for channel in channels:
            channel.close()


def test_every_server_process_listens_on_the_port_and_takes_connections(
    serve_process: Callable[..., ServeProcess], sowing_game: pb.GameRecord
) -> None:
    server = serve_process("--processes", "2", "--workers", "2")
    assert server.lines[0]["processes"] == 2 and server.lines[0]["workers"] == 2
    children = server_processes(server.process.pid)
    assert len(children) == 2
    listening = sockets_on_port(server.port, LISTEN)
    assert all(socket_inodes(child) & listening for child in children)
    expected = validate(sowing_game)
    channels = [
        grpc.insecure_channel(server.address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(16)
    ]
    try:
        for channel in channels:
            verdict = sgrpc.RecordServiceStub(channel).Validate(
                spb.ValidateRequest(record=sowing_game)
            )
            assert verdict == expected
        connections = sockets_on_port(server.port, ESTABLISHED)
        held = [len(socket_inodes(child) & connections) for child in children]
    finally:
        for channel in channels:
            channel.close()
    # The kernel spreads the 16 connections; all on one process has a chance of 2 in 65,536.
    assert sum(held) == 16 and min(held) >= 1, held
    assert server.terminate() == 0
    events = [line["event"] for line in server.lines if "event" in line]
    assert events == ["listening", "stopping", "stopped"]


def test_a_server_process_that_dies_is_replaced(
    serve_process: Callable[..., ServeProcess], sowing_game: pb.GameRecord
) -> None:
    server = serve_process("--processes", "2", "--workers", "2")
    first, second = server_processes(server.process.pid)
    os.kill(first, signal.SIGKILL)
    end = time.monotonic() + 60
    while time.monotonic() < end and len(set(server_processes(server.process.pid)) - {first}) < 2:
        time.sleep(0.05)
    children = server_processes(server.process.pid)
    assert second in children and first not in children and len(children) == 2
    ended = [line for line in server.lines if line.get("event") == "server process ended"]
    assert ended and ended[0]["pid"] == first and ended[0]["level"] == "error"
    assert all(call_on_fresh_connections(server.address, sowing_game, 8))
    assert server.terminate() == 0


def test_killing_the_supervisor_stops_its_server_processes_and_frees_the_port(
    serve_process: Callable[..., ServeProcess],
) -> None:
    server = serve_process("--processes", "2", "--workers", "2")
    tree = process_tree(server.process.pid)
    assert len(server_processes(server.process.pid)) == 2
    server.process.kill()
    server.process.wait(timeout=10)
    end = time.monotonic() + 30
    while time.monotonic() < end and any(alive(pid) for pid in tree[1:]):
        time.sleep(0.05)
    assert not [pid for pid in tree[1:] if alive(pid)]
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", server.port))


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie, ended but not yet reaped, does not)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"
