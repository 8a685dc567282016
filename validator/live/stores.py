"""The match store a ``--matches`` location names: a SQLite file, or a PostgreSQL URL.

``gamerec serve --matches matches.db`` keeps matches in one SQLite file (one machine);
``--matches postgresql://USER@HOST/DB`` keeps them in PostgreSQL, which several servers on
several machines share (``postgres_store``). ``gamerec match export`` reads either.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.postgres_store import PostgresMatchStore, is_postgres, shown
from gamerec.validator.live.postgres_store import final_records as postgres_records
from gamerec.validator.live.referee import RefereeTuning
from gamerec.validator.live.sqlite_store import SQLiteMatchStore
from gamerec.validator.live.sqlite_store import final_records as sqlite_records
from gamerec.validator.live.store import MatchStore

#: How often a referee on PostgreSQL takes the other servers' events: they arrive by
#: notification, so a poll that finds none costs nothing but a wake-up.
POSTGRES_TUNING = RefereeTuning(poll_seconds=0.005)

__all__ = ["describe", "final_records", "open_store", "tuning_for"]


async def open_store(location: str, host_key: bytes) -> MatchStore:
    """The store at ``location``, opened for a referee sealing with ``host_key``.

    Raises:
        StoreError: it cannot be opened, or its matches are sealed with another key.
    """
    if is_postgres(location):
        return await PostgresMatchStore(location).open(host_key)
    return await SQLiteMatchStore(location).open(host_key)


def tuning_for(location: str, tuning: RefereeTuning) -> RefereeTuning:
    """The referee's tuning for the store at ``location`` (``tuning``, unless changed)."""
    if is_postgres(location) and tuning == RefereeTuning():
        return POSTGRES_TUNING
    return tuning


def final_records(
    location: str,
    statuses: Sequence[mpb.MatchStatus.ValueType],
    skipped: list[str] | None = None,
) -> Iterator[pb.GameRecord]:
    """The final records of the store's matches of ``statuses``, oldest first (read only).

    A final record that cannot be read is left out and named in ``skipped`` (one line each).

    Raises:
        StoreError: the store cannot be read.
    """
    if is_postgres(location):
        return postgres_records(location, statuses, skipped)
    return sqlite_records(location, statuses, skipped)


def describe(location: str) -> str:
    """The location as logs show it (a URL without its password)."""
    return shown(location)
