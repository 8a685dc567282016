"""What the lobby's tests share: a live server, lobby stubs, requests, playing lobby matches."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator, Sequence

import grpc
import grpc.aio
import pytest

from gamerec.recorder.signing import public_bytes
from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import lobby_pb2_grpc as lgrpc
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.service.match_client import SeatBot
from gamerec.validator.verification import verify
from tests.live.conftest import LiveServer
from tests.live.matches import NAMES, rules
from tests.sealing import key


@pytest.fixture(scope="module")
def lobby_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """One server for a module, on a test clock, with room for a few challenges per client."""
    server = LiveServer(tmp_path_factory.mktemp("lobby"), "--client-limit", "client-challenges=50")
    yield server
    server.stop()


def lobby_stub(address: str) -> lgrpc.LobbyServiceStub:
    return lgrpc.LobbyServiceStub(grpc.insecure_channel(address))


def lobby_events(address: str, first: int = 1) -> list[lpb.LobbyEvent]:
    """The lobby's events from ``first`` to the last one now."""
    stub = lobby_stub(address)
    last = stub.ListChallenges(lpb.ListChallengesRequest(), timeout=30).last_event
    if last < first:
        return []
    events = []
    stream = stub.WatchLobby(lpb.WatchLobbyRequest(from_event=first), timeout=60)
    for event in stream:
        events.append(event)
        if event.number >= last:
            stream.cancel()
            break
    return events


def player(seat: int) -> mpb.MatchSeat:
    """Seat ``seat``'s player (named after it, with its test key)."""
    return mpb.MatchSeat(name=NAMES[seat - 1], public_key=public_bytes(key(seat)))


def opening(
    game: str, seats: int = 2, *, clock: str = "-", rated: bool = False
) -> lpb.OpenChallengeRequest:
    """A challenge of ``game`` for ``seats`` players, the challenger in seat 1."""
    return lpb.OpenChallengeRequest(
        rules=rules(game, seats), time_control=clock, rated=rated, player=player(1)
    )


async def play_lobby_match(
    address: str, match_id: str, tokens: Sequence[str], seed: int = 0
) -> list[mpb.MatchEnded]:
    """Play a lobby match to its end, seat N with ``tokens[N-1]`` and key N."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = mgrpc.MatchServiceStub(channel)
        bots = [
            SeatBot(stub, match_id, token, seat, "random", f"{seed}:{seat}", key=key(seat))
            for seat, token in enumerate(tokens, start=1)
        ]
        ended = await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), 180)
    return list(ended)


def final_record_holds(address: str, match_id: str, seats: int) -> pb.GameRecord:
    """The match's final record validates and verifies, signed by every seat and the host.

    Its seats are named ``NAMES[:seats]`` (give 0 not to check the names).
    """
    with grpc.insecure_channel(address) as channel:
        state = mgrpc.MatchServiceStub(channel).GetMatch(
            mpb.GetMatchRequest(match_id=match_id), timeout=30
        )
    assert state.status == mpb.MATCH_STATUS_FINISHED
    record = state.record
    verdict = validate(record)
    assert verdict.valid, verdict
    checked = verify(record)
    assert checked.verified, checked
    if seats:
        assert [seat.name for seat in record.seats] == list(NAMES[:seats])
    return record
