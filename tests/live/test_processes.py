"""Several server processes on one store, and the real clock."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Iterator

import grpc
import grpc.aio
import pytest

from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.verification import verify
from tests.live.conftest import LiveServer, create, events_of, kinds, play_match
from tests.live.matches import request
from tests.sealing import key

#: Connections the tests open, so that the kernel spreads them over the server processes.
CONNECTIONS = 8


@pytest.fixture(scope="module")
def shared(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("shared"), processes=2)
    yield server
    server.stop()


def channels(address: str) -> list[grpc.aio.Channel]:
    return [
        grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
        for _ in range(CONNECTIONS)
    ]


def test_of_concurrent_plays_of_one_ply_on_several_processes_exactly_one_is_accepted(
    shared: LiveServer,
) -> None:
    created = create(shared.address, request("ONE", 2, keyed=False))
    moves = ["a1", "a2", "a3", "a4", "a1", "b1", "b2", "c1"]

    async def run() -> list[mpb.PlayResponse | str]:
        opened = channels(shared.address)
        try:
            stubs = [mgrpc.MatchServiceStub(channel) for channel in opened]
            await asyncio.gather(*(channel.channel_ready() for channel in opened))
            calls = [
                stub.Play(
                    mpb.PlayRequest(
                        match_id=created.match_id, token=created.seat_tokens[0], ply=1, text=move
                    )
                )
                for stub, move in zip(stubs, moves, strict=True)
            ]
            return await asyncio.gather(*(_answer(call) for call in calls))
        finally:
            await asyncio.gather(*(channel.close() for channel in opened))

    answers = asyncio.run(run())
    log = events_of_open(shared.address, created.match_id)
    (accepted,) = [event for event in log if event.HasField("move")]
    assert accepted.move.ply == 1
    for move, answer in zip(moves, answers, strict=True):
        if move == accepted.move.token:
            assert isinstance(answer, mpb.PlayResponse) and answer.events[0] == accepted
        else:
            assert answer == "FAILED_PRECONDITION", (move, answer)


async def _answer(call: object) -> mpb.PlayResponse | str:
    try:
        return await call  # type: ignore[no-any-return, misc]
    except grpc.aio.AioRpcError as error:
        return error.code().name


def events_of_open(address: str, match_id: str) -> list[mpb.MatchEvent]:
    with grpc.insecure_channel(address) as channel:
        state = mgrpc.MatchServiceStub(channel).GetMatch(mpb.GetMatchRequest(match_id=match_id))
        stream = mgrpc.MatchServiceStub(channel).Watch(mpb.WatchRequest(match_id=match_id))
        events = [next(stream) for _ in range(state.last_event)]
        stream.cancel()
    return events


def test_bots_on_different_processes_play_whole_matches(shared: LiveServer) -> None:
    async def run() -> list[tuple[mpb.CreateMatchResponse, list[mpb.MatchEnded], mpb.MatchState]]:
        return await asyncio.gather(
            *(
                play_match(shared.address, request(game, seats), seed=n, channels=seats)
                for n, (game, seats) in enumerate((("ONE", 4), ("Oust", 2), ("Oh-Wah-Ree", 3)))
            )
        )

    for created, ended, state in asyncio.run(run()):
        seats = len(created.seat_tokens)
        trusted = {shared.host_public, *(public_bytes(key(s)) for s in range(1, seats + 1))}
        assert verify(state.record, trusted).verified
        assert all(end == ended[0] for end in ended)
        numbers = [event.number for event in events_of(shared.address, created.match_id)]
        assert numbers == list(range(1, state.last_event + 1))


def test_with_every_process_timing_a_match_its_flag_falls_exactly_once(shared: LiveServer) -> None:
    # The clocks start a second after the creation (scheduled): seat 1's runs out unplayed.
    made = request("Aronda", 2, clock="30", keyed=False, start_at=shared.ns / 1e9 + 1)
    created = create(shared.address, made)

    async def watch_all() -> list[list[mpb.MatchEvent]]:
        opened = channels(shared.address)
        try:
            streams = [
                mgrpc.MatchServiceStub(channel).Watch(mpb.WatchRequest(match_id=created.match_id))
                for channel in opened
            ]
            firsts = await asyncio.gather(*(_read(stream, 1) for stream in streams))
            assert all(first[0].HasField("created") for first in firsts)
            shared.advance(31)
            rests = await asyncio.wait_for(
                asyncio.gather(*(_read(stream) for stream in streams)), 30
            )
            return [first + rest for first, rest in zip(firsts, rests, strict=True)]
        finally:
            await asyncio.gather(*(channel.close() for channel in opened))

    seen = asyncio.run(watch_all())
    assert all(kinds(events) == ["created", "ended"] for events in seen)
    log = events_of(shared.address, created.match_id)
    assert Counter(kinds(log)) == Counter({"created": 1, "ended": 1})
    assert log[-1].ended.result.termination == pb.TERMINATION_TIMEOUT


async def _read(stream: grpc.aio.UnaryStreamCall, most: int = 1_000) -> list[mpb.MatchEvent]:  # type: ignore[type-arg]
    """Up to ``most`` events of a stream (fewer when it ends)."""
    events: list[mpb.MatchEvent] = []
    while len(events) < most and (event := await stream.read()) is not grpc.aio.EOF:
        assert isinstance(event, mpb.MatchEvent)
        events.append(event)
    return events


@pytest.fixture(scope="module")
def real_clock(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    server = LiveServer(tmp_path_factory.mktemp("real"), clock=False)
    yield server
    server.stop()


def test_with_the_real_clock_a_whole_match_keeps_clocks_and_times(real_clock: LiveServer) -> None:
    _, ended, state = asyncio.run(
        play_match(real_clock.address, request("Oh-Wah-Ree", 2, clock="120+1"))
    )
    record = state.record
    assert validate(record).valid and ended[0].record.moves == record.moves
    times = [move.timestamp.ToNanoseconds() for move in record.moves]
    assert times == sorted(times)
    for ply, move in enumerate(record.moves, start=1):
        own = (ply + 1) // 2  # the mover's plies so far
        assert 0 < move.clock.ToMilliseconds() <= 120_000 + own * 1_000


def test_with_the_real_clock_a_flag_falls_with_nobody_calling(real_clock: LiveServer) -> None:
    started = time.monotonic()
    made = request("Aronda", 2, clock="1/move", keyed=False)
    made.start_at.FromMilliseconds(time.time_ns() // 1_000_000 + 1_000)  # the clocks start in 1 s
    created = create(real_clock.address, made)
    log = events_of(real_clock.address, created.match_id)
    waited = time.monotonic() - started
    assert kinds(log) == ["created", "ended"]
    late = log[-1].time.ToNanoseconds() - made.start_at.ToNanoseconds() - 1_000_000_000
    # The flag falls on the server's timer 1 s after the clocks start; on a busy machine the
    # timer may be late, but never early.
    assert 0 <= late < 2_000_000_000, late
    assert 2.0 <= waited < 30
