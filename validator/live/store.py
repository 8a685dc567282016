"""The match store: where live matches are kept, and the one judge of which event is accepted.

The store is the source of truth. A match is its log of events (:class:`~gamerec.validator.
live.match.Logged`, numbered from 1); an event is accepted only by :meth:`MatchStore.append`,
a conditional append in one transaction that succeeds only when the log still ends where the
referee saw it end (``expected``), and is committed before the referee answers anyone. So
several server processes (or servers) sharing one store can never both accept a ply, and a
timer's flag is appended exactly once however many processes run timers.

Beside the log the store keeps, per match, the seats' token hashes (looked up by hash too:
the gate finds a seat token's match and seat), who created it, a summary for lists and,
once the match is over, its final record (for ``gamerec match export``); and for the whole
service a heartbeat, from which a server that starts alone learns how long the service was
down (:meth:`MatchStore.start`).

:class:`MatchStore` is the interface; ``sqlite_store`` is the embedded backend (one file,
WAL, any number of processes on one machine). Another backend (PostgreSQL, several machines)
implements the same methods; its :meth:`~MatchStore.changes` must give every process every
event appended by another, in the order of their commits.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from google.protobuf.message import DecodeError

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.clocks import Instant
from gamerec.validator.live.match import Logged, MatchLogError


class StoreError(GamerecError):
    """The store cannot do the job: it cannot be opened, or a write failed."""


class OpenMatchesLimitError(StoreError):
    """The server holds as many open matches as its limit allows (or the creator does).

    Attributes:
        limit: the limit reached: ``open_matches`` or ``admin_open_matches``.
    """

    def __init__(self, message: str, limit: str = "open_matches") -> None:
        """Say which limit and how."""
        super().__init__(message)
        self.limit = limit


@dataclass(frozen=True, slots=True)
class NewMatch:
    """A match to store: its first event, its seats' token hashes (seat order), its summary."""

    created: Logged
    token_hashes: tuple[bytes, ...]
    summary: mpb.MatchSummary


@dataclass(frozen=True, slots=True)
class Change:
    """An event appended to some match's log, as :meth:`MatchStore.changes` reports it."""

    match_id: str
    entry: Logged


@dataclass(frozen=True, slots=True)
class Start:
    """What :meth:`MatchStore.start` found.

    Attributes:
        alone: no other server process was running on this store.
        last_alive: when alone, the last moment the service is known to have been up (its
            last heartbeat), if it ever ran; None otherwise.
    """

    alone: bool
    last_alive: Instant | None


def stored_event(row: Sequence[Any]) -> Logged:
    """An event as a store reads it back, from ``(..., match_id, number, wall, mono, boot, body)``.

    Raises:
        MatchLogError: the body is not that event (a damaged store), naming the match and event.
    """
    match_id, number, wall_ns, mono_ns, boot, body = row[-6:]
    where = f"match {str(match_id)[:64]} event {number}"
    try:
        event = mpb.MatchEvent.FromString(bytes(body))
    except DecodeError as error:
        raise MatchLogError(f"{where}: the stored event cannot be read ({error})") from None
    if event.match_id != match_id or event.number != number:
        raise MatchLogError(
            f"{where}: the stored event says it is match {event.match_id[:64]!r} event "
            f"{event.number}"
        )
    return Logged(event, Instant(int(wall_ns), int(mono_ns), str(boot)))


def event_row(entry: Logged) -> tuple[str, int, int, int, str, bytes]:
    """A stored event's row: (match, number, wall_ns, mono_ns, boot, body)."""
    event, at = entry.event, entry.at
    return (
        event.match_id,
        event.number,
        at.wall_ns,
        at.mono_ns,
        at.boot,
        event.SerializeToString(),
    )


def seat_rows(matches: Sequence[NewMatch]) -> list[tuple[bytes, str, int]]:
    """The seat token index's rows of new matches: (digest, match, seat)."""
    return [
        (digest, new.created.event.match_id, seat)
        for new in matches
        for seat, digest in enumerate(new.token_hashes, 1)
    ]


def readable_changes(rows: Iterable[Sequence[Any]]) -> list[Change]:
    """The changes of rows ``(..., match_id, number, wall_ns, mono_ns, boot, body)``.

    A damaged event is left out: the referee that holds its match finds the gap, reloads
    the match from the store and reports the damage then.
    """
    changes = []
    for row in rows:
        with contextlib.suppress(MatchLogError):
            changes.append(Change(str(row[-6]), stored_event(row)))
    return changes


def final_record(match_id: str, body: bytes, skipped: list[str] | None) -> pb.GameRecord | None:
    """A match's final record as a store reads it back; None (named in ``skipped``): damaged."""
    try:
        return pb.GameRecord.FromString(bytes(body))
    except DecodeError as error:
        if skipped is not None:
            skipped.append(f"match {match_id[:64]}: its final record cannot be read ({error})")
        return None


class MatchStore(Protocol):
    """Where matches are kept (see the module docstring)."""

    async def create_many(
        self,
        matches: Sequence[NewMatch],
        most_open: int,
        *,
        creator: str = "",
        most_by_creator: int = 0,
    ) -> None:
        """Store new matches in one transaction: all of them, or none (a bulk creation).

        Raises:
            OpenMatchesLimitError: they do not all fit under ``most_open`` open matches, or
                under the creator's ``most_by_creator``; nothing was stored.
            StoreError: the write failed; nothing was stored.
        """
        ...

    async def seat_of_token(self, digest: bytes) -> tuple[str, int] | None:
        """The match and seat (1-based) whose token has this SHA-256; None: no seat's."""
        ...

    async def append(
        self,
        match_id: str,
        events: Sequence[Logged],
        expected: int,
        summary: mpb.MatchSummary,
        final_record: pb.GameRecord | None,
    ) -> bool:
        """Append ``events`` if the match's log ends at event ``expected``; committed on True.

        ``summary`` (and, once the match is over, ``final_record``) replace the stored ones
        in the same transaction. False: the log has moved on (another process appended).

        Raises:
            StoreError: the write failed (nothing was appended).
        """
        ...

    async def log(self, match_id: str, after: int = 0) -> list[Logged]:
        """The match's events after event number ``after`` (empty for an unknown match)."""
        ...

    async def token_hashes(self, match_id: str) -> tuple[bytes, ...] | None:
        """The seats' token hashes in seat order; None for an unknown match."""
        ...

    async def open_matches(self) -> list[str]:
        """The ids of every open match."""
        ...

    async def summaries(
        self, status: mpb.MatchStatus.ValueType, limit: int, before: str
    ) -> list[mpb.MatchSummary]:
        """Matches newest first: of ``status`` (unspecified: any), created before ``before``."""
        ...

    async def changes(self) -> list[Change]:
        """Every event appended since the last call (by any process), in commit order.

        The first call reports what was appended since the store was opened.
        """
        ...

    async def start(self, now: Instant) -> Start:
        """Register this server process as running; say whether it is the only one.

        When it is alone, the caller records the outage of every open match (from
        ``last_alive`` to ``now``) and then calls :meth:`started`.
        """
        ...

    async def started(self, now: Instant) -> None:
        """The outages are recorded: other processes may start beside this one."""
        ...

    async def heartbeat(self, now: Instant) -> None:
        """Record that the service is up at ``now``."""
        ...

    async def close(self) -> None:
        """Stop using the store (a last heartbeat first, when the caller sent one)."""
        ...


async def create_one(
    store: MatchStore,
    created: Logged,
    token_hashes: Sequence[bytes],
    summary: mpb.MatchSummary,
    most_open: int,
    *,
    creator: str = "",
    most_by_creator: int = 0,
) -> None:
    """Store one new match: its first event and its seats' token hashes (``create_many``).

    ``creator`` names who created it; ``most_by_creator`` (0: no bound) bounds the open
    matches of one creator.

    Raises:
        OpenMatchesLimitError: ``most_open`` matches are open already, or the creator's
            ``most_by_creator``.
        StoreError: the write failed.
    """
    new = NewMatch(created, tuple(token_hashes), summary)
    await store.create_many([new], most_open, creator=creator, most_by_creator=most_by_creator)


def check_open_matches(count: int, most: int, creator: str = "", *, adding: int = 1) -> None:
    """Refuse ``adding`` new matches when ``count`` open ones and they pass ``most``.

    ``most`` is the creator's limit when ``creator`` is named, else the server's.

    Raises:
        OpenMatchesLimitError: the limit is reached.
    """
    if count + adding <= most:
        return
    if adding > 1:
        whose, limit = (
            (f"admin {creator!r} has", "admin-open-matches")
            if creator
            else ("the server holds", "open-matches")
        )
        raise OpenMatchesLimitError(
            f"{whose} {count:,} open matches; {adding:,} more would pass its limit of "
            f"{most:,} (limit {limit})",
            "admin_open_matches" if creator else "open_matches",
        )
    if creator:
        raise OpenMatchesLimitError(
            f"admin {creator!r} has {count:,} open matches, its limit (limit admin-open-matches)",
            "admin_open_matches",
        )
    raise OpenMatchesLimitError(
        f"the server holds {count:,} open matches, its limit (limit open-matches)"
    )
