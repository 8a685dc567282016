"""Whole tables filled through the lobby on a real ``gamerec serve``: 2 and 4 seats."""

from __future__ import annotations

import asyncio

import grpc
import grpc.aio

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import lobby_pb2_grpc as lgrpc
from tests.live.conftest import LiveServer
from tests.lobby.conftest import (
    final_record_holds,
    lobby_stub,
    opening,
    play_lobby_match,
    player,
)


def test_a_two_seat_challenge_taken_starts_a_match_both_seats_play_with_their_lobby_tokens(
    lobby_server: LiveServer,
) -> None:
    stub = lobby_stub(lobby_server.address)
    opened = stub.OpenChallenge(opening("ONE", 2, rated=True), timeout=30)
    challenge = opened.challenge
    assert challenge.status == lpb.CHALLENGE_STATUS_OPEN
    assert challenge.your_seat == 1 and challenge.rated
    assert [seat.taken for seat in challenge.seats] == [True, False]
    listed = stub.ListChallenges(lpb.ListChallengesRequest(), timeout=30)
    assert challenge.challenge_id in [c.challenge_id for c in listed.challenges]
    # the list never shows a token, and shows no seat as "yours"
    assert all(not c.your_seat for c in listed.challenges)

    taken = stub.TakeSeat(
        lpb.TakeSeatRequest(challenge_id=challenge.challenge_id, player=player(2)), timeout=30
    )
    assert taken.challenge.status == lpb.CHALLENGE_STATUS_STARTED
    assert taken.challenge.your_seat == 2
    match_id = taken.challenge.match_id
    assert match_id and taken.token != opened.token
    # the challenger learns the match by polling with its token
    mine = stub.ListChallenges(lpb.ListChallengesRequest(token=opened.token), timeout=30)
    assert [c.match_id for c in mine.challenges] == [match_id]
    assert mine.challenges[0].your_seat == 1

    asyncio.run(play_lobby_match(lobby_server.address, match_id, [opened.token, taken.token]))
    final_record_holds(lobby_server.address, match_id, 2)


async def _take_and_learn(
    address: str, challenge_id: str, seat: int, watch_from: int
) -> tuple[str, str]:
    """Take seat ``seat``; the token, and the match id learned from the lobby's stream."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = lgrpc.LobbyServiceStub(channel)
        watch = stub.WatchLobby(lpb.WatchLobbyRequest(from_event=watch_from), timeout=120)
        taken = await stub.TakeSeat(
            lpb.TakeSeatRequest(challenge_id=challenge_id, player=player(seat), seat=seat),
            timeout=30,
        )
        async for event in watch:
            if event.HasField("started") and event.started.challenge_id == challenge_id:
                watch.cancel()
                return taken.token, event.started.match_id
    raise AssertionError("the lobby's stream ended without the match's start")


def test_a_four_seat_challenge_filled_by_three_clients_at_once_all_learn_the_match(
    lobby_server: LiveServer,
) -> None:
    stub = lobby_stub(lobby_server.address)
    opened = stub.OpenChallenge(opening("ONE", 4), timeout=30)
    challenge_id = opened.challenge.challenge_id
    assert len(opened.challenge.seats) == 4
    since = stub.ListChallenges(lpb.ListChallengesRequest(), timeout=30).last_event

    async def fill() -> list[tuple[str, str]]:
        return await asyncio.gather(
            *(
                _take_and_learn(lobby_server.address, challenge_id, seat, since + 1)
                for seat in (2, 3, 4)
            )
        )

    learned = asyncio.run(fill())
    match_ids = {match_id for _, match_id in learned}
    assert len(match_ids) == 1
    (match_id,) = match_ids
    mine = stub.ListChallenges(lpb.ListChallengesRequest(token=opened.token), timeout=30)
    assert mine.challenges[0].match_id == match_id
    assert [seat.name for seat in mine.challenges[0].seats] == ["Ana", "Ben", "Chi", "Dev"]
    tokens = [opened.token, *(token for token, _ in learned)]
    asyncio.run(play_lobby_match(lobby_server.address, match_id, tokens, seed=4))
    final_record_holds(lobby_server.address, match_id, 4)
    # a match being played shows among the live ones, with its clocks; a finished one does not
    live = stub.ListLiveMatches(lpb.ListLiveMatchesRequest(), timeout=30)
    assert match_id not in [m.summary.match_id for m in live.matches]
