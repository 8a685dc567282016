"""A real server's clocks start with each seat's first move; ``--abort-after`` bounds it.

The issue's report, as a new user met it: ``gamerec match new --clock 3``, and four seconds
later seat 1 had lost on time before anyone connected. Now nothing runs until seat 1 moves;
a seat that never moves aborts the match (no result) on the server's own timer.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Iterator

import grpc
import pytest

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from tests.live.conftest import LiveServer, create, events_of, kinds, sync_stub
from tests.live.matches import request
from tests.live.test_match_cli import gamerec


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose seats have 5 s for their first ply."""
    started = LiveServer(tmp_path_factory.mktemp("first-move"), "--abort-after", "5")
    yield started
    started.stop()


def test_a_seat_that_never_comes_loses_nothing_and_the_match_is_aborted(
    server: LiveServer,
) -> None:
    created = create(server.address, request("Aronda", 2, clock="3", keyed=False))
    assert created.created.created.abort_after.ToMilliseconds() == 5_000
    seen: list[mpb.MatchEvent] = []
    arrived = threading.Event()

    def watch() -> None:
        seen.extend(events_of(server.address, created.match_id))
        arrived.set()

    threading.Thread(target=watch, daemon=True).start()
    time.sleep(0.5)
    server.advance(4)  # the four seconds: seat 1 has not lost
    state = sync_stub(server.address).GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
    assert state.status == mpb.MATCH_STATUS_OPEN and not state.clock_running
    assert [clock.ToMilliseconds() for clock in state.clocks] == [3_000, 3_000]
    server.advance(0.999)
    time.sleep(0.3)
    assert not arrived.is_set()
    server.advance(0.001)
    assert arrived.wait(timeout=20), "the match was not aborted"
    assert kinds(seen) == ["created", "ended"]
    ended = seen[-1].ended
    assert ended.status == mpb.MATCH_STATUS_ABORTED and ended.seat == 1
    assert ended.result.termination == pb.TERMINATION_ABANDONED and not ended.result.winners
    assert validate(ended.record).valid
    shown = gamerec("match", "show", created.match_id, "--server", server.address)
    assert shown.stdout.splitlines()[-1] == (
        "ended: Seat 1 did not make its first move within 5 s of its turn (the abort limit), "
        "so the match is aborted with no result."
    )


def test_the_second_seats_first_ply_is_untimed_too_and_then_the_clocks_run(
    server: LiveServer,
) -> None:
    created = create(server.address, request("Aronda", 2, clock="3", keyed=False))
    stub = sync_stub(server.address)
    tokens = created.seat_tokens
    for ply in (1, 2):
        server.advance(4.9)
        legal = stub.GetMatch(mpb.GetMatchRequest(match_id=created.match_id)).legal_moves[0]
        played = stub.Play(
            mpb.PlayRequest(match_id=created.match_id, token=tokens[ply - 1], ply=ply, text=legal)
        )
        assert played.events[0].move.time_used.ToMilliseconds() == 0, played
    state = stub.GetMatch(mpb.GetMatchRequest(match_id=created.match_id))
    assert state.clock_running and not state.HasField("abort_at")
    server.advance(3)
    with pytest.raises(grpc.RpcError) as late:
        stub.Play(mpb.PlayRequest(match_id=created.match_id, token=tokens[0], ply=3, text="o8"))
    assert late.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    (ended,) = [e.ended for e in events_of(server.address, created.match_id) if e.HasField("ended")]
    assert ended.result.termination == pb.TERMINATION_TIMEOUT and list(ended.result.winners) == [2]
    assert ended.record.comment.endswith(
        "Each seat's clock started with its first move; its first ply was untimed (abort limit "
        "5 s)."
    )
