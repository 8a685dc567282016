"""The embedded match store: one SQLite file in WAL mode (``gamerec serve --matches FILE``).

Any number of processes on one machine may open the same file. Writes go through one thread
per process with its own connection, in transactions of ``BEGIN IMMEDIATE`` (SQLite takes the
database's write lock at once, so writers queue up there) and ``synchronous=FULL`` (a commit
is on disk before it returns: a power cut loses nothing acknowledged; a SIGKILL never could).
Writes that arrive together are committed together (group commit): each is one savepoint of
the same transaction, so a conditional append that finds the log moved on changes nothing
while the others commit, and one disk flush serves them all. Reads go through a second
thread and connection; WAL lets them run beside the writers.

:meth:`SQLiteMatchStore.changes` polls the events table by its ``seq`` column: SQLite
serializes writers, so ``seq`` order is commit order, and ``PRAGMA data_version`` (which
moves only when another connection commits) makes a poll that finds nothing cost a few
microseconds.

Which process runs alone is told by a lock on a file beside the database (``FILE-alive``,
``flock``): every running process holds a shared lock on it; a starting process that can take
it exclusively is alone (the kernel drops the locks of a process that dies, SIGKILL included).
Processes start one at a time (``FILE-starting``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import os
import queue
import sqlite3
import threading
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final, TypeVar

from gamerec.recorder.signing import fingerprint
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.clocks import Instant
from gamerec.validator.live.match import OPEN, Logged
from gamerec.validator.live.sqlite_file import (
    _EVENT_COLUMNS,
    _SCHEMA,
    SCHEMA_VERSION,
    _add_creators,
    _connect,
    _summary_filter,
    final_records,
)
from gamerec.validator.live.store import (
    Change,
    NewMatch,
    OpenMatchesLimitError,
    Start,
    StoreError,
    check_open_matches,
    event_row,
    readable_changes,
    seat_rows,
    stored_event,
)

__all__ = [
    "MOST_PER_COMMIT",
    "MOST_PER_POLL",
    "SCHEMA_VERSION",
    "SQLiteMatchStore",
    "check_open_matches",
    "final_records",
]

T = TypeVar("T")

#: The most writes one transaction takes.
MOST_PER_COMMIT: Final = 512
#: The most events one poll reads.
MOST_PER_POLL: Final = 4096


@dataclass(slots=True)
class _Write:
    """One write waiting for the writer thread, and where its answer goes."""

    work: Callable[[sqlite3.Connection], Any]
    loop: asyncio.AbstractEventLoop
    future: asyncio.Future[Any]


class SQLiteMatchStore:
    """The embedded :class:`~gamerec.validator.live.store.MatchStore` (module docstring).

    Open it with :meth:`open`; it checks that the file's matches are sealed with this host
    key (``host_key``, the 32-byte public key; empty: unsealed matches).
    """

    def __init__(self, path: str | Path) -> None:
        """Prepare to use the database at ``path`` (created if missing)."""
        self.path = Path(path)
        self._writes: queue.SimpleQueue[_Write | None] = queue.SimpleQueue()
        self._writer: threading.Thread | None = None
        self._reader = ThreadPoolExecutor(1, thread_name_prefix="gamerec-store-reader")
        self._read: sqlite3.Connection | None = None
        self._cursor = 0
        self._data_version = -1
        self._alive_fd: int | None = None
        self._starting_fd: int | None = None

    # -- opening and closing --------------------------------------------------------------------

    async def open(self, host_key: bytes) -> SQLiteMatchStore:
        """Create the tables if needed, check the host key, start the threads.

        Raises:
            StoreError: the file cannot be opened as a match store, or its matches are
                sealed with another host key.
        """
        try:
            connection = _connect(self.path)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot open the match store: {error}") from None
        try:
            self._prepare(connection, host_key)
        except sqlite3.Error as error:
            connection.close()
            raise StoreError(f"{self.path}: not a match store ({error})") from None
        except StoreError:
            connection.close()
            raise
        self._writer = threading.Thread(
            target=self._write_loop, args=(connection,), name="gamerec-store-writer", daemon=True
        )
        self._writer.start()
        await self._reading(self._open_reader)
        return self

    def _prepare(self, connection: sqlite3.Connection, host_key: bytes) -> None:
        connection.execute("BEGIN IMMEDIATE")
        try:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    connection.execute(statement)
        except sqlite3.Error:
            connection.execute("ROLLBACK")
            raise
        meta = dict(connection.execute("SELECT key, value FROM meta").fetchall())
        schema = meta.get("schema", SCHEMA_VERSION)
        named = fingerprint(host_key) if host_key else "none"
        if schema != SCHEMA_VERSION:
            connection.execute("ROLLBACK")
            raise StoreError(
                f"{self.path}: a match store of version {schema}, not {SCHEMA_VERSION}"
            )
        if meta.get("host_key", named) != named:
            connection.execute("ROLLBACK")
            raise StoreError(
                f"{self.path}: its matches are sealed with the host key {meta['host_key']}, "
                f"not {named}: give that key (--host-key)"
            )
        _add_creators(connection)
        connection.execute("INSERT OR IGNORE INTO meta VALUES ('schema', ?)", (SCHEMA_VERSION,))
        connection.execute("INSERT OR IGNORE INTO meta VALUES ('host_key', ?)", (named,))
        connection.execute("COMMIT")

    def _open_reader(self) -> None:
        self._read = _connect(self.path)
        row = self._read.execute("SELECT COALESCE(MAX(seq), 0) FROM events").fetchone()
        self._cursor = int(row[0])

    async def close(self) -> None:
        """Finish the writes queued, stop the threads, release the running lock."""
        if self._writer is not None:
            self._writes.put(None)
            await asyncio.to_thread(self._writer.join)
            self._writer = None
        if self._read is not None:
            read, self._read = self._read, None
            await self._reading(read.close)
        self._reader.shutdown(wait=True)
        for fd in (self._alive_fd, self._starting_fd):
            if fd is not None:
                os.close(fd)
        self._alive_fd = self._starting_fd = None

    # -- the two threads ------------------------------------------------------------------------

    async def _reading(self, work: Callable[[], T]) -> T:
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(self._reader, work)
        except sqlite3.Error as error:
            raise StoreError(f"{self.path}: cannot read the match store: {error}") from None

    async def _writing(self, work: Callable[[sqlite3.Connection], T]) -> T:
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._writes.put(_Write(work, loop, future))
        return await future

    def _write_loop(self, connection: sqlite3.Connection) -> None:
        """Commit the queued writes, those that came together in one transaction."""
        try:
            while (first := self._writes.get()) is not None:
                batch = [first]
                stopping = False
                while len(batch) < MOST_PER_COMMIT:
                    try:
                        more = self._writes.get_nowait()
                    except queue.Empty:
                        break
                    if more is None:
                        stopping = True
                        break
                    batch.append(more)
                self._commit(connection, batch)
                if stopping:
                    break
        finally:
            connection.close()

    def _commit(self, connection: sqlite3.Connection, batch: list[_Write]) -> None:
        answers: list[tuple[_Write, Any, BaseException | None]] = []
        try:
            connection.execute("BEGIN IMMEDIATE")
            for write in batch:
                answers.append((write, *self._attempt(connection, write)))
            connection.execute("COMMIT")
        except sqlite3.Error as error:
            with contextlib.suppress(sqlite3.Error):
                connection.execute("ROLLBACK")
            failure = StoreError(f"{self.path}: a write failed and was undone: {error}")
            answers = [(write, None, failure) for write in batch]
        for write, value, problem in answers:
            write.loop.call_soon_threadsafe(_settle, write.future, value, problem)

    @staticmethod
    def _attempt(connection: sqlite3.Connection, write: _Write) -> tuple[Any, BaseException | None]:
        """One write as a savepoint: undone alone when it fails."""
        connection.execute("SAVEPOINT write")
        try:
            value = write.work(connection)
        except (sqlite3.IntegrityError, OpenMatchesLimitError) as problem:
            connection.execute("ROLLBACK TO write")
            connection.execute("RELEASE write")
            return None, problem
        connection.execute("RELEASE write")
        return value, None

    # -- the interface --------------------------------------------------------------------------

    async def create_many(
        self,
        matches: Sequence[NewMatch],
        most_open: int,
        *,
        creator: str = "",
        most_by_creator: int = 0,
    ) -> None:
        """Store new matches, all or none: one savepoint (see ``MatchStore.create_many``)."""

        def work(connection: sqlite3.Connection) -> None:
            (count,) = connection.execute(
                "SELECT COUNT(*) FROM matches WHERE status = ?", (OPEN,)
            ).fetchone()
            check_open_matches(count, most_open, adding=len(matches))
            if creator and most_by_creator:
                (mine,) = connection.execute(
                    "SELECT COUNT(*) FROM matches WHERE status = ? AND creator = ?",
                    (OPEN, creator),
                ).fetchone()
                check_open_matches(mine, most_by_creator, creator, adding=len(matches))
            connection.executemany(
                "INSERT INTO matches (match_id, created_ns, status, events, tokens, summary,"
                " final, creator) VALUES (?, ?, ?, 1, ?, ?, NULL, ?)",
                [
                    (new.created.event.match_id, new.created.at.wall_ns, OPEN,
                     b"".join(new.token_hashes), new.summary.SerializeToString(), creator)
                    for new in matches
                ],
            )  # fmt: skip
            connection.executemany(
                "INSERT OR IGNORE INTO seat_tokens VALUES (?, ?, ?)", seat_rows(matches)
            )
            connection.executemany(
                f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)",
                [event_row(new.created) for new in matches],
            )

        await self._writing(work)

    async def append(
        self,
        match_id: str,
        events: Sequence[Logged],
        expected: int,
        summary: mpb.MatchSummary,
        final_record: pb.GameRecord | None,
    ) -> bool:
        """Append if the log ends at ``expected`` (see ``MatchStore.append``)."""
        rows = [event_row(entry) for entry in events]
        final = final_record.SerializeToString() if final_record is not None else None

        def work(connection: sqlite3.Connection) -> bool:
            moved = connection.execute(
                "UPDATE matches SET events = ?, status = ?, summary = ?, final = COALESCE(?, final)"
                " WHERE match_id = ? AND events = ?",
                (
                    expected + len(rows),
                    summary.status,
                    summary.SerializeToString(),
                    final,
                    match_id,
                    expected,
                ),
            ).rowcount
            if not moved:
                return False
            connection.executemany(
                f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?)", rows
            )
            return True

        try:
            return bool(await self._writing(work))
        except sqlite3.IntegrityError:
            return False

    async def log(self, match_id: str, after: int = 0) -> list[Logged]:
        """The match's events after ``after``."""

        def read() -> list[Logged]:
            assert self._read is not None
            rows = self._read.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE match_id = ? AND number > ?"
                " ORDER BY number",
                (match_id, after),
            ).fetchall()
            return [stored_event(row) for row in rows]

        return await self._reading(read)

    async def token_hashes(self, match_id: str) -> tuple[bytes, ...] | None:
        """The seats' token hashes, None for an unknown match."""

        def read() -> tuple[bytes, ...] | None:
            assert self._read is not None
            row = self._read.execute(
                "SELECT tokens FROM matches WHERE match_id = ?", (match_id,)
            ).fetchone()
            if row is None:
                return None
            tokens = bytes(row[0])
            return tuple(tokens[i : i + 32] for i in range(0, len(tokens), 32))

        return await self._reading(read)

    async def seat_of_token(self, digest: bytes) -> tuple[str, int] | None:
        """The match and seat of a seat token's hash (see ``MatchStore.seat_of_token``)."""

        def read() -> tuple[str, int] | None:
            assert self._read is not None
            row = self._read.execute(
                "SELECT match_id, seat FROM seat_tokens WHERE digest = ?", (digest,)
            ).fetchone()
            return None if row is None else (str(row[0]), int(row[1]))

        return await self._reading(read)

    async def open_matches(self) -> list[str]:
        """Every open match's id."""

        def read() -> list[str]:
            assert self._read is not None
            rows = self._read.execute(
                "SELECT match_id FROM matches WHERE status = ? ORDER BY created_ns, rowid", (OPEN,)
            )
            return [str(row[0]) for row in rows]

        return await self._reading(read)

    async def summaries(
        self, status: mpb.MatchStatus.ValueType, limit: int, before: str
    ) -> list[mpb.MatchSummary]:
        """Matches newest first (see ``MatchStore.summaries``)."""

        def read() -> list[mpb.MatchSummary]:
            assert self._read is not None
            where, values = _summary_filter(status, before)
            rows = self._read.execute(
                f"SELECT summary FROM matches {where} ORDER BY created_ns DESC, rowid DESC LIMIT ?",
                (*values, limit),
            )
            return [mpb.MatchSummary.FromString(row[0]) for row in rows]

        return await self._reading(read)

    async def changes(self) -> list[Change]:
        """Events appended since the last call, by any process, in commit order."""

        def read() -> list[Change]:
            assert self._read is not None
            (version,) = self._read.execute("PRAGMA data_version").fetchone()
            if version == self._data_version:
                return []
            rows = self._read.execute(
                f"SELECT seq, {_EVENT_COLUMNS} FROM events WHERE seq > ? ORDER BY seq LIMIT ?",
                (self._cursor, MOST_PER_POLL),
            ).fetchall()
            if len(rows) < MOST_PER_POLL:
                self._data_version = version  # all read: poll again only after a commit
            if rows:
                self._cursor = int(rows[-1][0])
            return readable_changes(rows)

        return await self._reading(read)

    async def start(self, now: Instant) -> Start:
        """Take the running lock: alone (exclusive, until :meth:`started`), or beside others.

        Starts are one at a time (a lock on ``FILE-starting``, held until :meth:`started`), so
        no process starts while the one that found itself alone records the outages.
        """
        self._starting_fd = os.open(f"{self.path}-starting", os.O_RDWR | os.O_CREAT, 0o600)
        await asyncio.to_thread(fcntl.flock, self._starting_fd, fcntl.LOCK_EX)
        self._alive_fd = os.open(f"{self.path}-alive", os.O_RDWR | os.O_CREAT, 0o600)
        try:
            fcntl.flock(self._alive_fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            fcntl.flock(self._alive_fd, fcntl.LOCK_SH)
            return Start(alone=False, last_alive=None)

        def read() -> Instant | None:
            assert self._read is not None
            row = self._read.execute("SELECT wall_ns, mono_ns, boot FROM heartbeat").fetchone()
            return None if row is None else Instant(int(row[0]), int(row[1]), str(row[2]))

        return Start(alone=True, last_alive=await self._reading(read))

    async def started(self, now: Instant) -> None:
        """Beat once, hold the running lock shared, and let the next process start."""
        await self.heartbeat(now)
        if self._alive_fd is not None:
            fcntl.flock(self._alive_fd, fcntl.LOCK_SH)
        if self._starting_fd is not None:
            os.close(self._starting_fd)
            self._starting_fd = None

    async def heartbeat(self, now: Instant) -> None:
        """Record that the service is up at ``now``."""

        def work(connection: sqlite3.Connection) -> None:
            connection.execute(
                "INSERT OR REPLACE INTO heartbeat VALUES (1, ?, ?, ?)",
                (now.wall_ns, now.mono_ns, now.boot),
            )

        await self._writing(work)


def _settle(future: asyncio.Future[Any], value: Any, problem: BaseException | None) -> None:
    if future.done():
        return
    if problem is None:
        future.set_result(value)
    else:
        future.set_exception(problem)
