"""The referee's calls: start and stop, create matches, find seats, commands, state, watch.

:class:`Referee` is what the gRPC servicer, the lobby and the tables call (see the package
docstring). It may import what :mod:`.holding` does, :mod:`.limits` and :mod:`.tokens`.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections.abc import AsyncIterator, Callable, Sequence
from functools import partial
from typing import Final

from gamerec import __version__
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import Instant
from gamerec.validator.live.match import CommandRefusedError, Match, MatchLogError, Outcome, Refusal
from gamerec.validator.live.referee.holding import RefereeCore, _Held
from gamerec.validator.live.referee.limits import LimitReachedError
from gamerec.validator.live.referee.tokens import BadTokenError, new_token, seat_of, token_hash
from gamerec.validator.live.store import NewMatch, OpenMatchesLimitError, StoreError

#: What the referee writes as the record's ``Client``.
CLIENT: Final = f"gamerec {__version__} MatchService"


class Referee(RefereeCore):
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
        self,
        request: mpb.CreateMatchRequest,
        creator: str = "",
        most_by_creator: int = 0,
        *,
        match_id: str = "",
        token_hashes: Sequence[bytes] = (),
    ) -> mpb.CreateMatchResponse:
        """Start a match; its id and the seats' tokens (only their hashes are kept).

        ``creator`` names who creates it (an admin); ``most_by_creator`` bounds the open
        matches one creator may have (0: no bound). The lobby (``gamerec.validator.lobby``)
        gives the match's id and the hashes of the tokens its seat holders already have: the
        answer then holds no token.

        Raises:
            CommandRefusedError: the request does not make a match.
            LimitReachedError: the open matches limit, the server's or the creator's.
            StoreError: the store failed.
        """
        identity = (match_id, tuple(token_hashes))
        (created,) = await self._create(
            [request], creator, most_by_creator, bulk=False, identity=identity
        )
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
        identity: tuple[str, tuple[bytes, ...]] = ("", ()),
    ) -> list[mpb.CreateMatchResponse]:
        """Make the matches (every one checked first), store them at once, hold them.

        ``identity``: for one match, the id and seat token hashes the lobby gives (empty: new
        ones; with hashes given, the answer holds no token).
        """
        at = self.clock.now()
        match_id, token_hashes = identity
        made: list[tuple[Match, list[str], tuple[bytes, ...]]] = []
        for index, request in enumerate(requests):
            try:
                match = Match.create(
                    match_id or secrets.token_hex(8),
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
            tokens = [] if token_hashes else [new_token() for _ in range(match.seats)]
            hashes = token_hashes or tuple(token_hash(token) for token in tokens)
            if len(hashes) != match.seats:
                raise ValueError(f"{len(hashes)} token hashes for {match.seats} seats")
            made.append((match, tokens, hashes))
            if bulk:
                await asyncio.sleep(0)  # a round of many: the other matches' calls go on
        new = [NewMatch(match.events[0], hashes, match.summary()) for match, _, hashes in made]
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
        for (match, tokens, _), stored in zip(made, new, strict=True):
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


def _indexed(error: CommandRefusedError, index: int) -> CommandRefusedError:
    """A bulk creation's refusal of its match ``index``: the field and message name it."""
    return CommandRefusedError(
        error.refusal,
        f"matches[{index}].{error.field}",
        error.reason,
        f"{error}; nothing was created",
    )
