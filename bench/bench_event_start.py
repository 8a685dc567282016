"""Events, bulk start: a round of 250 matches created in one call against one call per match.

``gamerec event start`` creates every match of a round with one ``CreateMatches`` call (one
transaction in the server's store, all or none; ``gamerec.validator.events.on_server.
create_bulk``); the reference creates the same 250 matches one ``CreateMatch`` at a time
(``create_each``: 250 round trips, 250 transactions). Both are timed in turn against one
``gamerec serve --matches`` (one process, a fresh SQLite store) on 127.0.0.1, from the
director's side: matches/s of each, the ratio the median of the pairs'.

Run alone: ``.venv/bin/python -m bench.bench_event_start [--matches 250 --repetitions 3]``.
"""

from __future__ import annotations

import argparse
import datetime
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import grpc

from bench.figures import Figure, paired, rate_figure, table
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.events.on_server import (
    Creator,
    ServerLink,
    create_bulk,
    create_each,
    event_rules,
)

GAMEREC = Path(sys.executable).parent / "gamerec"


def _requests(matches: int, round_: int) -> list[mpb.CreateMatchRequest]:
    rules = event_rules("ONE", 2)
    return [
        mpb.CreateMatchRequest(
            rules=rules,
            seats=[
                mpb.MatchSeat(name=f"P{2 * n + 1:03d}"),
                mpb.MatchSeat(name=f"P{2 * n + 2:03d}"),
            ],
            time_control="600+5",
            event="Bench open",
            round=str(round_),
        )
        for n in range(matches)
    ]


class _Server:
    """``gamerec serve --matches`` on a free port of 127.0.0.1, one process.

    Its log (a line per call) goes to a file: a pipe nobody reads would fill and stop it.
    """

    def __init__(self, folder: Path) -> None:
        limits = ("--match-limit", "open-matches=100000")
        log = folder / "serve.log"
        with log.open("w") as stream:
            self.process = subprocess.Popen(
                [
                    *(str(GAMEREC), "serve", "--port", "0", "--processes", "1"),
                    *("--matches", str(folder / "matches.db"), *limits),
                ],
                stderr=stream,
            )
        give_up = time.monotonic() + 120
        while time.monotonic() < give_up:
            lines = log.read_text().splitlines()
            if lines and lines[0].endswith("}"):
                self.address = str(json.loads(lines[0])["address"])
                return
            time.sleep(0.1)
        self.process.kill()
        raise RuntimeError(f"gamerec serve did not start: {log.read_text()[-2000:]}")

    def stop(self) -> None:
        """SIGTERM (a graceful end), then SIGKILL if it has not ended in 30 s."""
        self.process.terminate()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(timeout=30)


def measure(matches: int, repetitions: int) -> list[Figure]:
    """The bulk start against one call per match, ``repetitions`` pairs in turn."""
    with tempfile.TemporaryDirectory(prefix="gamerec-bench-event-") as name:
        server = _Server(Path(name))
        try:
            link = ServerLink(server.address)
            with grpc.insecure_channel(server.address) as channel:
                stub = mgrpc.MatchServiceStub(channel)
                rounds = iter(range(1, 2 * repetitions + 3))
                start_at = datetime.datetime.now(datetime.UTC) + datetime.timedelta(hours=1)

                def one(creator: Creator) -> Callable[[], object]:
                    def run() -> object:
                        made = creator(stub, _requests(matches, next(rounds)), link, start_at)
                        assert len(made) == matches
                        return made

                    return run

                one(create_bulk)()  # warm: the channel, the server's first transaction
                times = paired(one(create_bulk), one(create_each), repetitions)
        finally:
            server.stop()
    return [
        rate_figure(
            f"event start: {matches} matches in one CreateMatches",
            matches,
            "matches/s",
            f"{matches} CreateMatch calls, one by one",
            times,
        )
    ]


def main() -> None:
    """Run the bulk start alone and print its table."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=250)
    parser.add_argument("--repetitions", type=int, default=3)
    arguments = parser.parse_args()
    print(table(measure(arguments.matches, arguments.repetitions)))


if __name__ == "__main__":
    main()
