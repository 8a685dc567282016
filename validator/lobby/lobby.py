"""One server process's lobby: challenges over the lobby store, matches over the referee.

:class:`Lobby` checks a new challenge by the live code itself (the match it would create is
made with ``Match.create`` and thrown away: an unknown game, an impossible variant, a bad
clock or key is refused at once, as CreateMatch refuses it), hands out seat tokens (only
their hashes are kept), and has the store decide every change (``table``). The process whose
taker filled the table creates the match with ``Referee.create``, the code CreateMatch runs,
under the challenge's id and with the seat holders' token hashes; when that process dies
before it is done, another one (or itself, restarted) creates it once the claim has gone
stale (``table.CLAIM_SECONDS``). When the match cannot be created (the server's open
matches limit), the seat that filled the table is given back and its taker told why.

A task polls the store for the lobby's events (every :attr:`LobbyTuning.poll_seconds`,
whichever process appended them) into a window of the latest, which the watchers read; a
watcher further behind reads the store. Another task expires the challenges nobody filled
in time and forgets what closed long ago.
"""

from __future__ import annotations

import asyncio
import contextlib
import secrets
from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Final

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.identity import RulesError, identify
from gamerec.validator.live.clocks import NS_PER_SECOND
from gamerec.validator.live.match import CommandRefusedError, Match, Refusal
from gamerec.validator.live.referee import (
    BadTokenError,
    LimitReachedError,
    Referee,
    new_token,
    token_hash,
)
from gamerec.validator.live.store import StoreError
from gamerec.validator.lobby import table
from gamerec.validator.lobby.store import ChallengeLimitError, LobbyStore
from gamerec.validator.lobby.table import Row, UnknownChallengeError

#: The record's Event of a lobby match, casual and rated.
EVENTS: Final = {False: "gamerec lobby, casual", True: "gamerec lobby, rated"}
#: Challenges one ListChallenges answer lists by default; live matches likewise.
LISTED: Final = 100
LIVE_LISTED: Final = 50
#: Lobby events kept in the store (older ones are forgotten) and in memory for watchers.
KEPT_EVENTS: Final = 10_000
WINDOW: Final = 1_024
#: Closed challenges are forgotten this long after they were opened.
FORGET_SECONDS: Final = 24 * 3600
#: The longest name, player id and time control a challenge takes (as a record's tags).
MAX_TEXT: Final = 200


class EventsGoneError(GamerecError):
    """A watcher asked for events the lobby no longer keeps."""


@dataclass(frozen=True, slots=True)
class LobbyTuning:
    """How often the lobby reads the store's new events and sweeps expired challenges."""

    poll_seconds: float = 0.05
    sweep_seconds: float = 1.0


class Lobby:
    """The lobby of one server process (see the module docstring).

    Args:
        store: the lobby's store (opened).
        referee: the process's referee (started): its clock, limits and ``create``.
        client_challenges: the open challenges one client may have.
        tuning: how often to poll and sweep.
    """

    def __init__(
        self,
        store: LobbyStore,
        referee: Referee,
        client_challenges: int,
        tuning: LobbyTuning = LobbyTuning(),
    ) -> None:
        """A lobby over these; :meth:`start` before the first call."""
        self.store = store
        self.referee = referee
        self.client_challenges = client_challenges
        self.tuning = tuning
        self._window: deque[lpb.LobbyEvent] = deque(maxlen=WINDOW)
        self._last = 0
        self._changed = asyncio.Event()
        self._poke = asyncio.Event()
        self._tasks: list[asyncio.Task[None]] = []

    # -- life -----------------------------------------------------------------------------------

    async def start(self) -> None:
        """Read where the events stand, start the polling and the sweeping.

        Raises:
            StoreError: the store cannot be read.
        """
        _, self._last = await self.store.first_and_last()
        await self.sweep()
        self._tasks = [
            asyncio.create_task(self._poll_loop(), name="gamerec-lobby-poll"),
            asyncio.create_task(self._sweep_loop(), name="gamerec-lobby-sweep"),
        ]

    async def stop(self) -> None:
        """Stop the tasks and close the store."""
        for task in self._tasks:
            task.cancel()
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        await self.store.close()

    def _now_ns(self) -> int:
        return self.referee.clock.now().wall_ns

    # -- the calls ------------------------------------------------------------------------------

    async def open_challenge(
        self, request: lpb.OpenChallengeRequest, client: str
    ) -> lpb.OpenChallengeResponse:
        """Open a challenge for ``client`` (the gate's key of the caller), seated.

        Raises:
            CommandRefusedError: the challenge would not make a match (INVALID_ARGUMENT).
            LimitReachedError: the lobby's open challenges limit, or the client's.
            StoreError: the store failed.
        """
        seats = self._seats(request)
        seat = request.seat or 1
        if seat > seats:
            raise _invalid("seat", "NO_SUCH_SEAT", f"the challenge has seats 1 to {seats}")
        match = self._match_request(request, seats, seat)
        token = new_token()
        now = self._now_ns()
        lifetime = self.referee.limits.challenge_seconds * NS_PER_SECOND
        decision = table.new_row(
            secrets.token_hex(8),
            request,
            match,
            seats=seats,
            digest=token_hash(token),
            creator=client,
            now_ns=now,
            lifetime_ns=lifetime,
        )
        try:
            events = await self.store.insert(
                decision, self.referee.limits.open_challenges, self.client_challenges
            )
        except ChallengeLimitError as error:
            raise LimitReachedError(error.limit, "rules", str(error)) from None
        self._seen(events)
        return lpb.OpenChallengeResponse(challenge=decision.row.shown(seat), token=token)

    async def take_seat(self, request: lpb.TakeSeatRequest) -> lpb.TakeSeatResponse:
        """Take a seat; when it fills the table, create the match.

        Raises:
            UnknownChallengeError: no such challenge.
            CommandRefusedError: the seat cannot be taken (taken, closed, no such seat) or
                the player is not valid.
            LimitReachedError: the server's open matches limit: the table filled but the
                match cannot start (the seat is given back).
            StoreError: the store failed.
        """
        _require(request.challenge_id, "challenge_id", "the challenge's id is needed")
        _check_player(request.player, "player")
        if len(request.challenge_id) > 64:
            raise UnknownChallengeError(request.challenge_id)
        token = new_token()
        digest = token_hash(token)
        now = self._now_ns()

        def decide(row: Row) -> table.Decision:
            return table.take(row, request.seat, request.player, digest, now)

        row, events = await self.store.change(request.challenge_id, decide)
        self._seen(events)
        seat = row.seat_of(digest)
        if row.status == table.FULL:
            row = await self._start(row, vacate_seat=seat)
        return lpb.TakeSeatResponse(challenge=row.shown(seat), token=token)

    async def cancel(self, challenge_id: str, token: str) -> lpb.CancelChallengeResponse:
        """Withdraw a challenge: its creator, by its token.

        Raises:
            UnknownChallengeError: no such challenge.
            BadTokenError: the token is not its creator's.
            CommandRefusedError: it is no longer open.
            StoreError: the store failed.
        """
        _require(challenge_id, "challenge_id", "the challenge's id is needed")
        _require(token, "token", "the creator's token is needed (OpenChallenge gave it)")
        digest = token_hash(token)
        now = self._now_ns()

        def decide(row: Row) -> table.Decision:
            if not table.is_creator(row, digest):
                raise BadTokenError(
                    "token", f"the token is not the creator's of challenge {row.challenge_id}"
                )
            return table.cancel(row, now)

        row, events = await self.store.change(challenge_id, decide)
        self._seen(events)
        return lpb.CancelChallengeResponse(challenge=row.shown(row.creator_seat))

    async def challenges(self, token: str, limit: int) -> lpb.ListChallengesResponse:
        """The open challenges (oldest first), or the one ``token`` holds a seat of.

        Raises:
            BadTokenError: the token holds no seat of any challenge kept.
            StoreError: the store failed.
        """
        _, last = await self.store.first_and_last()
        if token:
            digest = token_hash(token)
            row = await self.store.by_token(digest)
            if row is None or not row.seat_of(digest):
                raise BadTokenError("token", "the token holds no seat of a challenge kept here")
            if row.status == table.FULL:  # its creating process may have died: check
                row = await self._start(row, vacate_seat=0, only_stale=True)
            return lpb.ListChallengesResponse(
                challenges=[row.shown(row.seat_of(digest))], last_event=last
            )
        most = min(limit or LISTED, self.referee.limits.listed)
        rows = await self.store.listed(most)
        return lpb.ListChallengesResponse(challenges=[row.shown() for row in rows], last_event=last)

    async def live_matches(self, limit: int, before: str) -> list[lpb.LiveMatch]:
        """The open matches, newest first, with their clocks now.

        Raises:
            StoreError: the store failed.
        """
        most = min(limit or LIVE_LISTED, self.referee.limits.listed)
        summaries = await self.referee.summaries(mpb.MATCH_STATUS_OPEN, most, before)
        live = []
        for summary in summaries:
            try:
                state = await self.referee.state(summary.match_id)
            except GamerecError:  # ended, or damaged, since the list was read
                continue
            if state.status == mpb.MATCH_STATUS_OPEN:
                live.append(lpb.LiveMatch(summary=summary, clocks=state.clocks))
        return live

    async def watch(self, from_event: int) -> AsyncIterator[lpb.LobbyEvent]:
        """The events from ``from_event`` (0: from now on), then each as it is stored.

        Raises:
            EventsGoneError: ``from_event`` is older than the oldest event kept.
            StoreError: the store failed.
        """
        first, last = await self.store.first_and_last()
        if not from_event:
            from_event = max(self._last, last) + 1
        elif first and from_event < first:
            raise EventsGoneError(
                f"the lobby keeps its events from number {first:,}; event {from_event:,} is "
                "gone: ListChallenges gives the lobby now and the event to watch from"
            )
        return self._events(from_event)

    async def _events(self, number: int) -> AsyncIterator[lpb.LobbyEvent]:
        while True:
            changed = self._changed
            window = self._window
            if window and window[0].number <= number <= window[-1].number:
                yield window[number - window[0].number]
                number += 1
                continue
            if number <= self._last:  # behind the window: read the store
                for event in await self.store.events(number - 1, WINDOW):
                    yield event
                    number = event.number + 1
                continue
            await changed.wait()

    # -- starting matches -----------------------------------------------------------------------

    async def _start(self, row: Row, *, vacate_seat: int, only_stale: bool = False) -> Row:
        """Create the full challenge's match (claimed by this process) and mark it started.

        ``only_stale``: only when the claim of the process that filled it went stale.

        Raises:
            LimitReachedError: the server's open matches limit (the seat is given back).
        """
        if only_stale:
            now = self._now_ns()
            try:
                row, _ = await self.store.change(row.challenge_id, lambda r: table.claim(r, now))
            except CommandRefusedError:
                return row
        match_id = row.challenge_id
        if await self.referee.store.token_hashes(match_id) is None:
            try:
                await self.referee.create(
                    row.request, "lobby", match_id=match_id, token_hashes=row.tokens
                )
            except (LimitReachedError, CommandRefusedError):
                if vacate_seat:
                    now = self._now_ns()
                    _, events = await self.store.change(
                        match_id, lambda r: table.vacate(r, vacate_seat, now)
                    )
                    self._seen(events)
                raise
        now = self._now_ns()
        row, events = await self.store.change(match_id, lambda r: table.started(r, match_id, now))
        self._seen(events)
        return row

    # -- polling and sweeping -------------------------------------------------------------------

    def _seen(self, events: list[lpb.LobbyEvent]) -> None:
        """Events this process stored: the poll will publish them; wake it now."""
        if events:
            self._poke.set()

    async def _poll_loop(self) -> None:
        while True:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._poke.wait(), self.tuning.poll_seconds)
            self._poke.clear()
            with contextlib.suppress(StoreError):
                await self._poll()

    async def _poll(self) -> None:
        """Publish the events stored since the last one seen."""
        while True:
            events = await self.store.events(self._last, WINDOW)
            if not events:
                return
            if events[0].number != self._last + 1:  # forgotten meanwhile: the window restarts
                self._window.clear()
            self._window.extend(events)
            self._last = events[-1].number
            woken, self._changed = self._changed, asyncio.Event()
            woken.set()

    async def _sweep_loop(self) -> None:
        while True:
            await asyncio.sleep(self.tuning.sweep_seconds)
            with contextlib.suppress(StoreError):
                await self.sweep()

    async def sweep(self) -> None:
        """Expire what nobody filled; start what a dead process left full; forget the old."""
        now = self._now_ns()
        stale = now - table.CLAIM_SECONDS * NS_PER_SECOND
        for challenge_id in await self.store.due(now, stale):
            with contextlib.suppress(CommandRefusedError, UnknownChallengeError):
                row, events = await self.store.change(challenge_id, lambda r: table.expire(r, now))
                self._seen(events)
                if row.status == table.FULL:
                    with contextlib.suppress(LimitReachedError):
                        await self._start(row, vacate_seat=0, only_stale=True)
        await self.store.prune(KEPT_EVENTS, now - FORGET_SECONDS * NS_PER_SECOND)

    # -- checking a challenge -------------------------------------------------------------------

    def _seats(self, request: lpb.OpenChallengeRequest) -> int:
        """The challenge's seat count: the variant's (``seats``, when given, must agree)."""
        _check_player(request.player, "player")
        if not request.HasField("rules") or not request.rules.game:
            raise _invalid("rules", "MISSING", "the game is needed (rules.game)")
        try:
            identity = identify(pb.GameRecord(rules=request.rules))
        except RulesError as error:
            raise _invalid("rules", error.code, str(error)) from None
        seats = int(identity.engine.new_game(identity.variant).seats)
        if request.seats and request.seats != seats:
            raise _invalid(
                "seats",
                "SEAT_COUNT_MISMATCH",
                f"this {identity.name} variant has {seats} players, not {request.seats}: "
                "set the variant's player count (Players) to change it",
            )
        return seats

    def _match_request(
        self, request: lpb.OpenChallengeRequest, seats: int, seat: int
    ) -> mpb.CreateMatchRequest:
        """The match the challenge makes, checked by making it (and throwing it away).

        Raises:
            CommandRefusedError: it would not make a match (the field named as CreateMatch
                names it).
        """
        match = mpb.CreateMatchRequest(
            rules=request.rules,
            time_control=request.time_control or "-",
            illegal_move_policy=request.illegal_move_policy,
            event=EVENTS[request.rated],
            site="gamerec lobby",
        )
        trial = mpb.CreateMatchRequest()
        trial.CopyFrom(match)
        trial.seats.extend(
            request.player if number == seat else mpb.MatchSeat(name=f"seat {number}")
            for number in range(1, seats + 1)
        )
        made = Match.create("lobby-check", trial, self.referee.clock.now())
        match.time_control = made.events[0].event.created.time_control
        return match


def _check_player(player: mpb.MatchSeat, field_name: str) -> None:
    if not player.name.strip():
        raise _invalid(f"{field_name}.name", "MISSING", "the player's name is needed")
    for name, value in (("name", player.name), ("player_id", player.player_id)):
        if len(value) > MAX_TEXT:
            raise _invalid(
                f"{field_name}.{name}",
                "TOO_LONG",
                f"the player's {name} is {len(value):,} characters, more than {MAX_TEXT}",
            )
    if player.public_key and len(player.public_key) != 32:
        raise _invalid(
            f"{field_name}.public_key",
            "BAD_KEY",
            f"an Ed25519 public key is 32 bytes, not {len(player.public_key)}",
        )


def _require(value: str, field_name: str, message: str) -> None:
    if not value:
        raise _invalid(field_name, "MISSING", message)


def _invalid(field_name: str, reason: str, message: str) -> CommandRefusedError:
    return CommandRefusedError(Refusal.INVALID, field_name, reason, message)
