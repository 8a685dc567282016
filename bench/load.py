"""``make load``: sustained concurrent calls of every RPC against a local ``gamerec serve``.

The server is ``gamerec serve`` exactly as a user starts it (a subprocess on 127.0.0.1, a free
port, its defaults: one server process per core, worker processes), its call log kept in a
file. The client is one asyncio process running ``--callers`` concurrent callers (32 by
default), each on a channel of its own, each sending its next call as soon as the last one is
answered, for ``--seconds`` (60) after a warm-up (10). Every caller walks a plan of calls of
all eight methods (Validate, Replay, Score, Adjudicate, Diff, Convert, LegalMoves, Verify)
over the bundled fixtures of all four games, valid and invalid, as record messages and as GRN
or binary bytes (Verify: each record sealed and signed by a host key made for the run, the key
trusted), and every answer is compared with what the library answers for the same request: an
error is a call that failed or an answer that differs.

Memory is the resident size of the server's whole process tree (supervisor, server processes,
workers), read from /proc after the warm-up and at the end. The report gives calls, errors,
calls per second, per-method p50/p99 latency and both memory figures; the exit code is 1 when
there was an error or the memory at the end is more than 10% above that after the warm-up.

Run: ``make load`` or ``.venv/bin/python -m bench.load [--seconds 60] [--callers 32]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import grpc
import grpc.aio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.bench_service import start_server
from bench.figures import percentile
from bench.procfs import tree_rss_kib
from gamerec.recorder.codecs import Encoding, encode_record, read_records
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.seal import seal_record
from gamerec.recorder.signing import new_key, public_bytes, sign_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.comparison import compare_records
from gamerec.validator.frames import replay
from gamerec.validator.judge import score, validate
from gamerec.validator.service.work import legal_moves_job, verify_job

ROOT = Path(__file__).resolve().parents[1]
SERVICE = "/gamerec.v1.RecordService/"
#: The most memory may grow between the warm-up and the end (a fraction of the warm figure).
MEMORY_GROWTH_ALLOWED = 0.10


@dataclass(frozen=True, slots=True)
class Call:
    """One planned call and the answer it must get.

    Attributes:
        method: the RPC's name.
        request: the serialized request.
        expected: the serialized answer(s): one for a unary RPC, every frame for Replay.
    """

    method: str
    request: bytes
    expected: tuple[bytes, ...]


def fixture_records() -> Iterator[tuple[Path, pb.GameRecord]]:
    """Every complete game and every invalid record of the bundled fixtures."""
    for folder in ("games", "invalid"):
        for path in sorted((ROOT / "fixtures" / folder).glob("*.grn")):
            for record in read_records(str(path)):
                yield path, record


def plan() -> list[Call]:
    """Calls of all eight methods over the fixtures, with the library's answers."""
    calls: list[Call] = []
    keys = [new_key() for _ in range(7)]  # the host's, then one for each of up to six seats
    records = list(fixture_records())
    for number, (path, record) in enumerate(records):
        grn = spb.RecordInput(data=path.read_bytes(), encoding=spb.RECORD_ENCODING_GRN)
        binary = encode_record(record, Encoding.PB)
        calls += [
            Call(
                "Validate",
                spb.ValidateRequest(data=grn.data).SerializeToString(),
                (validate(record).SerializeToString(),),
            ),
            Call(
                "Score",
                spb.ScoreRequest(data=binary).SerializeToString(),
                (score(record).SerializeToString(),),
            ),
            Call(
                "Adjudicate",
                spb.AdjudicateRequest(record=record).SerializeToString(),
                (adjudicate(record).SerializeToString(),),
            ),
            convert_call(record),
            legal_moves_call(record),
            verify_call(record, keys),
        ]
        if path.parent.name == "games" and len(record.moves) <= 120:
            frames = tuple(frame.SerializeToString() for frame in replay(record))
            request = spb.ReplayRequest(record=record).SerializeToString()
            calls.append(Call("Replay", request, frames))
        other_path, other = records[(number + 1) % len(records)]
        right = spb.RecordInput(data=other_path.read_bytes(), encoding=spb.RECORD_ENCODING_GRN)
        diff = spb.DiffRequest(left=spb.RecordInput(record=record), right=right)
        answer = compare_records(record, other).SerializeToString()
        calls.append(Call("Diff", diff.SerializeToString(), (answer,)))
    return calls


def convert_call(record: pb.GameRecord) -> Call:
    """Convert the record to JSON."""
    request = spb.ConvertRequest(record=record, target=spb.RECORD_ENCODING_JSON)
    answer = spb.ConvertResponse(
        data=encode_record(record, Encoding.JSON), encoding=spb.RECORD_ENCODING_JSON
    )
    return Call("Convert", request.SerializeToString(), (answer.SerializeToString(),))


def legal_moves_call(record: pb.GameRecord) -> Call:
    """The legal moves halfway through the record (the library's own job gives the answer)."""
    request = spb.LegalMovesRequest(record=record, ply=len(record.moves) // 2)
    serialized = request.SerializeToString()
    return Call("LegalMoves", serialized, (legal_moves_job(serialized, None).payload,))


def verify_call(record: pb.GameRecord, keys: list[Ed25519PrivateKey]) -> Call:
    """Verify the record sealed and signed by every seat and the host, all keys trusted.

    ``keys``: the host's, then one per seat (as many as the most seats). A record that
    cannot be sealed (no canonical form: an unreadable move) goes as it is; Verify says why.
    """
    host, seats = keys[0], keys[1 : 1 + len(record.seats)]
    try:
        signed = seal_record(record, [public_bytes(k) for k in seats], public_bytes(host))
        for signer, key in [*enumerate(seats, 1), (0, host)]:
            signed = sign_record(signed, key, signer)
    except GamerecError:
        signed = record
    trusted = [public_bytes(key) for key in keys]
    serialized = spb.VerifyRequest(record=signed, trusted_keys=trusted).SerializeToString()
    return Call("Verify", serialized, (verify_job(serialized, None).payload,))


@dataclass
class Tally:
    """What the callers did."""

    latencies: dict[str, list[float]] = field(default_factory=lambda: defaultdict(list))
    errors: list[str] = field(default_factory=list)

    @property
    def calls(self) -> int:
        """Calls answered (right or wrong)."""
        return sum(len(each) for each in self.latencies.values())


async def drive(address: str, seconds: float, callers: int, calls: list[Call]) -> Tally:
    """``callers`` concurrent callers, each on its own channel, for ``seconds``."""
    tally = Tally()
    end = time.monotonic() + seconds

    async def caller(number: int) -> None:
        async with grpc.aio.insecure_channel(address) as channel:
            turn = number * 7
            while time.monotonic() < end:
                call = calls[turn % len(calls)]
                turn += 1
                started = time.perf_counter()
                try:
                    answer = await send(channel, call)
                except grpc.RpcError as error:
                    tally.errors.append(f"{call.method}: {error}")
                    continue
                tally.latencies[call.method].append(time.perf_counter() - started)
                if answer != call.expected:
                    tally.errors.append(f"{call.method}: a wrong answer")

    await asyncio.gather(*(caller(number) for number in range(callers)))
    return tally


async def send(channel: grpc.aio.Channel, call: Call) -> tuple[bytes, ...]:
    """Make one call; its answer as the serialized message(s)."""
    if call.method == "Replay":
        stream: grpc.aio.UnaryStreamMultiCallable[bytes, bytes]
        stream = channel.unary_stream(SERVICE + "Replay")
        return tuple([frame async for frame in stream(call.request, timeout=60)])
    unary: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes]
    unary = channel.unary_unary(SERVICE + call.method)
    return (await unary(call.request, timeout=60),)


class ServeProcess:
    """``gamerec serve`` on a free port of 127.0.0.1, its log in a file."""

    def __init__(self, log: Path) -> None:
        """Start it and wait until it listens."""
        gamerec = str(Path(sys.executable).with_name("gamerec"))
        self.process, self.address = start_server([gamerec, "serve", "--port", "0"], log)

    def rss_kib(self) -> int:
        """The resident memory of the server's whole process tree, in KiB."""
        return tree_rss_kib(self.process.pid)[0]

    def stop(self) -> int:
        """SIGTERM, then the exit code."""
        self.process.terminate()
        return self.process.wait(timeout=60)


def report(tally: Tally, seconds: float, warm_kib: int, end_kib: int) -> str:
    """The figures, as lines of text."""
    growth = end_kib / warm_kib - 1
    lines = [
        f"calls {tally.calls:,} in {seconds:.0f} s ({tally.calls / seconds:,.0f}/s), "
        f"errors {len(tally.errors)}",
        f"server memory (whole process tree): {warm_kib / 1024:,.1f} MiB after warm-up, "
        f"{end_kib / 1024:,.1f} MiB at the end ({growth:+.1%}; at most "
        f"{MEMORY_GROWTH_ALLOWED:+.0%})",
        f"{'method':<11} {'calls':>8} {'p50 ms':>8} {'p99 ms':>8}",
    ]
    every: list[float] = []
    for method in sorted(tally.latencies):
        times = [each * 1000 for each in tally.latencies[method]]
        every += times
        lines.append(
            f"{method:<11} {len(times):>8,} {percentile(times, 0.5):>8.1f} "
            f"{percentile(times, 0.99):>8.1f}"
        )
    lines.append(
        f"{'all':<11} {len(every):>8,} {percentile(every, 0.5):>8.1f} "
        f"{percentile(every, 0.99):>8.1f}"
    )
    lines += [f"error: {error}" for error in tally.errors[:10]]
    return "\n".join(lines)


def main() -> None:
    """Run the load test and print the report; exit 1 on an error or memory growth."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--warm-up", type=float, default=10.0)
    parser.add_argument("--callers", type=int, default=32)
    options = parser.parse_args()
    calls = plan()
    methods = sorted({call.method for call in calls})
    print(f"{len(calls)} planned calls of {', '.join(methods)}", file=sys.stderr)
    with tempfile.TemporaryDirectory() as folder:
        server = ServeProcess(Path(folder) / "serve.log")
        try:
            asyncio.run(drive(server.address, options.warm_up, options.callers, calls))
            warm_kib = server.rss_kib()
            tally = asyncio.run(drive(server.address, options.seconds, options.callers, calls))
            end_kib = server.rss_kib()
        finally:
            code = server.stop()
        log_lines = [json.loads(line) for line in (Path(folder) / "serve.log").open()]
    print(
        f"load: {options.callers} callers, {options.seconds:.0f} s after a "
        f"{options.warm_up:.0f} s warm-up, against gamerec serve on {server.address}"
    )
    print(report(tally, options.seconds, warm_kib, end_kib))
    failed = [line for line in log_lines if line.get("status") not in (None, "OK")]
    print(f"server: exit {code}, {len(log_lines):,} log lines, {len(failed)} calls not OK")
    grew = end_kib > warm_kib * (1 + MEMORY_GROWTH_ALLOWED)
    if tally.errors or grew or failed or code != 0:
        raise SystemExit(1)


if __name__ == "__main__":
    main()
