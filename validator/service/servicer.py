"""The RecordService servicer: each RPC hands its request bytes to a job and sends the answer.

The handlers take and give serialized messages (no deserializer is registered), so the event
loop never parses a request: the job in gamerec.validator.service.work does, in a worker process. A
verdict about a record is a normal response; a request that cannot be processed ends the call
with ``INVALID_ARGUMENT`` and a ``google.rpc.BadRequest`` naming the field and the problem.
Every call writes one log line (gamerec.validator.service.calls).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Final, NoReturn

import grpc
import grpc.aio
from google.protobuf import any_pb2
from google.rpc import code_pb2, error_details_pb2, status_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from gamerec.recorder.errors import bounded
from gamerec.v1 import service_pb2 as spb
from gamerec.validator.service.calls import LOGGER, Call
from gamerec.validator.service.pool import WorkerLostError, WorkerPool
from gamerec.validator.service.work import (
    DEADLINE_EXCEEDED,
    INVALID_ARGUMENT,
    OK,
    UNARY_JOBS,
    Answer,
)

#: The service's full name, as clients, health and reflection name it.
SERVICE_NAME: Final = spb.DESCRIPTOR.services_by_name["RecordService"].full_name

#: Frames in the first piece of a Replay; each next piece is twice as large, up to the most.
FIRST_REPLAY_PIECE: Final = 64
MOST_REPLAY_PIECE: Final = 1024

Context = grpc.aio.ServicerContext[bytes, bytes]
UnaryBehaviour = Callable[[bytes, Context], Awaitable[bytes]]


class RecordServicer:
    """The RPCs of ``gamerec.v1.RecordService`` over a :class:`WorkerPool`."""

    def __init__(self, pool: WorkerPool) -> None:
        """Serve with the jobs of ``pool``."""
        self._pool = pool

    def handler(self) -> grpc.GenericRpcHandler:
        """The handler to register on a server: every RPC, bytes in and bytes out."""
        handlers: dict[str, grpc.RpcMethodHandler[bytes, bytes]] = {
            method: grpc.unary_unary_rpc_method_handler(self._unary(method))
            for method in UNARY_JOBS
        }
        handlers["Replay"] = grpc.unary_stream_rpc_method_handler(self.replay)
        return grpc.method_handlers_generic_handler(SERVICE_NAME, handlers)

    def _unary(self, method: str) -> UnaryBehaviour:
        """The behaviour of one unary RPC."""

        async def behaviour(request: bytes, context: Context) -> bytes:
            call = Call(method, context.peer())
            deadline = remaining_deadline(context)
            try:
                answer = await self._pool.unary(method, request, deadline)
                call.answered(answer)
                if answer.status != OK:
                    await abort(context, answer)
                return answer.payload
            except asyncio.CancelledError:
                call.status = cancelled_status(deadline)
                raise
            except grpc.aio.AbortError:
                raise
            except Exception as error:
                await fail(context, call, error)
            finally:
                call.write()

        return behaviour

    async def replay(self, request: bytes, context: Context) -> AsyncIterator[bytes]:
        """Replay: the frames come in pieces, the next piece made while this one is sent."""
        call = Call("Replay", context.peer())
        deadline = remaining_deadline(context)
        start, size = 0, FIRST_REPLAY_PIECE
        piece: asyncio.Future[Answer] | None = self._replay_piece(request, deadline, 0, size)
        try:
            while piece is not None:
                answer = await piece
                call.answered(answer)
                if answer.status != OK:
                    await abort(context, answer)
                start, size = start + len(answer.frames), min(size * 2, MOST_REPLAY_PIECE)
                piece = self._replay_piece(request, deadline, start, size) if answer.more else None
                for frame in answer.frames:
                    yield frame
        except (asyncio.CancelledError, GeneratorExit):
            # A client that cancels a stream closes this generator at its `yield`.
            call.status = cancelled_status(deadline)
            raise
        except grpc.aio.AbortError:
            raise
        except Exception as error:
            await fail(context, call, error)
        finally:
            if piece is not None:
                piece.cancel()
            call.write()

    def _replay_piece(
        self, request: bytes, deadline: float | None, start: int, count: int
    ) -> asyncio.Future[Answer]:
        """Start making one piece of a replay."""
        return asyncio.ensure_future(self._pool.replay_piece(request, deadline, start, count))


def remaining_deadline(context: Context) -> float | None:
    """The call's deadline as a ``time.monotonic()`` time, or None when it has none."""
    remaining = context.time_remaining()
    return None if remaining is None else time.monotonic() + remaining


#: How early before our reading of a call's deadline gRPC may cancel it for that deadline:
#: the deadline is read as "now + time remaining" when the handler starts, so it runs late
#: by however long the process was kept from reading the clock in between (a loaded machine).
DEADLINE_SLACK_SECONDS: Final = 0.05


def cancelled_status(deadline: float | None) -> str:
    """Why a call was cancelled: its deadline (monotonic) passed, or the client went away."""
    late = deadline is not None and time.monotonic() >= deadline - DEADLINE_SLACK_SECONDS
    return DEADLINE_EXCEEDED if late else "CANCELLED"


async def fail(context: Context, call: Call, error: Exception) -> NoReturn:
    """End a call whose job failed: a worker that died, or a bug.

    A worker process that ended under the job is ``UNAVAILABLE`` (the server goes on with a
    new worker, and the same call may be tried again); anything else is ``INTERNAL``, with the
    traceback in the server's log only.
    """
    if isinstance(error, WorkerLostError):
        call.status = "UNAVAILABLE"
        LOGGER.error("%s failed: %s", call.method, error)
        await end_with(
            context.abort(
                grpc.StatusCode.UNAVAILABLE,
                f"{call.method} failed: {error}; the server goes on with a new worker, so "
                "the call may be tried again",
            )
        )
    call.status = "INTERNAL"
    LOGGER.error("%s failed", call.method, exc_info=error)
    await end_with(
        context.abort(grpc.StatusCode.INTERNAL, f"{call.method} failed; see the server log")
    )


async def abort(context: Context, answer: Answer) -> NoReturn:
    """End a call whose job could not answer: a bad field, or a passed deadline."""
    if answer.status == INVALID_ARGUMENT:
        await end_with(context.abort_with_status(bad_request(answer.field, answer.problem)))
    assert answer.status == DEADLINE_EXCEEDED, answer.status
    await end_with(context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, bounded(answer.problem)))


async def end_with(aborting: Awaitable[None]) -> NoReturn:
    """Send a call's error status (``context.abort``), which ends the handler.

    When the call is over before its status goes out (its deadline passed, or the client
    went away), gRPC cannot send it and raises something else than ``AbortError``; there is
    no one left to tell, so the handler ends as a cancelled call does.
    """
    try:
        await aborting
    except grpc.aio.AbortError:
        raise
    except Exception:
        raise asyncio.CancelledError from None
    raise AssertionError("context.abort returned")


def bad_request(field: str, problem: str) -> grpc.Status:
    """``INVALID_ARGUMENT`` with a ``google.rpc.BadRequest`` naming the field and the problem."""
    problem = bounded(problem)  # within gRPC's metadata limits, whatever the input held
    violation = error_details_pb2.BadRequest.FieldViolation(field=field, description=problem)
    detail = any_pb2.Any()
    detail.Pack(error_details_pb2.BadRequest(field_violations=[violation]))
    message = f"{field}: {problem}" if field else problem
    status = status_pb2.Status(code=code_pb2.INVALID_ARGUMENT, message=message, details=[detail])
    return rpc_status.to_status(status)
