"""One server process's referee of every live match: the store, the matches, clocks, watchers.

The :class:`Referee` runs commands against the matches it holds and makes each one count only
through the store: it lets the match decide (``gamerec.validator.live.match``), appends the
events with the store's conditional append, and only then answers and wakes the watchers. When
the append finds that another process appended first, the match is rebuilt from the store
and the command decided again (a repeated move then gets the first call's acceptance). A
command runs shielded from its caller's cancellation: a client that goes away mid-call never
leaves a match half changed.

It holds a match (its state, in memory) from the moment it is created here, a call or a
watcher asks for it, or the process starts (every open match). Events other processes append
reach it through the store's :meth:`~gamerec.validator.live.store.MatchStore.changes`, polled
every few milliseconds, and are applied to the matches it holds. Every match it holds has a
timer on the clock of its seat to move (one task times them all: ``flags``); when the flag
falls the timer appends the flag (exactly once, however many processes time the match: the
append is conditional).

At start the referee registers with the store; if no other process is running, the service
was down since its last heartbeat, and every open match gets an outage event (that time is
charged to no one). While it runs it beats every :attr:`RefereeSettings.heartbeat_seconds`.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import hmac
import secrets
import time
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Final

from gamerec import __version__
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.limits import DEFAULT_LIMITS
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import Clock, Instant
from gamerec.validator.live.flags import FlagTimer
from gamerec.validator.live.match import (
    MAX_EVENTS,
    CommandRefusedError,
    Logged,
    Match,
    MatchLogError,
    Outcome,
    Refusal,
)
from gamerec.validator.live.store import MatchStore, NewMatch, OpenMatchesLimitError, StoreError

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

#: What the referee writes as the record's ``Client``.
CLIENT: Final = f"gamerec {__version__} MatchService"
#: Finished matches kept in memory for late calls (GetMatch, the seats' final signatures).
FINISHED_KEPT: Final = 256
#: Times a command is decided again when other processes keep appending first.
ATTEMPTS: Final = 5
#: What every seat token begins with (then 192 random bits, base64url): a secret that can be
#: recognised in a log or a paste, and never begins with "-" on a command line.
TOKEN_PREFIX: Final = "seat_"


@dataclass(frozen=True, slots=True)
class MatchLimits:
    """The limits of the match service (``gamerec limits`` lists them).

    Attributes:
        open_matches: matches open at once in the store.
        watchers: Watch streams of one match at once, in one server process.
        request_bytes: bytes of one MatchService request.
        plies: plies of one match (a record may hold no more); the match is then abandoned.
        listed: matches one ListMatches answer lists at most.
        events: events of one match (moves, signatures, draw offers and answers, ...); a
            command that finds too little room left abandons the match.
        bulk: matches one CreateMatches call creates at most.
        bulk_bytes: bytes of one CreateMatches request.
    """

    open_matches: int = 10_000
    watchers: int = 1_000
    request_bytes: int = 64 * 1024
    plies: int = DEFAULT_LIMITS.max_plies
    listed: int = 1_000
    events: int = MAX_EVENTS
    bulk: int = 1_000
    bulk_bytes: int = 1024 * 1024

    def with_settings(self, settings: Sequence[str]) -> MatchLimits:
        """These limits with some changed by ``NAME=N`` (``watchers=100``, ``open-matches=50``).

        Raises:
            ValueError: an unknown name, or a value that is not a whole number >= 1.
        """
        changes = parse_limit_settings(settings, LIMIT_MEANINGS)
        return dataclasses.replace(self, **changes)


#: Each limit's name (as ``--match-limit`` takes it) and what it bounds.
LIMIT_MEANINGS: Final = {
    "open_matches": "matches open at once in one store (CreateMatch past it: RESOURCE_EXHAUSTED)",
    "watchers": "Watch streams of one match at once, per server process",
    "request_bytes": "bytes of one MatchService request",
    "plies": "plies of one match (then it is abandoned: a record may hold no more)",
    "listed": "matches one ListMatches answer lists",
    "events": "events of one match: moves, signatures, draw offers and answers (near it the "
    "match is abandoned)",
    "bulk": "matches one CreateMatches call creates (all or none)",
    "bulk_bytes": "bytes of one CreateMatches request",
}


def parse_limit_settings(settings: Sequence[str], meanings: dict[str, str]) -> dict[str, int]:
    """``NAME=N`` settings as field names and values (names with ``-`` or ``_``).

    Raises:
        ValueError: an unknown name, or a value that is not a whole number >= 1.
    """
    changes = {}
    names = {name.replace("_", "-"): name for name in meanings}
    for setting in settings:
        name, equals, text = setting.partition("=")
        known = names.get(name.strip().lower().replace("_", "-"))
        if known is None or not equals:
            raise ValueError(
                f"expected NAME=N with NAME one of {', '.join(names)}, found {setting!r}"
            )
        try:
            value = int(text.strip())
        except ValueError:
            value = 0
        if value < 1:
            raise ValueError(f"limit {name.strip()}: {text!r} is not a whole number >= 1")
        changes[known] = value
    return changes


class UnknownMatchError(GamerecError):
    """No match has this id."""

    def __init__(self, match_id: str) -> None:
        """Name the id (cut when long)."""
        self.match_id = match_id
        super().__init__(f"no match {match_id[:64]!r} on this server")


class BadTokenError(GamerecError):
    """A seat or admin token that is missing or wrong.

    Attributes:
        field: the field that held it (``token``, or ``authorization`` metadata).
    """

    def __init__(self, field_name: str, message: str) -> None:
        """Name the field and the problem."""
        self.field = field_name
        super().__init__(message)


class LimitReachedError(GamerecError):
    """A server limit: too many open matches, watchers, or a request too large.

    Attributes:
        limit: the limit's name (``watchers``).
        field: the request's field concerned.
    """

    def __init__(self, limit: str, field_name: str, message: str) -> None:
        """Name the limit, the field and the problem."""
        self.limit = limit
        self.field = field_name
        super().__init__(message)


def token_hash(token: str) -> bytes:
    """The hash under which a token is kept (SHA-256 of its UTF-8 bytes)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def seat_of(token: str, hashes: Sequence[bytes]) -> int:
    """The seat whose token this is, comparing hashes in constant time; 0 when none.

    Every seat's hash is compared, whichever matches, so the time does not tell which.
    """
    digest = token_hash(token)
    found = 0
    for seat, stored in enumerate(hashes, start=1):
        if hmac.compare_digest(digest, stored):
            found = seat
    return found


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


class Referee:
    """This process's referee of every live match (see the module docstring).

    Args:
        store: the match store (opened).
        clock: where the time is read.
        host_key: the host's Ed25519 private key (seals and signs every record); None: the
            records are sealed only when a seat registers a key.
        limits: the service's limits.
        tuning: how often to poll and beat.
        abort_after_ms: each seat's first ply of a timed match is untimed up to this limit,
            after which the match is aborted (``gamerec serve --abort-after``); None: the
            clocks of a match with no scheduled start run from its creation (a local game).
    """

    def __init__(
        self,
        store: MatchStore,
        clock: Clock,
        host_key: Ed25519PrivateKey | None,
        limits: MatchLimits = MatchLimits(),
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

    # -- life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Register with the store, hold every open match (recording an outage), run timers.

        An open match that does not rebuild from the store (a damaged event, another host
        key) is not held: it is named in :attr:`damaged` and every call about it fails with
        its :class:`MatchLogError`; the other matches are served.

        Raises:
            StoreError: the store cannot be read or written.
        """
        now = self.clock.now()
        start = await self.store.start(now)
        self._flags.start()
        last_alive = start.last_alive if start.alone else None
        for match_id in await self.store.open_matches():
            try:
                held = await self._hold(match_id)
                if last_alive is not None:
                    await self._run(held, partial(Match.outage, down_since=last_alive), now)
            except MatchLogError as error:
                self.damaged[match_id] = str(error)
        await self.store.started(self.clock.now())
        self._tasks = [
            asyncio.create_task(self._poll(), name="gamerec-referee-poll"),
            asyncio.create_task(self._beat(), name="gamerec-referee-heartbeat"),
        ]

    async def stop(self) -> None:
        """Stop the timers and the polling, beat a last time, close the store."""
        await self._flags.stop()
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        with contextlib.suppress(StoreError):
            await self.store.heartbeat(self.clock.now())
        await self.store.close()

    # -- commands -------------------------------------------------------------------------------

    async def create(
        self, request: mpb.CreateMatchRequest, creator: str = "", most_by_creator: int = 0
    ) -> mpb.CreateMatchResponse:
        """Start a match; its id and the seats' tokens (only their hashes are kept).

        ``creator`` names who creates it (an admin); ``most_by_creator`` bounds the open
        matches one creator may have (0: no bound).

        Raises:
            CommandRefusedError: the request does not make a match.
            LimitReachedError: the open matches limit, the server's or the creator's.
            StoreError: the store failed.
        """
        (created,) = await self._create([request], creator, most_by_creator, bulk=False)
        return created

    async def create_many(
        self,
        requests: Sequence[mpb.CreateMatchRequest],
        creator: str = "",
        most_by_creator: int = 0,
    ) -> list[mpb.CreateMatchResponse]:
        """Start many matches, all or none (one store transaction); each one's id and tokens.

        Raises:
            CommandRefusedError: no request, or one that does not make a match (its field
                named ``matches[i].field``); nothing was created.
            LimitReachedError: more requests than the ``bulk`` limit, or the open matches
                limit, the server's or the creator's; nothing was created.
            StoreError: the store failed; nothing was created.
        """
        if not requests:
            raise CommandRefusedError(
                Refusal.INVALID, "matches", "NO_MATCHES", "no match to create: matches is empty"
            )
        if len(requests) > self.limits.bulk:
            raise LimitReachedError(
                "bulk",
                f"matches[{self.limits.bulk}]",
                f"matches[{self.limits.bulk}]: one CreateMatches call creates at most "
                f"{self.limits.bulk:,} matches (limit bulk), this one asks for {len(requests):,}; "
                "nothing was created",
            )
        return await self._create(requests, creator, most_by_creator, bulk=True)

    async def _create(
        self,
        requests: Sequence[mpb.CreateMatchRequest],
        creator: str,
        most_by_creator: int,
        *,
        bulk: bool,
    ) -> list[mpb.CreateMatchResponse]:
        """Make the matches (every one checked first), store them at once, hold them."""
        at = self.clock.now()
        made: list[tuple[Match, list[str]]] = []
        for index, request in enumerate(requests):
            try:
                match = Match.create(
                    secrets.token_hex(8),
                    request,
                    at,
                    host_key=self.host_key,
                    client=CLIENT,
                    max_plies=self.limits.plies,
                    max_events=self.limits.events,
                    abort_after_ms=self.abort_after_ms,
                )
            except CommandRefusedError as error:
                raise (_indexed(error, index) if bulk else error) from None
            tokens = [TOKEN_PREFIX + secrets.token_urlsafe(24) for _ in range(match.seats)]
            made.append((match, tokens))
        new = [
            NewMatch(match.events[0], tuple(token_hash(t) for t in tokens), match.summary())
            for match, tokens in made
        ]
        try:
            await self.store.create_many(
                new,
                self.limits.open_matches,
                creator=creator,
                most_by_creator=most_by_creator,
            )
        except OpenMatchesLimitError as error:
            raise LimitReachedError(
                error.limit, "matches" if bulk else "rules", str(error)
            ) from None
        answers = []
        for (match, tokens), stored in zip(made, new, strict=True):
            held = _Held(match.match_id, stored.token_hashes, match, published=1)
            self._held[match.match_id] = held
            self._index_seats(held)
            self._flags.set(match.match_id, match.flag_falls_at())
            answers.append(
                mpb.CreateMatchResponse(
                    match_id=match.match_id, seat_tokens=tokens, created=stored.created.event
                )
            )
        return answers

    async def seat_of_token(self, digest: bytes) -> tuple[str, int] | None:
        """The match and seat whose token has this hash (SHA-256); None: no seat's.

        The matches held here are looked up in memory, the others in the store.

        Raises:
            StoreError: the store cannot be read.
        """
        found = self._seat_tokens.get(digest)
        if found is not None:
            return found
        return await self.store.seat_of_token(digest)

    async def who(self, match_id: str, seat: int) -> mpb.WhoAmIResponse:
        """Who plays ``seat`` of the match (WhoAmI, for a token already found to be it).

        Raises:
            UnknownMatchError: no such match.
        """
        held = await self._hold(match_id)
        async with held.lock:
            match = await self._loaded(held)
        player = match.events[0].event.created.record.seats[seat - 1]
        return mpb.WhoAmIResponse(
            match_id=match_id,
            seat=seat,
            name=player.name,
            player_id=player.player_id,
            seats=match.seats,
        )

    def _index_seats(self, held: _Held) -> None:
        for seat, digest in enumerate(held.tokens, start=1):
            self._seat_tokens[digest] = (held.match_id, seat)

    def _forget(self, held: _Held) -> None:
        """Let go of a held match (and its seats' tokens)."""
        self._held.pop(held.match_id, None)
        for digest in held.tokens:
            self._seat_tokens.pop(digest, None)

    async def seat(self, match_id: str, token: str) -> int:
        """The seat a token belongs to in a match.

        Raises:
            UnknownMatchError: no such match.
            BadTokenError: the token is no seat's.
        """
        held = await self._hold(match_id)
        if not token:
            raise BadTokenError("token", "a seat's token is needed (CreateMatch gave them)")
        seat = seat_of(token, held.tokens)
        if not seat:
            raise BadTokenError("token", f"the token is no seat's of match {match_id}")
        return seat

    async def command(
        self, match_id: str, command: Callable[[Match, Instant], Outcome], at: Instant
    ) -> Outcome:
        """Run a command of a match received at ``at``; its events are stored when it returns.

        Raises:
            UnknownMatchError: no such match.
            CommandRefusedError: the match refuses it (nothing changed), or a refusal that
                follows events just stored (a flag fell first).
            StoreError: the store failed (nothing changed).
        """
        held = await self._hold(match_id)
        outcome = await asyncio.shield(self._run(held, command, at))
        if outcome.refusal is not None:
            raise outcome.refusal
        return outcome

    async def state(self, match_id: str, decided: Sequence[str] = ()) -> mpb.MatchState:
        """The match now (GetMatch).

        Raises:
            UnknownMatchError: no such match.
            CommandRefusedError: a decision in ``decided`` is not legal.
        """
        held = await self._hold(match_id)
        async with held.lock:
            match = await self._loaded(held)
            self._apply_newer(held, await self.store.log(match_id, after=match.last_event))
            match = await self._loaded(held)
            return match.state(self.clock.now(), decided)

    async def summaries(
        self, status: mpb.MatchStatus.ValueType, limit: int, before: str
    ) -> list[mpb.MatchSummary]:
        """Matches newest first (ListMatches)."""
        most = min(limit or 100, self.limits.listed)
        return await self.store.summaries(status, most, before)

    async def watch(self, match_id: str, from_event: int) -> AsyncIterator[mpb.MatchEvent]:
        """The match's events from ``from_event``, then each as it is stored, to its end.

        Raises:
            UnknownMatchError: no such match.
            LimitReachedError: the match has as many watchers as the limit allows here.
        """
        held = await self._hold(match_id)
        if held.watchers >= self.limits.watchers:
            raise LimitReachedError(
                "watchers",
                "match_id",
                f"match {match_id} has {held.watchers:,} watchers on this server process, its "
                "limit (limit watchers)",
            )
        return self._events(held, max(1, from_event))

    async def _events(self, held: _Held, first: int) -> AsyncIterator[mpb.MatchEvent]:
        held.watchers += 1
        try:
            number = first
            while True:
                changed = held.changed
                match = held.match
                if match is None:
                    async with held.lock:
                        match = await self._loaded(held)
                if number <= held.published:
                    yield match.events[number - 1].event
                    number += 1
                    continue
                if held.over:
                    return
                await changed.wait()
        finally:
            held.watchers -= 1
            self._let_go(held)

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


def _indexed(error: CommandRefusedError, index: int) -> CommandRefusedError:
    """A bulk creation's refusal of its match ``index``: the field and message name it."""
    return CommandRefusedError(
        error.refusal,
        f"matches[{index}].{error.field}",
        error.reason,
        f"{error}; nothing was created",
    )


def _flag(match: Match, at: Instant) -> Outcome:
    return match.flag(at)
