"""The matches one process holds: loaded from the store, commands stored, timers, polling.

:class:`RefereeCore` holds the matches (their state in memory, their seats' tokens, the
finished ones kept for late calls), runs a command through the store's conditional append,
publishes what is stored to the watchers and the flag timer, and applies the events other
processes append; :class:`~.calls.Referee` is the calls made on it. It may import
``gamerec.recorder``, ``gamerec.v1`` and ``gamerec.validator.live`` (``clocks``, ``flags``,
``match``, ``store``).
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import OrderedDict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Final

from gamerec.recorder.errors import GamerecError
from gamerec.validator.live.clocks import Clock, Instant
from gamerec.validator.live.flags import FlagTimer
from gamerec.validator.live.match import Logged, Match, MatchLogError, Outcome
from gamerec.validator.live.referee.limits import MatchLimits
from gamerec.validator.live.store import MatchStore, StoreError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


#: Finished matches kept in memory for late calls (GetMatch, the seats' final signatures).
FINISHED_KEPT: Final = 256
#: Times a command is decided again when other processes keep appending first.
ATTEMPTS: Final = 5


class UnknownMatchError(GamerecError):
    """No match has this id."""

    def __init__(self, match_id: str) -> None:
        """Name the id (cut when long)."""
        self.match_id = match_id
        super().__init__(f"no match {match_id[:64]!r} on this server")


@dataclass(slots=True)
class _Held:
    """A match this process holds, with what its watchers and timer need."""

    match_id: str
    tokens: tuple[bytes, ...]
    match: Match | None = None
    published: int = 0
    over: bool = False
    watchers: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    changed: asyncio.Event = field(default_factory=asyncio.Event)

    def wake(self) -> None:
        """Wake whatever waits for the next change."""
        woken, self.changed = self.changed, asyncio.Event()
        woken.set()


@dataclass(frozen=True, slots=True)
class RefereeTuning:
    """How often the referee polls the store and beats."""

    poll_seconds: float = 0.02
    heartbeat_seconds: float = 0.5


class RefereeCore:
    """The matches this process holds (see the module docstring); :class:`~.calls.Referee` calls."""

    def __init__(
        self,
        store: MatchStore,
        clock: Clock,
        host_key: Ed25519PrivateKey | None,
        limits: MatchLimits = MatchLimits(),  # noqa: B008 (frozen, like RefereeTuning)
        tuning: RefereeTuning = RefereeTuning(),
        *,
        abort_after_ms: int | None = None,
    ) -> None:
        """Referee with these parts; :meth:`start` before the first call."""
        self.store = store
        self.clock = clock
        self.host_key = host_key
        self.limits = limits
        self.tuning = tuning
        self.abort_after_ms = abort_after_ms
        self._held: dict[str, _Held] = {}
        self._seat_tokens: dict[bytes, tuple[str, int]] = {}
        #: Called with the events of every append this process stores and the seconds the
        #: store took (metrics); None: nothing.
        self.on_stored: Callable[[Sequence[Logged], float], None] | None = None
        self._finished: OrderedDict[str, None] = OrderedDict()
        self._tasks: list[asyncio.Task[None]] = []
        self._flags = FlagTimer(clock, self._flag_fell)
        #: The open matches :meth:`start` could not load, by id: why.
        self.damaged: dict[str, str] = {}

    def _index_seats(self, held: _Held) -> None:
        for seat, digest in enumerate(held.tokens, start=1):
            self._seat_tokens[digest] = (held.match_id, seat)

    def _forget(self, held: _Held) -> None:
        """Let go of a held match (and its seats' tokens)."""
        self._held.pop(held.match_id, None)
        for digest in held.tokens:
            self._seat_tokens.pop(digest, None)

    # -- holding matches ------------------------------------------------------------------------

    async def _hold(self, match_id: str) -> _Held:
        """The match as this process holds it (loaded from the store when needed).

        Raises:
            UnknownMatchError: no such match.
        """
        held = self._held.get(match_id)
        if held is not None:
            if match_id in self._finished:
                self._finished.move_to_end(match_id)
            return held
        if len(match_id) > 64:
            raise UnknownMatchError(match_id)
        tokens = await self.store.token_hashes(match_id)
        if tokens is None:
            raise UnknownMatchError(match_id)
        held = self._held.get(match_id)
        if held is None:
            held = self._held[match_id] = _Held(match_id, tokens)
            self._index_seats(held)
        async with held.lock:
            await self._loaded(held)
        if held.over:
            self._keep_finished(match_id)
        return held

    async def _loaded(self, held: _Held) -> Match:
        """The held match's state, rebuilt from the store's log when it has none."""
        if held.match is None:
            log = await self.store.log(held.match_id)
            held.match = Match.from_log(
                log,
                host_key=self.host_key,
                max_plies=self.limits.plies,
                max_events=self.limits.events,
            )
            self._published(held, held.match)
        return held.match

    def _keep_finished(self, match_id: str) -> None:
        """Keep a finished match for late calls; forget the oldest beyond FINISHED_KEPT."""
        self._finished[match_id] = None
        self._finished.move_to_end(match_id)
        while len(self._finished) > FINISHED_KEPT:
            oldest, _ = self._finished.popitem(last=False)
            held = self._held.get(oldest)
            if held is not None and not held.watchers and not held.lock.locked():
                self._forget(held)

    def _let_go(self, held: _Held) -> None:
        """A watcher left: a finished match waits among the kept ones."""
        if held.over and not held.watchers:
            self._keep_finished(held.match_id)

    # -- running a command ----------------------------------------------------------------------

    async def _run(
        self, held: _Held, command: Callable[[Match, Instant], Outcome], at: Instant
    ) -> Outcome:
        """Decide, store, then publish; decide again on a fresh match when the store moved on."""
        async with held.lock:
            for _ in range(ATTEMPTS):
                match = await self._loaded(held)
                before = match.last_event
                outcome = command(match, at)
                new = [entry for entry in outcome.events if entry.event.number > before]
                if not new:
                    return outcome
                if await self._stored(held, match, new, before):
                    self._published(held, match)
                    return outcome
                held.match = None
        raise StoreError(f"match {held.match_id}: other processes kept appending first")

    async def _stored(self, held: _Held, match: Match, new: list[Logged], before: int) -> bool:
        final = None if match.is_open else match.record
        started = time.perf_counter()
        try:
            stored = await self.store.append(held.match_id, new, before, match.summary(), final)
        except BaseException:
            held.match = None  # it holds events the store does not
            raise
        if stored and self.on_stored is not None:
            self.on_stored(new, time.perf_counter() - started)
        return stored

    def _published(self, held: _Held, match: Match) -> None:
        """The events up to the match's last are stored: watchers and the timer may see them."""
        held.published = match.last_event
        held.over = not match.is_open
        held.wake()
        self._flags.set(held.match_id, match.flag_falls_at())
        if held.over and not held.watchers:
            self._keep_finished(held.match_id)

    # -- timers, polling, heartbeat -------------------------------------------------------------

    async def _flag_fell(self, match_id: str) -> None:
        """A held match's flag moment came: append the flag (if it fell; the store decides)."""
        held = self._held.get(match_id)
        if held is None:
            return
        with contextlib.suppress(StoreError, MatchLogError):
            await asyncio.shield(self._run(held, _flag, self.clock.now()))
        if held.match is not None and held.match.is_open:
            self._flags.set(match_id, held.match.flag_falls_at())

    async def _poll(self) -> None:
        """Apply the events other processes append to the matches held here."""
        while True:
            await asyncio.sleep(self.tuning.poll_seconds)
            try:
                changes = await self.store.changes()
            except StoreError:
                continue
            by_match: dict[str, list[Logged]] = {}
            for change in changes:
                if change.match_id in self._held:
                    by_match.setdefault(change.match_id, []).append(change.entry)
            for match_id, entries in by_match.items():
                await self._catch_up(self._held[match_id], entries)

    async def _catch_up(self, held: _Held, entries: list[Logged]) -> None:
        async with held.lock:
            self._apply_newer(held, entries)

    def _apply_newer(self, held: _Held, entries: list[Logged]) -> None:
        """Apply events other processes stored (with the lock held); skip those known here."""
        match = held.match
        if match is None:
            return
        try:
            for entry in entries:
                if entry.event.number == match.last_event + 1:
                    match.apply(entry)
                elif entry.event.number > match.last_event:
                    held.match = None  # a gap: rebuilt from the store when next needed
                    break
        except MatchLogError:
            held.match = None
        if held.match is not None and held.match.last_event > held.published:
            self._published(held, held.match)

    async def _beat(self) -> None:
        while True:
            await asyncio.sleep(self.tuning.heartbeat_seconds)
            with contextlib.suppress(StoreError):
                await self.store.heartbeat(self.clock.now())


def _flag(match: Match, at: Instant) -> Outcome:
    return match.flag(at)
