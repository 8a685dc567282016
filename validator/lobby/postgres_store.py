"""The lobby's tables in the PostgreSQL match store (``--matches postgresql://...``).

Every write is one transaction that first takes an advisory lock of its own (the match
store's lock class, key :data:`LOBBY_LOCK`), so the lobby's writes are one at a time across
every server on the database: event numbers have no gaps and follow the commits. The
servers learn each other's events by reading the events table (the lobby polls it).
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from typing import Any, Final

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.validator.live.postgres_store import LOCK_CLASS, shown
from gamerec.validator.live.store import StoreError
from gamerec.validator.lobby.store import (
    LIVE,
    ROW_COLUMNS,
    Decide,
    check_open,
    event_of,
    new_digests,
    numbered,
    row_of,
    row_values,
)
from gamerec.validator.lobby.table import FULL, OPEN, Decision, Row, UnknownChallengeError

#: The advisory lock the lobby's writes take (beside the match store's keys 1 to 4).
LOBBY_LOCK: Final = 5
#: Connections of one server process's pool, at most; seconds to connect.
POOL_MAX: Final = 4
CONNECT_SECONDS: Final = 10

_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS gamerec_lobby_challenges (
        challenge_id TEXT PRIMARY KEY,
        status SMALLINT NOT NULL,
        creator TEXT NOT NULL,
        creator_seat INTEGER NOT NULL,
        created_ns BIGINT NOT NULL,
        expires_ns BIGINT NOT NULL,
        claimed_ns BIGINT NOT NULL,
        challenge BYTEA NOT NULL,
        request BYTEA NOT NULL,
        tokens BYTEA NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS gamerec_lobby_by_status"
    " ON gamerec_lobby_challenges (status, created_ns)",
    "CREATE INDEX IF NOT EXISTS gamerec_lobby_by_creator"
    " ON gamerec_lobby_challenges (creator, status)",
    """CREATE TABLE IF NOT EXISTS gamerec_lobby_tokens (
        digest BYTEA PRIMARY KEY,
        challenge_id TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS gamerec_lobby_events (
        number INTEGER PRIMARY KEY,
        body BYTEA NOT NULL
    )""",
)
_PLACES: Final = ", ".join("%s" for _ in ROW_COLUMNS.split(", "))
_UPSERT: Final = (
    f"INSERT INTO gamerec_lobby_challenges ({ROW_COLUMNS}) VALUES ({_PLACES})"
    " ON CONFLICT (challenge_id) DO UPDATE SET "
    + ", ".join(f"{c} = excluded.{c}" for c in ROW_COLUMNS.split(", ")[1:])
)


class PostgresLobbyStore:
    """The lobby's :class:`~gamerec.validator.lobby.store.LobbyStore` on PostgreSQL."""

    def __init__(self, url: str) -> None:
        """Prepare to use the database at ``url``; :meth:`open` before the first call."""
        self.url = url
        self.name = shown(url)
        self._pool: Any = None

    async def open(self) -> PostgresLobbyStore:
        """Connect and make the tables if needed.

        Raises:
            StoreError: the database cannot be reached or used.
        """
        psycopg = _psycopg()
        from psycopg_pool import AsyncConnectionPool  # noqa: PLC0415

        try:
            self._pool = AsyncConnectionPool(
                self.url,
                min_size=1,
                max_size=POOL_MAX,
                kwargs={"autocommit": True, "connect_timeout": CONNECT_SECONDS},
                open=False,
                name="gamerec-lobby",
            )
            await self._pool.open(wait=True, timeout=CONNECT_SECONDS)
            async with self._writing() as connection:
                for statement in _SCHEMA:
                    await connection.execute(statement)
        except (psycopg.Error, TimeoutError, OSError) as error:
            await self.close()
            raise StoreError(f"{self.name}: cannot use the lobby's tables: {error}") from None
        return self

    async def close(self) -> None:
        """Close the connections."""
        if self._pool is not None:
            pool, self._pool = self._pool, None
            with contextlib.suppress(Exception):
                await pool.close()

    @contextlib.asynccontextmanager
    async def _connection(self) -> AsyncIterator[Any]:
        psycopg = _psycopg()
        assert self._pool is not None, "the lobby's store is not open"
        try:
            async with self._pool.connection() as connection:
                yield connection
        except psycopg.Error as error:
            raise StoreError(f"{self.name}: {type(error).__name__}: {error}") from None

    @contextlib.asynccontextmanager
    async def _writing(self) -> AsyncIterator[Any]:
        """A transaction holding the lobby's write lock."""
        async with self._connection() as connection, connection.transaction():
            await connection.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, LOBBY_LOCK)
            )
            yield connection

    # -- writes ---------------------------------------------------------------------------------

    async def insert(
        self, decision: Decision, most_open: int, most_by_client: int
    ) -> list[lpb.LobbyEvent]:
        """Store a new challenge (see ``LobbyStore.insert``)."""
        row = decision.row
        async with self._writing() as connection:
            count = await _scalar(
                connection,
                "SELECT count(*) FROM gamerec_lobby_challenges WHERE status = ANY(%s)",
                (list(LIVE),),
            )
            mine = await _scalar(
                connection,
                "SELECT count(*) FROM gamerec_lobby_challenges"
                " WHERE creator = %s AND status = ANY(%s)",
                (row.creator, list(LIVE)),
            )
            check_open(int(count), most_open, int(mine), most_by_client)
            await connection.execute(_UPSERT, row_values(row))
            return await _written(connection, None, decision)

    async def change(self, challenge_id: str, decide: Decide) -> tuple[Row, list[lpb.LobbyEvent]]:
        """Decide on a challenge and write the result (see ``LobbyStore.change``)."""
        async with self._writing() as connection:
            cursor = await connection.execute(
                f"SELECT {ROW_COLUMNS} FROM gamerec_lobby_challenges WHERE challenge_id = %s",
                (challenge_id,),
            )
            found = await cursor.fetchone()
            if found is None:
                raise UnknownChallengeError(challenge_id)
            before = row_of(found)
            decision = decide(before)
            await connection.execute(_UPSERT, row_values(decision.row))
            return decision.row, await _written(connection, before, decision)

    async def prune(self, keep_events: int, closed_before_ns: int) -> None:
        """Forget old events and challenges closed long ago (see ``LobbyStore.prune``)."""
        old = "status <> ALL(%s) AND created_ns < %s"
        async with self._writing() as connection:
            await connection.execute(
                "DELETE FROM gamerec_lobby_events WHERE number <= "
                "(SELECT COALESCE(MAX(number), 0) FROM gamerec_lobby_events) - %s",
                (keep_events,),
            )
            await connection.execute(
                "DELETE FROM gamerec_lobby_tokens WHERE challenge_id IN "
                f"(SELECT challenge_id FROM gamerec_lobby_challenges WHERE {old})",
                (list(LIVE), closed_before_ns),
            )
            await connection.execute(
                f"DELETE FROM gamerec_lobby_challenges WHERE {old}",
                (list(LIVE), closed_before_ns),
            )

    # -- reads ----------------------------------------------------------------------------------

    async def get(self, challenge_id: str) -> Row | None:
        """The challenge's row, None: none."""
        rows = await self._rows(
            f"SELECT {ROW_COLUMNS} FROM gamerec_lobby_challenges WHERE challenge_id = %s",
            (challenge_id,),
        )
        return rows[0] if rows else None

    async def by_token(self, digest: bytes) -> Row | None:
        """The challenge a token's hash holds a seat of."""
        columns = ", ".join("c." + column for column in ROW_COLUMNS.split(", "))
        rows = await self._rows(
            f"SELECT {columns} FROM gamerec_lobby_tokens t"
            " JOIN gamerec_lobby_challenges c USING (challenge_id) WHERE t.digest = %s",
            (digest,),
        )
        return rows[0] if rows else None

    async def listed(self, limit: int) -> list[Row]:
        """The open challenges, oldest first."""
        return await self._rows(
            f"SELECT {ROW_COLUMNS} FROM gamerec_lobby_challenges WHERE status = %s"
            " ORDER BY created_ns, challenge_id LIMIT %s",
            (OPEN, limit),
        )

    async def due(self, now_ns: int, claimed_before_ns: int) -> list[str]:
        """Expired open challenges, and full ones whose claim went stale."""
        async with self._connection() as connection:
            cursor = await connection.execute(
                "SELECT challenge_id FROM gamerec_lobby_challenges WHERE"
                " (status = %s AND expires_ns <= %s) OR (status = %s AND claimed_ns < %s)"
                " ORDER BY created_ns LIMIT 1000",
                (OPEN, now_ns, FULL, claimed_before_ns),
            )
            return [str(found[0]) for found in await cursor.fetchall()]

    async def events(self, after: int, limit: int) -> list[lpb.LobbyEvent]:
        """The events after ``after``, in order."""
        async with self._connection() as connection:
            cursor = await connection.execute(
                "SELECT number, body FROM gamerec_lobby_events WHERE number > %s"
                " ORDER BY number LIMIT %s",
                (after, limit),
            )
            return [event_of(int(number), body) for number, body in await cursor.fetchall()]

    async def first_and_last(self) -> tuple[int, int]:
        """The first and last event numbers kept (0, 0: none)."""
        async with self._connection() as connection:
            cursor = await connection.execute(
                "SELECT COALESCE(MIN(number), 0), COALESCE(MAX(number), 0)"
                " FROM gamerec_lobby_events"
            )
            found = await cursor.fetchone()
        return (int(found[0]), int(found[1])) if found is not None else (0, 0)

    async def _rows(self, query: str, values: Sequence[Any]) -> list[Row]:
        async with self._connection() as connection:
            cursor = await connection.execute(query, values)
            return [row_of(found) for found in await cursor.fetchall()]


async def _written(connection: Any, before: Row | None, decision: Decision) -> list[lpb.LobbyEvent]:
    """Index the new seats' tokens and append the decision's events, numbered."""
    for digest in new_digests(before, decision.row):
        await connection.execute(
            "INSERT INTO gamerec_lobby_tokens VALUES (%s, %s) ON CONFLICT (digest)"
            " DO UPDATE SET challenge_id = excluded.challenge_id",
            (digest, decision.row.challenge_id),
        )
    last = await _scalar(
        connection, "SELECT COALESCE(MAX(number), 0) FROM gamerec_lobby_events", ()
    )
    events = numbered(decision.events, int(last))
    for event in events:
        await connection.execute(
            "INSERT INTO gamerec_lobby_events VALUES (%s, %s)",
            (event.number, event.SerializeToString()),
        )
    return events


async def _scalar(connection: Any, query: str, values: Sequence[Any]) -> Any:
    found = await (await connection.execute(query, values)).fetchone()
    return found[0] if found is not None else None


def _psycopg() -> Any:
    """psycopg, or a clear error when the ``postgresql`` extra is not installed."""
    try:
        import psycopg  # noqa: PLC0415
    except ImportError:
        raise StoreError(
            "the PostgreSQL lobby store needs psycopg: pip install 'gamerec-toolkit[postgresql]'"
        ) from None
    return psycopg
