"""The AssistService servicer (protos/gamerec/v1/assist.proto): a thin shell.

It answers with :func:`gamerec.validator.assist.clicks.answer_clicks` and the viewer's page.

Both calls are stateless and change nothing: the page sends the record it holds. The work
(a replay and a drawing) runs in a thread, so the event loop keeps serving moves meanwhile.
A request that cannot be answered ends with ``INVALID_ARGUMENT`` and a
``google.rpc.BadRequest`` naming the field; every call writes one log line.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

import grpc
import grpc.aio
from google.protobuf.message import DecodeError, Message

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import assist_pb2 as apb
from gamerec.validator.assist.clicks import ClicksError, answer_clicks
from gamerec.validator.render.ending import ending_words
from gamerec.validator.render.svg import draw_svg
from gamerec.validator.render.viewer.page import view_page
from gamerec.validator.service.calls import Call
from gamerec.validator.service.match_servicer import add_service
from gamerec.validator.service.server import ExtraService
from gamerec.validator.service.servicer import bad_request, end_with

#: The service's full name, as clients, health and reflection name it.
ASSIST_SERVICE_NAME: Final = apb.DESCRIPTOR.services_by_name["AssistService"].full_name

M = TypeVar("M", bound=Message)
Context = grpc.aio.ServicerContext[bytes, bytes]


class _RefusedError(Exception):
    """A request that cannot be answered: the field and why."""

    def __init__(self, field_name: str, problem: str) -> None:
        super().__init__(problem)
        self.field = field_name
        self.problem = problem


def click(request: apb.ClickRequest) -> apb.ClickResponse:
    """Answer a Click request (the library call, drawn)."""
    try:
        clicks = answer_clicks(request.record, list(request.clicks))
    except ClicksError as error:
        raise _RefusedError(error.field, str(error)) from None
    answer = apb.ClickResponse(
        board_svg=draw_svg(clicks.scene),
        to_move=clicks.scene.position.to_move,
        plies=clicks.scene.ply,
        next_sites=clicks.next_sites,
        complete=clicks.complete,
        ending=ending_words(request.record, clicks.state, seat=request.ending_seat),
    )
    if clicks.refused is not None:
        answer.refused.CopyFrom(clicks.refused)
    return answer


def viewer_page(request: apb.ViewerPageRequest) -> apb.ViewerPageResponse:
    """Answer a ViewerPage request: ``gamerec view``'s page of the record."""
    try:
        return apb.ViewerPageResponse(html=view_page(request.record).html)
    except GamerecError as error:
        raise _RefusedError("record", str(error)) from None


def _handler(
    method: str, kind: type[M], work: Callable[[M], Message]
) -> Callable[[bytes, Context], Awaitable[bytes]]:
    async def handle(raw: bytes, context: Context) -> bytes:
        call = Call(method, context.peer())
        try:
            try:
                request = kind.FromString(raw)
            except DecodeError as error:
                raise _RefusedError("(request)", f"not a {kind.__name__}: {error}") from None
            answer = await asyncio.to_thread(work, request)
            return answer.SerializeToString()
        except _RefusedError as refused:
            call.status, call.verdict = "INVALID_ARGUMENT", f"{refused.field}: {refused}"
            await end_with(context.abort_with_status(bad_request(refused.field, refused.problem)))
        finally:
            call.write()

    return handle


def register(server: grpc.aio.Server) -> None:
    """Add AssistService's handlers to a server."""
    unary = (
        ("Click", _handler("Click", apb.ClickRequest, click)),
        ("ViewerPage", _handler("ViewerPage", apb.ViewerPageRequest, viewer_page)),
    )
    add_service(server, ASSIST_SERVICE_NAME, unary, {})


#: The service as ``gamerec serve`` adds it beside RecordService.
ASSIST_SERVICE: Final = ExtraService(ASSIST_SERVICE_NAME, register)
