"""Live matches on PostgreSQL: two servers sharing one store, against one server on SQLite.

The same 1,000 matches of bots as the ``live`` section (two ``SeatBot`` s a match, a Watch
stream each, a Play at each turn, all at once), played twice in the same run:

1. **SQLite**: one ``gamerec serve --matches FILE`` (one server process per core, sharing the
   port), the embedded default;
2. **PostgreSQL**: two ``gamerec serve --matches postgresql://...`` on two ports, one store
   (a PostgreSQL server from the pgserver wheel, ``fsync=on`` as SQLite's
   ``synchronous=FULL``), the machine's cores shared between them (so both runs have as many
   server processes). Every match has its seat 1 on one server and its seat 2 on the other:
   each move one seat plays reaches the other seat through the store's LISTEN/NOTIFY, the
   path several machines take in production.

Figures: accepted moves per second and each Play's p99 round trip (from the bot's call to
its answer), PostgreSQL against SQLite (a ratio; no target: the point of PostgreSQL is
servers on several machines, not speed on one). Every Play is followed by a bare Echo on the
same connection, as in the ``live`` section, so that both runs carry the same load.

Run alone: ``.venv/bin/python -m bench.bench_live_postgres [--matches 1000] [--game Aronda]``.
"""

from __future__ import annotations

import argparse
import asyncio
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

import grpc.aio
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.bench_live import match_request, play
from bench.bench_service import start_server
from bench.figures import Figure, percentile
from bench.postgres import LocalPostgres
from gamerec.recorder.signing import write_key_pair
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.batch import default_workers

#: Connections the bots share, per server (as the ``live`` section's: about 60 bots a
#: connection). With 16, 125 bots a connection, a run on SQLite once stalled, every seat 1's
#: bot waiting with client and server idle: the server refused streams opened within its
#: limit and each refused bot left its old Watch open, until they filled the connection
#: (found and fixed in issue 38; tests/live/test_connection_streams.py).
CHANNELS_PER_SERVER = 32


@dataclass(frozen=True, slots=True)
class StoreRun:
    """One store's run: moves accepted, how long it took, every Play's round trip (ms)."""

    moves: int
    seconds: float
    move_ms: list[float]

    @property
    def moves_per_second(self) -> float:
        """Moves accepted per second."""
        return self.moves / self.seconds if self.seconds else 0.0


@dataclass(frozen=True, slots=True)
class PostgresFigures:
    """What one run measured: the same matches on each store."""

    matches: int
    sqlite: StoreRun
    postgres: StoreRun


class Servers:
    """``gamerec serve`` processes (the bench's, with the echo) on one store, in a folder."""

    def __init__(self, store: str, folder: Path, servers: int, processes: int) -> None:
        """Say what to start: ``servers`` servers of ``processes`` processes each."""
        self.store = store
        self.folder = folder
        self.servers = servers
        self.processes = processes
        self._running: list[subprocess.Popen[bytes]] = []

    def __enter__(self) -> list[str]:
        """Start them; their addresses once they listen."""
        key = self.folder / "host.key"
        if not key.exists():
            write_key_pair(Ed25519PrivateKey.generate(), key)
        addresses = []
        for number in range(self.servers):
            command = [sys.executable, "-m", "bench.bench_live", "--serve", self.store,
                       "--host-key", str(key), "--processes", str(self.processes)]  # fmt: skip
            process, address = start_server(command, self.folder / f"calls-{number}.log")
            self._running.append(process)
            addresses.append(address)
        return addresses

    def __exit__(self, *_: object) -> None:
        """Stop them gracefully."""
        for process in self._running:
            process.terminate()
        for process in self._running:
            process.wait(timeout=120)


async def _play_on(addresses: list[str], matches: int, game: str) -> StoreRun:
    """Create the matches (round robin over the servers) and play them all at once.

    The channels alternate between the servers, so a match's two seats play on two of them
    when there are two.
    """
    channels = [
        grpc.aio.insecure_channel(
            addresses[n % len(addresses)], options=[("grpc.use_local_subchannel_pool", 1)]
        )
        for n in range(CHANNELS_PER_SERVER * len(addresses))
    ]
    try:
        stubs = [mgrpc.MatchServiceStub(channel) for channel in channels]
        await asyncio.gather(*(channel.channel_ready() for channel in channels))
        created = await asyncio.gather(
            *(stubs[n % len(stubs)].CreateMatch(match_request(game)) for n in range(matches))
        )
        moves, seconds, move_ms, _ = await play(channels, list(created))
        return StoreRun(moves, seconds, move_ms)
    finally:
        await asyncio.gather(*(channel.close() for channel in channels))


def measure(matches: int = 1000, game: str = "Aronda") -> PostgresFigures:
    """Play the matches on SQLite, then on PostgreSQL (see the module docstring).

    Raises:
        PostgresUnavailableError: PostgreSQL cannot start here.
    """
    cores = default_workers()
    with tempfile.TemporaryDirectory() as name:
        folder = Path(name)
        with Servers(str(folder / "matches.db"), folder, 1, cores) as addresses:
            on_sqlite = asyncio.run(_play_on(addresses, matches, game))
        database = LocalPostgres(fsync=True)
        try:
            url = database.new_database("bench")
            with Servers(url, folder, 2, max(1, cores // 2)) as addresses:
                on_postgres = asyncio.run(_play_on(addresses, matches, game))
        finally:
            database.stop()
    return PostgresFigures(matches, on_sqlite, on_postgres)


def figures(measured: PostgresFigures) -> list[Figure]:
    """The section's rows."""
    n = f"{measured.matches:,} matches"
    sqlite = "1 server on SQLite"
    return [
        Figure(
            f"live, PostgreSQL: moves accepted, 2 servers, {n}",
            measured.postgres.moves_per_second,
            "moves/s",
            sqlite,
            measured.sqlite.moves_per_second,
        ),
        Figure(
            f"live, PostgreSQL: move round trip p99, 2 servers, {n}",
            percentile(measured.postgres.move_ms, 0.99),
            "ms",
            f"{sqlite}, p99",
            percentile(measured.sqlite.move_ms, 0.99),
        ),
    ]


def main() -> None:
    """Print the figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--game", default="Aronda")
    options = parser.parse_args()
    for figure in figures(measure(options.matches, options.game)):
        print(f"{figure.name}: {figure.value:,.2f} {figure.unit}  ({figure.reference} "
              f"{figure.reference_value or 0:,.2f})")  # fmt: skip


if __name__ == "__main__":
    main()
