"""A call answered: requests read under a size limit, handlers added, errors as statuses.

The shell every service over the live referee shares (MatchService, the lobby's, the
assistant's): :func:`unary_method` and :func:`add_service` build and register handlers,
:func:`parse_request` reads a request, :func:`answering` logs each call and ends a failed one
with the status :func:`status_of` gives its error (google.rpc details naming the field). It
may import ``grpc``, ``gamerec.recorder``, ``gamerec.v1``, ``gamerec.validator.live`` and the
service's ``calls``, ``servicer`` and ``statuses``.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from typing import Any, Final, NoReturn, TypeVar

import grpc
import grpc.aio
from google.protobuf.message import DecodeError, Message
from google.rpc import code_pb2, error_details_pb2  # type: ignore[import-untyped]

from gamerec.recorder.errors import bounded
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.match import CommandRefusedError, MatchLogError, Refusal
from gamerec.validator.live.referee import BadTokenError, LimitReachedError, UnknownMatchError
from gamerec.validator.live.store import StoreError
from gamerec.validator.service.calls import LOGGER, Call
from gamerec.validator.service.servicer import Context, cancelled_status, end_with
from gamerec.validator.service.statuses import status_with

#: The service's full name, as clients, health and reflection name it.
MATCH_SERVICE_NAME: Final = mpb.DESCRIPTOR.services_by_name["MatchService"].full_name
#: The domain of the service's ``ErrorInfo`` details.
DOMAIN: Final = "gamerec.v1.MatchService"

M = TypeVar("M", bound=Message)


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
