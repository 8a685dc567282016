"""The RPCs of MatchService: :class:`MatchServicer` over one referee, a seat's commands.

Each RPC reads what its request holds, finds the seat the gate admitted, and asks the
:class:`~gamerec.validator.live.referee.Referee`. It may import what :mod:`.answering` does,
the service's ``access``, ``metrics``, ``principal``, ``quotas`` and ``server``.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from functools import partial
from typing import Final

import grpc
import grpc.aio
from google.protobuf.message import Message

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.clocks import Instant
from gamerec.validator.live.match import ADMIN, Match, Outcome
from gamerec.validator.live.referee import BadTokenError, LimitReachedError, Referee, token_hash
from gamerec.validator.service import metrics
from gamerec.validator.service.access import bearer_token
from gamerec.validator.service.calls import Call
from gamerec.validator.service.match_servicer.answering import (
    MATCH_SERVICE_NAME,
    M,
    UnaryMethod,
    _bad,
    _require,
    add_service,
    answering,
    parse_request,
    unary_method,
)
from gamerec.validator.service.principal import Role, current_principal
from gamerec.validator.service.quotas import ClientLimits
from gamerec.validator.service.server import CONNECTION_STREAMS
from gamerec.validator.service.servicer import Context

#: The signature's length (Ed25519).
SIGNATURE_BYTES: Final = 64
#: Watch streams one connection may hold open at once: half of its streams, so that the
#: other half always carries its calls. A connection whose every stream is a Watch waiting
#: for a move can send no Play: its bots stall, client and server idle (issue 38).
CONNECTION_WATCHES: Final = CONNECTION_STREAMS // 2


class MatchServicer:
    """The RPCs of ``gamerec.v1.MatchService`` over one :class:`Referee`."""

    def __init__(self, referee: Referee, limits: ClientLimits) -> None:
        """Serve the referee's matches (``limits``: the open matches per admin)."""
        self.referee = referee
        self.limits = limits
        self._watches: dict[str, int] = {}

    def register(self, server: grpc.aio.Server) -> None:
        """Add the service's handlers to a server."""
        unary = (
            self._unary("CreateMatch", mpb.CreateMatchRequest, self.create_match),
            self._unary("CreateMatches", mpb.CreateMatchesRequest, self.create_matches),
            self._unary("WhoAmI", mpb.WhoAmIRequest, self.who_am_i),
            self._unary("Play", mpb.PlayRequest, self.play),
            self._unary("Sign", mpb.SignRequest, self.sign),
            self._unary("Resign", mpb.ResignRequest, self.resign),
            self._unary("OfferDraw", mpb.OfferDrawRequest, self.offer_draw),
            self._unary("AnswerDraw", mpb.AnswerDrawRequest, self.answer_draw),
            self._unary("Abort", mpb.AbortRequest, self.abort),
            self._unary("GetMatch", mpb.GetMatchRequest, self.get_match),
            self._unary("ListMatches", mpb.ListMatchesRequest, self.list_matches),
        )
        add_service(server, MATCH_SERVICE_NAME, unary, {"Watch": self.watch})

    # -- the RPCs -------------------------------------------------------------------------------

    async def create_match(
        self, request: mpb.CreateMatchRequest, context: Context
    ) -> mpb.CreateMatchResponse:
        """CreateMatch: an admin's (the gate admitted only admins)."""
        principal = current_principal()
        creator = principal.name if principal is not None else ""
        return await self.referee.create(request, creator, self.limits.admin_open_matches)

    async def create_matches(
        self, request: mpb.CreateMatchesRequest, context: Context
    ) -> mpb.CreateMatchesResponse:
        """CreateMatches: an admin's, all or none (the gate admitted only admins)."""
        principal = current_principal()
        creator = principal.name if principal is not None else ""
        made = await self.referee.create_many(
            request.matches, creator, self.limits.admin_open_matches
        )
        return mpb.CreateMatchesResponse(matches=made)

    async def who_am_i(self, request: mpb.WhoAmIRequest, context: Context) -> mpb.WhoAmIResponse:
        """WhoAmI: the match and seat of the call's seat token.

        The gate found the seat (a token is looked up by its SHA-256 only, in memory or in
        the store's index: the time it takes says nothing of how near a wrong token is to a
        right one); served without the gate, the token is looked up here the same way.
        """
        principal = current_principal()
        if principal is not None and principal.role is Role.SEAT:
            match_id, seat = principal.match_id, principal.seat
        elif principal is not None:
            raise BadTokenError("authorization", "WhoAmI needs a seat's token")
        else:
            token = request.token or bearer_token(context.invocation_metadata()) or ""
            found = await self.referee.seat_of_token(token_hash(token)) if token else None
            if found is None:
                raise BadTokenError("token", "the token is no seat's token on this server")
            match_id, seat = found
        return await self.referee.who(match_id, seat)

    async def play(self, request: mpb.PlayRequest, context: Context) -> mpb.PlayResponse:
        """Play: a seat's move for a ply."""
        _require(request.ply, "ply", "the ply being played is needed (plies played plus one)")
        which = request.WhichOneof("action")
        if which is None:
            raise _bad("move", "NO_MOVE", "the move is needed: set move or text")
        action = request.text if which == "text" else request.move
        outcome = await self._as_seat(request, partial(_play, request.ply, action))
        return mpb.PlayResponse(events=_events(outcome), illegal=outcome.finding)

    async def sign(self, request: mpb.SignRequest, context: Context) -> mpb.SignResponse:
        """Sign: a seat's signature over a head."""
        if len(request.signature) != SIGNATURE_BYTES:
            raise _bad(
                "signature",
                "BAD_SIGNATURE",
                f"an Ed25519 signature is {SIGNATURE_BYTES} bytes, not {len(request.signature)}",
            )
        outcome = await self._as_seat(request, partial(_sign, request.ply, request.signature))
        signed = outcome.events[0].event if outcome.events else None
        return mpb.SignResponse(signed=signed, rejected=outcome.finding)

    async def resign(self, request: mpb.ResignRequest, context: Context) -> mpb.ResignResponse:
        """Resign."""
        return mpb.ResignResponse(events=_events(await self._as_seat(request, _resign)))

    async def offer_draw(
        self, request: mpb.OfferDrawRequest, context: Context
    ) -> mpb.OfferDrawResponse:
        """OfferDraw."""
        return mpb.OfferDrawResponse(events=_events(await self._as_seat(request, _offer)))

    async def answer_draw(
        self, request: mpb.AnswerDrawRequest, context: Context
    ) -> mpb.AnswerDrawResponse:
        """AnswerDraw."""
        outcome = await self._as_seat(request, partial(_answer, request.accept))
        return mpb.AnswerDrawResponse(events=_events(outcome))

    async def abort(self, request: mpb.AbortRequest, context: Context) -> mpb.AbortResponse:
        """Abort: a seat by its token, or an admin."""
        principal = current_principal()
        if principal is None or principal.role is not Role.ADMIN:
            return mpb.AbortResponse(events=_events(await self._as_seat(request, _abort)))
        at = self.referee.clock.now()
        _require(request.match_id, "match_id", "the match's id is needed")
        outcome = await self.referee.command(request.match_id, partial(_abort, ADMIN), at)
        return mpb.AbortResponse(events=_events(outcome))

    async def get_match(self, request: mpb.GetMatchRequest, context: Context) -> mpb.MatchState:
        """GetMatch."""
        _require(request.match_id, "match_id", "the match's id is needed")
        return await self.referee.state(request.match_id, list(request.decided))

    async def list_matches(
        self, request: mpb.ListMatchesRequest, context: Context
    ) -> mpb.ListMatchesResponse:
        """ListMatches."""
        matches = await self.referee.summaries(request.status, request.limit, request.before)
        return mpb.ListMatchesResponse(matches=matches)

    async def watch(self, raw: bytes, context: Context) -> AsyncIterator[bytes]:
        """Watch: the stored events, then each new one, until the match's end."""
        call = Call("Watch", context.peer())
        async with answering(context, call):
            most = self.referee.limits.request_bytes
            request = parse_request(mpb.WatchRequest, raw, most=most)
            _require(request.match_id, "match_id", "the match's id is needed")
            connection = context.peer()
            held = self._watches.get(connection, 0)
            if held >= CONNECTION_WATCHES:
                raise LimitReachedError(
                    "connection_watches",
                    "match_id",
                    f"this connection holds {held:,} Watch streams, as many as one connection "
                    f"may ({CONNECTION_WATCHES:,}: half its {CONNECTION_STREAMS:,} streams, "
                    "the rest carry its calls); open another connection",
                )
            stream = await self.referee.watch(request.match_id, request.from_event)
            self._watches[connection] = held + 1
            metrics.watchers(+1)
            try:
                async for event in stream:
                    call.plies += 1
                    yield event.SerializeToString()
            finally:
                metrics.watchers(-1)
                self._let_go(connection)

    def _let_go(self, connection: str) -> None:
        """A Watch stream of ``connection`` ended."""
        left = self._watches.get(connection, 0) - 1
        if left > 0:
            self._watches[connection] = left
        else:
            self._watches.pop(connection, None)

    # -- the shell ------------------------------------------------------------------------------

    def _unary(
        self,
        method: str,
        kind: type[M],
        behaviour: Callable[[M, Context], Awaitable[Message]],
    ) -> UnaryMethod:
        limits = self.referee.limits
        if kind is mpb.CreateMatchesRequest:
            parse = partial(parse_request, kind, most=limits.bulk_bytes, limit="bulk_bytes")
        else:
            parse = partial(parse_request, kind, most=limits.request_bytes)
        return unary_method(method, parse, behaviour)

    async def _seat(self, match_id: str, token: str) -> int:
        """The seat the gate found for the call (its principal), in this match."""
        _require(match_id, "match_id", "the match's id is needed")
        principal = current_principal()
        if principal is None:  # served without the gate: the referee checks the token
            return await self.referee.seat(match_id, token)
        if principal.role is not Role.SEAT or principal.match_id != match_id:
            raise BadTokenError("token", f"a seat's token of match {match_id} is needed")
        return principal.seat

    async def _as_seat(self, request: _SeatRequest, command: _SeatCommand) -> Outcome:
        """Run a seat's command: the time it was received, the seat its token names."""
        at = self.referee.clock.now()
        seat = await self._seat(request.match_id, request.token)
        return await self.referee.command(request.match_id, partial(command, seat), at)


#: A request a seat sends (with the match's id and its token).
_SeatRequest = (
    mpb.PlayRequest
    | mpb.SignRequest
    | mpb.ResignRequest
    | mpb.OfferDrawRequest
    | mpb.AnswerDrawRequest
    | mpb.AbortRequest
)
#: A seat's command: the seat, the match, the moment it was received.
_SeatCommand = Callable[[int, Match, Instant], Outcome]


def _play(ply: int, action: str | pb.Move, seat: int, match: Match, at: Instant) -> Outcome:
    return match.play(seat, ply, action, at)


def _sign(ply: int, signature: bytes, seat: int, match: Match, at: Instant) -> Outcome:
    return match.sign(seat, ply, signature, at)


def _resign(seat: int, match: Match, at: Instant) -> Outcome:
    return match.resign(seat, at)


def _offer(seat: int, match: Match, at: Instant) -> Outcome:
    return match.offer_draw(seat, at)


def _answer(accept: bool, seat: int, match: Match, at: Instant) -> Outcome:
    return match.answer_draw(seat, accept, at)


def _abort(seat: int, match: Match, at: Instant) -> Outcome:
    return match.abort(seat, at)


def _events(outcome: Outcome) -> list[mpb.MatchEvent]:
    return [entry.event for entry in outcome.events]
