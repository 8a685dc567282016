"""The PostgreSQL match store: conditional appends across servers, notifications, the rest."""

from __future__ import annotations

import asyncio
import time

import pytest

from gamerec.recorder.signing import public_bytes
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.match import Match
from gamerec.validator.live.players import PolicyPlayer
from gamerec.validator.live.postgres_store import PostgresMatchStore, final_records, shown
from gamerec.validator.live.store import OpenMatchesLimitError, StoreError, create_one
from tests.live.matches import HOST, play_out, request
from tests.live.postgres import GROUP, database, postgres
from tests.sealing import key

pytestmark = GROUP
__all__ = ["database", "postgres"]  # the fixtures this module uses

HOST_PUBLIC = public_bytes(HOST)


async def opened(url: str, host: bytes = HOST_PUBLIC) -> PostgresMatchStore:
    return await PostgresMatchStore(url).open(host)


async def stored_match(
    store: PostgresMatchStore, match_id: str = "m1", creator: str = "", most: int = 100
) -> tuple[Match, ManualClock]:
    clock = ManualClock()
    match = Match.create(match_id, request("ONE", 2), clock.now(), host_key=HOST)
    tokens = [bytes([n]) * 32 for n in (len(match_id), 2 * len(match_id) + ord(match_id[-1]))]
    await create_one(store, match.events[0], tokens, match.summary(), most, creator=creator,
                       most_by_creator=2)  # fmt: skip
    return match, clock


def test_of_two_servers_appending_the_same_ply_exactly_one_wins_and_the_other_hears_it(
    database: str,
) -> None:
    async def run() -> None:
        first, second = await opened(database), await opened(database)
        match, clock = await stored_match(first)
        for attempt in range(5):
            rival = Match.from_log(match.events, host_key=HOST)
            expected = match.last_event
            ply = match.plies + 1
            seat = match.to_move
            legal = ["a1", "a2", "a3", "a4", "b1", "b2"]
            one, other = (legal[attempt], legal[attempt + 1])
            mine = match.play(seat, ply, one, clock.now())
            theirs = rival.play(seat, ply, other, clock.now())
            if mine.finding or theirs.finding:
                break
            answers = await asyncio.gather(
                first.append("m1", list(match.events[expected:]), expected, match.summary(), None),
                second.append("m1", list(rival.events[expected:]), expected, rival.summary(), None),
            )
            assert sorted(answers) == [False, True], attempt
            if not answers[0]:
                match = rival
            log = await first.log("m1")
            assert [entry.event for entry in log] == [entry.event for entry in match.events]
        # Each store hears the other's appends (by notification), never its own.
        heard_by_first, heard_by_second = await _changes(first), await _changes(second)
        numbers = {change.entry.event.number for change in heard_by_first + heard_by_second}
        assert numbers == set(range(2, match.last_event + 1))
        assert all(change.match_id == "m1" for change in heard_by_first + heard_by_second)
        await first.close()
        await second.close()

    asyncio.run(run())


async def _changes(store: PostgresMatchStore) -> list:  # type: ignore[type-arg]
    end = time.monotonic() + 5
    found = []
    while time.monotonic() < end:
        await asyncio.sleep(0.2)
        more = await store.changes()
        found += more
        if not more and found:
            break
    return found


def test_a_notification_reaches_another_server_within_100_ms(database: str) -> None:
    async def run() -> list[float]:
        first, second = await opened(database), await opened(database)
        match, clock = await stored_match(first)
        delays = []
        for _ in range(10):
            expected = match.last_event
            ply = match.plies + 1
            play_one(match, clock)
            started = time.perf_counter()
            assert await first.append(
                "m1", list(match.events[expected:]), expected, match.summary(), None
            )
            while not (seen := await second.changes()):
                await asyncio.sleep(0.001)
            delays.append(time.perf_counter() - started)
            assert seen[0].entry.event.move.ply == ply
        await first.close()
        await second.close()
        return delays

    delays = sorted(asyncio.run(run()))
    assert delays[len(delays) // 2] < 0.1, delays


def play_one(match: Match, clock: ManualClock) -> None:
    player = PolicyPlayer(match.record, "random", match.plies)
    for entry in match.events:
        if entry.event.HasField("move"):
            player.played(entry.event.move.token)
    clock.advance(1)
    outcome = match.play(match.to_move, match.plies + 1, player.next_ply(), clock.now())
    assert outcome.finding is None


def test_seat_tokens_limits_lists_and_the_final_records(database: str) -> None:
    async def run() -> None:
        store = await opened(database)
        first, _ = await stored_match(store, "m1", creator="ops")
        await stored_match(store, "m22", creator="ops")
        with pytest.raises(OpenMatchesLimitError) as limited:
            await stored_match(store, "m333", creator="ops")
        assert limited.value.limit == "admin_open_matches"
        with pytest.raises(OpenMatchesLimitError) as limited:
            await stored_match(store, "m4444", most=2)
        assert limited.value.limit == "open_matches"
        assert await store.seat_of_token(bytes([2]) * 32) == ("m1", 1)
        assert await store.seat_of_token(bytes(32)) is None
        assert await store.token_hashes("nope") is None
        assert len(await store.token_hashes("m1") or ()) == 2
        assert await store.open_matches() == ["m1", "m22"]
        clock = ManualClock()
        play_out(first, clock)
        assert await store.append("m1", list(first.events[1:]), 1, first.summary(), first.record)
        assert await store.open_matches() == ["m22"]
        finished = await store.summaries(mpb.MATCH_STATUS_FINISHED, 10, "")
        assert [summary.match_id for summary in finished] == ["m1"]
        newest = await store.summaries(mpb.MATCH_STATUS_UNSPECIFIED, 1, "")
        assert [
            s.match_id
            for s in await store.summaries(mpb.MATCH_STATUS_UNSPECIFIED, 10, newest[0].match_id)
        ] == ["m1"]
        rebuilt = Match.from_log(await store.log("m1"), host_key=HOST)
        assert rebuilt.record == first.record
        await store.close()
        records = list(final_records(database, [mpb.MATCH_STATUS_FINISHED]))
        assert records == [first.record]

    asyncio.run(run())


def test_one_server_alone_records_the_outage_and_others_start_beside_it(database: str) -> None:
    async def run() -> None:
        clock = ManualClock()
        first = await opened(database)
        start = await first.start(clock.now())
        assert start.alone and start.last_alive is None
        await first.started(clock.now())
        second = await opened(database)
        assert not (await second.start(clock.now())).alone
        await second.started(clock.now())
        await first.close()
        await second.close()
        clock.advance(30)
        third = await opened(database)
        again = await third.start(clock.now())
        assert again.alone and again.last_alive is not None
        await third.started(clock.now())
        await third.close()

    asyncio.run(run())


def test_another_host_key_and_an_unreachable_server_are_clear_errors(database: str) -> None:
    async def run() -> None:
        store = await opened(database)
        await store.close()
        with pytest.raises(StoreError, match="sealed with the host key"):
            await opened(database, public_bytes(key(5)))
        with pytest.raises(StoreError, match=r"127\.0\.0\.1:1/"):
            await opened("postgresql://gamerec:s3cret@127.0.0.1:1/none")

    asyncio.run(run())
    assert shown("postgresql://gamerec:s3cret@db.example:5433/live") == (
        "postgresql://gamerec:***@db.example:5433/live"
    )
    assert shown("matches.db") == "matches.db"
