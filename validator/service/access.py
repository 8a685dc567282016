"""Who may do what: the one gate every call of the server passes (a gRPC interceptor).

For each call the gate (:class:`Gate`), before the handler runs:

1. finds the caller's credential: the request's ``token`` field where the method has one (a
   seat's calls, docs/live.md), else ``authorization: Bearer <token>`` metadata, else the
   subject of the client's certificate (mTLS);
2. names the caller (:class:`~gamerec.validator.service.principal.Principal`): a token of the
   token files (admin, spectator, record caller; :class:`TokenBook`), else a seat token of
   some match (the match service knows them), else no one. A token that is no one's is
   UNAUTHENTICATED; tokens are kept only as SHA-256 hashes and compared in constant time;
3. counts the call against its limits (``gamerec.validator.service.quotas``): by token, or
   by peer address when it has none; past them, RESOURCE_EXHAUSTED with RetryInfo;
4. checks the method's rule (:data:`RULES`): the roles it admits, and for a seat, its own
   match only. A known token used beyond its role is PERMISSION_DENIED; a call that needs a
   token and has none is UNAUTHENTICATED. Neither answer depends on whether the match the
   call names exists.

Without admin tokens anyone may act as the admin (a server on a laptop); without record
tokens RecordService is open; with anonymous watching (the default) anyone may watch and
read matches. Health and reflection pass ungated. :meth:`Gate.reload` reads the token files
again (``gamerec serve`` does on SIGHUP), keeping the old tokens when a file is broken.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Final, NoReturn

import grpc
import grpc.aio
from google.protobuf.message import DecodeError, Message
from google.rpc import code_pb2  # type: ignore[import-untyped]

from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.service import metrics
from gamerec.validator.service.calls import Call
from gamerec.validator.service.principal import PRINCIPAL, Principal, Role
from gamerec.validator.service.quotas import ClientLimits, ClientQuotas, OverLimitError
from gamerec.validator.service.servicer import end_with
from gamerec.validator.service.statuses import quota_failure, retry_info, status_with
from gamerec.validator.service.token_files import TokenBook, TokenFileError, token_digest
from gamerec.validator.service.transport import AUTHORIZATION

#: The domain of the gate's ``ErrorInfo`` details.
DOMAIN: Final = "gamerec.v1"
#: Requests up to this size are read by the gate for their token and match (the match
#: service refuses larger ones anyway).
MAX_READ_BYTES: Final = 1024 * 1024
_BEARER: Final = "bearer "

#: Finds the match and seat of a seat token's hash (None: no seat's).
SeatFinder = Callable[[bytes], Awaitable[tuple[str, int] | None]]


@dataclass(frozen=True, slots=True)
class AccessSettings:
    """Who may do what on a server (picklable: server processes receive it).

    Attributes:
        admin_tokens: the admins' token file; empty: anyone may act as the admin.
        spectator_tokens: the spectators' token file (with anonymous watching off, they
            and the seats of a match are the ones who may watch it).
        record_tokens: the RecordService callers' token file; empty: RecordService is open.
        anonymous_watch: anyone may watch matches and read them.
        limits: the limits per client.
    """

    admin_tokens: str = ""
    spectator_tokens: str = ""
    record_tokens: str = ""
    anonymous_watch: bool = True
    limits: ClientLimits = field(default_factory=ClientLimits)

    def files(self) -> dict[Role, str]:
        """The token file of each role that has one."""
        named = {
            Role.ADMIN: self.admin_tokens,
            Role.SPECTATOR: self.spectator_tokens,
            Role.RECORD: self.record_tokens,
        }
        return {role: path for role, path in named.items() if path}

    def log_fields(self, book: TokenBook | None = None) -> dict[str, object]:
        """What the ``listening`` line says of access."""
        return {
            "admin_tokens": bool(self.admin_tokens),
            "record_service": "tokens" if self.record_tokens else "open",
            "anonymous_watch": self.anonymous_watch,
        }


@dataclass(frozen=True, slots=True)
class Rule:
    """Who may call a method.

    Attributes:
        roles: the roles it admits (besides anyone, where the settings open it).
        request: the request's message, read for its ``match_id`` and ``token``; None: the
            method names no match.
        own_match: a seat may call it for its own match only.
        stream: the answer is a stream (counted while open).
    """

    roles: frozenset[Role]
    request: type[Message] | None = None
    own_match: bool = False
    stream: bool = False


_MATCH: Final = "/gamerec.v1.MatchService/"
_RECORD: Final = "/gamerec.v1.RecordService/"
_LOBBY: Final = "/gamerec.v1.LobbyService/"
_LOBBY_CALLS: Final = (
    "OpenChallenge", "ListChallenges", "TakeSeat", "CancelChallenge", "ListLiveMatches",
)  # fmt: skip
_WATCHERS: Final = frozenset({Role.ADMIN, Role.SEAT, Role.SPECTATOR})
_SEAT_CALLS: Final[dict[str, type[Message]]] = {
    "Play": mpb.PlayRequest,
    "Sign": mpb.SignRequest,
    "Resign": mpb.ResignRequest,
    "OfferDraw": mpb.OfferDrawRequest,
    "AnswerDraw": mpb.AnswerDrawRequest,
}
_RECORD_CALLS: Final = (
    "Validate", "Replay", "Score", "Adjudicate", "Diff", "Convert", "LegalMoves", "Verify",
)  # fmt: skip

#: Every gated method's rule, by its full name.
RULES: Final[dict[str, Rule]] = {
    _MATCH + "CreateMatch": Rule(frozenset({Role.ADMIN})),
    _MATCH + "CreateMatches": Rule(frozenset({Role.ADMIN})),
    _MATCH + "WhoAmI": Rule(frozenset({Role.SEAT}), mpb.WhoAmIRequest),
    _MATCH + "Abort": Rule(frozenset({Role.ADMIN, Role.SEAT}), mpb.AbortRequest, own_match=True),
    **{
        _MATCH + name: Rule(frozenset({Role.SEAT}), kind, own_match=True)
        for name, kind in _SEAT_CALLS.items()
    },
    _MATCH + "Watch": Rule(_WATCHERS, mpb.WatchRequest, own_match=True, stream=True),
    _MATCH + "GetMatch": Rule(_WATCHERS, mpb.GetMatchRequest, own_match=True),
    _MATCH + "ListMatches": Rule(frozenset({Role.ADMIN, Role.SPECTATOR})),
    # The lobby is open to whoever may watch: its tokens are in the requests, not the gate's.
    **{_LOBBY + name: Rule(_WATCHERS) for name in _LOBBY_CALLS},
    _LOBBY + "WatchLobby": Rule(_WATCHERS, stream=True),
    # Stateless help for the pages that play and watch (assist.proto): whoever may watch.
    **{f"/gamerec.v1.AssistService/{name}": Rule(_WATCHERS) for name in ("Click", "ViewerPage")},
    **{
        _RECORD + name: Rule(frozenset({Role.ADMIN, Role.RECORD}), stream=name == "Replay")
        for name in _RECORD_CALLS
    },
}


class AccessDeniedError(Exception):
    """A call the gate refuses: UNAUTHENTICATED or PERMISSION_DENIED.

    Attributes:
        code: the status code.
        field: where the credential was (``token``, or ``authorization`` metadata).
    """

    def __init__(self, code: grpc.StatusCode, field_name: str, message: str) -> None:
        """Say the code, the field and why."""
        super().__init__(message)
        self.code = code
        self.field = field_name


@dataclass(frozen=True, slots=True)
class _Credential:
    token: str
    field: str
    match_id: str
    #: The request is no message of its method's type: the handler refuses it
    #: (INVALID_ARGUMENT) before it does anything, so the gate lets it through.
    undecodable: bool = False


class Gate(grpc.aio.ServerInterceptor):
    """The interceptor that admits calls (see the module docstring).

    Args:
        settings: who may do what, and the limits per client.
        seats: finds a seat token's match and seat (None: no match service).
    """

    def __init__(self, settings: AccessSettings, seats: SeatFinder | None = None) -> None:
        """Read the token files.

        Raises:
            TokenFileError: a token file cannot be read or is malformed.
        """
        self.settings = settings
        self.book = TokenBook(settings.files())
        self.quotas = ClientQuotas(settings.limits)
        self.seats = seats
        self._wrapped: dict[str, grpc.RpcMethodHandler[Any, Any]] = {}

    def reload(self) -> str | None:
        """Read the token files again; an error message when kept as they were."""
        try:
            self.book.load()
        except TokenFileError as error:
            return str(error)
        return None

    async def intercept_service(
        self,
        continuation: Callable[
            [grpc.HandlerCallDetails], Awaitable[grpc.RpcMethodHandler[Any, Any] | None]
        ],
        handler_call_details: grpc.HandlerCallDetails,
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        """The method's handler, behind the gate when the method has a rule."""
        handler = await continuation(handler_call_details)
        method = handler_call_details.method
        rule = RULES.get(method)
        if handler is None or rule is None:
            return handler
        wrapped = self._wrapped.get(method)
        if wrapped is None:
            wrapped = self._wrapped[method] = self._wrap(method, rule, handler)
        return wrapped

    def _wrap(
        self, method: str, rule: Rule, handler: grpc.RpcMethodHandler[Any, Any]
    ) -> grpc.RpcMethodHandler[Any, Any]:
        short = method.rsplit("/", 1)[1]
        if handler.unary_unary is not None:
            inner: Any = handler.unary_unary  # a coroutine function (the stubs say otherwise)

            async def unary(request: bytes, context: grpc.aio.ServicerContext[Any, Any]) -> Any:
                principal = await self._admit(short, rule, request, context)
                PRINCIPAL.set(principal)
                return await inner(request, context)

            return grpc.unary_unary_rpc_method_handler(unary)
        assert handler.unary_stream is not None
        streaming: Any = handler.unary_stream  # an async generator function

        async def stream(
            request: bytes, context: grpc.aio.ServicerContext[Any, Any]
        ) -> AsyncIterator[Any]:
            principal = await self._admit(short, rule, request, context)
            PRINCIPAL.set(principal)
            try:
                async for answer in streaming(request, context):
                    yield answer
            finally:
                self.quotas.close_stream(principal.key)

        return grpc.unary_stream_rpc_method_handler(stream)

    async def _admit(
        self,
        method: str,
        rule: Rule,
        request: bytes,
        context: grpc.aio.ServicerContext[Any, Any],
    ) -> Principal:
        """The caller, admitted; or the call ended with the status that refuses it."""
        peer = context.peer()
        principal: Principal | None = None
        try:
            credential = _credential(rule, request, context.invocation_metadata())
            if credential.token:
                principal = await self._by_token(credential, peer)
            else:
                principal = self._by_connection(_subject(context), peer)
            self.quotas.take(principal.key, principal.by_token)
            if not credential.undecodable:
                principal = self._permit(method, rule, principal, credential)
            if rule.stream:
                self.quotas.open_stream(principal.key, principal.by_token)
        except AccessDeniedError as denied:
            await self._refuse(context, method, peer, principal, _denied_status(denied))
        except OverLimitError as refused:
            metrics.refused(refused.limit)
            await self._refuse(context, method, peer, principal, _refused_status(refused))
        return principal

    async def _by_token(self, credential: _Credential, peer: str) -> Principal:
        """The caller a token names: a token file's entry, else a seat of some match.

        Raises:
            AccessDeniedError: the token is no one's (UNAUTHENTICATED).
        """
        digest = token_digest(credential.token)
        key = "token:" + digest[:12].hex()
        entry = self.book.by_digest(digest)
        if entry is not None:
            return Principal(entry.role, entry.name, key, True)
        found = await self.seats(digest) if self.seats is not None else None
        if found is not None:
            match_id, seat = found
            return Principal(Role.SEAT, f"seat {seat}", key, True, match_id, seat)
        # An unknown token counts against its address: made-up tokens are no one's.
        self.quotas.take("peer:" + _host(peer), by_token=False)
        raise AccessDeniedError(
            grpc.StatusCode.UNAUTHENTICATED,
            credential.field,
            "the token is not one this server knows"
            + (" (a seat's token, or a token of the server's token files)"),
        )

    def _by_connection(self, subject: str, peer: str) -> Principal:
        """A caller without a token: its client certificate's entry, else no one (by address).

        Not a coroutine: most calls come this way, and nothing here waits.
        """
        if subject:
            entry = self.book.by_subject(subject)
            if entry is not None:
                return Principal(entry.role, entry.name, "subject:" + subject, True)
        return Principal(Role.ANONYMOUS, subject, "peer:" + _host(peer), False)

    def _permit(
        self, method: str, rule: Rule, principal: Principal, credential: _Credential
    ) -> Principal:
        """The principal the call runs as, when the rule admits it."""
        open_to = self._open_role(rule)
        if principal.role is Role.ANONYMOUS:
            if open_to is None:
                raise AccessDeniedError(
                    grpc.StatusCode.UNAUTHENTICATED,
                    AUTHORIZATION,
                    f"{method} needs a token: {_who(rule)}, as 'authorization: Bearer <token>' "
                    "metadata" + (" or the request's token" if rule.request in _SEAT_TYPES else ""),
                )
            # A new Principal, not dataclasses.replace: this runs on every call without a token.
            return Principal(open_to, principal.name, principal.key, principal.by_token)
        if principal.role is Role.SEAT and rule.own_match:
            if credential.match_id != principal.match_id and open_to is None:
                raise AccessDeniedError(
                    grpc.StatusCode.PERMISSION_DENIED,
                    credential.field,
                    "a seat's token acts only in its own match",
                )
            return principal
        if principal.role in rule.roles or open_to is not None:
            return principal
        raise AccessDeniedError(
            grpc.StatusCode.PERMISSION_DENIED,
            credential.field,
            f"{method} is not for {_a(principal.role)} token: it needs {_who(rule)}",
        )

    def _open_role(self, rule: Rule) -> Role | None:
        """The role a caller without a token takes for this rule (None: it needs one).

        The least one that the rule admits and the settings open to anyone.
        """
        if Role.SPECTATOR in rule.roles and self.settings.anonymous_watch:
            return Role.SPECTATOR
        if Role.RECORD in rule.roles and not self.book.has(Role.RECORD):
            return Role.RECORD
        if Role.ADMIN in rule.roles and not self.book.has(Role.ADMIN):
            return Role.ADMIN
        return None

    async def _refuse(
        self,
        context: grpc.aio.ServicerContext[Any, Any],
        method: str,
        peer: str,
        principal: Principal | None,
        status: grpc.Status,
    ) -> NoReturn:
        call = Call(method, peer, principal)
        call.status = status.code.name
        call.verdict = status.details
        call.write()
        await end_with(context.abort_with_status(status))


_SEAT_TYPES: Final = (*_SEAT_CALLS.values(), mpb.AbortRequest, mpb.WhoAmIRequest)
#: The credential of a call without a token that names no match (most RecordService calls).
_NO_CREDENTIAL: Final = _Credential("", AUTHORIZATION, "")


def _credential(
    rule: Rule, request: bytes, metadata: Iterable[tuple[str, str | bytes]] | None
) -> _Credential:
    """The call's token (the request's, else the bearer's) and the match it names."""
    token = match_id = ""
    if rule.request is not None and len(request) <= MAX_READ_BYTES:
        try:
            message = rule.request.FromString(request)
        except DecodeError:
            return _Credential("", AUTHORIZATION, "", undecodable=True)
        match_id = str(getattr(message, "match_id", ""))
        token = str(getattr(message, "token", ""))
    if token:
        return _Credential(token, "token", match_id)
    token = bearer_token(metadata) or ""
    if not token and not match_id:
        return _NO_CREDENTIAL
    return _Credential(token, AUTHORIZATION, match_id)


def bearer_token(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    """The token of ``authorization: Bearer <token>`` metadata; None: there is none."""
    for key, value in metadata or ():
        if (
            key.lower() == AUTHORIZATION
            and isinstance(value, str)
            and value[: len(_BEARER)].lower() == _BEARER
        ):
            return value[len(_BEARER) :].strip()
    return None


def _subject(context: grpc.aio.ServicerContext[Any, Any]) -> str:
    """The subject of the client's certificate (mTLS), or empty."""
    auth = context.auth_context()
    for subject in auth.get("x509_subject") or ():
        return subject.decode("utf-8", "replace")
    for name in auth.get("x509_common_name") or ():
        return "CN=" + name.decode("utf-8", "replace")
    return ""


def _host(peer: str) -> str:
    """A peer's address without its port: ``ipv4:1.2.3.4:5`` -> ``1.2.3.4``."""
    kind, _, rest = peer.partition(":")
    if kind in ("ipv4", "ipv6"):
        host, _, _ = rest.rpartition(":")
        return host.strip("[]")
    return peer


def _who(rule: Rule) -> str:
    roles = [
        role for role in (Role.ADMIN, Role.SEAT, Role.SPECTATOR, Role.RECORD) if role in rule.roles
    ]
    words = {
        Role.ADMIN: "an admin's token",
        Role.SEAT: "a seat's token",
        Role.SPECTATOR: "a spectator's token",
        Role.RECORD: "a RecordService token",
    }
    named = [words[role] for role in roles]
    return named[0] if len(named) == 1 else ", ".join(named[:-1]) + " or " + named[-1]


def _a(role: Role) -> str:
    return f"an {role}" if role.value[0] in "aeiou" else f"a {role}"


def _denied_status(denied: AccessDeniedError) -> grpc.Status:
    code = (
        code_pb2.UNAUTHENTICATED
        if denied.code is grpc.StatusCode.UNAUTHENTICATED
        else code_pb2.PERMISSION_DENIED
    )
    reason = "BAD_TOKEN" if code == code_pb2.UNAUTHENTICATED else "PERMISSION_DENIED"
    return status_with(code, str(denied), reason=reason, domain=DOMAIN, field_name=denied.field)


def _refused_status(refused: OverLimitError) -> grpc.Status:
    return status_with(
        code_pb2.RESOURCE_EXHAUSTED,
        str(refused),
        reason="RATE_LIMITED" if refused.limit.endswith("rate") else "TOO_MANY_STREAMS",
        domain=DOMAIN,
        field_name="",
        details=(quota_failure(refused.limit, str(refused)), retry_info(refused.retry_after)),
        metadata={"limit": refused.limit},
    )
