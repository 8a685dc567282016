"""The match store on PostgreSQL: several servers, on several machines, serve the same matches.

``gamerec serve --matches postgresql://USER@HOST/DB`` (psycopg 3; the ``postgresql`` extra).
The tables are made on first use (``gamerec_`` names, so the database may hold others).

- **Exactly one acceptance.** An append is one statement, so one transaction: it moves the
  match's event count from the number the referee saw to the new one (``UPDATE ... WHERE
  events = expected``), inserts the events only if it did, and notifies. Two servers
  appending to the same match queue on the match's row; the second finds the count moved
  and appends nothing (PostgreSQL re-reads the row it waited for), so for one ply exactly
  one acceptance is stored, and a flag that several servers' timers see fall is stored once.
- **Nothing lost.** The referee answers only after the commit, which is durable as the
  server's ``synchronous_commit`` makes it (on by default).
- **Other servers' events.** Each append notifies channel ``gamerec_events`` with the match
  and the event numbers; every server LISTENs and reads those events (:meth:`changes`).
  PostgreSQL delivers notifications in commit order, at commit. A listening connection that
  breaks is opened again, and the events committed since shortly before it was last known
  to be alive are read (the referee skips those it has).
- **Who runs alone.** Every running server holds a shared advisory lock on its own
  connection; a server that starts takes it exclusively if it can (then it is alone: the
  service was down, and the referee records the outage), under a second lock that makes
  starts one at a time. A server that dies loses its connection, and its locks with it.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final
from urllib.parse import urlsplit, urlunsplit

from gamerec.recorder.signing import fingerprint
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.clocks import Instant
from gamerec.validator.live.match import OPEN, Logged
from gamerec.validator.live.store import (
    Change,
    NewMatch,
    Start,
    StoreError,
    check_open_matches,
    event_row,
    final_record,
    readable_changes,
    seat_rows,
    stored_event,
)

if TYPE_CHECKING:
    import psycopg
    from psycopg_pool import AsyncConnectionPool

#: The version of the tables below (``gamerec_meta.schema``).
SCHEMA_VERSION: Final = "1"
#: The channel appends notify.
CHANNEL: Final = "gamerec_events"
#: The advisory locks' first key (``gamerec`` on a phone pad), and the second of each lock.
LOCK_CLASS: Final = 4267
SCHEMA_LOCK: Final = 1
STARTING_LOCK: Final = 2
RUNNING_LOCK: Final = 3
CREATE_LOCK: Final = 4
#: Connections of one server process's pool, at least and at most.
POOL_MIN: Final = 2
POOL_MAX: Final = 10
#: Seconds to connect, and between two checks that the listening connection is alive.
CONNECT_SECONDS: Final = 10
ALIVE_CHECK_SECONDS: Final = 1.0
#: After the listening connection breaks, the events committed since this many seconds
#: before it was last known alive are read again (longer than any append's transaction).
CATCH_UP_MARGIN_SECONDS: Final = 10
#: Seconds between two tries to open the listening connection again.
RECONNECT_SECONDS: Final = 0.5

_SCHEMA: Final = (
    "CREATE TABLE IF NOT EXISTS gamerec_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    """CREATE TABLE IF NOT EXISTS gamerec_matches (
        match_id TEXT PRIMARY KEY,
        created_ns BIGINT NOT NULL,
        status SMALLINT NOT NULL,
        events INTEGER NOT NULL,
        tokens BYTEA NOT NULL,
        summary BYTEA NOT NULL,
        final BYTEA,
        creator TEXT NOT NULL DEFAULT ''
    )""",
    "CREATE INDEX IF NOT EXISTS gamerec_matches_by_status ON gamerec_matches (status, created_ns)",
    "CREATE INDEX IF NOT EXISTS gamerec_matches_by_creator ON gamerec_matches (creator, status)",
    """CREATE TABLE IF NOT EXISTS gamerec_events (
        match_id TEXT NOT NULL,
        number INTEGER NOT NULL,
        wall_ns BIGINT NOT NULL,
        mono_ns BIGINT NOT NULL,
        boot TEXT NOT NULL,
        body BYTEA NOT NULL,
        appended_at TIMESTAMPTZ NOT NULL DEFAULT clock_timestamp(),
        PRIMARY KEY (match_id, number)
    )""",
    "CREATE INDEX IF NOT EXISTS gamerec_events_by_time ON gamerec_events (appended_at)",
    """CREATE TABLE IF NOT EXISTS gamerec_seat_tokens (
        digest BYTEA PRIMARY KEY,
        match_id TEXT NOT NULL,
        seat INTEGER NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS gamerec_heartbeat (
        id INTEGER PRIMARY KEY CHECK (id = 1),
        wall_ns BIGINT NOT NULL,
        mono_ns BIGINT NOT NULL,
        boot TEXT NOT NULL
    )""",
)

_APPEND: Final = """
WITH moved AS (
    UPDATE gamerec_matches
    SET events = %(last)s, status = %(status)s, summary = %(summary)s,
        final = COALESCE(%(final)s, final)
    WHERE match_id = %(match)s AND events = %(expected)s
    RETURNING match_id
), added AS (
    INSERT INTO gamerec_events (match_id, number, wall_ns, mono_ns, boot, body)
    SELECT %(match)s, e.number, e.wall_ns, e.mono_ns, e.boot, e.body
    FROM unnest(%(numbers)s::int[], %(walls)s::bigint[], %(monos)s::bigint[],
                %(boots)s::text[], %(bodies)s::bytea[]) AS e(number, wall_ns, mono_ns, boot, body)
    WHERE EXISTS (SELECT 1 FROM moved)
    RETURNING number
)
SELECT (SELECT count(*) FROM moved), (SELECT count(*) FROM added),
       (SELECT pg_notify(%(channel)s, %(payload)s) FROM moved)
"""

_EVENTS_OF: Final = """
SELECT e.match_id, e.number, e.wall_ns, e.mono_ns, e.boot, e.body
FROM gamerec_events e
JOIN unnest(%s::text[], %s::int[], %s::int[]) AS w(match_id, first, last)
  ON e.match_id = w.match_id AND e.number BETWEEN w.first AND w.last
"""


def is_postgres(location: str) -> bool:
    """Whether a ``--matches`` location names a PostgreSQL database (a URL)."""
    return location.startswith(("postgresql://", "postgres://"))


def shown(location: str) -> str:
    """A location as logs may show it: a URL's password replaced by ``***``."""
    if not is_postgres(location):
        return location
    parts = urlsplit(location)
    if parts.password is None:
        return location
    user = parts.username or ""
    host = parts.hostname or ""
    port = f":{parts.port}" if parts.port else ""
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}{port}"))


def _psycopg() -> Any:
    """psycopg, or a clear error when the ``postgresql`` extra is not installed."""
    try:
        import psycopg  # noqa: PLC0415
        import psycopg_pool  # noqa: PLC0415, F401
    except ImportError:
        raise StoreError(
            "the PostgreSQL match store needs psycopg: pip install 'gamerec-toolkit[postgresql]'"
        ) from None
    return psycopg


@dataclass(frozen=True, slots=True)
class _Notice:
    match_id: str
    first: int
    last: int


class PostgresMatchStore:
    """The PostgreSQL :class:`~gamerec.validator.live.store.MatchStore` (module docstring).

    Open it with :meth:`open`, which checks that the database's matches are sealed with this
    host key (the 32-byte public key; empty: unsealed matches).
    """

    def __init__(self, url: str) -> None:
        """Prepare to use the database at ``url`` (a ``postgresql://`` URL)."""
        self.url = url
        self.name = shown(url)
        self._pool: AsyncConnectionPool[Any] | None = None
        self._life: psycopg.AsyncConnection[Any] | None = None
        self._listening: asyncio.Task[None] | None = None
        self._listen_ready = asyncio.Event()
        self._notices: deque[_Notice] = deque()
        self._last_alive: float | None = None
        self._instance = secrets.token_hex(8)
        self._exclusive = False

    # -- opening and closing --------------------------------------------------------------------

    async def open(self, host_key: bytes) -> PostgresMatchStore:
        """Make the tables if needed, check the host key, start listening.

        Raises:
            StoreError: the database cannot be reached or used as a match store, or its
                matches are sealed with another host key.
        """
        psycopg = _psycopg()
        from psycopg_pool import AsyncConnectionPool  # noqa: PLC0415

        try:
            self._pool = AsyncConnectionPool(
                self.url,
                min_size=POOL_MIN,
                max_size=POOL_MAX,
                kwargs={"autocommit": True, "connect_timeout": CONNECT_SECONDS},
                open=False,
                name="gamerec-store",
            )
            await self._pool.open(wait=True, timeout=CONNECT_SECONDS)
            await self._prepare(host_key)
        except psycopg.Error as error:
            await self.close()
            raise StoreError(f"{self.name}: cannot use the match store: {error}") from None
        except (StoreError, TimeoutError, OSError) as error:
            await self.close()
            if isinstance(error, StoreError):
                raise
            raise StoreError(f"{self.name}: cannot reach the database: {error}") from None
        self._listening = asyncio.create_task(self._listen(), name="gamerec-store-listen")
        await self._listen_ready.wait()
        return self

    async def _prepare(self, host_key: bytes) -> None:
        named = fingerprint(host_key) if host_key else "none"
        async with self._connection() as connection, connection.transaction():
            await connection.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, SCHEMA_LOCK)
            )
            for statement in _SCHEMA:
                await connection.execute(statement)
            rows = await (
                await connection.execute("SELECT key, value FROM gamerec_meta")
            ).fetchall()
            meta = dict(rows)
            schema = meta.get("schema", SCHEMA_VERSION)
            if schema != SCHEMA_VERSION:
                raise StoreError(
                    f"{self.name}: a match store of version {schema}, not {SCHEMA_VERSION}"
                )
            if meta.get("host_key", named) != named:
                raise StoreError(
                    f"{self.name}: its matches are sealed with the host key "
                    f"{meta['host_key']}, not {named}: give that key (--host-key)"
                )
            for key, value in (("schema", SCHEMA_VERSION), ("host_key", named)):
                await connection.execute(
                    "INSERT INTO gamerec_meta VALUES (%s, %s) ON CONFLICT DO NOTHING", (key, value)
                )

    async def close(self) -> None:
        """Stop listening, let go of the running lock, close the connections."""
        if self._listening is not None:
            self._listening.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._listening
            self._listening = None
        if self._life is not None:
            with contextlib.suppress(Exception):
                await self._life.close()
            self._life = None
        if self._pool is not None:
            with contextlib.suppress(Exception):
                await self._pool.close()
            self._pool = None

    @contextlib.asynccontextmanager
    async def _connection(self) -> Any:
        """A connection of the pool; a database error becomes a StoreError."""
        psycopg = _psycopg()
        assert self._pool is not None, "the store is not open"
        try:
            async with self._pool.connection() as connection:
                yield connection
        except psycopg.Error as error:
            raise StoreError(f"{self.name}: {type(error).__name__}: {error}") from None

    # -- listening ------------------------------------------------------------------------------

    async def _listen(self) -> None:
        """Queue every append's notice; open the connection again when it breaks."""
        psycopg = _psycopg()
        while True:
            try:
                connection = await psycopg.AsyncConnection.connect(
                    self.url, autocommit=True, connect_timeout=CONNECT_SECONDS
                )
            except (psycopg.Error, OSError):
                self._listen_ready.set()  # open() goes on; appends still work
                await asyncio.sleep(RECONNECT_SECONDS)
                continue
            try:
                await connection.execute(f"LISTEN {CHANNEL}")
                if self._last_alive is not None:
                    await self._read_missed(connection, self._last_alive - CATCH_UP_MARGIN_SECONDS)
                self._listen_ready.set()
                await self._receive(connection)
            except (psycopg.Error, OSError):
                await asyncio.sleep(RECONNECT_SECONDS)
            finally:
                with contextlib.suppress(Exception):
                    await connection.close()

    async def _receive(self, connection: psycopg.AsyncConnection[Any]) -> None:
        """Queue the notices as they come; note every second that the connection is alive."""
        while True:
            async for notice in connection.notifies(timeout=ALIVE_CHECK_SECONDS):
                self._queue(notice.payload)
            self._last_alive = float(
                await _scalar(connection, "SELECT extract(epoch FROM now())", ())
            )

    async def _read_missed(self, connection: psycopg.AsyncConnection[Any], since: float) -> None:
        """Queue the events committed since ``since`` (a listening connection came back)."""
        cursor = await connection.execute(
            "SELECT match_id, number FROM gamerec_events WHERE appended_at >= to_timestamp(%s)"
            " ORDER BY appended_at, match_id, number",
            (since,),
        )
        for match_id, number in await cursor.fetchall():
            self._notices.append(_Notice(str(match_id), int(number), int(number)))

    def _queue(self, payload: str) -> None:
        instance, match_id, first, last = payload.split(" ")
        if instance != self._instance:
            self._notices.append(_Notice(match_id, int(first), int(last)))

    # -- the interface --------------------------------------------------------------------------

    async def create_many(
        self,
        matches: Sequence[NewMatch],
        most_open: int,
        *,
        creator: str = "",
        most_by_creator: int = 0,
    ) -> None:
        """Store new matches in one transaction (``MatchStore.create_many``); one at a time."""
        async with self._connection() as connection, connection.transaction():
            await connection.execute(
                "SELECT pg_advisory_xact_lock(%s, %s)", (LOCK_CLASS, CREATE_LOCK)
            )
            count = await _scalar(
                connection, "SELECT count(*) FROM gamerec_matches WHERE status = %s", (OPEN,)
            )
            check_open_matches(count, most_open, adding=len(matches))
            if creator and most_by_creator:
                mine = await _scalar(
                    connection,
                    "SELECT count(*) FROM gamerec_matches WHERE status = %s AND creator = %s",
                    (OPEN, creator),
                )
                check_open_matches(mine, most_by_creator, creator, adding=len(matches))
            async with connection.cursor() as cursor:
                await cursor.executemany(
                    "INSERT INTO gamerec_matches (match_id, created_ns, status, events, tokens,"
                    " summary, creator) VALUES (%s, %s, %s, 1, %s, %s, %s)",
                    [
                        (new.created.event.match_id, new.created.at.wall_ns, OPEN,
                         b"".join(new.token_hashes), new.summary.SerializeToString(), creator)
                        for new in matches
                    ],
                )  # fmt: skip
                await cursor.executemany(
                    "INSERT INTO gamerec_seat_tokens VALUES (%s, %s, %s) ON CONFLICT DO NOTHING",
                    seat_rows(matches),
                )
                await cursor.executemany(
                    "INSERT INTO gamerec_events (match_id, number, wall_ns, mono_ns, boot, body)"
                    " VALUES (%s, %s, %s, %s, %s, %s)",
                    [event_row(new.created) for new in matches],
                )

    async def append(
        self,
        match_id: str,
        events: Sequence[Logged],
        expected: int,
        summary: mpb.MatchSummary,
        final_record: pb.GameRecord | None,
    ) -> bool:
        """Append if the log ends at ``expected`` (see ``MatchStore.append``)."""
        numbers = [entry.event.number for entry in events]
        values = {
            "match": match_id,
            "expected": expected,
            "last": expected + len(events),
            "status": summary.status,
            "summary": summary.SerializeToString(),
            "final": final_record.SerializeToString() if final_record is not None else None,
            "numbers": numbers,
            "walls": [entry.at.wall_ns for entry in events],
            "monos": [entry.at.mono_ns for entry in events],
            "boots": [entry.at.boot for entry in events],
            "bodies": [entry.event.SerializeToString() for entry in events],
            "channel": CHANNEL,
            "payload": f"{self._instance} {match_id} {min(numbers)} {max(numbers)}",
        }
        async with self._connection() as connection:
            row = await (await connection.execute(_APPEND, values)).fetchone()
        return bool(row and row[0])

    async def log(self, match_id: str, after: int = 0) -> list[Logged]:
        """The match's events after ``after``."""
        async with self._connection() as connection:
            cursor = await connection.execute(
                "SELECT match_id, number, wall_ns, mono_ns, boot, body FROM gamerec_events"
                " WHERE match_id = %s AND number > %s ORDER BY number",
                (match_id, after),
            )
            return [stored_event(row) for row in await cursor.fetchall()]

    async def token_hashes(self, match_id: str) -> tuple[bytes, ...] | None:
        """The seats' token hashes, None for an unknown match."""
        async with self._connection() as connection:
            cursor = await connection.execute(
                "SELECT tokens FROM gamerec_matches WHERE match_id = %s", (match_id,)
            )
            row = await cursor.fetchone()
        if row is None:
            return None
        tokens = bytes(row[0])
        return tuple(tokens[i : i + 32] for i in range(0, len(tokens), 32))

    async def seat_of_token(self, digest: bytes) -> tuple[str, int] | None:
        """The match and seat of a seat token's hash."""
        async with self._connection() as connection:
            cursor = await connection.execute(
                "SELECT match_id, seat FROM gamerec_seat_tokens WHERE digest = %s", (digest,)
            )
            row = await cursor.fetchone()
        return None if row is None else (str(row[0]), int(row[1]))

    async def open_matches(self) -> list[str]:
        """Every open match's id."""
        async with self._connection() as connection:
            cursor = await connection.execute(
                "SELECT match_id FROM gamerec_matches WHERE status = %s"
                " ORDER BY created_ns, match_id",
                (OPEN,),
            )
            return [str(row[0]) for row in await cursor.fetchall()]

    async def summaries(
        self, status: mpb.MatchStatus.ValueType, limit: int, before: str
    ) -> list[mpb.MatchSummary]:
        """Matches newest first (see ``MatchStore.summaries``)."""
        clauses: list[str] = []
        values: list[object] = []
        if status:
            clauses.append("status = %s")
            values.append(status)
        if before:
            clauses.append(
                "(created_ns, match_id) < (SELECT created_ns, match_id FROM gamerec_matches"
                " WHERE match_id = %s)"
            )
            values.append(before)
        where = ("WHERE " + " AND ".join(clauses)) if clauses else ""
        async with self._connection() as connection:
            cursor = await connection.execute(
                f"SELECT summary FROM gamerec_matches {where}"
                " ORDER BY created_ns DESC, match_id DESC LIMIT %s",
                (*values, limit),
            )
            return [mpb.MatchSummary.FromString(row[0]) for row in await cursor.fetchall()]

    async def changes(self) -> list[Change]:
        """Events other server processes appended since the last call, in commit order.

        The events of this process's own appends are not reported (its referee has them).
        """
        notices = list(self._notices)
        self._notices.clear()
        if not notices:
            return []
        async with self._connection() as connection:
            cursor = await connection.execute(
                _EVENTS_OF,
                (
                    [notice.match_id for notice in notices],
                    [notice.first for notice in notices],
                    [notice.last for notice in notices],
                ),
            )
            rows = await cursor.fetchall()
        readable = readable_changes(rows)
        found = {(change.match_id, change.entry.event.number): change.entry for change in readable}
        changes = []
        for notice in notices:
            for number in range(notice.first, notice.last + 1):
                entry = found.get((notice.match_id, number))
                if entry is not None:
                    changes.append(Change(notice.match_id, entry))
        return changes

    async def start(self, now: Instant) -> Start:
        """Take the running lock: alone (exclusive, until :meth:`started`), or beside others."""
        psycopg = _psycopg()
        try:
            self._life = await psycopg.AsyncConnection.connect(
                self.url, autocommit=True, connect_timeout=CONNECT_SECONDS
            )
            await self._life.execute("SELECT pg_advisory_lock(%s, %s)", (LOCK_CLASS, STARTING_LOCK))
            alone = await _scalar(
                self._life, "SELECT pg_try_advisory_lock(%s, %s)", (LOCK_CLASS, RUNNING_LOCK)
            )
            if not alone:
                await self._life.execute(
                    "SELECT pg_advisory_lock_shared(%s, %s)", (LOCK_CLASS, RUNNING_LOCK)
                )
                return Start(alone=False, last_alive=None)
            self._exclusive = True
            cursor = await self._life.execute(
                "SELECT wall_ns, mono_ns, boot FROM gamerec_heartbeat"
            )
            row = await cursor.fetchone()
        except psycopg.Error as error:
            raise StoreError(f"{self.name}: cannot start: {error}") from None
        last = None if row is None else Instant(int(row[0]), int(row[1]), str(row[2]))
        return Start(alone=True, last_alive=last)

    async def started(self, now: Instant) -> None:
        """Beat once, hold the running lock shared, and let the next server start."""
        await self.heartbeat(now)
        assert self._life is not None
        if self._exclusive:
            await self._life.execute(
                "SELECT pg_advisory_lock_shared(%s, %s)", (LOCK_CLASS, RUNNING_LOCK)
            )
            await self._life.execute(
                "SELECT pg_advisory_unlock(%s, %s)", (LOCK_CLASS, RUNNING_LOCK)
            )
            self._exclusive = False
        await self._life.execute("SELECT pg_advisory_unlock(%s, %s)", (LOCK_CLASS, STARTING_LOCK))

    async def heartbeat(self, now: Instant) -> None:
        """Record that the service is up at ``now``."""
        async with self._connection() as connection:
            await connection.execute(
                "INSERT INTO gamerec_heartbeat VALUES (1, %s, %s, %s) ON CONFLICT (id) DO UPDATE"
                " SET wall_ns = excluded.wall_ns, mono_ns = excluded.mono_ns,"
                " boot = excluded.boot",
                (now.wall_ns, now.mono_ns, now.boot),
            )


async def _scalar(connection: Any, query: str, values: Sequence[Any]) -> Any:
    row = await (await connection.execute(query, values)).fetchone()
    return row[0] if row is not None else None


def final_records(
    url: str, statuses: Sequence[mpb.MatchStatus.ValueType], skipped: list[str] | None = None
) -> Iterator[pb.GameRecord]:
    """The final records of a database's matches of ``statuses``, oldest first (read only).

    A final record that cannot be read (a damaged store) is left out and named in ``skipped``.

    Raises:
        StoreError: the database cannot be reached or holds no match store.
    """
    psycopg = _psycopg()
    try:
        with (
            psycopg.connect(url, connect_timeout=CONNECT_SECONDS) as connection,
            connection.cursor(name="gamerec_export") as cursor,
        ):
            cursor.execute(
                "SELECT match_id, final FROM gamerec_matches WHERE status = ANY(%s)"
                " AND final IS NOT NULL ORDER BY created_ns, match_id",
                (list(statuses),),
            )
            for match_id, final in cursor:
                record = final_record(str(match_id), final, skipped)
                if record is not None:
                    yield record
    except psycopg.Error as error:
        raise StoreError(f"{shown(url)}: cannot read the match store: {error}") from None
