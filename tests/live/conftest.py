"""A real ``gamerec serve --matches`` in its own process on a test clock, and bots to play on it."""

from __future__ import annotations

import asyncio
import sqlite3
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import grpc
import grpc.aio
import pytest
from google.protobuf import any_pb2
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]

from gamerec.recorder.signing import load_public_key
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.live.clocks import NS_PER_SECOND, set_clock_file
from gamerec.validator.service.match_client import SeatBot
from tests.live.matches import request
from tests.sealing import key
from tests.service.conftest import ServeProcess


class LiveServer:
    """``gamerec serve --matches DB --test-clock FILE`` in its own process (or processes).

    Its clock stands still until :meth:`advance` moves it.
    """

    def __init__(
        self,
        folder: Path,
        *arguments: str,
        processes: int = 1,
        clock: bool = True,
        store: str = "",
    ) -> None:
        """``store``: the ``--matches`` location (default: ``matches.db`` in ``folder``)."""
        self.folder = folder
        self.store = store or folder / "matches.db"
        self.clock_file = folder / "clock"
        self.ns = 0
        self.arguments = [
            *("--processes", str(processes), "--workers", "1"),
            *("--matches", str(self.store)),
            *arguments,
        ]
        if clock:
            if not self.clock_file.exists():
                set_clock_file(self.clock_file, 0)
            self.arguments += ["--test-clock", str(self.clock_file)]
        self.process = ServeProcess(*self.arguments)

    @property
    def address(self) -> str:
        return self.process.address

    @property
    def host_public(self) -> bytes:
        return load_public_key(f"{self.store}.host-key.pub")

    def advance(self, seconds: float) -> None:
        """Move the server's clock on."""
        self.ns += round(seconds * NS_PER_SECOND)
        set_clock_file(self.clock_file, self.ns)

    def wait_for_heartbeat(self, timeout: float = 30.0) -> None:
        """Until the server has written a heartbeat at the clock's reading now."""
        end = time.monotonic() + timeout
        while time.monotonic() < end:
            with sqlite3.connect(self.store) as connection:
                row = connection.execute("SELECT mono_ns FROM heartbeat").fetchone()
            if row is not None and row[0] == self.ns:
                return
            time.sleep(0.05)
        raise AssertionError("the server wrote no heartbeat at the clock's reading")

    def restart(self) -> None:
        """Start the server again on the same store and clock (after a kill), on any port."""
        self.process = ServeProcess(*self.arguments)

    def restart_on(self, address: str) -> None:
        """Start the server again on the same store, clock and port (after a kill)."""
        port = address.rsplit(":", 1)[1]
        self.process = ServeProcess(*self.arguments, "--port", port)

    def stop(self) -> None:
        self.process.kill()


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for a module: one process, small limits the tests reach."""
    server = LiveServer(
        tmp_path_factory.mktemp("live"),
        *("--match-limit", "watchers=8", "--match-limit", "request-bytes=4096"),
    )
    yield server
    server.stop()


def sync_stub(address: str) -> mgrpc.MatchServiceStub:
    return mgrpc.MatchServiceStub(grpc.insecure_channel(address))


def create(address: str, made: mpb.CreateMatchRequest) -> mpb.CreateMatchResponse:
    with grpc.insecure_channel(address) as channel:
        return mgrpc.MatchServiceStub(channel).CreateMatch(made, timeout=30)


async def play_match(
    address: str,
    made: mpb.CreateMatchRequest,
    *,
    policy: str = "random",
    seed: int = 0,
    keyed: bool = True,
    channels: int = 1,
) -> tuple[mpb.CreateMatchResponse, list[mpb.MatchEnded], mpb.MatchState]:
    """Create a match and play it to the end with one bot per seat; the final state.

    ``channels``: connections the bots spread over (several: several server processes).
    """
    opened = [
        grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(channels)
    ]
    try:
        stubs = [mgrpc.MatchServiceStub(channel) for channel in opened]
        created = await stubs[0].CreateMatch(made, timeout=30)
        bots = [
            SeatBot(
                stubs[seat % channels],
                created.match_id,
                token,
                seat + 1,
                policy,
                f"{seed}:{seat}",
                key=key(seat + 1) if keyed else None,
            )
            for seat, token in enumerate(created.seat_tokens)
        ]
        ended = await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), 120)
        state = await stubs[0].GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
        return created, list(ended), state
    finally:
        await asyncio.gather(*(channel.close() for channel in opened))


def details(error: grpc.RpcError) -> dict[str, Any]:
    """The google.rpc details of a failed call, by type name."""
    assert isinstance(error, grpc.Call)
    found: dict[str, Any] = {}
    for key_, value in error.trailing_metadata() or ():
        if key_ == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)
            for detail in status.details:
                for kind in (
                    error_details_pb2.BadRequest,
                    error_details_pb2.PreconditionFailure,
                    error_details_pb2.ResourceInfo,
                    error_details_pb2.QuotaFailure,
                    error_details_pb2.ErrorInfo,
                ):
                    if detail.Is(kind.DESCRIPTOR):
                        unpacked = kind()
                        detail.Unpack(unpacked)
                        found[kind.__name__] = unpacked
    return found


def packed(message: Any) -> any_pb2.Any:
    value = any_pb2.Any()
    value.Pack(message)
    return value


def keyed_request(game: str, seats: int = 2, **settings: Any) -> mpb.CreateMatchRequest:
    return request(game, seats, **settings)


def events_of(address: str, match_id: str, first: int = 1) -> list[mpb.MatchEvent]:
    """Every event of a match that is over, from ``first``."""
    with grpc.insecure_channel(address) as channel:
        stub = mgrpc.MatchServiceStub(channel)
        return list(stub.Watch(mpb.WatchRequest(match_id=match_id, from_event=first), timeout=30))


def kinds(events: Sequence[mpb.MatchEvent]) -> list[str]:
    return [str(event.WhichOneof("kind")) for event in events]
