"""CreateMatches: many matches in one call, all or none, on both stores (SQLite, PostgreSQL).

Issue 36: an event's round is created in ONE call that creates every match or none, as
lichess's bulk pairing does. The referee checks every match before anything is stored and
stores them in one transaction; a bad match, too many matches or the open matches limit
leave the store exactly as it was.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path

import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.match import CommandRefusedError, Match, Refusal
from gamerec.validator.live.postgres_store import PostgresMatchStore
from gamerec.validator.live.referee import (
    LimitReachedError,
    MatchLimits,
    Referee,
    token_hash,
)
from gamerec.validator.live.sqlite_store import SQLiteMatchStore
from gamerec.validator.live.store import MatchStore, NewMatch
from tests.live.matches import HOST, request
from tests.live.postgres import GROUP, database, postgres

pytestmark = GROUP
__all__ = ["database", "postgres"]  # the fixtures this module uses

HOST_PUBLIC = public_bytes(HOST)
STORES = ("sqlite", "postgresql")


@pytest.fixture(params=STORES)
def location(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """Where a store is: a SQLite file, or (when PostgreSQL can start) a new database."""
    if request.param == "sqlite":
        return str(tmp_path / "matches.db")
    url: str = request.getfixturevalue("database")
    return url


async def opened(location: str) -> MatchStore:
    if location.startswith("postgresql"):
        return await PostgresMatchStore(location).open(HOST_PUBLIC)
    return await SQLiteMatchStore(location).open(HOST_PUBLIC)


@asynccontextmanager
async def refereeing(location: str, **limits: int) -> AsyncIterator[tuple[Referee, ManualClock]]:
    clock = ManualClock()
    referee = Referee(
        await opened(location), clock, HOST, MatchLimits(**limits), abort_after_ms=60_000
    )
    await referee.start()
    try:
        yield referee, clock
    finally:
        await referee.stop()


def run(
    location: str, check: Callable[[Referee, ManualClock], Awaitable[None]], **limits: int
) -> None:
    async def body() -> None:
        async with refereeing(location, **limits) as (referee, clock):
            await check(referee, clock)

    asyncio.run(body())


def round_of(count: int) -> list[mpb.CreateMatchRequest]:
    """A round's matches: games in turn, each with a clock."""
    games = (("ONE", 2), ("Aronda", 2), ("Oust", 2), ("Oh-Wah-Ree", 3))
    return [
        request(*games[number % len(games)], clock="300+3", keyed=number % 2 == 0)
        for number in range(count)
    ]


def test_a_bulk_creates_every_match_with_its_tokens_in_one_call(location: str) -> None:
    async def check(referee: Referee, clock: ManualClock) -> None:
        made = await referee.create_many(round_of(6), creator="td")
        assert len(made) == 6
        assert sorted(await referee.store.open_matches()) == sorted(m.match_id for m in made)
        for created, asked in zip(made, round_of(6), strict=True):
            assert len(created.seat_tokens) == len(asked.seats)
            assert len(set(created.seat_tokens)) == len(asked.seats)
            for seat, token in enumerate(created.seat_tokens, start=1):
                assert await referee.seat_of_token(token_hash(token)) == (created.match_id, seat)
            assert created.created.created.record.seats[0].name == asked.seats[0].name
            state = await referee.state(created.match_id)
            assert state.status == mpb.MATCH_STATUS_OPEN and state.to_move == 1

    run(location, check)


def test_one_bad_match_creates_none_and_the_error_names_its_index(location: str) -> None:
    async def check(referee: Referee, clock: ManualClock) -> None:
        asked = round_of(5)
        asked[3].time_control = "5min"
        with pytest.raises(CommandRefusedError) as refused:
            await referee.create_many(asked)
        error = refused.value
        assert error.refusal is Refusal.INVALID
        assert error.field == "matches[3].time_control" and error.reason == "BAD_TIME_CONTROL"
        assert str(error).startswith("time control '5min' is not one of")
        assert str(error).endswith("; nothing was created")
        asked = round_of(5)
        asked[4].rules.one.players = 9  # no such variant: ONE has 2 to 6 players
        asked[4].ClearField("seats")
        with pytest.raises(CommandRefusedError, match=r"; nothing was created$") as refused:
            await referee.create_many(asked)
        assert refused.value.field.startswith("matches[4].")
        assert await referee.store.open_matches() == []
        assert await referee.summaries(mpb.MATCH_STATUS_UNSPECIFIED, 100, "") == []

    run(location, check)


def test_a_bulk_past_the_bulk_limit_or_the_open_matches_limit_creates_none(location: str) -> None:
    async def check(referee: Referee, clock: ManualClock) -> None:
        with pytest.raises(LimitReachedError) as past:
            await referee.create_many(round_of(5))
        assert past.value.limit == "bulk" and past.value.field == "matches[4]"
        assert str(past.value) == (
            "matches[4]: one CreateMatches call creates at most 4 matches (limit bulk), this "
            "one asks for 5; nothing was created"
        )
        first = await referee.create_many(round_of(4))
        with pytest.raises(LimitReachedError) as full:
            await referee.create_many(round_of(3))
        assert full.value.limit == "open_matches"
        assert str(full.value) == (
            "the server holds 4 open matches; 3 more would pass its limit of 6 (limit open-matches)"
        )
        assert sorted(await referee.store.open_matches()) == sorted(m.match_id for m in first)
        await referee.create_many(round_of(2))
        assert len(await referee.store.open_matches()) == 6
        with pytest.raises(CommandRefusedError, match="no match to create"):
            await referee.create_many([])

    run(location, check, bulk=4, open_matches=6)


def test_the_creators_open_matches_limit_counts_the_whole_bulk(location: str) -> None:
    async def check(referee: Referee, clock: ManualClock) -> None:
        await referee.create_many(round_of(2), creator="td", most_by_creator=3)
        with pytest.raises(LimitReachedError) as mine:
            await referee.create_many(round_of(2), creator="td", most_by_creator=3)
        assert mine.value.limit == "admin_open_matches"
        assert "admin 'td' has 2 open matches; 2 more would pass its limit of 3" in str(mine.value)
        await referee.create_many(round_of(2), creator="other", most_by_creator=3)
        assert len(await referee.store.open_matches()) == 4

    run(location, check)


def test_a_store_write_that_fails_midway_stores_none_of_the_bulk(location: str) -> None:
    """Two matches with one id: the second insert fails, and the first is undone with it."""

    async def body() -> None:
        store = await opened(location)
        clock = ManualClock()
        made = [
            Match.create(match_id, request("ONE", 2), clock.now(), host_key=HOST)
            for match_id in ("m1", "m2", "m1")
        ]
        new = [
            NewMatch(match.events[0], (bytes([n]) * 32, bytes([n + 10]) * 32), match.summary())
            for n, match in enumerate(made)
        ]
        with pytest.raises(Exception, match=r"(?i)unique|duplicate"):
            await store.create_many(new, 100)
        assert await store.open_matches() == []
        assert await store.token_hashes("m1") is None
        assert await store.seat_of_token(bytes([0]) * 32) is None
        await store.create_many(new[:2], 100)
        assert sorted(await store.open_matches()) == ["m1", "m2"]
        assert [len(await store.log(match_id)) for match_id in ("m1", "m2")] == [1, 1]
        await store.close()

    asyncio.run(body())


def test_a_bulk_round_with_a_scheduled_start_keeps_it_in_every_match(location: str) -> None:
    async def check(referee: Referee, clock: ManualClock) -> None:
        start = Timestamp()
        start.FromNanoseconds(clock.now().wall_ns + 300 * 1_000_000_000)
        asked = round_of(3)
        for one in asked:
            one.start_at.CopyFrom(start)
        made = await referee.create_many(asked)
        for created in made:
            assert created.created.created.clocks_start == start
            assert not created.created.created.HasField("abort_after")
        clock.advance(299)
        state = await referee.state(made[0].match_id)
        assert not state.clock_running and state.clocks[0].ToMilliseconds() == 300_000
        clock.advance(2)
        state = await referee.state(made[0].match_id)
        assert state.clock_running and state.clocks[0].ToMilliseconds() == 299_000

    run(location, check)
