"""A connection's streams: bots that never stall, watchers up to their limit (issue 38).

``make bench`` once stalled with 125 bots a connection: every seat-1 bot waited in a Play
that was never sent, client and server idle. gRPC's server refused streams its client had
opened within the limit it was told (it counted a stream until its call was freed); a bot
whose Play was refused opened a new Watch and left the old one open; those streams filled
the connection's 256 until no call could be sent on it. At 128 bots a connection, with a
spectator polling on the same connection, that took seconds on the old server.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator

import grpc
import grpc.aio
import pytest

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.service.match_client import SeatBot
from gamerec.validator.service.match_servicer import CONNECTION_WATCHES
from gamerec.validator.service.server import CONNECTION_STREAMS
from tests.live.conftest import LiveServer
from tests.live.matches import request

#: Bots on one connection: as many as it may hold Watch streams.
BOTS = CONNECTION_WATCHES
#: Seconds without a move after which the bots are said to have stalled.
STALL_SECONDS = 45.0
#: Watchers of one match opened at once, and the connections they share.
WATCHERS = 3000
WATCHER_CONNECTIONS = 24
UNLIMITED = ("--client-limit", "peer-rate=1000000", "--client-limit", "peer-burst=1000000")


@pytest.fixture(scope="module")
def roomy(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose limits per client do not get in the way (so the streams' do)."""
    server = LiveServer(
        tmp_path_factory.mktemp("streams"),
        *UNLIMITED,
        *("--client-limit", f"peer-streams={WATCHERS + 10}"),
        *("--match-limit", f"watchers={WATCHERS}"),
    )
    yield server
    server.stop()


def channel(address: str) -> grpc.aio.Channel:
    """A connection of its own (not shared with the test's other channels)."""
    return grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])


def test_bots_filling_a_connection_beside_a_spectator_play_every_match_to_its_end(
    roomy: LiveServer,
) -> None:
    async def run() -> tuple[int, int]:
        first, second = channel(roomy.address), channel(roomy.address)
        try:
            stubs = [mgrpc.MatchServiceStub(first), mgrpc.MatchServiceStub(second)]
            made = [request("Aronda", 2, keyed=False) for _ in range(BOTS)]
            created = await asyncio.gather(*(stubs[1].CreateMatch(one) for one in made))
            bots = [
                SeatBot(stubs[seat], match.match_id, token, seat + 1, "random", n)
                for n, match in enumerate(created)
                for seat, token in enumerate(match.seat_tokens)
            ]
            playing = [asyncio.create_task(bot.run()) for bot in bots]
            spectator = asyncio.create_task(poll(stubs[0], [m.match_id for m in created]))
            try:
                await until_done(playing, bots)
            finally:
                spectator.cancel()
            ended = [task.result().status for task in playing]
            return len(ended), sum(len(bot.round_trips) for bot in bots)
        finally:
            await asyncio.gather(first.close(), second.close())

    ended, moves = asyncio.run(run())
    assert ended == 2 * BOTS and moves > 10 * BOTS


async def poll(stub: mgrpc.MatchServiceAsyncStub, match_ids: list[str]) -> None:
    """A spectator's page on the seat-1 bots' connection: every match's state, again and again."""
    while True:
        calls = [stub.GetMatch(mpb.GetMatchRequest(match_id=match_id)) for match_id in match_ids]
        await asyncio.gather(*calls, return_exceptions=True)


async def until_done(playing: list[asyncio.Task[mpb.MatchEnded]], bots: list[SeatBot]) -> None:
    """Wait for every bot; fail (naming who waits) when no move is made for STALL_SECONDS."""
    moves, since = -1, time.monotonic()
    while not all(task.done() for task in playing):
        await asyncio.sleep(0.5)
        now = sum(len(bot.round_trips) for bot in bots)
        if now != moves:
            moves, since = now, time.monotonic()
        elif time.monotonic() - since > STALL_SECONDS:
            waiting = Counter(bot.seat for bot, task in zip(bots, playing, strict=True)
                              if not task.done())  # fmt: skip
            for task in playing:
                task.cancel()
            raise AssertionError(f"the bots stalled after {moves} moves; waiting: {waiting}")
    for task in playing:
        task.result()


def test_a_connection_full_of_watch_streams_still_carries_calls(roomy: LiveServer) -> None:
    async def run() -> tuple[Counter[str], mpb.MatchState]:
        connection = channel(roomy.address)
        try:
            stub = mgrpc.MatchServiceStub(connection)
            match_id = (await stub.CreateMatch(request("ONE", 2, keyed=False))).match_id
            watches = [
                stub.Watch(mpb.WatchRequest(match_id=match_id)) for _ in range(CONNECTION_STREAMS)
            ]
            outcomes: Counter[str] = Counter()
            for watch in watches:
                try:
                    await asyncio.wait_for(watch.read(), 30)
                    outcomes["open"] += 1
                except grpc.aio.AioRpcError as error:
                    assert error.code() is grpc.StatusCode.RESOURCE_EXHAUSTED
                    assert f"as many as one connection may ({CONNECTION_WATCHES}" in str(
                        error.details()
                    )
                    assert str(error.details()).endswith("; open another connection")
                    outcomes["refused"] += 1
            state = await stub.GetMatch(mpb.GetMatchRequest(match_id=match_id), timeout=30)
            for watch in watches:
                watch.cancel()
            return outcomes, state
        finally:
            await connection.close()

    outcomes, state = asyncio.run(run())
    assert outcomes == {
        "open": CONNECTION_WATCHES,
        "refused": CONNECTION_STREAMS - CONNECTION_WATCHES,
    }
    assert state.status == mpb.MATCH_STATUS_OPEN


def test_as_many_watchers_as_the_limit_allows_open_at_once_and_reach_the_service(
    roomy: LiveServer,
) -> None:
    async def run() -> tuple[Counter[str], grpc.StatusCode]:
        connections = [channel(roomy.address) for _ in range(WATCHER_CONNECTIONS)]
        try:
            stubs = [mgrpc.MatchServiceStub(connection) for connection in connections]
            created = await stubs[0].CreateMatch(request("ONE", 2, keyed=False))
            asked = mpb.WatchRequest(match_id=created.match_id)
            watches = [stubs[n % len(stubs)].Watch(asked) for n in range(WATCHERS)]
            outcomes: Counter[str] = Counter()

            async def first_event(
                watch: grpc.aio.UnaryStreamCall[mpb.WatchRequest, mpb.MatchEvent],
            ) -> None:
                try:
                    await asyncio.wait_for(watch.read(), 60)
                    outcomes["reached the service"] += 1
                except grpc.aio.AioRpcError as error:
                    outcomes[error.code().name] += 1

            await asyncio.gather(*(first_event(watch) for watch in watches))
            try:
                await stubs[-1].Watch(asked).read()
                past = grpc.StatusCode.OK
            except grpc.aio.AioRpcError as error:
                past = error.code()
            for watch in watches:
                watch.cancel()
            return outcomes, past
        finally:
            await asyncio.gather(*(connection.close() for connection in connections))

    outcomes, past = asyncio.run(run())
    assert outcomes == {"reached the service": WATCHERS}
    assert past is grpc.StatusCode.RESOURCE_EXHAUSTED
