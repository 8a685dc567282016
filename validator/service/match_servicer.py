"""The MatchService servicer: a thin shell over the referee (``gamerec.validator.live``).

Each RPC reads its request (bytes in: the size is checked against the ``request_bytes``
limit before anything is parsed), takes the time it was received, asks the
:class:`~gamerec.validator.live.referee.Referee`, and sends its answer. What cannot be done
ends the call with a status whose google.rpc details name the field (protos/gamerec/v1/
match.proto): INVALID_ARGUMENT (``BadRequest``), FAILED_PRECONDITION (``PreconditionFailure``),
NOT_FOUND (``ResourceInfo``), UNAUTHENTICATED, RESOURCE_EXHAUSTED (``QuotaFailure``) and
UNAVAILABLE when the store fails, each with an ``ErrorInfo`` whose reason is a stable code
and whose metadata ``field`` names the field. Every call writes one log line.

Who may call what was decided before a handler runs, by the gate
(gamerec.validator.service.access): a seat's calls find its seat in the call's principal.

:func:`running_matches` opens the store, starts the referee for one server process and gives
the service to register beside RecordService; ``gamerec serve --matches FILE`` uses it.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any, Final, NoReturn, TypeVar

import grpc
import grpc.aio
from google.protobuf.message import DecodeError, Message
from google.rpc import code_pb2, error_details_pb2  # type: ignore[import-untyped]

from gamerec.recorder.errors import GamerecError, bounded
from gamerec.recorder.signing import (
    fingerprint,
    load_private_key,
    load_public_key,
    new_key,
    public_bytes,
    write_key_pair,
)
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.live.clocks import Clock, FileClock, Instant, SystemClock
from gamerec.validator.live.match import (
    ADMIN,
    CommandRefusedError,
    Match,
    MatchLogError,
    Outcome,
    Refusal,
)
from gamerec.validator.live.postgres_store import is_postgres
from gamerec.validator.live.referee import (
    BadTokenError,
    LimitReachedError,
    MatchLimits,
    Referee,
    RefereeTuning,
    UnknownMatchError,
    token_hash,
)
from gamerec.validator.live.store import StoreError
from gamerec.validator.live.stores import describe, open_store, tuning_for
from gamerec.validator.service import metrics
from gamerec.validator.service.access import SeatFinder, bearer_token
from gamerec.validator.service.calls import LOGGER, Call
from gamerec.validator.service.principal import Role, current_principal
from gamerec.validator.service.quotas import ClientLimits
from gamerec.validator.service.server import CONNECTION_STREAMS, ExtraService
from gamerec.validator.service.servicer import Context, cancelled_status, end_with
from gamerec.validator.service.statuses import status_with

#: The service's full name, as clients, health and reflection name it.
MATCH_SERVICE_NAME: Final = mpb.DESCRIPTOR.services_by_name["MatchService"].full_name
#: The domain of the service's ``ErrorInfo`` details.
DOMAIN: Final = "gamerec.v1.MatchService"
#: Seconds a seat of a timed match has for its untimed first ply (``--abort-after``).
DEFAULT_ABORT_AFTER: Final = 60.0
#: The signature's length (Ed25519).
SIGNATURE_BYTES: Final = 64
#: Watch streams one connection may hold open at once: half of its streams, so that the
#: other half always carries its calls. A connection whose every stream is a Watch waiting
#: for a move can send no Play: its bots stall, client and server idle (issue 38).
CONNECTION_WATCHES: Final = CONNECTION_STREAMS // 2

M = TypeVar("M", bound=Message)


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


#: A unary method's name and its handler of serialized requests.
UnaryMethod = tuple[str, Callable[[bytes, Context], Awaitable[bytes]]]


def unary_method(
    method: str,
    parse: Callable[[bytes], M],
    behaviour: Callable[[M, Context], Awaitable[Message]],
    statuses: StatusOf | None = None,
) -> UnaryMethod:
    """A unary method's handler: the request parsed, the behaviour run, the call answered.

    ``statuses``: the status of each error the service expects (default :func:`status_of`).
    """

    async def handle(raw: bytes, context: Context) -> bytes:
        async with answering(context, Call(method, context.peer()), statuses):
            answer = await behaviour(parse(raw), context)
            return answer.SerializeToString()
        raise AssertionError("unreachable: answering ends a failed call")  # pragma: no cover

    return method, handle


def add_service(
    server: grpc.aio.Server,
    service: str,
    unary: Iterable[UnaryMethod],
    streams: Mapping[str, Callable[..., Any]],
) -> None:
    """Add a service's generic handlers to a server: its unary methods and server streams."""
    handlers: dict[str, grpc.RpcMethodHandler[bytes, bytes]] = {
        name: grpc.unary_unary_rpc_method_handler(behaviour) for name, behaviour in unary
    }
    for name, stream in streams.items():
        handlers[name] = grpc.unary_stream_rpc_method_handler(stream)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler(service, handlers),))


def parse_request(kind: type[M], raw: bytes, *, most: int, limit: str = "request_bytes") -> M:
    """A request's message, read from ``raw`` when it is at most ``most`` bytes.

    Raises:
        LimitReachedError: it is larger (the ``limit``: ``request_bytes``, or ``bulk_bytes``
            for a CreateMatches request).
        CommandRefusedError: it is no such message (INVALID_ARGUMENT).
    """
    if len(raw) > most:
        raise LimitReachedError(
            limit,
            "(request)",
            f"the request is {len(raw):,} bytes, more than the limit of {most:,} "
            f"(limit {limit.replace('_', '-')})",
        )
    try:
        return kind.FromString(raw)
    except DecodeError as error:
        raise _bad("(request)", "BAD_REQUEST", f"not a {kind.__name__}: {error}") from None


# -- the commands, as the referee runs them --------------------------------------------------------

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


# -- errors ----------------------------------------------------------------------------------------


def _require(value: object, field_name: str, message: str) -> None:
    if not value:
        raise _bad(field_name, "MISSING", message)


def _bad(field_name: str, reason: str, message: str) -> CommandRefusedError:
    return CommandRefusedError(Refusal.INVALID, field_name, reason, message)


#: The status of an error a service expects (None: a bug, INTERNAL).
StatusOf = Callable[[Exception], "grpc.Status | None"]


@contextlib.asynccontextmanager
async def answering(
    context: Context, call: Call, statuses: StatusOf | None = None
) -> AsyncIterator[None]:
    """Around a call's work: its log line at the end, and a status for what went wrong.

    A call its client gives up on (cancelled) is logged so; an error ends the call with the
    status ``statuses`` (default :func:`status_of`) gives it (a bug: INTERNAL, with the
    traceback in the log only).
    """
    try:
        yield
    except (asyncio.CancelledError, GeneratorExit):
        call.status = cancelled_status(None)
        raise
    except grpc.aio.AbortError:
        raise
    except Exception as error:
        await _fail(context, call, error, statuses or status_of)
    finally:
        call.write()


async def _fail(context: Context, call: Call, error: Exception, statuses: StatusOf) -> NoReturn:
    """End a call that cannot be done, with the status and details its error calls for."""
    status = statuses(error)
    if status is None:
        call.status = "INTERNAL"
        LOGGER.error("%s failed", call.method, exc_info=error)
        await end_with(
            context.abort(grpc.StatusCode.INTERNAL, f"{call.method} failed; see the server log")
        )
    call.status = status.code.name
    call.verdict = bounded(status.details, 200)
    await end_with(context.abort_with_status(status))


def status_of(error: Exception) -> grpc.Status | None:
    """The status of an error the service expects (None: a bug, INTERNAL)."""
    if isinstance(error, CommandRefusedError):
        metadata = {"current_ply": str(error.current_ply)} if error.current_ply else {}
        if error.refusal is Refusal.INVALID:
            violation = error_details_pb2.BadRequest.FieldViolation(
                field=error.field, description=bounded(str(error))
            )
            detail: Message = error_details_pb2.BadRequest(field_violations=[violation])
            code = code_pb2.INVALID_ARGUMENT
        else:
            detail = error_details_pb2.PreconditionFailure(
                violations=[
                    error_details_pb2.PreconditionFailure.Violation(
                        type=error.reason, subject=error.field, description=bounded(str(error))
                    )
                ]
            )
            code = code_pb2.FAILED_PRECONDITION
        return _status(code, str(error), error.reason, error.field, detail, metadata=metadata)
    if isinstance(error, UnknownMatchError):
        detail = error_details_pb2.ResourceInfo(
            resource_type=MATCH_SERVICE_NAME.replace("Service", ""),
            resource_name=error.match_id[:64],
            description=str(error),
        )
        return _status(code_pb2.NOT_FOUND, str(error), "UNKNOWN_MATCH", "match_id", detail)
    if isinstance(error, BadTokenError):
        return _status(code_pb2.UNAUTHENTICATED, str(error), "BAD_TOKEN", error.field, None)
    if isinstance(error, LimitReachedError):
        detail = error_details_pb2.QuotaFailure(
            violations=[
                error_details_pb2.QuotaFailure.Violation(
                    subject=error.limit.replace("_", "-"), description=str(error)
                )
            ]
        )
        return _status(
            code_pb2.RESOURCE_EXHAUSTED, str(error), "LIMIT_REACHED", error.field, detail
        )
    return _store_status(error)


def _store_status(error: Exception) -> grpc.Status | None:
    """The status of a store that fails (UNAVAILABLE) or holds a damaged match (DATA_LOSS)."""
    if isinstance(error, MatchLogError):  # the call's own line says it (DATA_LOSS)
        return _status(
            code_pb2.DATA_LOSS,
            f"the match cannot be loaded from the store: {error}",
            "DAMAGED_MATCH",
            "match_id",
            None,
        )
    if isinstance(error, StoreError):
        LOGGER.error("the match store failed: %s", error)
        return _status(
            code_pb2.UNAVAILABLE,
            f"the match store failed, nothing changed; try again ({error})",
            "STORE_FAILED",
            "",
            None,
        )
    return None


def _status(
    code: int,
    message: str,
    reason: str,
    field_name: str,
    detail: Message | None,
    *,
    metadata: dict[str, str] | None = None,
) -> grpc.Status:
    """A status with its detail and an ``ErrorInfo`` naming the reason and the field."""
    return status_with(
        code,
        message,
        reason=reason,
        domain=DOMAIN,
        field_name=field_name,
        details=(detail,) if detail is not None else (),
        metadata=metadata,
    )
