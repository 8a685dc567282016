"""The lobby's store, SQLite and PostgreSQL: races decided once, limits, numbering, restarts."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.match import CommandRefusedError
from gamerec.validator.live.referee import token_hash
from gamerec.validator.lobby import table
from gamerec.validator.lobby.servicer import open_lobby_store
from gamerec.validator.lobby.store import ChallengeLimitError, LobbyStore
from gamerec.validator.lobby.table import UnknownChallengeError
from tests.live.matches import rules
from tests.live.postgres import GROUP, database, postgres
from tests.lobby.conftest import player

pytestmark = GROUP
__all__ = ["database", "postgres"]

SECOND = 1_000_000_000


@pytest.fixture(params=["sqlite", "postgresql"])
def location(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """Where the store is: a new SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "matches.db")
    else:
        yield request.getfixturevalue("database")


def _opened(challenge_id: str, creator: str = "peer:a", seats: int = 2) -> table.Decision:
    game = "ONE" if seats > 2 else "Oust"
    request = lpb.OpenChallengeRequest(rules=rules(game, seats), player=player(1))
    match = mpb.CreateMatchRequest(rules=request.rules, time_control="-")
    return table.new_row(
        challenge_id,
        request,
        match,
        seats=seats,
        digest=token_hash(f"token of {challenge_id}"),
        creator=creator,
        now_ns=0,
        lifetime_ns=60 * SECOND,
    )


async def _both(location: str) -> tuple[LobbyStore, LobbyStore]:
    """Two stores on one location, as two server processes hold it."""
    return await open_lobby_store(location), await open_lobby_store(location)


def test_takers_racing_on_two_connections_for_one_seat_are_decided_one_after_the_other(
    location: str,
) -> None:
    async def race() -> list[object]:
        one, two = await _both(location)
        try:
            await one.insert(_opened("c1"), 100, 100)

            async def take(store: LobbyStore, n: int) -> object:
                digest = token_hash(f"taker {n}")
                try:
                    row, _ = await store.change(
                        "c1", lambda r: table.take(r, 0, player(2), digest, SECOND)
                    )
                except CommandRefusedError as refused:
                    return refused.reason
                return row.seat_of(digest)

            return list(await asyncio.gather(*(take((one, two)[n % 2], n) for n in range(10))))
        finally:
            await one.close()
            await two.close()

    answers = asyncio.run(race())
    assert sorted(answers, key=str) == [2] + ["CHALLENGE_CLOSED"] * 9


def test_events_are_numbered_without_gaps_across_connections_and_kept_after_a_restart(
    location: str,
) -> None:
    async def run() -> tuple[list[int], table.Row | None, tuple[int, int]]:
        one, two = await _both(location)
        await asyncio.gather(
            *(((one, two)[n % 2]).insert(_opened(f"c{n}"), 100, 100) for n in range(12))
        )
        await one.close()
        await two.close()
        again = await open_lobby_store(location)
        try:
            numbers = [event.number for event in await again.events(0, 100)]
            return numbers, await again.get("c7"), await again.first_and_last()
        finally:
            await again.close()

    numbers, kept, bounds = asyncio.run(run())
    assert numbers == list(range(1, 13))
    assert kept is not None and kept.status == table.OPEN and kept.challenge_id == "c7"
    assert bounds == (1, 12)


def test_the_limits_on_open_challenges_count_the_clients_and_the_whole_store(
    location: str,
) -> None:
    async def run() -> list[str]:
        store = await open_lobby_store(location)
        refused = []
        try:
            for n in range(3):
                await store.insert(_opened(f"a{n}", "peer:a"), 5, 3)
            for challenge_id, client in (("a3", "peer:a"), ("b0", "peer:b"), ("b1", "peer:b")):
                try:
                    await store.insert(_opened(challenge_id, client), 5, 3)
                except ChallengeLimitError as error:
                    refused.append(f"{challenge_id} {error.limit}")
            try:
                await store.insert(_opened("c0", "peer:c"), 5, 3)
            except ChallengeLimitError as error:
                refused.append(f"c0 {error.limit}")
            # a closed challenge no longer counts
            await store.change("a0", lambda r: table.cancel(r, SECOND))
            await store.insert(_opened("a4", "peer:a"), 5, 3)
            assert await store.get("a3") is None
        finally:
            await store.close()
        return refused

    assert asyncio.run(run()) == ["a3 client_challenges", "c0 open_challenges"]


def test_an_unknown_challenge_and_a_refused_decision_change_nothing(location: str) -> None:
    async def run() -> None:
        store = await open_lobby_store(location)
        try:
            await store.insert(_opened("c1"), 10, 10)
            with pytest.raises(UnknownChallengeError):
                await store.change("nope", lambda r: table.cancel(r, 0))
            full = token_hash("taker")
            await store.change("c1", lambda r: table.take(r, 2, player(2), full, SECOND))
            with pytest.raises(CommandRefusedError, match="is full"):
                await store.change("c1", lambda r: table.take(r, 0, player(3), b"x" * 32, 2))
            row = await store.by_token(full)
            assert row is not None and row.seat_of(full) == 2 and row.status == table.FULL
            assert [event.WhichOneof("kind") for event in await store.events(0, 9)] == [
                "opened",
                "seat_taken",
            ]
        finally:
            await store.close()

    asyncio.run(run())


def test_pruning_forgets_old_events_and_long_closed_challenges_only(location: str) -> None:
    async def run() -> None:
        store = await open_lobby_store(location)
        try:
            for n in range(4):
                await store.insert(_opened(f"c{n}"), 10, 10)
            await store.change("c0", lambda r: table.expire(r, 61 * SECOND))
            await store.prune(2, 1)
            assert await store.first_and_last() == (4, 5)
            assert await store.get("c0") is None
            assert await store.get("c1") is not None
        finally:
            await store.close()

    asyncio.run(run())
