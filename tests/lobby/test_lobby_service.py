"""LobbyService on a real ``gamerec serve``: restarts, expiry, limits, cancelling, bad input."""

from __future__ import annotations

import time
from collections.abc import Callable
from pathlib import Path

import grpc
import pytest

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from tests.live.conftest import LiveServer, details
from tests.live.matches import request, rules
from tests.lobby.conftest import lobby_events, lobby_stub, opening, player


def _refused(call: Callable[[], object]) -> grpc.RpcError:
    with pytest.raises(grpc.RpcError) as caught:
        call()
    return caught.value


def _code_and_reason(error: grpc.RpcError) -> tuple[grpc.StatusCode, str, str]:
    assert isinstance(error, grpc.Call)
    info = details(error)["ErrorInfo"]
    return error.code(), info.reason, info.metadata["field"]


def test_a_restart_keeps_the_open_challenges_and_the_lobby_log(tmp_path: Path) -> None:
    server = LiveServer(tmp_path)
    try:
        stub = lobby_stub(server.address)
        kept = stub.OpenChallenge(opening("Aronda"), timeout=30)
        gone = stub.OpenChallenge(opening("Oust"), timeout=30)
        stub.CancelChallenge(
            lpb.CancelChallengeRequest(challenge_id=gone.challenge.challenge_id, token=gone.token),
            timeout=30,
        )
        before = lobby_events(server.address)
        server.stop()  # SIGKILL
        server.restart()
        stub = lobby_stub(server.address)
        listed = stub.ListChallenges(lpb.ListChallengesRequest(), timeout=30)
        assert [c.challenge_id for c in listed.challenges] == [kept.challenge.challenge_id]
        assert lobby_events(server.address) == before
        taken = stub.TakeSeat(
            lpb.TakeSeatRequest(challenge_id=kept.challenge.challenge_id, player=player(2)),
            timeout=30,
        )
        assert taken.challenge.status == lpb.CHALLENGE_STATUS_STARTED
        # the challenger's token, given before the restart, is the match's seat 1
        with grpc.insecure_channel(server.address) as channel:
            answer = mgrpc.MatchServiceStub(channel).Play(
                mpb.PlayRequest(
                    match_id=taken.challenge.match_id, token=kept.token, ply=1, text="pass"
                ),
                timeout=30,
            )
        assert answer.illegal.code  # a seat's move judged (the rules refuse it), not refused
        # a watcher that resumes from its last event gets exactly what it missed
        after = lobby_events(server.address, len(before) + 1)
        assert [event.WhichOneof("kind") for event in after] == ["seat_taken", "started"]
    finally:
        server.stop()


def test_a_challenge_nobody_fills_expires_and_can_no_longer_be_taken(tmp_path: Path) -> None:
    server = LiveServer(tmp_path, "--match-limit", "challenge-seconds=60")
    try:
        stub = lobby_stub(server.address)
        opened = stub.OpenChallenge(opening("Oust", clock="300+3"), timeout=30)
        challenge_id = opened.challenge.challenge_id
        assert opened.challenge.expires.seconds - opened.challenge.created.seconds == 60
        server.advance(61)
        end = time.monotonic() + 60
        while stub.ListChallenges(lpb.ListChallengesRequest(), timeout=30).challenges:
            assert time.monotonic() < end, "the challenge did not expire"
            time.sleep(0.1)
        events = lobby_events(server.address)
        assert events[-1].closed.status == lpb.CHALLENGE_STATUS_EXPIRED
        error = _refused(
            lambda: stub.TakeSeat(
                lpb.TakeSeatRequest(challenge_id=challenge_id, player=player(2)), timeout=30
            )
        )
        assert _code_and_reason(error) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "CHALLENGE_CLOSED",
            "challenge_id",
        )
        assert isinstance(error, grpc.Call)
        assert "has expired" in str(error.details())
    finally:
        server.stop()


def test_a_client_opening_challenge_after_challenge_is_stopped_at_its_limit(
    tmp_path: Path,
) -> None:
    server = LiveServer(
        tmp_path, "--client-limit", "client-challenges=3", "--match-limit", "open-challenges=5"
    )
    try:
        stub = lobby_stub(server.address)
        answers = []
        for _ in range(40):
            try:
                stub.OpenChallenge(opening("Oust"), timeout=30)
                answers.append("opened")
            except grpc.RpcError as error:
                code, reason, _ = _code_and_reason(error)
                quota = details(error)["QuotaFailure"].violations[0].subject
                answers.append(f"{code.name} {reason} {quota}")
        assert (
            answers == ["opened"] * 3 + ["RESOURCE_EXHAUSTED LIMIT_REACHED client-challenges"] * 37
        )
        listed = stub.ListChallenges(lpb.ListChallengesRequest(), timeout=30)
        assert len(listed.challenges) == 3
    finally:
        server.stop()


def test_only_the_creator_cancels_and_a_cancelled_challenge_takes_no_seat(
    lobby_server: LiveServer,
) -> None:
    stub = lobby_stub(lobby_server.address)
    opened = stub.OpenChallenge(opening("ONE", 3), timeout=30)
    challenge_id = opened.challenge.challenge_id
    taken = stub.TakeSeat(
        lpb.TakeSeatRequest(challenge_id=challenge_id, player=player(2)), timeout=30
    )
    found = []
    for token in (taken.token, "seat_made-up", ""):
        asked = lpb.CancelChallengeRequest(challenge_id=challenge_id, token=token)
        with pytest.raises(grpc.RpcError) as caught:
            stub.CancelChallenge(asked, timeout=30)
        found.append(_code_and_reason(caught.value))
    assert found == [
        (grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN", "token"),
        (grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN", "token"),
        (grpc.StatusCode.INVALID_ARGUMENT, "MISSING", "token"),
    ]
    cancelled = stub.CancelChallenge(
        lpb.CancelChallengeRequest(challenge_id=challenge_id, token=opened.token), timeout=30
    )
    assert cancelled.challenge.status == lpb.CHALLENGE_STATUS_CANCELLED
    error = _refused(
        lambda: stub.TakeSeat(
            lpb.TakeSeatRequest(challenge_id=challenge_id, player=player(3)), timeout=30
        )
    )
    assert _code_and_reason(error)[:2] == (grpc.StatusCode.FAILED_PRECONDITION, "CHALLENGE_CLOSED")


@pytest.mark.parametrize(
    ("change", "field", "reason"),
    [
        (lambda r: r.ClearField("rules"), "rules", "MISSING"),
        (lambda r: r.rules.one.SetInParent(), "rules", "IMPOSSIBLE_VARIANT"),
        (lambda r: setattr(r, "seats", 3), "seats", "SEAT_COUNT_MISMATCH"),
        (lambda r: setattr(r, "seat", 3), "seat", "NO_SUCH_SEAT"),
        (lambda r: r.player.ClearField("name"), "player.name", "MISSING"),
        (lambda r: setattr(r.player, "name", "x" * 201), "player.name", "TOO_LONG"),
        (lambda r: setattr(r.player, "public_key", b"short"), "player.public_key", "BAD_KEY"),
        (lambda r: setattr(r, "time_control", "3 minutes"), "time_control", "BAD_TIME_CONTROL"),
    ],
)
def test_a_challenge_that_would_make_no_match_is_refused_naming_the_field(
    lobby_server: LiveServer,
    change: Callable[[lpb.OpenChallengeRequest], object],
    field: str,
    reason: str,
) -> None:
    stub = lobby_stub(lobby_server.address)
    asked = opening("Oust")
    change(asked)
    error = _refused(lambda: stub.OpenChallenge(asked, timeout=30))
    assert _code_and_reason(error) == (grpc.StatusCode.INVALID_ARGUMENT, reason, field)


def test_unknown_challenges_oversized_requests_and_foreign_seats_are_refused(
    lobby_server: LiveServer,
) -> None:
    stub = lobby_stub(lobby_server.address)
    error = _refused(
        lambda: stub.TakeSeat(
            lpb.TakeSeatRequest(challenge_id="nope", player=player(2)), timeout=30
        )
    )
    assert _code_and_reason(error) == (
        grpc.StatusCode.NOT_FOUND,
        "UNKNOWN_CHALLENGE",
        "challenge_id",
    )
    huge = opening("Oust")
    huge.player.player_id = "x" * 100_000
    error = _refused(lambda: stub.OpenChallenge(huge, timeout=30))
    assert _code_and_reason(error)[:2] == (grpc.StatusCode.RESOURCE_EXHAUSTED, "LIMIT_REACHED")
    opened = stub.OpenChallenge(opening("Oust"), timeout=30)
    error = _refused(
        lambda: stub.TakeSeat(
            lpb.TakeSeatRequest(
                challenge_id=opened.challenge.challenge_id, player=player(2), seat=1
            ),
            timeout=30,
        )
    )
    assert _code_and_reason(error) == (grpc.StatusCode.FAILED_PRECONDITION, "SEAT_TAKEN", "seat")
    error = _refused(
        lambda: stub.ListChallenges(lpb.ListChallengesRequest(token="seat_nobody"), timeout=30)
    )
    assert _code_and_reason(error) == (grpc.StatusCode.UNAUTHENTICATED, "BAD_TOKEN", "token")


def test_a_full_table_past_the_open_matches_limit_gives_the_last_seat_back(
    tmp_path: Path,
) -> None:
    server = LiveServer(tmp_path, "--match-limit", "open-matches=1")
    try:
        with grpc.insecure_channel(server.address) as channel:
            mgrpc.MatchServiceStub(channel).CreateMatch(request("Oust", keyed=False), timeout=30)
        stub = lobby_stub(server.address)
        opened = stub.OpenChallenge(opening("Oust"), timeout=30)
        challenge_id = opened.challenge.challenge_id
        error = _refused(
            lambda: stub.TakeSeat(
                lpb.TakeSeatRequest(challenge_id=challenge_id, player=player(2)), timeout=30
            )
        )
        assert _code_and_reason(error)[:2] == (
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "LIMIT_REACHED",
        )
        mine = stub.ListChallenges(lpb.ListChallengesRequest(token=opened.token), timeout=30)
        (challenge,) = mine.challenges
        assert challenge.status == lpb.CHALLENGE_STATUS_OPEN
        assert [seat.taken for seat in challenge.seats] == [True, False]
        events = lobby_events(server.address)
        assert [event.WhichOneof("kind") for event in events] == [
            "opened",
            "seat_taken",
            "seat_freed",
        ]
        assert (events[-1].seat_freed.seat, events[-1].seat_freed.free) == (2, 1)
    finally:
        server.stop()


def test_the_live_matches_list_the_players_and_the_running_clocks(
    lobby_server: LiveServer,
) -> None:
    stub = lobby_stub(lobby_server.address)
    opened = stub.OpenChallenge(
        lpb.OpenChallengeRequest(
            rules=rules("Oh-Wah-Ree", 3), time_control="300+3", player=player(1)
        ),
        timeout=30,
    )
    for seat in (2, 3):
        taken = stub.TakeSeat(
            lpb.TakeSeatRequest(challenge_id=opened.challenge.challenge_id, player=player(seat)),
            timeout=30,
        )
    match_id = taken.challenge.match_id
    live = stub.ListLiveMatches(lpb.ListLiveMatchesRequest(), timeout=30)
    (found,) = [m for m in live.matches if m.summary.match_id == match_id]
    assert list(found.summary.seats) == ["Ana", "Ben", "Chi"]
    assert found.summary.time_control == "300+3"
    assert [clock.seconds for clock in found.clocks] == [300, 300, 300]
    assert found.summary.to_move == 1
