"""A server killed with SIGKILL mid-match and started again: nothing accepted is lost."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path

import grpc
import pytest

from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.validator.judge import validate
from gamerec.validator.service.match_client import SeatBot
from gamerec.validator.verification import verify
from tests.live.conftest import LiveServer, create, details, events_of, kinds
from tests.live.matches import request
from tests.sealing import key


def test_a_match_survives_sigkill_with_every_event_and_the_downtime_charged_to_no_one(
    tmp_path: Path,
) -> None:
    server = LiveServer(tmp_path)
    try:
        created = create(server.address, request("ONE", 2, clock="300"))
        match_id, tokens = created.match_id, created.seat_tokens
        stub = mgrpc.MatchServiceStub(grpc.insecure_channel(server.address))
        for ply, text in enumerate(("c7", "d9", "a1"), start=1):
            server.advance(10)
            stub.Play(
                mpb.PlayRequest(match_id=match_id, token=tokens[1 - ply % 2], ply=ply, text=text)
            )
        before = events_of_open(server.address, match_id, 4)
        server.advance(5)  # seat 2 has used 5 s of ply 4
        server.wait_for_heartbeat()
        server.process.process.send_signal(signal.SIGKILL)
        server.process.process.wait(timeout=30)
        server.advance(100)  # the server is down for 100 s
        server.restart()
        stub = mgrpc.MatchServiceStub(grpc.insecure_channel(server.address))
        state = stub.GetMatch(mpb.GetMatchRequest(match_id=match_id))
        assert (state.status, state.plies, state.to_move) == (mpb.MATCH_STATUS_OPEN, 3, 2)
        after = events_of_open(server.address, match_id, 5)
        assert after[:4] == before
        outage = after[4].outage
        assert (outage.seat, outage.ply, outage.charged.ToMilliseconds()) == (2, 4, 5_000)
        # Each seat's first ply was untimed: seat 1 paid for ply 3, seat 2 for 5 s of ply 4.
        assert [clock.ToMilliseconds() for clock in state.clocks] == [290_000, 295_000]
        server.advance(2)
        (accepted,) = stub.Play(
            mpb.PlayRequest(match_id=match_id, token=tokens[1], ply=4, text="a2")
        ).events
        assert accepted.move.time_used.ToMilliseconds() == 7_000
        assert accepted.move.move.clock.ToMilliseconds() == 293_000
        assert accepted.move.move.comment.startswith("The server was down during this ply from ")
        assert "(100.000 s); that time was charged to no one." in accepted.move.move.comment
        ended = asyncio.run(finish(server.address, created))
        final = stub.GetMatch(mpb.GetMatchRequest(match_id=match_id)).record
        assert ended.record.moves[3].comment == accepted.move.move.comment
        assert validate(final).valid
        trusted = {server.host_public, public_bytes(key(1)), public_bytes(key(2))}
        assert verify(final, trusted).verified
    finally:
        server.stop()


def events_of_open(address: str, match_id: str, count: int) -> list[mpb.MatchEvent]:
    """The first ``count`` events of a match that is still open."""
    with grpc.insecure_channel(address) as channel:
        stream = mgrpc.MatchServiceStub(channel).Watch(mpb.WatchRequest(match_id=match_id))
        events = [next(stream) for _ in range(count)]
        stream.cancel()
    return events


async def finish(address: str, created: mpb.CreateMatchResponse) -> mpb.MatchEnded:
    """Play the match to its end with both seats' bots (signing, keys 1 and 2)."""
    async with grpc.aio.insecure_channel(address) as channel:
        stub = mgrpc.MatchServiceStub(channel)
        bots = [
            SeatBot(stub, created.match_id, token, seat, key=key(seat))
            for seat, token in enumerate(created.seat_tokens, start=1)
        ]
        ends = await asyncio.wait_for(asyncio.gather(*(bot.run() for bot in bots)), 120)
    return ends[0]


def test_the_admin_token_guards_creating_and_calling_matches_off(tmp_path: Path) -> None:
    token_file = tmp_path / "admin-token"
    token_file.write_text("s3cret-admin-token\n")
    server = LiveServer(tmp_path, "--admin-token-file", str(token_file))
    try:
        stub = mgrpc.MatchServiceStub(grpc.insecure_channel(server.address))
        made = request("ONE", 2, keyed=False)
        for metadata in ((), (("authorization", "Bearer wrong"),)):
            with pytest.raises(grpc.RpcError) as error:
                stub.CreateMatch(made, metadata=metadata)
            assert error.value.code() == grpc.StatusCode.UNAUTHENTICATED
            assert details(error.value)["ErrorInfo"].metadata["field"] == "authorization"
        admin = (("authorization", "Bearer s3cret-admin-token"),)
        created = stub.CreateMatch(made, metadata=admin)
        with pytest.raises(grpc.RpcError) as error:
            stub.Abort(mpb.AbortRequest(match_id=created.match_id))
        assert error.value.code() == grpc.StatusCode.UNAUTHENTICATED
        ended = stub.Abort(mpb.AbortRequest(match_id=created.match_id), metadata=admin)
        assert kinds(ended.events) == ["ended"]
        assert kinds(events_of(server.address, created.match_id)) == ["created", "ended"]
    finally:
        server.stop()


def test_bots_playing_through_a_sigkill_reconnect_and_finish_the_match(tmp_path: Path) -> None:
    server = LiveServer(tmp_path)
    try:
        created = create(server.address, request("Oh-Wah-Ree", 2))

        async def play_through_a_kill() -> list[mpb.MatchEnded]:
            port = server.address
            async with grpc.aio.insecure_channel(port) as channel:
                stub = mgrpc.MatchServiceStub(channel)
                bots = [
                    SeatBot(stub, created.match_id, token, seat, key=key(seat))
                    for seat, token in enumerate(created.seat_tokens, start=1)
                ]
                playing = asyncio.gather(*(bot.run() for bot in bots))
                while min(bot._plies for bot in bots) < 10:
                    await asyncio.sleep(0.01)
                server.process.process.send_signal(signal.SIGKILL)
                await asyncio.to_thread(server.process.process.wait, 30)
                await asyncio.to_thread(server.restart_on, port)
                return list(await asyncio.wait_for(playing, 120))

        ended = asyncio.run(play_through_a_kill())
        assert ended[0] == ended[1] and ended[0].status == mpb.MATCH_STATUS_FINISHED
        log = events_of(server.address, created.match_id)
        assert [event.number for event in log] == list(range(1, len(log) + 1))
        assert "outage" in kinds(log)
        (end,) = [event.ended for event in log if event.HasField("ended")]
        assert validate(end.record).valid and end.record.moves == ended[0].record.moves
    finally:
        server.stop()
