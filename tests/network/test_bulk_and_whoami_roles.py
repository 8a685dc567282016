"""CreateMatches and WhoAmI behind the gate: who may call them, and what a wrong token learns."""

from __future__ import annotations

import asyncio
import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.referee import BadTokenError, Referee, token_hash
from gamerec.validator.live.sqlite_store import SQLiteMatchStore
from gamerec.validator.service.match_servicer import MatchServicer
from gamerec.validator.service.quotas import ClientLimits
from tests.live.conftest import LiveServer, details
from tests.live.matches import HOST, request
from tests.network.conftest import ADMIN, SPECTATOR, bearer, hashed, token_file
from tests.network.test_roles import refused, stubs


@pytest.fixture(scope="module")
def guarded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server whose admins and spectators hold tokens; an admin has 4 open matches at most."""
    folder = tmp_path_factory.mktemp("guarded")
    server = LiveServer(
        folder,
        *("--admin-tokens", str(token_file(folder / "admins", f"ops {hashed(ADMIN)}"))),
        *("--spectator-tokens", str(token_file(folder / "spectators", f"tv {SPECTATOR}"))),
        "--no-anonymous-watch",
        *("--client-limit", "admin-open-matches=4"),
        clock=False,
    )
    yield server
    server.stop()


def round_of(count: int) -> mpb.CreateMatchesRequest:
    return mpb.CreateMatchesRequest(matches=[request("ONE", 2, keyed=False)] * count)


def test_only_an_admin_creates_a_round_and_it_counts_against_its_open_matches(
    guarded: LiveServer,
) -> None:
    matches, _ = stubs(guarded.address)
    assert refused(matches.CreateMatches, round_of(2))[0] == "UNAUTHENTICATED"
    assert refused(matches.CreateMatches, round_of(2), metadata=bearer(SPECTATOR))[0] == (
        "PERMISSION_DENIED"
    )
    made = matches.CreateMatches(round_of(3), metadata=bearer(ADMIN))
    code, message, _ = refused(matches.CreateMatches, round_of(2), metadata=bearer(ADMIN))
    assert code == "RESOURCE_EXHAUSTED"
    assert "admin 'ops' has 3 open matches; 2 more would pass its limit of 4" in message
    for created in made.matches:
        matches.Abort(mpb.AbortRequest(match_id=created.match_id), metadata=bearer(ADMIN))


def test_whoami_names_the_match_and_seat_of_a_seat_token_as_bearer_or_in_the_request(
    guarded: LiveServer,
) -> None:
    matches, _ = stubs(guarded.address)
    created = matches.CreateMatch(request("Oh-Wah-Ree", 3, keyed=False), metadata=bearer(ADMIN))
    for seat, token in enumerate(created.seat_tokens, start=1):
        by_bearer = matches.WhoAmI(mpb.WhoAmIRequest(), metadata=bearer(token), timeout=30)
        in_request = matches.WhoAmI(mpb.WhoAmIRequest(token=token), timeout=30)
        assert (
            by_bearer
            == in_request
            == mpb.WhoAmIResponse(
                match_id=created.match_id, seat=seat, name=("Ana", "Ben", "Chi")[seat - 1], seats=3
            )
        )
    matches.Abort(mpb.AbortRequest(match_id=created.match_id), metadata=bearer(ADMIN))
    # A match that is over still says whose a token was (a late client learns its seat).
    after = matches.WhoAmI(mpb.WhoAmIRequest(token=created.seat_tokens[1]), timeout=30)
    assert after.seat == 2


def test_whoami_refuses_what_is_no_seat_token_and_a_near_miss_learns_nothing_more(
    guarded: LiveServer,
) -> None:
    matches, _ = stubs(guarded.address)
    created = matches.CreateMatch(request("ONE", 2, keyed=False), metadata=bearer(ADMIN))
    token = created.seat_tokens[0]
    near = token[:-1] + ("A" if token[-1] != "A" else "B")  # one character off
    far = "seat_" + secrets.token_urlsafe(24)
    answers = [
        refused(matches.WhoAmI, mpb.WhoAmIRequest(), metadata=bearer(wrong))
        for wrong in (near, far)
    ]
    assert answers[0] == answers[1]
    assert answers[0][0] == "UNAUTHENTICATED"
    with pytest.raises(grpc.RpcError) as none:
        matches.WhoAmI(mpb.WhoAmIRequest(), timeout=30)
    assert none.value.code() is grpc.StatusCode.UNAUTHENTICATED
    assert "WhoAmI needs a token: a seat's token" in str(none.value.details())
    assert details(none.value)["ErrorInfo"].reason == "BAD_TOKEN"
    for role_token in (ADMIN, SPECTATOR):
        code, message, _ = refused(matches.WhoAmI, mpb.WhoAmIRequest(), metadata=bearer(role_token))
        assert code == "PERMISSION_DENIED" and "it needs a seat's token" in message
    matches.Abort(mpb.AbortRequest(match_id=created.match_id), metadata=bearer(ADMIN))


class _Context:
    """The little of a gRPC context WhoAmI reads when it is served without the gate."""

    def __init__(self, token: str) -> None:
        self.metadata = (("authorization", f"Bearer {token}"),) if token else ()

    def invocation_metadata(self) -> Any:
        return self.metadata


class _CountingStore(SQLiteMatchStore):
    """A store that records what a token is looked up by."""

    asked: list[bytes]

    async def seat_of_token(self, digest: bytes) -> tuple[str, int] | None:
        self.asked.append(digest)
        return await super().seat_of_token(digest)


def test_whoami_without_the_gate_looks_a_token_up_by_its_hash_only(tmp_path: Path) -> None:
    """The store (and the time it takes) sees a token's SHA-256, never its text."""

    async def run() -> None:
        store = _CountingStore(tmp_path / "m.db")
        store.asked = []
        await store.open(public_bytes(HOST))
        referee = Referee(store, ManualClock(), HOST)
        await referee.start()
        servicer = MatchServicer(referee, ClientLimits())
        created = await referee.create(request("Aronda", 2, keyed=False))
        context: Any = _Context(created.seat_tokens[1])
        found = await servicer.who_am_i(mpb.WhoAmIRequest(), context)
        assert (found.match_id, found.seat, found.name) == (created.match_id, 2, "Ben")
        found = await servicer.who_am_i(mpb.WhoAmIRequest(token=created.seat_tokens[0]), context)
        assert found.seat == 1
        for wrong in ("seat_nobody", ""):
            with pytest.raises(BadTokenError):
                await servicer.who_am_i(mpb.WhoAmIRequest(), _Context(wrong))  # type: ignore[arg-type]
        referee._seat_tokens.clear()  # as if another process held the match
        again = await servicer.who_am_i(mpb.WhoAmIRequest(), context)
        assert again.seat == 2
        assert store.asked == [token_hash("seat_nobody"), token_hash(created.seat_tokens[1])]
        await referee.stop()

    asyncio.run(run())
