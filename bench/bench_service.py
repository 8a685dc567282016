"""The service: ``Validate`` calls per second and latency next to an echo RPC, same server.

The server is ``gamerec serve`` as it runs in production (gamerec.validator.service.processes: one
server process per core sharing the port, each with its worker pool, health, reflection and
the call log, here written to a file), started with one more service registered beside
RecordService: ``gamerec.bench.Echo/Echo``, which answers a request with its own bytes. Echo
is the ceiling of gRPC in Python on this machine; ``Validate`` gets the same request bytes (a
``ValidateRequest`` holding a 100-ply two-seat Oh-Wah-Ree record, about 920 bytes), so the
difference is the referee's own cost.

The client is one asyncio process driving 1, 8 or 32 concurrent callers, each on a channel
(a connection) of its own and sending its next call as soon as the last one is answered, for
a few seconds; echo and Validate rounds alternate, so both see the same load on this shared
machine. Figures: calls per second (median over rounds) and the 50th and 99th percentile
latency (over every call of every round). The client shares the machine's cores with the
server.

Run alone: ``.venv/bin/python -m bench.bench_service [--seconds 3] [--rounds 3]
[--processes P] [--workers W] [--inline-bytes N] [--callers 32 ...]`` (``--callers``: only
those numbers of callers, e.g. the 32 of the target).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, fields
from pathlib import Path

import grpc
import grpc.aio

from bench.figures import percentile
from gamerec.v1 import service_pb2 as spb
from gamerec.validator.generation import generate
from gamerec.validator.service.access import AccessSettings
from gamerec.validator.service.calls import log_to
from gamerec.validator.service.pool import DEFAULT_INLINE_BYTES
from gamerec.validator.service.processes import serve
from gamerec.validator.service.quotas import ClientLimits
from gamerec.validator.service.server import ExtraService, ServeSettings

#: The bench's servers lift the limits per client: every caller of the bench comes from one
#: address (127.0.0.1) without a token, and the default 500 calls/s per address would refuse
#: the bench's own load with RESOURCE_EXHAUSTED. What is measured is the server's speed.
BENCH_LIMIT = 1_000_000
BENCH_ACCESS = AccessSettings(
    limits=ClientLimits(**{limit.name: BENCH_LIMIT for limit in fields(ClientLimits)})
)
#: What the table says of those limits.
LIMITS_NOTE = (
    f"the bench's servers run with every limit per client at {BENCH_LIMIT:,} (gamerec serve "
    "--client-limit NAME=N), so the bench's own load from one address is let through"
)
ECHO_SERVICE = "gamerec.bench.Echo"
ECHO = f"/{ECHO_SERVICE}/Echo"
VALIDATE = "/gamerec.v1.RecordService/Validate"
CALLERS = (1, 8, 32)
#: Seconds to wait for the server to say where it listens.
START_SECONDS = 60.0


@dataclass(frozen=True, slots=True)
class Load:
    """What one method did under one number of callers.

    Attributes:
        calls_per_second: calls answered per second (median over rounds).
        p50_ms: the median latency of a call, in milliseconds.
        p99_ms: the 99th percentile latency, in milliseconds.
    """

    calls_per_second: float
    p50_ms: float
    p99_ms: float


@dataclass(frozen=True, slots=True)
class ServiceFigures:
    """Validate and echo under one number of callers.

    Attributes:
        callers: concurrent callers.
        validate: Validate's figures.
        echo: the echo RPC's figures (same payload, same server).
        pairs: Validate's calls/s over echo's in each round (the two ran in turn).
    """

    callers: int
    validate: Load
    echo: Load
    pairs: tuple[float, ...] = ()


def hundred_ply_request() -> bytes:
    """A ValidateRequest of a two-seat Oh-Wah-Ree record of about 100 plies (no metadata)."""
    games = generate("Oh-Wah-Ree", {"Players": "2"}, 50, 7)
    record = next(game for game in games if 95 <= len(game.moves) <= 110)
    record.ClearField("metadata")
    return spb.ValidateRequest(record=record).SerializeToString()


# -- the server ----------------------------------------------------------------------------------


async def _echo(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
    return request


def register_echo(server: grpc.aio.Server) -> None:
    """Add the echo service (bytes in, the same bytes out) to a server."""
    handler = grpc.method_handlers_generic_handler(
        ECHO_SERVICE, {"Echo": grpc.unary_unary_rpc_method_handler(_echo)}
    )
    server.add_generic_rpc_handlers((handler,))


def run_server(workers: int, inline_bytes: int, processes: int) -> None:
    """Serve RecordService and echo on a free port until SIGTERM, logging to stderr."""
    log_to(sys.stderr)
    settings = ServeSettings(
        workers=workers,
        inline_bytes=inline_bytes,
        extra_services=(ExtraService(ECHO_SERVICE, register_echo),),
        access=BENCH_ACCESS,
    )
    asyncio.run(serve(settings, processes))


def start_server(command: list[str], log: Path) -> tuple[subprocess.Popen[bytes], str]:
    """Start a server command and wait until its ``listening`` line says where it listens.

    Its standard error (the call log) goes to ``log``.

    Returns:
        The process and the address it listens on.

    Raises:
        SystemExit: it stopped, or did not listen within START_SECONDS.
    """
    with log.open("wb") as sink:
        process = subprocess.Popen(command, stderr=sink)
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"{command[0]} stopped ({process.returncode}): {log.read_text()}")
        # Only whole lines: the server may be writing the next one.
        for line in log.read_text().splitlines(keepends=True):
            event = json.loads(line) if line.endswith("\n") else {}
            if event.get("event") == "listening":
                return process, str(event["address"])
        time.sleep(0.05)
    process.kill()
    raise SystemExit(f"{command[0]} did not start listening: {log.read_text()}")


class Server:
    """The benchmark's server (``gamerec serve``'s processes), giving its address."""

    def __init__(
        self, processes: int = 0, workers: int = 0, inline_bytes: int = DEFAULT_INLINE_BYTES
    ) -> None:
        """Prepare a server as ``gamerec serve --processes P --workers W`` would run."""
        self._arguments = [
            *("--processes", str(processes)),
            *("--workers", str(workers)),
            *("--inline-bytes", str(inline_bytes)),
        ]
        self._folder = tempfile.TemporaryDirectory()
        self._log = Path(self._folder.name) / "calls.log"
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> str:
        """Start the server (its call log goes to a file); its address once it listens."""
        command = [sys.executable, "-m", "bench.bench_service", "--serve", *self._arguments]
        self._process, address = start_server(command, self._log)
        return address

    def __exit__(self, *_: object) -> None:
        """Stop the server gracefully and remove its log."""
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=60)
        self._folder.cleanup()


# -- the client ----------------------------------------------------------------------------------


async def drive(
    address: str, method: str, request: bytes, callers: int, seconds: float
) -> tuple[float, list[float]]:
    """Calls per second and every call's latency (s) of ``callers`` callers for ``seconds``.

    Each caller has a channel of its own (its own connection, as separate clients have), so
    the kernel spreads the callers over the server processes.
    """
    channels = [
        grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(callers)
    ]
    try:
        calls: list[grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]] = [
            channel.unary_unary(method) for channel in channels
        ]
        await asyncio.gather(*(call(request) for call in calls))  # connected before the clock
        latencies: list[float] = []
        clock = time.perf_counter
        end = clock() + seconds

        async def caller(call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]) -> None:
            while (started := clock()) < end:
                await call(request)
                latencies.append(clock() - started)

        started = clock()
        await asyncio.gather(*(caller(call) for call in calls))
        return len(latencies) / (clock() - started), latencies
    finally:
        await asyncio.gather(*(channel.close() for channel in channels))


def _load(rates: list[float], latencies: list[float]) -> Load:
    return Load(
        statistics.median(rates),
        percentile(latencies, 0.50) * 1000,
        percentile(latencies, 0.99) * 1000,
    )


def measure(
    callers: tuple[int, ...] = CALLERS,
    seconds: float = 3.0,
    rounds: int = 3,
    server: Server | None = None,
) -> list[ServiceFigures]:
    """Start a server (default: as ``gamerec serve`` runs) and measure echo and Validate."""
    request = hundred_ply_request()
    figures = []
    with server or Server() as address:
        asyncio.run(drive(address, VALIDATE, request, 8, 0.5))  # warm-up
        for count in callers:
            rates: dict[str, list[float]] = {ECHO: [], VALIDATE: []}
            latencies: dict[str, list[float]] = {ECHO: [], VALIDATE: []}
            for number in range(rounds):  # in turn, the order swapped every other round
                for method in (ECHO, VALIDATE) if number % 2 == 0 else (VALIDATE, ECHO):
                    rate, times = asyncio.run(drive(address, method, request, count, seconds))
                    rates[method].append(rate)
                    latencies[method].extend(times)
            figures.append(
                ServiceFigures(
                    count,
                    _load(rates[VALIDATE], latencies[VALIDATE]),
                    _load(rates[ECHO], latencies[ECHO]),
                    tuple(v / e for v, e in zip(rates[VALIDATE], rates[ECHO], strict=True)),
                )
            )
    return figures


def main() -> None:
    """Print the figures (or, with ``--serve LOG``, be the server)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--processes", type=int, default=0)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--inline-bytes", type=int, default=DEFAULT_INLINE_BYTES)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--callers", type=int, nargs="+", default=list(CALLERS))
    options = parser.parse_args()
    if options.serve:
        run_server(options.workers, options.inline_bytes, options.processes)
        return
    server = Server(options.processes, options.workers, options.inline_bytes)
    for figures in measure(tuple(options.callers), options.seconds, options.rounds, server):
        validate, echo = figures.validate, figures.echo
        share = validate.calls_per_second / echo.calls_per_second
        print(
            f"{figures.callers:>2} callers: Validate {validate.calls_per_second:,.0f} calls/s "
            f"(p50 {validate.p50_ms:.2f} ms, p99 {validate.p99_ms:.2f} ms), echo "
            f"{echo.calls_per_second:,.0f} calls/s (p50 {echo.p50_ms:.2f} ms, p99 "
            f"{echo.p99_ms:.2f} ms): Validate at {share:.0%} of echo (rounds: "
            + ", ".join(f"{pair:.2f}x" for pair in figures.pairs)
            + ")"
        )


if __name__ == "__main__":
    main()
