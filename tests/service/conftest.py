"""A real gamerec server for the service tests: in this process on 127.0.0.1 port 0, or as a
``gamerec serve`` subprocess; plus the long records the deadline tests need."""

from __future__ import annotations

import asyncio
import json
import logging
import re
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import grpc
import pytest

from bench.procfs import process_tree, rss_kib
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.validator.generation import generate
from gamerec.validator.service.calls import LOGGER, JsonLines
from gamerec.validator.service.pool import WorkerPool
from gamerec.validator.service.server import create_server

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
GAMES = sorted((FIXTURES / "games").glob("*.grn"))
INVALID = sorted((FIXTURES / "invalid").glob("*"))
BROKEN = sorted((FIXTURES / "broken").glob("*"))
#: The message limit of the in-process test server: small, so oversize tests stay cheap.
TEST_MAX_MESSAGE_BYTES = 1024 * 1024
GAMEREC = str(Path(sys.executable).with_name("gamerec"))


class CallLog(logging.Handler):
    """Keeps the service's log lines, parsed back from their JSON."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonLines())
        self.lines: list[dict[str, Any]] = []
        self._lock_lines = threading.Lock()

    def emit(self, record: logging.LogRecord) -> None:
        with self._lock_lines:
            self.lines.append(json.loads(self.format(record)))

    def calls(self, method: str) -> list[dict[str, Any]]:
        with self._lock_lines:
            return [line for line in self.lines if line.get("method") == method]

    def wait_for(self, method: str, count: int, timeout: float = 60.0) -> list[dict[str, Any]]:
        """The log lines of ``method``, once there are at least ``count`` (calls log at the end)."""
        end = time.monotonic() + timeout
        while len(self.calls(method)) < count and time.monotonic() < end:
            time.sleep(0.01)
        return self.calls(method)


@dataclass
class InProcessServer:
    """A server running on its own event loop in a thread of the test process."""

    workers: int = 2
    inline_bytes: int = 0
    max_message_bytes: int = TEST_MAX_MESSAGE_BYTES
    log: CallLog = field(default_factory=CallLog)

    def __post_init__(self) -> None:
        self.pool = WorkerPool(self.workers, inline_bytes=self.inline_bytes)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.server, self.port = self._run(self._start())
        self.address = f"127.0.0.1:{self.port}"
        LOGGER.addHandler(self.log)
        LOGGER.setLevel("INFO")

    async def _start(self) -> tuple[grpc.aio.Server, int]:
        server, port = await create_server(
            "127.0.0.1:0", pool=self.pool, max_message_bytes=self.max_message_bytes
        )
        await server.start()
        return server, port

    def _run(self, coroutine: Any) -> Any:
        return asyncio.run_coroutine_threadsafe(coroutine, self.loop).result(timeout=30)

    def stop(self) -> None:
        LOGGER.removeHandler(self.log)
        self._run(self.server.stop(None))
        self.loop.call_soon_threadsafe(self.loop.stop)
        self.thread.join(timeout=10)
        self.pool.close()


@pytest.fixture(scope="module")
def server() -> Iterator[InProcessServer]:
    """A real server on 127.0.0.1 (port 0) with two worker processes; every job in a worker."""
    running = InProcessServer()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def channel(server: InProcessServer) -> Iterator[grpc.Channel]:
    with grpc.insecure_channel(server.address) as opened:
        yield opened


@pytest.fixture(scope="module")
def stub(channel: grpc.Channel) -> sgrpc.RecordServiceStub:
    return sgrpc.RecordServiceStub(channel)


@pytest.fixture(scope="session")
def long_sowing_game() -> pb.GameRecord:
    """An Oh-Wah-Ree game with 200 stones per pit: 68,368 plies, 0.4 s to judge."""
    return next(generate("Oh-Wah-Ree", {"Players": "2", "StonesPerPit": "200"}, 1, 1))


@pytest.fixture(scope="session")
def sowing_game() -> pb.GameRecord:
    """An Oh-Wah-Ree game with 40 stones per pit: 4,047 plies, a quarter second of frames."""
    return next(generate("Oh-Wah-Ree", {"Players": "2", "StonesPerPit": "40"}, 1, 1))


class ServeProcess:
    """``gamerec serve`` as a subprocess on a free port; its stderr log lines are kept."""

    def __init__(self, *arguments: str) -> None:
        self.process = subprocess.Popen(
            [GAMEREC, "serve", "--port", "0", *arguments],
            stderr=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        assert self.process.stderr is not None
        self.stderr = self.process.stderr
        self.lines: list[dict[str, Any]] = []
        first = self._read_line()
        while first.get("level") == "error" and first.get("event") == "damaged match":
            first = self._read_line()  # a match the server cannot load: reported, then it serves
        match = re.search(r":(\d+)$", str(first.get("address", "")))
        assert first.get("event") == "listening" and match, first
        self.port = int(match.group(1))
        self.address = f"127.0.0.1:{self.port}"
        self._reader = threading.Thread(target=self._read_rest, daemon=True)
        self._reader.start()

    def _read_line(self) -> dict[str, Any]:
        line = self.stderr.readline()
        assert line, f"gamerec serve ended early (exit {self.process.poll()})"
        parsed: dict[str, Any] = json.loads(line)
        self.lines.append(parsed)
        return parsed

    def _read_rest(self) -> None:
        for line in self.stderr:
            self.lines.append(json.loads(line))

    def terminate(self, timeout: float = 30) -> int:
        """Send SIGTERM and wait for the exit code."""
        self.process.send_signal(signal.SIGTERM)
        code = self.process.wait(timeout=timeout)
        self._reader.join(timeout=5)
        return code

    def kill(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait(timeout=10)
        # Close the pipe now: left to the garbage collector (the reader thread and this
        # object refer to each other), it closes whenever a collection runs, under another
        # test that counts its process's descriptors (tests/players).
        self._reader.join(timeout=5)
        if not self._reader.is_alive():
            self.stderr.close()

    def tree_rss_kib(self) -> int:
        """The resident memory of the server and every process under it, in KiB."""
        return sum(rss_kib(pid) for pid in process_tree(self.process.pid))


@pytest.fixture
def serve_process() -> Iterator[Callable[..., ServeProcess]]:
    """Start ``gamerec serve`` processes (``start(*arguments)``); each is killed afterwards."""
    started: list[ServeProcess] = []

    def start(*arguments: str) -> ServeProcess:
        started.append(ServeProcess(*arguments))
        return started[-1]

    yield start
    for process in started:
        process.kill()
