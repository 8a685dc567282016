"""The lobby: a challenge opened and filled, against the match it makes created directly.

The server is the web section's (``gamerec serve --matches STORE --web 0``, one server
process, the limits per client lifted). A round times, in turn (the order reversed every
other round), ``CALLS`` of each:

- **OpenChallenge** over gRPC (a two-seat Aronda challenge; one store transaction that writes
  the challenge and its event), then the **TakeSeat** that fills it (the store transaction
  that seats the taker and makes the match through ``Referee.create``);
- the same two calls through the web door with Connect JSON bodies (what the web client's
  lobby page sends, over one kept-alive HTTP/1.1 connection);
- **CreateMatch** over gRPC with the same rules and seats: the match made directly, the work
  the filling TakeSeat wraps.

Figures (no targets: what the lobby costs, per door): the p50 of OpenChallenge and of the
filling TakeSeat against CreateMatch's, and the Connect JSON p50s against gRPC's, each the
median of the rounds' ratios with their spread.

Run alone: ``.venv/bin/python -m bench.bench_lobby [--quick]``.
"""

from __future__ import annotations

import argparse
import http.client
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass

import grpc
import orjson
from google.protobuf import json_format

from bench.bench_web import Server, _host_port, post
from bench.figures import Figure, table
from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import lobby_pb2_grpc as lgrpc
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc

#: Calls of each way per round.
CALLS = 40
#: The ways a round times, in this order (reversed every other round).
WAYS = ("gRPC", "Connect JSON", "CreateMatch")
RULES = {"game": "GAME_ARONDA"}


@dataclass(frozen=True, slots=True)
class LobbyRound:
    """One round's median times, milliseconds, by way: (open, fill); CreateMatch: (create, 0)."""

    p50: dict[str, tuple[float, float]]


class Lobbyist:
    """Opens and fills challenges (or creates matches) over one way, timing each call."""

    def __init__(self, address: str, web: str) -> None:
        """Open the connections of every way."""
        self.channel = grpc.insecure_channel(address)
        self.lobby = lgrpc.LobbyServiceStub(self.channel)
        self.matches = mgrpc.MatchServiceStub(self.channel)
        self.web = http.client.HTTPConnection(*_host_port(web), timeout=60)

    def times(self, way: str, calls: int) -> tuple[list[float], list[float]]:
        """``calls`` of ``way``: the first call's and the second call's round trips, seconds."""
        first: list[float] = []
        second: list[float] = []
        action: Callable[[], tuple[float, float]] = {
            "gRPC": self._grpc,
            "Connect JSON": self._json,
            "CreateMatch": self._create,
        }[way]
        for _ in range(calls):
            opened, filled = action()
            first.append(opened)
            second.append(filled)
        return first, second

    def _grpc(self) -> tuple[float, float]:
        request = lpb.OpenChallengeRequest(seats=2, player=mpb.MatchSeat(name="Ana"))
        json_format.ParseDict(RULES, request.rules)
        started = time.perf_counter()
        opened = self.lobby.OpenChallenge(request, timeout=60)
        middle = time.perf_counter()
        taken = self.lobby.TakeSeat(
            lpb.TakeSeatRequest(
                challenge_id=opened.challenge.challenge_id, player=mpb.MatchSeat(name="Ben")
            ),
            timeout=60,
        )
        ended = time.perf_counter()
        assert taken.challenge.match_id, taken
        return middle - started, ended - middle

    def _json(self) -> tuple[float, float]:
        started = time.perf_counter()
        opened = self._post(
            "OpenChallenge", {"rules": RULES, "seats": 2, "player": {"name": "Ana"}}
        )
        middle = time.perf_counter()
        taken = self._post(
            "TakeSeat",
            {"challengeId": opened["challenge"]["challengeId"], "player": {"name": "Ben"}},
        )
        ended = time.perf_counter()
        assert taken["challenge"]["matchId"], taken
        return middle - started, ended - middle

    def _create(self) -> tuple[float, float]:
        request = mpb.CreateMatchRequest(
            seats=[mpb.MatchSeat(name="Ana"), mpb.MatchSeat(name="Ben")]
        )
        json_format.ParseDict(RULES, request.rules)
        started = time.perf_counter()
        created = self.matches.CreateMatch(request, timeout=60)
        assert created.match_id
        return time.perf_counter() - started, 0.0

    def _post(self, method: str, body: dict[str, object]) -> dict[str, dict[str, str]]:
        path = f"/gamerec.v1.LobbyService/{method}"
        answer: dict[str, dict[str, str]] = orjson.loads(
            post(self.web, path, orjson.dumps(body), "application/json")
        )
        return answer

    def close(self) -> None:
        """Close the connections."""
        self.channel.close()
        self.web.close()


def measure(rounds: int = 5, calls: int = CALLS) -> list[LobbyRound]:
    """Start a server and time the ways in turn, ``rounds`` times."""
    server = Server()
    with server as address:
        lobbyist = Lobbyist(address, server.web)
        try:
            lobbyist.times("gRPC", 5)  # warm: connections, caches
            lobbyist.times("Connect JSON", 5)
            found = []
            for number in range(rounds):
                order = WAYS if number % 2 == 0 else tuple(reversed(WAYS))
                p50 = {}
                for way in order:
                    first, second = lobbyist.times(way, calls)
                    p50[way] = (statistics.median(first) * 1e3, statistics.median(second) * 1e3)
                found.append(LobbyRound(p50))
        finally:
            lobbyist.close()
    return found


#: The figures: name, then (way, call) measured and (way, call) it is compared with; a call
#: is 0 for the first of the two (OpenChallenge, CreateMatch) and 1 for the filling TakeSeat.
ROWS: tuple[tuple[str, tuple[str, int], str, tuple[str, int]], ...] = (
    ("OpenChallenge p50, gRPC", ("gRPC", 0), "CreateMatch p50, gRPC", ("CreateMatch", 0)),
    (
        "TakeSeat filling the table p50, gRPC",
        ("gRPC", 1),
        "CreateMatch p50, gRPC",
        ("CreateMatch", 0),
    ),
    ("OpenChallenge p50, Connect JSON", ("Connect JSON", 0), "the same, gRPC", ("gRPC", 0)),
    (
        "TakeSeat filling the table p50, Connect JSON",
        ("Connect JSON", 1),
        "the same, gRPC",
        ("gRPC", 1),
    ),
)


def figures(rounds: list[LobbyRound]) -> list[Figure]:
    """The section's figures (see the module docstring)."""
    result = []
    for name, (way, call), reference, (ref_way, ref_call) in ROWS:
        values = [found.p50[way][call] for found in rounds]
        references = [found.p50[ref_way][ref_call] for found in rounds]
        result.append(
            Figure(
                f"lobby: {name}",
                statistics.median(values),
                "ms",
                reference,
                statistics.median(references),
                pairs=tuple(v / r for v, r in zip(values, references, strict=True)),
            )
        )
    return result


def main() -> None:
    """Run the section alone and print its figures."""
    parser = argparse.ArgumentParser(prog="python -m bench.bench_lobby", description=__doc__)
    parser.add_argument("--quick", action="store_true", help="fewer rounds and calls")
    options = parser.parse_args()
    measured = measure(2, 10) if options.quick else measure()
    print(table(figures(measured)))


if __name__ == "__main__":
    main()
