"""The lobby's tables in the SQLite match store file (``gamerec serve --matches FILE``).

One connection of its own, used by one thread; every write is a ``BEGIN IMMEDIATE``
transaction (SQLite's write lock, shared with the match store's writers and every other
process on the file), so the lobby's writes are one at a time across processes.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Final, TypeVar

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.validator.live.store import StoreError
from gamerec.validator.lobby.store import (
    LIVE,
    ROW_COLUMNS,
    ChallengeLimitError,
    Decide,
    check_open,
    event_of,
    new_digests,
    numbered,
    row_of,
    row_values,
)
from gamerec.validator.lobby.table import FULL, OPEN, Decision, Row, UnknownChallengeError

T = TypeVar("T")

#: Seconds a write waits for another process's write lock before it fails.
BUSY_SECONDS: Final = 30

_SCHEMA: Final = (
    """CREATE TABLE IF NOT EXISTS lobby_challenges (
        challenge_id TEXT PRIMARY KEY,
        status INTEGER NOT NULL,
        creator TEXT NOT NULL,
        creator_seat INTEGER NOT NULL,
        created_ns INTEGER NOT NULL,
        expires_ns INTEGER NOT NULL,
        claimed_ns INTEGER NOT NULL,
        challenge BLOB NOT NULL,
        request BLOB NOT NULL,
        tokens BLOB NOT NULL
    )""",
    "CREATE INDEX IF NOT EXISTS lobby_by_status ON lobby_challenges (status, created_ns)",
    "CREATE INDEX IF NOT EXISTS lobby_by_creator ON lobby_challenges (creator, status)",
    """CREATE TABLE IF NOT EXISTS lobby_tokens (
        digest BLOB PRIMARY KEY,
        challenge_id TEXT NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS lobby_events (
        number INTEGER PRIMARY KEY,
        body BLOB NOT NULL
    )""",
)
_MARKS: Final = ", ".join("?" for _ in LIVE)
_PLACES: Final = ", ".join("?" for _ in ROW_COLUMNS.split(", "))


class SQLiteLobbyStore:
    """The lobby's :class:`~gamerec.validator.lobby.store.LobbyStore` in a SQLite file."""

    def __init__(self, path: str | Path) -> None:
        """Prepare to use the file at ``path``; :meth:`open` before the first call."""
        self.path = Path(path)
        self._thread = ThreadPoolExecutor(1, thread_name_prefix="gamerec-lobby-store")
        self._connection: sqlite3.Connection | None = None

    async def open(self) -> SQLiteLobbyStore:
        """Connect and make the tables if needed.

        Raises:
            StoreError: the file cannot be opened or is not a match store.
        """
        await self._run(self._open)
        return self

    def _open(self) -> None:
        connection = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        connection.execute(f"PRAGMA busy_timeout = {BUSY_SECONDS * 1000}")
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = FULL")
        self._connection = connection
        self._write(lambda db: [db.execute(statement) for statement in _SCHEMA])

    async def close(self) -> None:
        """Close the connection."""
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await self._run(connection.close)
        self._thread.shutdown(wait=True)

    async def _run(self, work: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._thread, work)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: the lobby's store failed: {error}") from None

    def _write(self, work: Callable[[sqlite3.Connection], T]) -> T:
        """Run ``work`` in one write transaction (undone when it raises)."""
        db = self._db()
        db.execute("BEGIN IMMEDIATE")
        try:
            value = work(db)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
        return value

    def _db(self) -> sqlite3.Connection:
        assert self._connection is not None, "the lobby's store is not open"
        return self._connection

    # -- writes ---------------------------------------------------------------------------------

    async def insert(
        self, decision: Decision, most_open: int, most_by_client: int
    ) -> list[lpb.LobbyEvent]:
        """Store a new challenge (see ``LobbyStore.insert``)."""
        row = decision.row

        def work(db: sqlite3.Connection) -> list[lpb.LobbyEvent]:
            (count,) = db.execute(
                f"SELECT COUNT(*) FROM lobby_challenges WHERE status IN ({_MARKS})", LIVE
            ).fetchone()
            (mine,) = db.execute(
                f"SELECT COUNT(*) FROM lobby_challenges WHERE creator = ? AND status IN ({_MARKS})",
                (row.creator, *LIVE),
            ).fetchone()
            check_open(count, most_open, mine, most_by_client)
            db.execute(
                f"INSERT INTO lobby_challenges ({ROW_COLUMNS}) VALUES ({_PLACES})",
                row_values(row),
            )
            return self._written(db, None, decision)

        return await self._run(lambda: self._write(work))

    async def change(self, challenge_id: str, decide: Decide) -> tuple[Row, list[lpb.LobbyEvent]]:
        """Decide on a challenge and write the result (see ``LobbyStore.change``)."""

        def work(db: sqlite3.Connection) -> tuple[Row, list[lpb.LobbyEvent]]:
            found = db.execute(
                f"SELECT {ROW_COLUMNS} FROM lobby_challenges WHERE challenge_id = ?",
                (challenge_id,),
            ).fetchone()
            if found is None:
                raise UnknownChallengeError(challenge_id)
            before = row_of(found)
            decision = decide(before)
            db.execute(
                f"REPLACE INTO lobby_challenges ({ROW_COLUMNS}) VALUES ({_PLACES})",
                row_values(decision.row),
            )
            return decision.row, self._written(db, before, decision)

        return await self._run(lambda: self._write(work))

    @staticmethod
    def _written(
        db: sqlite3.Connection, before: Row | None, decision: Decision
    ) -> list[lpb.LobbyEvent]:
        """Index the new seats' tokens and append the decision's events, numbered."""
        db.executemany(
            "INSERT OR REPLACE INTO lobby_tokens VALUES (?, ?)",
            [(digest, decision.row.challenge_id) for digest in new_digests(before, decision.row)],
        )
        (last,) = db.execute("SELECT COALESCE(MAX(number), 0) FROM lobby_events").fetchone()
        events = numbered(decision.events, int(last))
        db.executemany(
            "INSERT INTO lobby_events VALUES (?, ?)",
            [(event.number, event.SerializeToString()) for event in events],
        )
        return events

    async def prune(self, keep_events: int, closed_before_ns: int) -> None:
        """Forget old events and challenges closed long ago (see ``LobbyStore.prune``)."""

        def work(db: sqlite3.Connection) -> None:
            db.execute(
                "DELETE FROM lobby_events WHERE number <= "
                "(SELECT COALESCE(MAX(number), 0) FROM lobby_events) - ?",
                (keep_events,),
            )
            old = f"status NOT IN ({_MARKS}) AND created_ns < ?"
            values = (*LIVE, closed_before_ns)
            db.execute(
                "DELETE FROM lobby_tokens WHERE challenge_id IN "
                f"(SELECT challenge_id FROM lobby_challenges WHERE {old})",
                values,
            )
            db.execute(f"DELETE FROM lobby_challenges WHERE {old}", values)

        await self._run(lambda: self._write(work))

    # -- reads ----------------------------------------------------------------------------------

    async def get(self, challenge_id: str) -> Row | None:
        """The challenge's row, None: none."""

        def read() -> Row | None:
            found = (
                self._db()
                .execute(
                    f"SELECT {ROW_COLUMNS} FROM lobby_challenges WHERE challenge_id = ?",
                    (challenge_id,),
                )
                .fetchone()
            )
            return None if found is None else row_of(found)

        return await self._run(read)

    async def by_token(self, digest: bytes) -> Row | None:
        """The challenge a token's hash holds a seat of."""

        def read() -> Row | None:
            found = (
                self._db()
                .execute(
                    f"SELECT {', '.join('c.' + c for c in ROW_COLUMNS.split(', '))} "
                    "FROM lobby_tokens t JOIN lobby_challenges c USING (challenge_id) "
                    "WHERE t.digest = ?",
                    (digest,),
                )
                .fetchone()
            )
            return None if found is None else row_of(found)

        return await self._run(read)

    async def listed(self, limit: int) -> list[Row]:
        """The open challenges, oldest first."""

        def read() -> list[Row]:
            rows = self._db().execute(
                f"SELECT {ROW_COLUMNS} FROM lobby_challenges WHERE status = ? "
                "ORDER BY created_ns, challenge_id LIMIT ?",
                (OPEN, limit),
            )
            return [row_of(found) for found in rows]

        return await self._run(read)

    async def due(self, now_ns: int, claimed_before_ns: int) -> list[str]:
        """Expired open challenges, and full ones whose claim went stale."""

        def read() -> list[str]:
            rows = self._db().execute(
                "SELECT challenge_id FROM lobby_challenges WHERE "
                "(status = ? AND expires_ns <= ?) OR (status = ? AND claimed_ns < ?) "
                "ORDER BY created_ns LIMIT 1000",
                (OPEN, now_ns, FULL, claimed_before_ns),
            )
            return [str(found[0]) for found in rows]

        return await self._run(read)

    async def events(self, after: int, limit: int) -> list[lpb.LobbyEvent]:
        """The events after ``after``, in order."""

        def read() -> list[lpb.LobbyEvent]:
            rows = self._db().execute(
                "SELECT number, body FROM lobby_events WHERE number > ? ORDER BY number LIMIT ?",
                (after, limit),
            )
            return [event_of(int(number), body) for number, body in rows]

        return await self._run(read)

    async def first_and_last(self) -> tuple[int, int]:
        """The first and last event numbers kept (0, 0: none)."""

        def read() -> tuple[int, int]:
            first, last = (
                self._db()
                .execute(
                    "SELECT COALESCE(MIN(number), 0), COALESCE(MAX(number), 0) FROM lobby_events"
                )
                .fetchone()
            )
            return int(first), int(last)

        return await self._run(read)


__all__ = ["ChallengeLimitError", "SQLiteLobbyStore"]
