"""Takers racing for the last seat: exactly one wins, on one server process or two."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import Iterator

import grpc
import grpc.aio
import pytest

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import lobby_pb2_grpc as lgrpc
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from tests.live.conftest import LiveServer
from tests.lobby.conftest import lobby_events, lobby_stub, opening, player

TAKERS = 8


@pytest.fixture(scope="module")
def two_processes(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """Two server processes on one port and one store."""
    server = LiveServer(
        tmp_path_factory.mktemp("race"), "--client-limit", "client-challenges=50", processes=2
    )
    yield server
    server.stop()


async def _race(address: str, challenge_id: str) -> list[lpb.TakeSeatResponse | grpc.StatusCode]:
    """TAKERS clients, each on its own connection, take the last seat at once."""
    channels = [
        grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(TAKERS)
    ]
    try:
        stubs = [lgrpc.LobbyServiceStub(channel) for channel in channels]
        await asyncio.gather(*(channel.channel_ready() for channel in channels))

        async def take(stub: lgrpc.LobbyServiceAsyncStub) -> lpb.TakeSeatResponse | grpc.StatusCode:
            try:
                return await stub.TakeSeat(
                    lpb.TakeSeatRequest(challenge_id=challenge_id, player=player(2)), timeout=60
                )
            except grpc.aio.AioRpcError as error:
                return error.code()

        return list(await asyncio.gather(*(take(stub) for stub in stubs)))
    finally:
        await asyncio.gather(*(channel.close() for channel in channels))


@pytest.mark.parametrize("rounds", [5])
def test_takers_racing_for_the_last_seat_exactly_one_wins_across_two_processes(
    two_processes: LiveServer, rounds: int
) -> None:
    stub = lobby_stub(two_processes.address)
    for _ in range(rounds):
        opened = stub.OpenChallenge(opening("Oust"), timeout=30)
        challenge_id = opened.challenge.challenge_id
        answers = asyncio.run(_race(two_processes.address, challenge_id))
        won = [answer for answer in answers if isinstance(answer, lpb.TakeSeatResponse)]
        lost = Counter(answer for answer in answers if isinstance(answer, grpc.StatusCode))
        assert len(won) == 1, answers
        assert lost == {grpc.StatusCode.FAILED_PRECONDITION: TAKERS - 1}
        match_id = won[0].challenge.match_id
        assert match_id
        # one match, whose seat 2 is the winner's token: the losers hold nothing
        mine = stub.ListChallenges(lpb.ListChallengesRequest(token=won[0].token), timeout=30)
        assert mine.challenges[0].your_seat == 2
        with grpc.insecure_channel(two_processes.address) as channel:
            state = mgrpc.MatchServiceStub(channel).GetMatch(
                mpb.GetMatchRequest(match_id=match_id), timeout=30
            )
        assert [seat.name for seat in state.record.seats] == ["Ana", "Ben"]
    # the lobby's log: each challenge opened once, its seat taken once, its match started once
    events = lobby_events(two_processes.address)
    kinds = Counter(str(event.WhichOneof("kind")) for event in events)
    assert kinds == {"opened": rounds, "seat_taken": rounds, "started": rounds}
    assert [event.number for event in events] == list(range(1, len(events) + 1))
