"""A table filled by a process that died before it created the match: another one creates it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from pathlib import Path

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.referee import Referee, token_hash
from gamerec.validator.live.stores import open_store
from gamerec.validator.lobby import table
from gamerec.validator.lobby.lobby import Lobby
from gamerec.validator.lobby.servicer import open_lobby_store
from tests.lobby.conftest import opening, player


@contextlib.asynccontextmanager
async def _lobby(folder: Path) -> AsyncIterator[tuple[Lobby, ManualClock]]:
    """A lobby over a referee on a manual clock, in process, on a new store."""
    clock = ManualClock(1_000_000_000)
    store = await open_store(str(folder / "matches.db"), b"")
    referee = Referee(store, clock, None)
    await referee.start()
    lobby = Lobby(await open_lobby_store(str(folder / "matches.db")), referee, 10)
    await lobby.start()
    try:
        yield lobby, clock
    finally:
        await lobby.stop()
        await referee.stop()


def test_a_full_table_whose_match_was_never_created_is_started_once_its_claim_is_stale(
    tmp_path: Path,
) -> None:
    async def run() -> None:
        async with _lobby(tmp_path) as (lobby, clock):
            referee = lobby.referee
            opened = await lobby.open_challenge(opening("Oust"), "peer:a")
            challenge_id = opened.challenge.challenge_id
            # another process takes the last seat, and dies before it creates the match
            digest = token_hash("seat_of the dead process's taker")
            now = clock.now().wall_ns
            await lobby.store.change(
                challenge_id, lambda row: table.take(row, 2, player(2), digest, now)
            )
            # while its claim is fresh, nobody else creates the match
            clock.advance(table.CLAIM_SECONDS - 1)
            asked = await lobby.challenges(opened.token, 0)
            assert asked.challenges[0].status == lpb.CHALLENGE_STATUS_FULL
            assert await referee.store.token_hashes(challenge_id) is None
            # once it is stale, the seat holder's own question starts it
            clock.advance(2)
            asked = await lobby.challenges(opened.token, 0)
            (challenge,) = asked.challenges
            assert challenge.status == lpb.CHALLENGE_STATUS_STARTED
            assert challenge.match_id == challenge_id and challenge.your_seat == 1
            hashes = await referee.store.token_hashes(challenge_id)
            assert hashes == (token_hash(opened.token), digest)
            state = await referee.state(challenge_id)
            assert state.status == mpb.MATCH_STATUS_OPEN
            assert [seat.name for seat in state.record.seats] == ["Ana", "Ben"]
            # a sweep afterwards changes nothing: one match, one start event
            await lobby.sweep()
            kinds = [event.WhichOneof("kind") for event in await lobby.store.events(0, 99)]
            assert kinds == ["opened", "seat_taken", "started"]

    asyncio.run(run())


def test_the_sweep_expires_open_challenges_when_their_time_is_up(tmp_path: Path) -> None:
    async def run() -> list[str | None]:
        async with _lobby(tmp_path) as (lobby, clock):
            await lobby.open_challenge(opening("Aronda"), "peer:a")
            clock.advance(lobby.referee.limits.challenge_seconds - 1)
            await lobby.sweep()
            clock.advance(1)
            await lobby.sweep()
            await lobby.sweep()
            assert (await lobby.challenges("", 0)).challenges == []
            return [event.WhichOneof("kind") for event in await lobby.store.events(0, 99)]

    assert asyncio.run(run()) == ["opened", "closed"]
