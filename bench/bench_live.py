"""Live matches: 1,000 bot matches at once on one server, against a bare echo on the same server.

The server is ``gamerec serve --matches`` as it runs in production (one server process per
core sharing the port, the SQLite store with ``synchronous=FULL``, a host key that seals and
signs every ply), with one more service registered beside it: ``gamerec.bench.Echo/Echo``,
which answers a request with its own bytes, the ceiling of a unary gRPC call on this machine.

The client is one asyncio process (it shares the machine's cores with the server):

1. **flags**: a few matches with a limit of one second a move that nobody plays, their
   clocks scheduled to start a second after their creation; how late after its deadline
   each watcher receives the flag (the issue's bound: 100 ms);
2. **alone**: three matches played one after another with nothing else running: a Play's
   round trip against an Echo sent right after it, unloaded;
3. **memory**: it creates open matches in ``steps`` steps of ``matches`` each (4,000 in
   all by default) and reads the resident memory of the server's processes after each step,
   so that its growth per match shows (linear: the same per match at every count; the steps
   are large, so that the allocator's noise of a MiB or two does not blur it);
4. **play**: ``matches`` of those matches (the others stay open, idle) are played to their
   end by two random bots (``SeatBot``: a
   Watch stream each, a Play at each turn), all at once, over ``CHANNELS`` connections; the
   accepted moves per second, and each Play's round trip (from the bot's call to its answer).
   Right after every Play goes a bare Echo of the same bytes on the same connection
   (:class:`PairedStub`): its round trip is the reference, measured under the very same load
   of client and server.

Figures: moves/s (with the echoes' load); p50 and p99 round trip of a move against the echo
after it (target: p99 within 3x); the flags' p99 lateness against 100 ms; the server's
memory per open match at the largest count against the smallest (target: at most 1.2x:
linear growth).

Run alone: ``.venv/bin/python -m bench.bench_live [--matches 1000] [--game Aronda]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import cast

import grpc
import grpc.aio

from bench.bench_service import BENCH_ACCESS, ECHO, ECHO_SERVICE, register_echo, start_server
from bench.figures import Figure, percentile
from bench.procfs import process_tree, rss_kib
from gamerec.recorder.grn_tags import read_tag
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.referee import MatchLimits
from gamerec.validator.service.calls import log_to
from gamerec.validator.service.match_client import SeatBot
from gamerec.validator.service.match_servicer import MatchSettings, host_key_file
from gamerec.validator.service.processes import serve
from gamerec.validator.service.server import ExtraService, ServeSettings

#: Connections the bots share (the kernel spreads them over the server processes).
CHANNELS = 32
#: Matches in the flag measurement.
FLAGS = 20


@dataclass(frozen=True, slots=True)
class LiveFigures:
    """What one run measured.

    Attributes:
        matches: matches played at once.
        alone_move_ms: the Play round trips of one match played alone, in ms.
        alone_echo_ms: the round trips of the Echo after each of them, in ms.
        moves: moves accepted in the play phase; seconds: how long it took.
        move_ms: every Play's round trip, in ms.
        echo_ms: the round trip of the Echo sent after each Play, in ms.
        memory_mib: the server's resident memory (MiB) by the number of open matches (0 first).
        flag_late_ms: how late after its deadline each flag reached its watcher, in ms.
    """

    matches: int
    alone_move_ms: list[float]
    alone_echo_ms: list[float]
    moves: int
    seconds: float
    move_ms: list[float]
    echo_ms: list[float]
    memory_mib: dict[int, float]
    flag_late_ms: list[float]

    @property
    def moves_per_second(self) -> float:
        """Moves accepted per second of the play phase."""
        return self.moves / self.seconds if self.seconds else 0.0


# -- the server ------------------------------------------------------------------------------------


def run_server(store: str, host_key: str = "", processes: int = 0) -> None:
    """Serve RecordService, MatchService (on ``store``) and echo on a free port until SIGTERM.

    ``host_key``: default ``STORE.host-key``; ``processes``: default one per core.
    """
    log_to(sys.stderr)
    key, _ = host_key_file(store, host_key)
    settings = ServeSettings(
        extra_services=(ExtraService(ECHO_SERVICE, register_echo),),
        # A saturated machine may keep a bot's first move waiting long: no abort measured.
        matches=MatchSettings(
            store=store,
            host_key=key,
            limits=MatchLimits(watchers=10_000),
            abort_after=3600.0,
        ),
        access=BENCH_ACCESS,
    )
    asyncio.run(serve(settings, processes))


class Server:
    """The benchmark's server, in a temporary folder; its address and its processes' memory."""

    def __init__(self) -> None:
        """Prepare the folder."""
        self._folder = tempfile.TemporaryDirectory()
        self.store = str(Path(self._folder.name) / "matches.db")
        self._process: subprocess.Popen[bytes] | None = None

    def __enter__(self) -> str:
        """Start it; its address once it listens."""
        command = [sys.executable, "-m", "bench.bench_live", "--serve", self.store]
        self._process, address = start_server(command, Path(self._folder.name) / "calls.log")
        return address

    def memory_mib(self) -> float:
        """The resident memory of the server and all its processes, MiB."""
        assert self._process is not None
        return sum(rss_kib(pid) for pid in process_tree(self._process.pid)) / 1024

    def __exit__(self, *_: object) -> None:
        """Stop it gracefully and remove the folder."""
        if self._process is not None:
            self._process.terminate()
            self._process.wait(timeout=120)
        self._folder.cleanup()


# -- the client ------------------------------------------------------------------------------------


def rules(game: str) -> pb.Rules:
    record = pb.GameRecord()
    read_tag(record, "Game", game)
    if game in ("ONE", "Oh-Wah-Ree"):
        read_tag(record, "Players", "2")
    record.rules.SetInParent()
    return record.rules


def match_request(game: str, clock: str = "3600+5") -> mpb.CreateMatchRequest:
    return mpb.CreateMatchRequest(
        rules=rules(game),
        seats=[mpb.MatchSeat(name="Ana"), mpb.MatchSeat(name="Ben")],
        time_control=clock,
        event="make bench",
    )


async def measure_async(
    server: Server, address: str, matches: int, game: str, steps: int
) -> LiveFigures:
    channels = [
        grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(CHANNELS)
    ]
    try:
        stubs = [mgrpc.MatchServiceStub(channel) for channel in channels]
        await asyncio.gather(*(channel.channel_ready() for channel in channels))
        flag_late = await flags(stubs, game)
        alone = [await stubs[0].CreateMatch(match_request(game)) for _ in range(3)]
        alone_stub = PairedStub(channels[0])
        for match in alone:
            await play([channels[0]], [match], alone_stub)
        memory = {0: server.memory_mib()}
        created: list[mpb.CreateMatchResponse] = []
        for step in range(1, steps + 1):
            goal = matches * step
            made = await asyncio.gather(
                *(
                    stubs[n % CHANNELS].CreateMatch(match_request(game))
                    for n in range(len(created), goal)
                )
            )
            created += made
            await asyncio.sleep(1.0)
            memory[goal] = server.memory_mib()
        moves, seconds, move_ms, echo_ms = await play(channels, created[:matches])
        return LiveFigures(
            matches,
            [trip * 1000 for trip in alone_stub.play_seconds],
            [trip * 1000 for trip in alone_stub.echo_seconds],
            moves,
            seconds,
            move_ms,
            echo_ms,
            memory,
            flag_late,
        )
    finally:
        await asyncio.gather(*(channel.close() for channel in channels))


async def flags(stubs: list[mgrpc.MatchServiceAsyncStub], game: str) -> list[float]:
    """How late (ms) each of FLAGS matches' flag reaches its watcher after its deadline."""

    async def one(stub: mgrpc.MatchServiceAsyncStub) -> float:
        # The clocks start on schedule, 1 s from now (else seat 1's first ply is untimed).
        made = match_request(game, "1/move")
        made.start_at.FromMilliseconds(time.time_ns() // 1_000_000 + 1_000)
        created = await stub.CreateMatch(made)
        deadline = made.start_at.ToNanoseconds() + 1_000_000_000
        async for event in stub.Watch(mpb.WatchRequest(match_id=created.match_id)):
            if event.HasField("ended"):
                return (time.time_ns() - deadline) / 1e6
        raise AssertionError("no flag")

    return list(await asyncio.gather(*(one(stubs[n % CHANNELS]) for n in range(FLAGS))))


class PairedStub:
    """A MatchService stub whose every Play is followed at once by a bare Echo of its bytes.

    Both calls go on the same connection, from the same busy client, to the same busy server,
    one right after the other: the difference of their round trips is the referee's own (the
    move judged, stored and committed, the watchers told). Under heavy load the transport
    now and then cancels a call (grpc.aio, CANCELLED): a Play is then sent again by its bot
    (``SeatBot``), an Echo counted in :attr:`echo_failures` and not timed.
    """

    def __init__(self, channel: grpc.aio.Channel) -> None:
        """Call on ``channel``."""
        self._stub = mgrpc.MatchServiceStub(channel)
        self._echo: grpc.aio.UnaryUnaryMultiCallable[bytes, bytes] = channel.unary_unary(ECHO)
        self.Watch = self._stub.Watch
        self.Sign = self._stub.Sign
        self.play_seconds: list[float] = []
        self.echo_seconds: list[float] = []
        self.echo_failures: Counter[str] = Counter()

    async def Play(  # noqa: N802 (the stub's)
        self, request: mpb.PlayRequest, metadata: tuple[tuple[str, str], ...] = ()
    ) -> mpb.PlayResponse:
        """Play, then at once an Echo of the same bytes; both round trips are kept."""
        started = time.perf_counter()
        answer = await self._stub.Play(request, metadata=metadata)
        played = time.perf_counter()
        try:
            await self._echo(request.SerializeToString())
        except grpc.aio.AioRpcError as error:
            self.echo_failures[error.code().name] += 1
            return answer
        self.play_seconds.append(played - started)
        self.echo_seconds.append(time.perf_counter() - played)
        return answer


async def play(
    channels: list[grpc.aio.Channel],
    created: list[mpb.CreateMatchResponse],
    paired: PairedStub | None = None,
) -> tuple[int, float, list[float], list[float]]:
    """Play every match to its end at once; (moves, seconds, move and echo trips in ms).

    ``paired``: one stub for every bot (else one per channel).
    """
    stubs = [paired] if paired is not None else [PairedStub(channel) for channel in channels]
    bots = [
        SeatBot(
            cast("mgrpc.MatchServiceAsyncStub", stubs[(2 * n + seat) % len(stubs)]),
            match.match_id,
            token,
            seat + 1,
            "random",
            n,
        )
        for n, match in enumerate(created)
        for seat, token in enumerate(match.seat_tokens)
    ]
    started = time.perf_counter()
    await asyncio.gather(*(bot.run() for bot in bots))
    seconds = time.perf_counter() - started
    moves = sum(len(bot.round_trips) for bot in bots)
    move_ms = [trip * 1000 for stub in stubs for trip in stub.play_seconds]
    echo_ms = [trip * 1000 for stub in stubs for trip in stub.echo_seconds]
    return moves, seconds, move_ms, echo_ms


def measure(matches: int = 1000, game: str = "Aronda", steps: int = 4) -> LiveFigures:
    """Start a server and measure (see the module docstring)."""
    server = Server()
    with server as address:
        return asyncio.run(measure_async(server, address, matches, game, steps))


def figures(measured: LiveFigures) -> list[Figure]:
    """The section's rows."""
    n = f"{measured.matches:,} matches at once"
    echo = "echo after each Play, same server"
    counts = sorted(count for count in measured.memory_mib if count)
    base = measured.memory_mib[0]
    per_match = {count: (measured.memory_mib[count] - base) * 1024 / count for count in counts}
    smallest, largest = counts[0], counts[-1]
    return [
        Figure(
            "live: move round trip p50, one match alone",
            percentile(measured.alone_move_ms, 0.5),
            "ms",
            "echo after each Play, p50",
            percentile(measured.alone_echo_ms, 0.5),
        ),
        Figure(f"live: moves accepted, {n}", measured.moves_per_second, "moves/s"),
        Figure(
            f"live: move round trip p50, {n}",
            percentile(measured.move_ms, 0.5),
            "ms",
            f"{echo}, p50",
            percentile(measured.echo_ms, 0.5),
        ),
        Figure(
            f"live: move round trip p99, {n}",
            percentile(measured.move_ms, 0.99),
            "ms",
            f"{echo}, p99",
            percentile(measured.echo_ms, 0.99),
            target=3.0,
            at_most=True,
        ),
        Figure(
            f"live: flag to watcher, p99 of {len(measured.flag_late_ms)}",
            percentile(measured.flag_late_ms, 0.99),
            "ms",
            "the issue's bound",
            100.0,
            target=1.0,
            at_most=True,
        ),
        Figure(
            f"live: server memory, {largest:,} open matches",
            measured.memory_mib[largest],
            "MiB",
            "with none open",
            base,
        ),
        Figure(
            f"live: memory per open match at {largest:,}",
            per_match[largest],
            "KiB",
            f"the same at {smallest:,}",
            per_match[smallest],
            target=1.2,
            at_most=True,
        ),
    ]


def main() -> None:
    """Print the figures (or, with ``--serve STORE``, be the server)."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--serve", metavar="STORE", help=argparse.SUPPRESS)
    parser.add_argument("--host-key", default="", help=argparse.SUPPRESS)
    parser.add_argument("--processes", type=int, default=0, help=argparse.SUPPRESS)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--game", default="Aronda")
    options = parser.parse_args()
    if options.serve:
        run_server(options.serve, options.host_key, options.processes)
        return
    measured = measure(options.matches, options.game)
    for figure in figures(measured):
        reference = (
            f"  ({figure.reference} {figure.reference_value:,.2f})" if figure.reference else ""
        )
        print(f"{figure.name}: {figure.value:,.2f} {figure.unit}{reference}")
    print(json.dumps({str(k): round(v, 1) for k, v in measured.memory_mib.items()}))


if __name__ == "__main__":
    main()
