"""The event file: an SQLite database with a schema version (docs/events.md, "The event file").

Tables: ``meta`` (``schema``: the version; ``settings``: the settings as JSON), ``players``,
``rounds``, ``tables`` (one row per table of a round: seats, whether changed by hand, the
result's places, key and sources, JSON lists), ``byes`` and ``matches`` (a table's match on a
server and whether its result was adjudicated; a file made before it has none, and gains it
at its next change). :func:`editing` loads the event
in one ``BEGIN IMMEDIATE`` transaction, lets the caller change it, and writes it back in the
same transaction, so a refused change (any exception) leaves the file as it was.
"""

from __future__ import annotations

import json
import os
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from dataclasses import asdict
from fractions import Fraction
from typing import Any

from gamerec.recorder.errors import GamerecError
from gamerec.validator.events.model import (
    Event,
    Player,
    Result,
    Round,
    ServerMatch,
    Settings,
    Table,
)

#: The schema version this gamerec writes and the newest it reads.
SCHEMA = 1

_MATCHES = (
    "CREATE TABLE IF NOT EXISTS matches (round INTEGER NOT NULL, number INTEGER NOT NULL, "
    "server TEXT NOT NULL, match_id TEXT NOT NULL, host_key TEXT NOT NULL, "
    "start_at TEXT NOT NULL, adjudicated TEXT NOT NULL, PRIMARY KEY (round, number))"
)
_TABLES = (
    "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    "CREATE TABLE players (number INTEGER PRIMARY KEY, name TEXT NOT NULL UNIQUE, "
    "rating INTEGER, joined INTEGER NOT NULL, withdrawn INTEGER)",
    "CREATE TABLE rounds (number INTEGER PRIMARY KEY)",
    "CREATE TABLE tables (round INTEGER NOT NULL, number INTEGER NOT NULL, seats TEXT NOT NULL, "
    "manual INTEGER NOT NULL, ranks TEXT, key TEXT, sources TEXT, PRIMARY KEY (round, number))",
    "CREATE TABLE byes (round INTEGER NOT NULL, player TEXT NOT NULL, points TEXT NOT NULL, "
    "manual INTEGER NOT NULL, PRIMARY KEY (round, player))",
    _MATCHES,
)


class EventFileError(GamerecError):
    """An event file that cannot be read or made: missing, not an event file, too new."""


def _settings_json(settings: Settings) -> str:
    data: dict[str, Any] = asdict(settings)
    data["points"] = [str(p) for p in settings.points]
    data["bye_points"] = str(settings.bye_points)
    return json.dumps(data, sort_keys=True)


def _settings(text: str) -> Settings:
    data = json.loads(text)
    data["points"] = tuple(Fraction(p) for p in data["points"])
    data["bye_points"] = Fraction(data["bye_points"])
    data["tiebreaks"] = tuple(data["tiebreaks"])
    return Settings(**data)


def create(path: str, settings: Settings) -> Event:
    """Make a new event file at ``path`` (refused when a file is there)."""
    if os.path.lexists(path):
        raise EventFileError(f"{path}: a file is already there; an event file is made only anew")
    event = Event(settings)
    with closing(sqlite3.connect(path, isolation_level=None)) as db:
        db.execute("BEGIN IMMEDIATE")
        for statement in _TABLES:
            db.execute(statement)
        db.execute("INSERT INTO meta VALUES ('schema', ?)", (str(SCHEMA),))
        db.execute("INSERT INTO meta VALUES ('settings', ?)", (_settings_json(settings),))
        db.execute("COMMIT")
    return event


def _connect(path: str) -> sqlite3.Connection:
    if not os.path.isfile(path):
        raise EventFileError(f"{path}: no such event file (make one with gamerec event new)")
    return sqlite3.connect(f"file:{path}?mode=rw", uri=True, isolation_level=None, timeout=30)


def _check(db: sqlite3.Connection, path: str) -> None:
    try:
        row = db.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    except sqlite3.DatabaseError:
        raise EventFileError(f"{path}: not an event file (no gamerec event schema)") from None
    if row is None or not str(row[0]).isdigit():
        raise EventFileError(f"{path}: not an event file (no schema version)")
    if int(row[0]) > SCHEMA:
        raise EventFileError(
            f"{path}: an event file of schema version {row[0]}, newer than this gamerec "
            f"reads (version {SCHEMA}): open it with a newer gamerec"
        )


def _load(db: sqlite3.Connection) -> Event:
    settings = _settings(db.execute("SELECT value FROM meta WHERE key = 'settings'").fetchone()[0])
    event = Event(settings)
    for number, name, rating, joined, withdrawn in db.execute(
        "SELECT number, name, rating, joined, withdrawn FROM players ORDER BY number"
    ):
        event.players.append(Player(number, name, rating, joined, withdrawn))
    for (number,) in db.execute("SELECT number FROM rounds ORDER BY number"):
        event.rounds.append(Round(number))
    for round_, number, seats, manual, ranks, key, sources in db.execute(
        "SELECT round, number, seats, manual, ranks, key, sources FROM tables "
        "ORDER BY round, number"
    ):
        result = (
            None if ranks is None else Result(tuple(json.loads(ranks)), key, json.loads(sources))
        )
        event.rounds[round_ - 1].tables.append(
            Table(number, tuple(json.loads(seats)), bool(manual), result)
        )
    for round_, player, points, manual in db.execute(
        "SELECT round, player, points, manual FROM byes ORDER BY round, rowid"
    ):
        event.rounds[round_ - 1].byes[player] = Fraction(points)
        if manual:
            event.rounds[round_ - 1].manual_byes.add(player)
    _load_matches(db, event)
    return event


def _load_matches(db: sqlite3.Connection, event: Event) -> None:
    """The ``matches`` rows into their tables (a file made before that table has none)."""
    known = db.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'matches'")
    if known.fetchone() is None:
        return
    for round_, number, server, match_id, host_key, start_at, adjudicated in db.execute(
        "SELECT round, number, server, match_id, host_key, start_at, adjudicated FROM matches"
    ):
        table = event.rounds[round_ - 1].tables[number - 1]
        if match_id:
            table.match = ServerMatch(server, match_id, host_key, start_at)
        if table.result is not None:
            table.result.adjudicated = adjudicated


def _save(db: sqlite3.Connection, event: Event) -> None:
    db.execute(_MATCHES)
    for table in ("players", "rounds", "tables", "byes", "matches"):
        db.execute(f"DELETE FROM {table}")
    db.execute(
        "UPDATE meta SET value = ? WHERE key = 'settings'", (_settings_json(event.settings),)
    )
    db.executemany(
        "INSERT INTO players VALUES (?, ?, ?, ?, ?)",
        [(p.number, p.name, p.rating, p.joined, p.withdrawn) for p in event.players],
    )
    for made in event.rounds:
        db.execute("INSERT INTO rounds VALUES (?)", (made.number,))
        for seated in made.tables:
            result = seated.result
            db.execute(
                "INSERT INTO tables VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    made.number,
                    seated.number,
                    json.dumps(list(seated.seats)),
                    int(seated.manual),
                    None if result is None else json.dumps(list(result.ranks)),
                    None if result is None else result.key,
                    None if result is None else json.dumps(result.sources),
                ),
            )
        db.executemany(
            "INSERT INTO byes VALUES (?, ?, ?, ?)",
            [
                (made.number, name, str(points), int(name in made.manual_byes))
                for name, points in made.byes.items()
            ],
        )
        db.executemany(
            "INSERT INTO matches VALUES (?, ?, ?, ?, ?, ?, ?)",
            [
                (made.number, seated.number, *_match_row(seated))
                for seated in made.tables
                if seated.match is not None
                or (seated.result is not None and seated.result.adjudicated)
            ],
        )


def _match_row(table: Table) -> tuple[str, str, str, str, str]:
    """A table's ``matches`` columns after its round and number."""
    match = table.match or ServerMatch("", "", "")
    adjudicated = table.result.adjudicated if table.result is not None else ""
    return match.server, match.match_id, match.host_key, match.start_at, adjudicated


def load(path: str) -> Event:
    """The event of the file at ``path``, read only."""
    with closing(_connect(path)) as db:
        _check(db, path)
        return _loaded(db, path)


def _loaded(db: sqlite3.Connection, path: str) -> Event:
    """:func:`_load`, with what a damaged file raises said as an :class:`EventFileError`."""
    try:
        return _load(db)
    except (sqlite3.DatabaseError, ValueError, KeyError, TypeError, IndexError) as error:
        raise EventFileError(f"{path}: a damaged event file ({error})") from None


@contextmanager
def editing(path: str) -> Iterator[Event]:
    """Load the event, let the caller change it, save it; all in one transaction.

    When the caller raises, nothing is written.
    """
    with closing(_connect(path)) as db:
        try:
            db.execute("BEGIN IMMEDIATE")
        except sqlite3.DatabaseError as error:
            raise EventFileError(f"{path}: not an event file ({error})") from None
        try:
            _check(db, path)
            event = _loaded(db, path)
            yield event
            _save(db, event)
        except BaseException:
            db.execute("ROLLBACK")
            raise
        db.execute("COMMIT")
