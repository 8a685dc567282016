"""The web door: Play over Connect (JSON, protobuf) against native gRPC, and memory per Watch.

The server is ``gamerec serve --matches STORE --web 0`` with one server process (so that every
call of every protocol is served by the same process) and the limits per client lifted (the
bench's load comes from one address).

1. **Play round trip.** One client plays seeded Aronda games to their end, each move a Play
   on one kept-alive connection: over native gRPC (the gRPC port), Connect with JSON bodies
   and Connect with protobuf bodies (the web port, HTTP/1.1). A round plays the same games
   once per protocol, the protocols in turn (the order reversed every other round), each on
   a match of its own; each round gives each protocol's p50 and p99 round trip and moves/s.
   Figures: p50 of each Connect body against gRPC's (the median of the rounds' ratios;
   target: within 2x), p99, and moves/s against gRPC's.
2. **Memory per Watch stream.** Watch streams over HTTP/1.1 (one connection each, Connect
   streaming with JSON) are opened on one match in two steps, to 1,000 and to 4,000, and the
   server's resident memory is read before and after each: KiB per open stream at 4,000
   against at 1,000 (target: at most 1.2x, linear).

Run alone: ``.venv/bin/python -m bench.bench_web [--quick]``.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, fields
from pathlib import Path

import grpc
import orjson
from google.protobuf import json_format

from bench.bench_service import BENCH_LIMIT, start_server
from bench.figures import Figure, percentile
from bench.procfs import process_tree, rss_kib
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.games.registry import entry_named
from gamerec.validator.service.quotas import ClientLimits
from gamerec.validator.web.frames import envelope

GAME = "Aronda"
WAYS = ("gRPC", "Connect JSON", "Connect protobuf")
#: Watch streams open at each step of the memory measurement.
WATCH_STEPS = (1_000, 4_000)
#: Seconds the server is left alone before its memory is read.
SETTLE_SECONDS = 2.0


@dataclass(frozen=True, slots=True)
class Round:
    """One protocol's Plays in one round.

    Attributes:
        trips_ms: each Play's round trip, in ms.
        seconds: the time the round's Plays took, in all.
    """

    trips_ms: tuple[float, ...]
    seconds: float

    @property
    def p50(self) -> float:
        """The median round trip, ms."""
        return percentile(self.trips_ms, 0.5)

    @property
    def p99(self) -> float:
        """The 99th percentile round trip, ms."""
        return percentile(self.trips_ms, 0.99)

    @property
    def moves_per_second(self) -> float:
        """Plays answered per second."""
        return len(self.trips_ms) / self.seconds


@dataclass(frozen=True, slots=True)
class WebFigures:
    """What one run measured.

    Attributes:
        rounds: each protocol's rounds (``WAYS``), in the order they ran.
        memory_kib: the server's resident memory (KiB) by open Watch streams (0 first).
    """

    rounds: dict[str, list[Round]]
    memory_kib: dict[int, float]


# -- the server ------------------------------------------------------------------------------------


class Server:
    """``gamerec serve --matches --web 0`` in a temporary folder: its addresses and memory."""

    def __init__(self) -> None:
        """Prepare the folder."""
        self._folder = tempfile.TemporaryDirectory()
        self._process: subprocess.Popen[bytes] | None = None
        self.web = ""

    def __enter__(self) -> str:
        """Start it; the gRPC address once it listens (``web``: the web door's)."""
        folder = Path(self._folder.name)
        lifted = [
            argument
            for limit in fields(ClientLimits)
            for argument in ("--client-limit", f"{limit.name.replace('_', '-')}={BENCH_LIMIT}")
        ]
        command = [
            *(sys.executable, "-m", "gamerec", "serve", "--port", "0", "--web", "0"),
            *("--processes", "1", "--workers", "1", "--matches", str(folder / "matches.db")),
            *("--match-limit", "watchers=10000", *lifted),
        ]
        log = folder / "calls.log"
        self._process, address = start_server(command, log)
        listening = orjson.loads(log.read_text().splitlines()[0])
        self.web = str(listening["web"]).removeprefix("http://")
        return address

    def memory_kib(self) -> float:
        """The resident memory of the server and its worker, KiB."""
        assert self._process is not None
        return float(sum(rss_kib(pid) for pid in process_tree(self._process.pid)))

    def __exit__(self, *_: object) -> None:
        """Stop it (open streams are cut at once) and remove the folder."""
        if self._process is not None:
            self._process.kill()
            self._process.wait(timeout=120)
        self._folder.cleanup()


# -- Play round trips -----------------------------------------------------------------------------


def games(count: int) -> list[list[str]]:
    """``count`` seeded Aronda games, each the text of its plies."""
    entry = entry_named(GAME)
    variant = entry.engine.variant_from_tags({})
    return [
        [
            entry.engine.format_move(variant, move)
            for move in entry.engine.random_game(variant, random.Random(f"web:{seed}"))
        ]
        for seed in range(count)
    ]


def _create(stub: mgrpc.MatchServiceStub) -> mpb.CreateMatchResponse:
    made = mpb.CreateMatchRequest(seats=[mpb.MatchSeat(name="Ana"), mpb.MatchSeat(name="Ben")])
    json_format.ParseDict({"game": "GAME_ARONDA"}, made.rules)
    created: mpb.CreateMatchResponse = stub.CreateMatch(made, timeout=60)
    return created


class Player:
    """Plays a game's plies as Plays over one protocol, timing each."""

    def __init__(self, way: str, address: str, web: str) -> None:
        """Open the protocol's connection."""
        self.way = way
        self.channel = grpc.insecure_channel(address)
        self.stub = mgrpc.MatchServiceStub(self.channel)
        self.web = http.client.HTTPConnection(*_host_port(web), timeout=60)

    def play(self, plies: list[str]) -> list[float]:
        """Play one game on a new match; each Play's round trip, seconds."""
        created = _create(self.stub)
        send = self._send()
        trips = []
        for number, text in enumerate(plies, start=1):
            token = created.seat_tokens[(number - 1) % 2]
            started = time.perf_counter()
            send(created.match_id, token, number, text)
            trips.append(time.perf_counter() - started)
        return trips

    def _send(self) -> Callable[[str, str, int, str], None]:
        if self.way == "gRPC":
            return self._grpc
        return self._json if self.way == "Connect JSON" else self._proto

    def _grpc(self, match_id: str, token: str, ply: int, text: str) -> None:
        request = mpb.PlayRequest(match_id=match_id, token=token, ply=ply, text=text)
        answer = self.stub.Play(request, timeout=60)
        assert not answer.HasField("illegal"), answer.illegal

    def _json(self, match_id: str, token: str, ply: int, text: str) -> None:
        body = {"matchId": match_id, "token": token, "ply": ply, "text": text}
        answer = self._post(orjson.dumps(body), "application/json")
        assert b'"illegal"' not in answer, answer

    def _proto(self, match_id: str, token: str, ply: int, text: str) -> None:
        request = mpb.PlayRequest(match_id=match_id, token=token, ply=ply, text=text)
        answer = mpb.PlayResponse.FromString(
            self._post(request.SerializeToString(), "application/proto")
        )
        assert not answer.HasField("illegal"), answer.illegal

    def _post(self, body: bytes, content_type: str) -> bytes:
        return post(self.web, "/gamerec.v1.MatchService/Play", body, content_type)

    def close(self) -> None:
        """Close its connections."""
        self.channel.close()
        self.web.close()


def play_rounds(address: str, web: str, rounds: int, games_each: int) -> dict[str, list[Round]]:
    """Each protocol's rounds, played in turn (see the module docstring)."""
    plies = games(games_each)
    players = {way: Player(way, address, web) for way in WAYS}
    found: dict[str, list[Round]] = {way: [] for way in WAYS}
    try:
        for way in WAYS:  # a warm-up game each: connections made, code paths loaded
            players[way].play(plies[0])
        for number in range(rounds):
            for way in WAYS if number % 2 == 0 else WAYS[::-1]:
                started = time.perf_counter()
                trips = [trip for game in plies for trip in players[way].play(game)]
                seconds = time.perf_counter() - started
                found[way].append(Round(tuple(trip * 1000 for trip in trips), seconds))
    finally:
        for player in players.values():
            player.close()
    return found


# -- memory per Watch -----------------------------------------------------------------------------


async def open_watches(web: str, match_id: str, count: int) -> list[asyncio.StreamWriter]:
    """``count`` Watch streams of a match, each on its own connection, each past its first frame."""
    host, port = _host_port(web)
    body = envelope(orjson.dumps({"matchId": match_id}))
    head = (
        "POST /gamerec.v1.MatchService/Watch HTTP/1.1\r\nHost: bench\r\n"
        f"Content-Type: application/connect+json\r\nContent-Length: {len(body)}\r\n\r\n"
    ).encode()
    opened: list[asyncio.StreamWriter] = []

    async def one() -> None:
        reader, writer = await asyncio.open_connection(host, port)
        writer.write(head + body)
        await writer.drain()
        answer = await reader.readuntil(b"\r\n\r\n")
        assert answer.startswith(b"HTTP/1.1 200"), answer
        await reader.read(5)  # the first event's frame has begun: the stream is open
        opened.append(writer)

    for start in range(0, count, 200):  # not all at once: the listen backlog is finite
        await asyncio.gather(*(one() for _ in range(min(200, count - start))))
    return opened


async def watch_memory(server: Server, address: str) -> dict[int, float]:
    """The server's memory with 0, then each of WATCH_STEPS, Watch streams open on one match."""
    with grpc.insecure_channel(address) as channel:
        created = _create(mgrpc.MatchServiceStub(channel))
    time.sleep(SETTLE_SECONDS)
    memory = {0: server.memory_kib()}
    opened: list[asyncio.StreamWriter] = []
    for step in WATCH_STEPS:
        opened += await open_watches(server.web, created.match_id, step - len(opened))
        await asyncio.sleep(SETTLE_SECONDS)
        memory[step] = server.memory_kib()
    for writer in opened:
        writer.close()
    return memory


# -- the figures ---------------------------------------------------------------------------------


def measure(rounds: int = 5, games_each: int = 3) -> WebFigures:
    """Start a server and measure both parts on it."""
    server = Server()
    with server as address:
        found = play_rounds(address, server.web, rounds, games_each)
        memory = asyncio.run(watch_memory(server, address))
    return WebFigures(found, memory)


def figures(measured: WebFigures) -> list[Figure]:
    """The section's figures (see the module docstring)."""
    grpc_rounds = measured.rounds["gRPC"]
    measures: list[tuple[str, str, Callable[[Round], float], float | None]] = [
        ("Play round trip p50", "ms", lambda found: found.p50, 2.0),
        ("Play round trip p99", "ms", lambda found: found.p99, None),
        ("moves/s, one client", "moves/s", lambda found: found.moves_per_second, None),
    ]
    result = [
        Figure(
            f"web: {what}, {way}",
            statistics.median(value(found) for found in measured.rounds[way]),
            unit,
            "native gRPC, same server",
            statistics.median(value(found) for found in grpc_rounds),
            target=target,
            at_most=unit == "ms",
            pairs=tuple(
                value(a) / value(b) for a, b in zip(measured.rounds[way], grpc_rounds, strict=True)
            ),
        )
        for way in WAYS[1:]
        for what, unit, value, target in measures
    ]
    memory = measured.memory_kib
    small, large = WATCH_STEPS
    per_small = (memory[small] - memory[0]) / small
    per_large = (memory[large] - memory[0]) / large
    result.append(Figure(f"web: memory per Watch stream at {small:,}", per_small, "KiB"))
    result.append(
        Figure(
            f"web: memory per Watch stream at {large:,}",
            per_large,
            "KiB",
            f"the same at {small:,}",
            per_small,
            target=1.2,
            at_most=True,
        )
    )
    return result


def post(connection: http.client.HTTPConnection, path: str, body: bytes, kind: str) -> bytes:
    """POST one call's body on a kept-alive connection; the answer's body (HTTP 200 only)."""
    connection.request("POST", path, body=body, headers={"content-type": kind})
    response = connection.getresponse()
    data = response.read()
    assert response.status == 200, data
    return data


def _host_port(address: str) -> tuple[str, int]:
    host, _, port = address.rpartition(":")
    return host, int(port)


def main() -> None:
    """Run the section alone and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_web", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer rounds and games")
    options = parser.parse_args()
    measured = measure(2, 1) if options.quick else measure()
    from bench.figures import table  # noqa: PLC0415

    print(table(figures(measured)))


if __name__ == "__main__":
    main()
