"""Who may do what, through a real ``gamerec serve`` with token files (docs/operating.md)."""

from __future__ import annotations

import signal
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc
from tests.live.conftest import LiveServer, details
from tests.live.matches import request
from tests.network.conftest import (
    ADMIN,
    OTHER_ADMIN,
    RECORD,
    SPECTATOR,
    bearer,
    hashed,
    refusal,
    token_file,
)

GRN = b'[Game "Aronda"]\n\n1. c *\n'


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose admins, spectators and RecordService callers hold tokens."""
    folder = tmp_path_factory.mktemp("guarded")
    server = LiveServer(
        folder,
        *(
            "--admin-tokens",
            str(token_file(folder / "admins", f"ops {hashed(ADMIN)}", f"night {OTHER_ADMIN}")),
        ),
        *("--spectator-tokens", str(token_file(folder / "spectators", f"tv {SPECTATOR}"))),
        *("--record-tokens", str(token_file(folder / "records", f"arbiter {RECORD}"))),
        "--no-anonymous-watch",
        *("--client-limit", "admin-open-matches=3"),
        clock=False,
    )
    yield server
    server.stop()


def stubs(address: str) -> tuple[mgrpc.MatchServiceStub, sgrpc.RecordServiceStub]:
    channel = grpc.insecure_channel(address)
    return mgrpc.MatchServiceStub(channel), sgrpc.RecordServiceStub(channel)


def refused(call: Callable[..., Any], *arguments: Any, **options: Any) -> tuple[str, str, str]:
    with pytest.raises(grpc.RpcError) as error:
        answer = call(*arguments, timeout=30, **options)
        if hasattr(answer, "__iter__") and not isinstance(answer, bytes):
            list(answer)
    return refusal(error.value)


def test_an_admin_creates_and_a_seat_plays_by_its_token_in_the_request_or_as_bearer(
    guarded: LiveServer,
) -> None:
    matches, _ = stubs(guarded.address)
    created = matches.CreateMatch(request("ONE", 2, keyed=False), metadata=bearer(ADMIN))
    first = matches.Play(
        mpb.PlayRequest(match_id=created.match_id, token=created.seat_tokens[0], ply=1, text="a1")
    )
    assert first.events[0].move.ply == 1
    second = matches.Play(
        mpb.PlayRequest(match_id=created.match_id, ply=2, text="a2"),
        metadata=bearer(created.seat_tokens[1]),
    )
    assert second.events[0].move.seat == 2
    matches.Abort(mpb.AbortRequest(match_id=created.match_id), metadata=bearer(ADMIN))


def test_unknown_tokens_and_seats_of_other_matches_never_tell_whether_a_match_exists(
    guarded: LiveServer,
) -> None:
    matches, _ = stubs(guarded.address)
    one = matches.CreateMatch(request("ONE", 2, keyed=False), metadata=bearer(ADMIN))
    other = matches.CreateMatch(request("Oust", 2, keyed=False), metadata=bearer(ADMIN))
    answers = {}
    for match_id in (other.match_id, "0123456789abcdef"):  # one exists, one does not
        play = mpb.PlayRequest(match_id=match_id, ply=1, text="a1")
        answers[match_id] = [
            refused(matches.Play, mpb.PlayRequest(match_id=match_id, token="x" * 24, ply=1)),
            refused(matches.Play, play, metadata=bearer("made-up-token-0000")),
            refused(matches.Play, play, metadata=bearer(one.seat_tokens[0])),
            refused(matches.Play, play, metadata=bearer(ADMIN)),
            refused(matches.Resign, mpb.ResignRequest(match_id=match_id)),
            refused(matches.GetMatch, mpb.GetMatchRequest(match_id=match_id)),
            refused(
                matches.GetMatch,
                mpb.GetMatchRequest(match_id=match_id),
                metadata=bearer(one.seat_tokens[1]),
            ),
        ]
    for match_id in (one.match_id, other.match_id):
        matches.Abort(mpb.AbortRequest(match_id=match_id), metadata=bearer(ADMIN))
    existing, missing = answers.values()
    assert existing == missing
    codes = [code for code, _, _ in existing]
    assert codes == [
        "UNAUTHENTICATED",  # a token that is no one's, in the request
        "UNAUTHENTICATED",  # ... or as bearer
        "PERMISSION_DENIED",  # a seat's token, of another match
        "PERMISSION_DENIED",  # an admin's token: admins do not play
        "UNAUTHENTICATED",  # no token at all
        "UNAUTHENTICATED",  # no token, and no anonymous watching here
        "PERMISSION_DENIED",  # a seat may watch its own match only
    ]
    assert [field for _, _, field in existing][:3] == ["token", "authorization", "authorization"]
    assert all("0123456789abcdef" not in message for _, message, _ in missing)


def test_each_role_is_held_to_its_calls(guarded: LiveServer) -> None:
    matches, records = stubs(guarded.address)
    made = request("Aronda", 2, keyed=False)
    created = matches.CreateMatch(made, metadata=bearer(ADMIN))
    seat = bearer(created.seat_tokens[0])
    assert refused(matches.CreateMatch, made)[0] == "UNAUTHENTICATED"
    assert refused(matches.CreateMatch, made, metadata=seat)[0] == "PERMISSION_DENIED"
    assert refused(matches.CreateMatch, made, metadata=bearer(SPECTATOR))[0] == (
        "PERMISSION_DENIED"
    )
    assert refused(matches.CreateMatch, made, metadata=bearer(RECORD))[0] == "PERMISSION_DENIED"
    # Watching and reading: admins, spectators, the match's seats.
    for token in (ADMIN, SPECTATOR, created.seat_tokens[1]):
        state = matches.GetMatch(
            mpb.GetMatchRequest(match_id=created.match_id), metadata=bearer(token)
        )
        assert state.match_id == created.match_id
    assert matches.ListMatches(mpb.ListMatchesRequest(), metadata=bearer(SPECTATOR)).matches
    assert refused(matches.ListMatches, mpb.ListMatchesRequest(), metadata=seat)[0] == (
        "PERMISSION_DENIED"
    )
    assert refused(matches.ListMatches, mpb.ListMatchesRequest())[0] == "UNAUTHENTICATED"
    # RecordService: its token or an admin's; not a spectator's; not without one.
    validate = spb.ValidateRequest(data=GRN)
    assert records.Validate(validate, metadata=bearer(RECORD)).game
    assert records.Validate(validate, metadata=bearer(ADMIN)).game
    assert refused(records.Validate, validate)[0] == "UNAUTHENTICATED"
    assert refused(records.Validate, validate, metadata=bearer(SPECTATOR))[0] == (
        "PERMISSION_DENIED"
    )
    # A seat aborts its own match while it may; an admin any match, at any time.
    abort = mpb.AbortRequest(match_id=created.match_id)
    assert refused(matches.Abort, abort, metadata=bearer(SPECTATOR))[0] == "PERMISSION_DENIED"
    ended = matches.Abort(abort, metadata=bearer(ADMIN))
    assert ended.events[0].ended.reason.startswith("the admin aborted")


def test_open_matches_per_admin_are_limited(guarded: LiveServer) -> None:
    matches, _ = stubs(guarded.address)
    night = bearer(OTHER_ADMIN)
    opened = [
        matches.CreateMatch(request("ONE", 2, keyed=False), metadata=night).match_id
        for _ in range(3)
    ]
    with pytest.raises(grpc.RpcError) as error:
        matches.CreateMatch(request("ONE", 2, keyed=False), metadata=night)
    assert error.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED
    assert details(error.value)["QuotaFailure"].violations[0].subject == "admin-open-matches"
    assert "admin 'night' has 3 open matches" in str(error.value.details())
    other = matches.CreateMatch(request("ONE", 2, keyed=False), metadata=bearer(ADMIN))
    for match_id in (*opened, other.match_id):
        matches.Abort(mpb.AbortRequest(match_id=match_id), metadata=bearer(ADMIN))
    created = matches.CreateMatch(request("ONE", 2, keyed=False), metadata=night)
    matches.Abort(mpb.AbortRequest(match_id=created.match_id), metadata=night)


def test_the_log_names_roles_and_never_a_token(guarded: LiveServer) -> None:
    matches, _ = stubs(guarded.address)
    created = matches.CreateMatch(request("ONE", 2, keyed=False), metadata=bearer(ADMIN))
    matches.Play(
        mpb.PlayRequest(match_id=created.match_id, token=created.seat_tokens[0], ply=1, text="a1")
    )
    refused(matches.Play, mpb.PlayRequest(match_id=created.match_id, ply=2), metadata=bearer(ADMIN))
    matches.Abort(mpb.AbortRequest(match_id=created.match_id), metadata=bearer(ADMIN))
    lines = _wait_for_lines(guarded, lambda line: line.get("method") == "Abort")
    calls = [line for line in lines if line.get("method")]
    by_method = {(line["method"], line["status"]): line for line in calls}
    assert (by_method["CreateMatch", "OK"]["role"], by_method["CreateMatch", "OK"]["who"]) == (
        "admin",
        "ops",
    )
    assert (by_method["Play", "OK"]["role"], by_method["Play", "OK"]["who"]) == ("seat", "seat 1")
    denied = by_method["Play", "PERMISSION_DENIED"]
    assert (denied["role"], denied["who"]) == ("admin", "ops")
    assert all(key in line for line in calls for key in ("peer", "duration_ms", "status"))
    text = "\n".join(str(line) for line in lines)
    for secret in (ADMIN, SPECTATOR, RECORD, *created.seat_tokens):
        assert secret not in text


def _wait_for_lines(
    server: LiveServer, until: Callable[[dict[str, Any]], bool]
) -> list[dict[str, Any]]:
    end = time.monotonic() + 30
    while time.monotonic() < end:
        lines = list(server.process.lines)
        if any(until(line) for line in lines):
            return lines
        time.sleep(0.02)
    raise AssertionError("the server did not log the call")


def test_sighup_reads_the_token_files_again_and_a_broken_one_changes_nothing(
    tmp_path: Path,
) -> None:
    admins = token_file(tmp_path / "admins", f"ops {ADMIN}")
    server = LiveServer(tmp_path, "--admin-tokens", str(admins), clock=False)
    try:
        matches, _ = stubs(server.address)
        made = request("ONE", 2, keyed=False)
        matches.CreateMatch(made, metadata=bearer(ADMIN))
        token_file(admins, f"night-shift {hashed(OTHER_ADMIN)}")
        _hang_up(server, 1)
        matches.CreateMatch(made, metadata=bearer(OTHER_ADMIN))
        assert refused(matches.CreateMatch, made, metadata=bearer(ADMIN))[0] == "UNAUTHENTICATED"
        token_file(admins, "night-shift sha256:not-hexadecimal")
        _hang_up(server, 2)
        matches.CreateMatch(made, metadata=bearer(OTHER_ADMIN))
        errors = [line for line in server.process.lines if line.get("level") == "error"]
        assert "admins:2: sha256: must be followed by 64 hexadecimal digits" in str(errors)
    finally:
        server.stop()


def _hang_up(server: LiveServer, times: int) -> None:
    """SIGHUP, and wait until the server has read its files (or failed to) ``times`` times."""
    server.process.process.send_signal(signal.SIGHUP)
    end = time.monotonic() + 30
    while time.monotonic() < end:
        done = [
            line
            for line in server.process.lines
            if line.get("event") == "reloaded" or "not reloaded" in str(line.get("message"))
        ]
        if len(done) >= times:
            return
        time.sleep(0.02)
    raise AssertionError("the server did not reload")
