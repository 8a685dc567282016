"""gamerec play in a live match on a real ``gamerec serve`` (its own process, 127.0.0.1, port 0).

Seat 1 is the person (the screen under Textual's pilot, typed key by key); seat 2 is the
match service's Python client (SeatBot, the random policy). The person quits half way (the
match goes on), comes back with the same token at the same ply, and plays to the end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import grpc.aio
import pytest

from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.play.app import PlayApp
from gamerec.validator.play.table import TableRefusedError
from gamerec.validator.service.match_client import SeatBot
from gamerec.validator.service.seat_table import ServerTable
from tests.live.conftest import LiveServer, create
from tests.live.matches import request
from tests.play.driving import notes_text, play_my_turns_to_the_end, state_of, type_line, until

SIZE = (130, 45)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    """A server on a test clock that stands still (no flag can fall while the test waits)."""
    live = LiveServer(tmp_path)
    yield live
    live.stop()


def test_a_seat_plays_quits_comes_back_with_its_token_and_finishes(server: LiveServer) -> None:
    created = create(server.address, request("ONE", 2, keyed=False, Board="5,5"))
    asyncio.run(_play_with_a_return(server.address, created.match_id, list(created.seat_tokens)))


async def _play_with_a_return(address: str, match_id: str, tokens: list[str]) -> None:
    bot_channel = grpc.aio.insecure_channel(address)
    bot = SeatBot(mgrpc.MatchServiceStub(bot_channel), match_id, tokens[1], 2, "random", 5)
    bot_task = asyncio.create_task(bot.run())
    try:
        first = ServerTable(grpc.aio.insecure_channel(address), match_id, tokens[0], 1)
        await first.check()
        app = PlayApp(first)
        async with app.run_test(size=SIZE) as pilot:
            await play_my_turns_to_the_end(app, pilot, stop_at_ply=4)
            await until(pilot, lambda: app.my_turn, "seat 1's turn at ply 5")
            left_at = state_of(app).plies
            await type_line(pilot, "quit")
        await first.leave()
        assert left_at == 4 and not bot_task.done()

        again = ServerTable(grpc.aio.insecure_channel(address), match_id, tokens[0], 1)
        state = await again.check()
        assert state.plies == 4 and state.to_move == 1  # the match waited at the right ply
        app = PlayApp(again)
        async with app.run_test(size=SIZE) as pilot:
            await until(pilot, lambda: app.state is not None and app.my_turn, "the seat back")
            assert state_of(app).plies == 4
            assert app.last_event == 5  # every event so far, watched again from the first
            await play_my_turns_to_the_end(app, pilot)
            final = state_of(app)
            await type_line(pilot, "quit")
        await again.leave()
        ended = await asyncio.wait_for(bot_task, 60)
        assert final.ended.result == ended.result
        record = final.ended.record
        assert record.result.termination == pb.TERMINATION_NORMAL
        assert validate(record).valid
        assert [move.seat for move in record.moves[:4]] == [1, 2, 1, 2]
    finally:
        bot_task.cancel()
        await bot_channel.close()


def test_the_table_checks_the_match_the_token_and_the_seat(server: LiveServer) -> None:
    created = create(server.address, request("ONE", 2, keyed=False, Board="5,5"))
    asyncio.run(_refusals(server.address, created.match_id, list(created.seat_tokens)))


async def _refusals(address: str, match_id: str, tokens: list[str]) -> None:
    async def refusal(match: str, token: str, seat: int) -> str:
        table = ServerTable(grpc.aio.insecure_channel(address), match, token, seat)
        try:
            await table.check()
        except TableRefusedError as refused:
            return f"{refused.reason}: {refused}"
        finally:
            await table.leave()
        return ""

    # The server says which match and seat a token is (WhoAmI): what is given must agree,
    # before any ply is played as after.
    assert await refusal("nosuchmatch", tokens[0], 1) == (
        f"WRONG_SEAT: the token is a seat's of match {match_id}, not of match nosuchmatch"
    )
    assert (await refusal(match_id, "seat_wrong", 1)).startswith("UNAUTHENTICATED: ")
    assert (
        await refusal(match_id, tokens[0], 3) == "WRONG_SEAT: the token is seat 1's, not seat 3's"
    )
    assert await refusal(match_id, tokens[1], 1) == (
        "WRONG_SEAT: the token is seat 2's, not seat 1's"
    )
    assert await refusal(match_id, tokens[1], 2) == ""
    # Given neither, the table takes the token's match and seat.
    channel = grpc.aio.insecure_channel(address)
    table = ServerTable(channel, "", tokens[1], 0)
    state = await table.check()
    assert (table.match_id, table.seat, state.match_id) == (match_id, 2, match_id)
    await table.leave()


def test_the_screen_survives_a_server_restart(server: LiveServer) -> None:
    created = create(server.address, request("ONE", 2, keyed=False, Board="5,5"))
    asyncio.run(_through_a_restart(server, created.match_id, list(created.seat_tokens)))


async def _through_a_restart(server: LiveServer, match_id: str, tokens: list[str]) -> None:
    address = server.address
    bot_channel = grpc.aio.insecure_channel(address)
    bot = SeatBot(mgrpc.MatchServiceStub(bot_channel), match_id, tokens[1], 2, "random", 5)
    bot_task = asyncio.create_task(bot.run())
    table = ServerTable(grpc.aio.insecure_channel(address), match_id, tokens[0], 1)
    try:
        await table.check()
        app = PlayApp(table)
        async with app.run_test(size=SIZE) as pilot:
            await play_my_turns_to_the_end(app, pilot, stop_at_ply=2)
            await until(pilot, lambda: app.my_turn, "seat 1's turn at ply 3")
            server.stop()  # SIGKILL: the watch stream breaks
            await until(pilot, lambda: "out of reach" in notes_text(app), "the lost server noted")
            server.restart_on(address)
            await play_my_turns_to_the_end(app, pilot)
            final = state_of(app)
            await type_line(pilot, "quit")
        assert final.ended.result.termination == pb.TERMINATION_NORMAL
        assert validate(final.record).valid
        ended = await asyncio.wait_for(bot_task, 60)
        assert ended.result == final.ended.result
    finally:
        bot_task.cancel()
        await table.leave()
        await bot_channel.close()
