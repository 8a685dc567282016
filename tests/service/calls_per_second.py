"""Calls per second of Validate against an echo RPC on the same server, at 32 callers.

    .venv/bin/python -m tests.service.calls_per_second [--seconds 5] [--rounds 3] [--inline-bytes N]

The server runs in a subprocess (``--serve``) with an echo service registered beside
RecordService through ``create_server(extra_services=...)``, so both share one configuration.
The request is a 100-ply Oh-Wah-Ree record (about 900 bytes). Figures are noisy on a shared
machine: the client takes one of the cores.
"""

from __future__ import annotations

import argparse
import asyncio
import signal
import statistics
import subprocess
import sys
import time

import grpc
import grpc.aio

from gamerec.v1 import service_pb2 as spb
from validator.generation import generate
from validator.service.pool import DEFAULT_INLINE_BYTES, WorkerPool
from validator.service.server import ExtraService, create_server

ECHO = "/gamerec.bench.Echo/Echo"
VALIDATE = "/gamerec.v1.RecordService/Validate"


async def echo(request: bytes, context: grpc.aio.ServicerContext[bytes, bytes]) -> bytes:
    return request


def register_echo(server: grpc.aio.Server) -> None:
    handler = grpc.method_handlers_generic_handler(
        "gamerec.bench.Echo", {"Echo": grpc.unary_unary_rpc_method_handler(echo)}
    )
    server.add_generic_rpc_handlers((handler,))


async def serve(inline_bytes: int, workers: int) -> None:
    with WorkerPool(workers, inline_bytes=inline_bytes) as pool:
        extra = [ExtraService("gamerec.bench.Echo", register_echo)]
        server, port = await create_server("127.0.0.1:0", pool=pool, extra_services=extra)
        await server.start()
        print(port, flush=True)
        stop = asyncio.Event()
        asyncio.get_running_loop().add_signal_handler(signal.SIGTERM, stop.set)
        await stop.wait()
        await server.stop(None)


async def calls_per_second(address: str, method: str, request: bytes, seconds: float) -> float:
    async with grpc.aio.insecure_channel(address) as channel:
        call: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(method)
        calls = 0
        end = time.perf_counter() + seconds

        async def caller() -> None:
            nonlocal calls
            while time.perf_counter() < end:
                await call(request)
                calls += 1

        started = time.perf_counter()
        await asyncio.gather(*(caller() for _ in range(32)))
        return calls / (time.perf_counter() - started)


def hundred_ply_request() -> bytes:
    games = generate("Oh-Wah-Ree", {"Players": "2"}, 50, 7)
    record = next(game for game in games if 95 <= len(game.moves) <= 110)
    record.ClearField("metadata")
    return spb.ValidateRequest(record=record).SerializeToString()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--seconds", type=float, default=5.0)
    parser.add_argument("--inline-bytes", type=int, default=DEFAULT_INLINE_BYTES)
    parser.add_argument("--workers", type=int, default=0)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    if options.serve:
        asyncio.run(serve(options.inline_bytes, options.workers))
        return
    command = [sys.executable, "-m", "tests.service.calls_per_second", "--serve"]
    command += ["--inline-bytes", str(options.inline_bytes), "--workers", str(options.workers)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True)
    try:
        assert server.stdout is not None
        address = f"127.0.0.1:{int(server.stdout.readline())}"
        request = hundred_ply_request()
        asyncio.run(calls_per_second(address, VALIDATE, request, 1.0))  # warm-up
        ratios = []
        for _ in range(options.rounds):  # interleaved, so both see the same machine load
            echo_rate = asyncio.run(calls_per_second(address, ECHO, request, options.seconds))
            rate = asyncio.run(calls_per_second(address, VALIDATE, request, options.seconds))
            ratios.append(rate / echo_rate)
            print(
                f"request {len(request)} bytes, inline up to {options.inline_bytes} bytes: "
                f"echo {echo_rate:,.0f} calls/s, Validate {rate:,.0f} calls/s "
                f"({rate / echo_rate:.0%} of echo)"
            )
        print(f"median: Validate at {statistics.median(ratios):.0%} of echo")
    finally:
        server.terminate()
        server.wait(timeout=30)


if __name__ == "__main__":
    main()
