"""Several ``gamerec serve`` processes on one PostgreSQL store: one service."""

from __future__ import annotations

import asyncio
import signal
import subprocess
import time
from collections import Counter
from collections.abc import Iterator
from pathlib import Path

import grpc
import grpc.aio
import pytest

from bench.postgres import LocalPostgres
from gamerec.recorder.codecs import read_records
from gamerec.recorder.signing import public_bytes, write_key_pair
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.service.match_client import SeatBot
from gamerec.validator.verification import verify
from tests.live.conftest import LiveServer, create, events_of, kinds
from tests.live.matches import HOST, request
from tests.live.postgres import GROUP, postgres
from tests.sealing import key
from tests.service.conftest import GAMEREC, ROOT

pytestmark = GROUP
__all__ = ["postgres"]


class Pair:
    """Two servers (separate processes, ports and clocks of one file) on one database."""

    def __init__(self, folder: Path, url: str) -> None:
        self.url = url
        self.host_key = folder / "host.key"
        write_key_pair(HOST, self.host_key, "gamerec host")
        options = ("--host-key", str(self.host_key))
        self.a = LiveServer(folder, *options, store=url)
        self.b = LiveServer(folder, *options, store=url)

    def stop(self) -> None:
        self.a.stop()
        self.b.stop()


@pytest.fixture(scope="module")
def pair(tmp_path_factory: pytest.TempPathFactory, postgres: LocalPostgres) -> Iterator[Pair]:
    servers = Pair(tmp_path_factory.mktemp("pair"), postgres.new_database("pair"))
    yield servers
    servers.stop()


def test_a_move_on_one_server_reaches_a_watcher_on_the_other_within_100_ms(pair: Pair) -> None:
    created = create(pair.a.address, request("Oh-Wah-Ree", 2, keyed=False))

    async def run() -> list[float]:
        async with (
            grpc.aio.insecure_channel(pair.a.address) as on_a,
            grpc.aio.insecure_channel(pair.b.address) as on_b,
        ):
            player = mgrpc.MatchServiceStub(on_a)
            stream = mgrpc.MatchServiceStub(on_b).Watch(mpb.WatchRequest(match_id=created.match_id))
            first = await stream.read()
            assert isinstance(first, mpb.MatchEvent) and first.HasField("created")
            delays, state = [], None
            for ply in range(1, 13):
                state = await player.GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
                seat = state.to_move
                started = time.perf_counter()
                await player.Play(
                    mpb.PlayRequest(
                        match_id=created.match_id,
                        token=created.seat_tokens[seat - 1],
                        ply=ply,
                        text=state.legal_moves[0],
                    )
                )
                seen = await stream.read()
                delays.append(time.perf_counter() - started)
                assert isinstance(seen, mpb.MatchEvent) and seen.move.ply == ply
            stream.cancel()
            return delays

    delays = sorted(asyncio.run(run()))
    # The median, so that one moment of a busy machine does not decide; every move arrived.
    assert delays[len(delays) // 2] < 0.1, delays


def test_two_plays_of_one_ply_on_two_servers_accept_exactly_one(pair: Pair) -> None:
    created = create(pair.a.address, request("ONE", 2, keyed=False))

    async def run() -> list[list[mpb.PlayResponse | str]]:
        async with (
            grpc.aio.insecure_channel(pair.a.address) as on_a,
            grpc.aio.insecure_channel(pair.b.address) as on_b,
        ):
            stubs = [mgrpc.MatchServiceStub(on_a), mgrpc.MatchServiceStub(on_b)]
            rounds = []
            for ply in range(1, 9):
                state = await stubs[0].GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
                token = created.seat_tokens[state.to_move - 1]
                one, other = state.legal_moves[0], state.legal_moves[-1]
                answers = await asyncio.gather(
                    *(
                        _answer(stub.Play(mpb.PlayRequest(
                            match_id=created.match_id, token=token, ply=ply, text=text
                        )))
                        for stub, text in ((stubs[0], one), (stubs[1], other))
                    )
                )  # fmt: skip
                rounds.append(answers)
            return rounds

    for ply, answers in enumerate(asyncio.run(run()), start=1):
        accepted = [answer for answer in answers if isinstance(answer, mpb.PlayResponse)]
        assert len(accepted) == 1, (ply, answers)
        assert [answer for answer in answers if isinstance(answer, str)] == ["FAILED_PRECONDITION"]
    log = events_of_open(pair.b.address, created.match_id)
    assert [event.move.ply for event in log if event.HasField("move")] == list(range(1, 9))


async def _answer(call: object) -> mpb.PlayResponse | str:
    try:
        return await call  # type: ignore[no-any-return, misc]
    except grpc.aio.AioRpcError as error:
        return error.code().name


def events_of_open(address: str, match_id: str) -> list[mpb.MatchEvent]:
    with grpc.insecure_channel(address) as channel:
        stub = mgrpc.MatchServiceStub(channel)
        state = stub.GetMatch(mpb.GetMatchRequest(match_id=match_id))
        stream = stub.Watch(mpb.WatchRequest(match_id=match_id))
        events = [next(stream) for _ in range(state.last_event)]
        stream.cancel()
    return events


def test_with_both_servers_timing_a_match_its_flag_falls_exactly_once(pair: Pair) -> None:
    # The clocks start a second after the creation (scheduled): seat 1's runs out unplayed.
    made = request("Aronda", 2, clock="30", keyed=False, start_at=pair.a.ns / 1e9 + 1)
    created = create(pair.a.address, made)
    for server in (pair.a, pair.b):  # both hold the match, and time it
        with grpc.insecure_channel(server.address) as channel:
            mgrpc.MatchServiceStub(channel).GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
    pair.a.advance(31)
    log = events_of(pair.b.address, created.match_id)
    assert Counter(kinds(log)) == Counter({"created": 1, "ended": 1})
    assert log[-1].ended.result.termination == pb.TERMINATION_TIMEOUT
    assert kinds(events_of(pair.a.address, created.match_id)) == ["created", "ended"]


def test_a_server_killed_mid_match_loses_nothing_and_the_match_ends_on_both(
    pair: Pair, tmp_path: Path
) -> None:
    created = create(pair.a.address, request("ONE", 3))
    stub = mgrpc.MatchServiceStub(grpc.insecure_channel(pair.a.address))
    for ply, text in enumerate(("c7", "d9", "a1"), start=1):
        stub.Play(
            mpb.PlayRequest(
                match_id=created.match_id, token=created.seat_tokens[ply - 1], ply=ply, text=text
            )
        )
    before = events_of_open(pair.b.address, created.match_id)
    pair.a.process.process.send_signal(signal.SIGKILL)
    pair.a.process.process.wait(timeout=30)
    assert events_of_open(pair.b.address, created.match_id) == before
    ended = asyncio.run(finish(pair.b.address, created))
    pair.a.restart()
    assert events_of(pair.a.address, created.match_id) == events_of(
        pair.b.address, created.match_id
    )
    record = ended.record
    assert [move for move in record.moves][:3] == [
        event.move.move for event in before if event.HasField("move")
    ]
    assert validate(record).valid
    exported = tmp_path / "live.pbs"
    done = subprocess.run(
        [GAMEREC, "match", "export", pair.url, "-o", str(exported)],
        capture_output=True, text=True, cwd=ROOT, timeout=60, check=False,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    finals = list(read_records(exported))
    trusted = {public_bytes(HOST), *(public_bytes(key(seat)) for seat in (1, 2, 3))}
    (mine,) = [found for found in finals if found.moves == record.moves]
    assert verify(mine, trusted).verified


async def finish(address: str, created: mpb.CreateMatchResponse) -> mpb.MatchEnded:
    async with grpc.aio.insecure_channel(address) as channel:
        stub = mgrpc.MatchServiceStub(channel)
        bots = [
            SeatBot(stub, created.match_id, token, seat, key=key(seat), seed=seat)
            for seat, token in enumerate(created.seat_tokens, start=1)
        ]
        ends = await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), 120)
    return ends[0]
