"""The match store's SQLite file: its tables, its connections, its final records read alone.

The schema (``SCHEMA_VERSION``), a connection in WAL mode with ``synchronous=FULL`` and a
busy timeout, the upgrade of a store made before creators, the filter of ListMatches, and
:func:`final_records`, which reads a store's final records read-only without opening it as a
store. :mod:`.sqlite_store` runs the store over them. It may import ``gamerec.v1`` and
:mod:`.store`.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Final

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.store import StoreError, final_record

#: The version of the tables below (``meta.schema``).
SCHEMA_VERSION: Final = "1"
#: Seconds a writer waits for another process's write lock before it fails.
BUSY_SECONDS: Final = 30

_SCHEMA: Final = """
CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS matches (
    match_id TEXT PRIMARY KEY,
    created_ns INTEGER NOT NULL,
    status INTEGER NOT NULL,
    events INTEGER NOT NULL,
    tokens BLOB NOT NULL,
    summary BLOB NOT NULL,
    final BLOB
);
CREATE INDEX IF NOT EXISTS matches_by_status ON matches (status, created_ns);
CREATE INDEX IF NOT EXISTS matches_by_time ON matches (created_ns);
CREATE TABLE IF NOT EXISTS events (
    seq INTEGER PRIMARY KEY AUTOINCREMENT,
    match_id TEXT NOT NULL,
    number INTEGER NOT NULL,
    wall_ns INTEGER NOT NULL,
    mono_ns INTEGER NOT NULL,
    boot TEXT NOT NULL,
    body BLOB NOT NULL,
    UNIQUE (match_id, number)
);
CREATE TABLE IF NOT EXISTS seat_tokens (
    digest BLOB PRIMARY KEY,
    match_id TEXT NOT NULL,
    seat INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS heartbeat (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    wall_ns INTEGER NOT NULL,
    mono_ns INTEGER NOT NULL,
    boot TEXT NOT NULL
);
"""

_EVENT_COLUMNS: Final = "match_id, number, wall_ns, mono_ns, boot, body"


def _connect(path: Path, *, read_only: bool = False) -> sqlite3.Connection:
    """A connection in autocommit mode (transactions are begun explicitly), WAL, FULL sync."""
    if read_only:
        connection = sqlite3.connect(
            f"file:{path}?mode=ro", uri=True, isolation_level=None, check_same_thread=False
        )
    else:
        connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute(f"PRAGMA busy_timeout = {BUSY_SECONDS * 1000}")
    if not read_only:
        connection.execute("PRAGMA journal_mode = WAL")
        connection.execute("PRAGMA synchronous = FULL")
    return connection


def _add_creators(connection: sqlite3.Connection) -> None:
    """Bring a store made before creators and the seat token index up to date."""
    columns = {row[1] for row in connection.execute("PRAGMA table_info(matches)")}
    if "creator" in columns:
        return
    connection.execute("ALTER TABLE matches ADD COLUMN creator TEXT NOT NULL DEFAULT ''")
    connection.execute("CREATE INDEX IF NOT EXISTS matches_by_creator ON matches (creator, status)")
    for match_id, tokens in connection.execute("SELECT match_id, tokens FROM matches").fetchall():
        digests = [bytes(tokens[i : i + 32]) for i in range(0, len(tokens), 32)]
        connection.executemany(
            "INSERT OR IGNORE INTO seat_tokens VALUES (?, ?, ?)",
            [(digest, match_id, seat) for seat, digest in enumerate(digests, 1)],
        )


def _summary_filter(
    status: mpb.MatchStatus.ValueType, before: str
) -> tuple[str, tuple[object, ...]]:
    clauses: list[str] = []
    values: list[object] = []
    if status:
        clauses.append("status = ?")
        values.append(status)
    if before:
        clauses.append(
            "(created_ns, rowid) < (SELECT created_ns, rowid FROM matches WHERE match_id = ?)"
        )
        values.append(before)
    return ("WHERE " + " AND ".join(clauses) if clauses else ""), tuple(values)


def final_records(
    path: str | Path,
    statuses: Sequence[mpb.MatchStatus.ValueType],
    skipped: list[str] | None = None,
) -> Iterator[pb.GameRecord]:
    """The final records of a store's matches of ``statuses``, oldest first (read only).

    A final record that cannot be read (a damaged store) is left out and named in ``skipped``.

    Raises:
        StoreError: the file is missing or not a match store.
    """
    path = Path(path)
    if not path.is_file():
        raise StoreError(f"{path}: no such match store")
    try:
        connection = _connect(path, read_only=True)
        marks = ", ".join("?" for _ in statuses)
        rows = connection.execute(
            f"SELECT match_id, final FROM matches WHERE status IN ({marks}) "
            "AND final IS NOT NULL ORDER BY created_ns, rowid",
            tuple(statuses),
        )
        try:
            for match_id, final in rows:
                record = final_record(str(match_id), final, skipped)
                if record is not None:
                    yield record
        finally:
            connection.close()
    except sqlite3.Error as error:
        raise StoreError(f"{path}: cannot read the match store: {error}") from None
