"""MatchService in a server process: its settings, the host key, the store checked, run.

:func:`running_matches` opens the store, starts the referee for one server process and gives
the service to register beside RecordService; ``gamerec serve --matches FILE`` uses it. It may
import what :mod:`.rpcs` does and ``gamerec.validator.live.stores``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from gamerec.recorder.errors import GamerecError, bounded
from gamerec.recorder.signing import (
    fingerprint,
    load_private_key,
    load_public_key,
    new_key,
    public_bytes,
    write_key_pair,
)
from gamerec.validator.live.clocks import Clock, FileClock, SystemClock
from gamerec.validator.live.postgres_store import is_postgres
from gamerec.validator.live.referee import MatchLimits, Referee, RefereeTuning
from gamerec.validator.live.store import StoreError
from gamerec.validator.live.stores import describe, open_store, tuning_for
from gamerec.validator.service import metrics
from gamerec.validator.service.access import SeatFinder
from gamerec.validator.service.calls import LOGGER
from gamerec.validator.service.match_servicer.answering import MATCH_SERVICE_NAME
from gamerec.validator.service.match_servicer.rpcs import MatchServicer
from gamerec.validator.service.quotas import ClientLimits
from gamerec.validator.service.server import ExtraService

#: Seconds a seat of a timed match has for its untimed first ply (``--abort-after``).
DEFAULT_ABORT_AFTER: Final = 60.0


@dataclass(frozen=True, slots=True)
class MatchSettings:
    """How a server runs MatchService (picklable: server processes receive it).

    Attributes:
        store: the match store: a SQLite file, or a PostgreSQL URL (``postgresql://``).
        host_key: the host's private key file (seals and signs every record); "": none.
        limits: the service's limits.
        test_clock: a file whose number is the clock (tests; ``--test-clock``); "": the
            system clock.
        tuning: how often the referee polls the store and beats.
        host_key_made: the host key was made now (the store's default key file).
        abort_after: seconds a seat of a timed match has for its untimed first ply before
            the match is aborted (``--abort-after``; docs/live.md "When the clocks start").
    """

    store: str
    host_key: str = ""
    limits: MatchLimits = field(default_factory=MatchLimits)
    test_clock: str = ""
    tuning: RefereeTuning = field(default_factory=RefereeTuning)
    host_key_made: bool = False
    abort_after: float = DEFAULT_ABORT_AFTER

    def log_fields(self) -> dict[str, object]:
        """What the server's ``listening`` line says of the match service."""
        fields: dict[str, object] = {"matches": describe(self.store)}
        if self.host_key:
            fields["host_key"] = fingerprint(load_public_key(self.host_key))
            fields["host_key_file"] = self.host_key
        if self.host_key_made:
            fields["host_key_made"] = True
        if self.test_clock:
            fields["test_clock"] = self.test_clock
        return fields


def host_key_file(store: str, given: str) -> tuple[str, bool]:
    """The host key's file: ``given``, else ``STORE.host-key``, made if missing; and if made.

    A PostgreSQL store has no such file beside it: its servers must be given the key they
    all sign with.

    Raises:
        KeyFileError: the default key cannot be written.
        GamerecError: a PostgreSQL store without a key.
    """
    if given:
        return given, False
    if is_postgres(store):
        raise GamerecError(
            "--matches postgresql://...: give --host-key KEY, the host key every server on "
            "this store seals with (gamerec keys new FILE makes one)"
        )
    path = Path(f"{store}.host-key")
    if path.exists():
        return str(path), False
    write_key_pair(new_key(), path, "gamerec host")
    return str(path), True


def match_limits(settings: list[str]) -> MatchLimits:
    """The match service's limits, with ``NAME=N`` settings changed.

    Raises:
        GamerecError: an unknown name, or a value that is not a whole number >= 1.
    """
    try:
        return MatchLimits().with_settings(settings)
    except ValueError as error:
        raise GamerecError(f"--match-limit: {error}") from None


async def check_store(settings: MatchSettings) -> None:
    """Open the store with the host key and close it: a wrong file or key fails here.

    Raises:
        StoreError: the file cannot be opened as a match store, or is sealed with another key.
        KeyFileError: the host key cannot be read.
    """
    host = load_private_key(settings.host_key) if settings.host_key else None
    store = await open_store(settings.store, public_bytes(host) if host else b"")
    await store.close()


@dataclass(frozen=True, slots=True)
class RunningMatches:
    """The match service of a server process while it runs.

    Attributes:
        service: the service to register on the server.
        seat_of: finds a seat token's match and seat (for the gate).
        referee: the process's referee (the lobby creates its matches with it).
    """

    service: ExtraService
    seat_of: SeatFinder
    referee: Referee


#: Seconds between two readings of the open matches' count (a metric).
OPEN_COUNT_SECONDS: Final = 5.0


@contextlib.asynccontextmanager
async def running_matches(
    settings: MatchSettings, client_limits: ClientLimits | None = None
) -> AsyncIterator[RunningMatches]:
    """Open the store, start this process's referee; the service to register; stop it after.

    Raises:
        StoreError: the store cannot be opened (or is sealed with another host key).
        KeyFileError: the host key file cannot be read.
        ClockFileError: the test clock's file cannot be read.
    """
    host = load_private_key(settings.host_key) if settings.host_key else None
    clock: Clock = FileClock(settings.test_clock) if settings.test_clock else SystemClock()
    store = await open_store(settings.store, public_bytes(host) if host else b"")
    tuning = tuning_for(settings.store, settings.tuning)
    abort_after_ms = round(settings.abort_after * 1000)
    referee = Referee(store, clock, host, settings.limits, tuning, abort_after_ms=abort_after_ms)
    try:
        await referee.start()
    except BaseException:
        await store.close()
        raise
    for match_id, why in referee.damaged.items():
        message = bounded(
            f"match {match_id} cannot be loaded from the store and is not served: {why}", 400
        )
        LOGGER.error(
            message,
            extra={"fields": {"event": "damaged match", "match_id": match_id, "message": message}},
        )
    referee.on_stored = metrics.stored
    servicer = MatchServicer(referee, client_limits or ClientLimits())
    counting = asyncio.create_task(_count_open(referee)) if metrics.counting() else None
    try:
        yield RunningMatches(
            ExtraService(MATCH_SERVICE_NAME, servicer.register), referee.seat_of_token, referee
        )
    finally:
        if counting is not None:
            counting.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await counting
        await referee.stop()


async def _count_open(referee: Referee) -> None:
    """Keep the open matches' metric up to date."""
    while True:
        with contextlib.suppress(StoreError):
            metrics.open_matches(len(await referee.store.open_matches()))
        await asyncio.sleep(OPEN_COUNT_SECONDS)
