"""``gamerec serve`` as a real process: graceful shutdown, a taken port, and 32 callers at once."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import grpc
import grpc.aio
import pytest

from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.validator.frames import replay
from gamerec.validator.judge import score, validate
from tests.service.conftest import GAMEREC, GAMES, INVALID, ROOT, ServeProcess


def test_sigterm_lets_calls_in_flight_finish_then_exits_0(
    serve_process: Callable[..., ServeProcess],
    sowing_game: pb.GameRecord,
    long_sowing_game: pb.GameRecord,
) -> None:
    server = serve_process("--workers", "1", "--grace", "30")
    with grpc.insecure_channel(server.address) as channel:
        stub = sgrpc.RecordServiceStub(channel)
        streams = [stub.Replay(spb.ReplayRequest(record=sowing_game)) for _ in range(2)]
        firsts = [next(stream).ply for stream in streams]  # both calls are under way
        judged = stub.Validate.future(spb.ValidateRequest(record=long_sowing_game))
        time.sleep(0.05)
        server.process.send_signal(15)  # SIGTERM
        rests = [sum(1 for _ in stream) for stream in streams]
        verdict = judged.result(timeout=30)
    assert firsts == [1, 1]
    assert [1 + rest for rest in rests] == [len(sowing_game.moves)] * 2
    assert verdict.valid and verdict.plies_replayed == len(long_sowing_game.moves)
    assert server.process.wait(timeout=30) == 0
    events = [line.get("event") for line in server.lines if "event" in line]
    assert events == ["listening", "stopping", "stopped"]
    calls = [line for line in server.lines if "method" in line]
    assert sorted((c["method"], c["status"]) for c in calls) == [
        ("Replay", "OK"),
        ("Replay", "OK"),
        ("Validate", "OK"),
    ]


def test_a_port_in_use_is_one_error_line_and_exit_2() -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        finished = subprocess.run(
            [GAMEREC, "serve", "--port", str(port), "--workers", "1"],
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
            cwd=ROOT,
        )
    assert finished.returncode == 2
    assert finished.stderr == (
        f"gamerec: error: cannot listen on 127.0.0.1:{port}: Address already in use\n"
    )


# -- many callers at once -----------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    """One call and the answer it must get."""

    method: str
    request: bytes
    expected: list[bytes]


def cases() -> list[Case]:
    """Validate, Score and Replay of complete and invalid games, with the library's answers."""
    found: list[Case] = []
    for path in [*GAMES[::2], *INVALID[::6]]:
        (record,) = read_records(str(path))
        verdict = validate(record).SerializeToString()
        found.append(Case("Validate", validate_request(path.read_bytes()), [verdict]))
        result = score(record).SerializeToString()
        found.append(Case("Score", spb.ScoreRequest(record=record).SerializeToString(), [result]))
        if path in GAMES and len(record.moves) < 80:
            frames = [frame.SerializeToString() for frame in replay(record)]
            request = spb.ReplayRequest(record=record).SerializeToString()
            found.append(Case("Replay", request, frames))
    return found


def validate_request(data: bytes) -> bytes:
    return spb.ValidateRequest(data=data).SerializeToString()


@dataclass
class Tally:
    calls: int = 0
    wrong: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


async def hammer(address: str, seconds: float, callers: int, plan: list[Case]) -> Tally:
    """``callers`` concurrent loops of calls for ``seconds``; every answer is checked."""
    tally = Tally()
    end = time.monotonic() + seconds
    async with grpc.aio.insecure_channel(address) as channel:
        unary: dict[str, grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]] = {
            method: channel.unary_unary(f"/gamerec.v1.RecordService/{method}")
            for method in ("Validate", "Score")
        }
        stream: grpc.aio.UnaryStreamMultiCallable[bytes, bytes] = channel.unary_stream(
            "/gamerec.v1.RecordService/Replay"
        )

        async def caller(number: int) -> None:
            turn = number
            while time.monotonic() < end:
                case = plan[turn % len(plan)]
                turn += 1
                try:
                    if case.method == "Replay":
                        answer = [frame async for frame in stream(case.request, timeout=30)]
                    else:
                        answer = [await unary[case.method](case.request, timeout=30)]
                except grpc.RpcError as error:
                    tally.errors.append(f"{case.method}: {error}")
                    continue
                tally.calls += 1
                if answer != case.expected:
                    tally.wrong.append(case.method)

        await asyncio.gather(*(caller(number) for number in range(callers)))
    return tally


def load_test(
    serve_process: Callable[..., ServeProcess], seconds: float, warm_up: float
) -> tuple[Tally, int, int]:
    server = serve_process("--workers", "2")
    plan = cases()
    asyncio.run(hammer(server.address, warm_up, 32, plan))
    warm_rss = server.tree_rss_kib()
    tally = asyncio.run(hammer(server.address, seconds, 32, plan))
    end_rss = server.tree_rss_kib()
    assert server.terminate() == 0
    return tally, warm_rss, end_rss


def assert_healthy(tally: Tally, warm_rss: int, end_rss: int, least_calls: int) -> None:
    assert tally.errors == []
    assert tally.wrong == []
    assert tally.calls >= least_calls
    # Flat memory: what the server holds after warm-up is what it holds at the end.
    assert end_rss <= warm_rss * 1.10 + 16 * 1024, (warm_rss, end_rss)


def test_32_callers_for_a_few_seconds_get_right_answers_and_memory_stays_flat(
    serve_process: Callable[..., ServeProcess],
) -> None:
    tally, warm_rss, end_rss = load_test(serve_process, seconds=4, warm_up=1.5)
    assert_healthy(tally, warm_rss, end_rss, least_calls=100)


@pytest.mark.slow
def test_32_callers_for_20_seconds_get_right_answers_and_memory_stays_flat(
    serve_process: Callable[..., ServeProcess],
) -> None:
    tally, warm_rss, end_rss = load_test(serve_process, seconds=20, warm_up=4)
    assert_healthy(tally, warm_rss, end_rss, least_calls=2_000)
    print(f"\n{tally.calls} calls in 20 s; RSS {warm_rss} KiB after warm-up, {end_rss} at the end")
