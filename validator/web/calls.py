"""The call line of a request the web door refused before any handler took it.

A call that reaches its handler writes its own line (``gamerec.validator.service.calls``), as
on the gRPC port. A request the door or connectrpc refuses first (a body over the limit, a
content type it does not speak, a body that is not the message, a page of an origin not
allowed) would leave none: :func:`logged` writes it, with the method, the peer, the status and
the message of the Connect error it got, and counts it in the metrics as a call.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from contextvars import ContextVar
from typing import Any, Final

import grpc
import orjson

from gamerec.validator.service.calls import Call
from gamerec.validator.web.asgi import Message, Send
from gamerec.validator.web.frames import END_STREAM

Serve = Callable[[Send], Awaitable[None]]

#: Set while the door serves a call: becomes true once a handler takes it.
TAKEN: Final[ContextVar[list[bool] | None]] = ContextVar("gamerec_web_taken", default=None)
#: The most bytes of an answer kept to read its error from.
KEPT_BYTES: Final = 64 * 1024


def took() -> None:
    """A handler took the call being served (it writes its own line)."""
    flag = TAKEN.get()
    if flag is not None:
        flag[0] = True


class _Outcome:
    """A response as it is sent: its status, headers and (the start of) its body."""

    def __init__(self, send: Send) -> None:
        self._send = send
        self.status = 0
        self.headers: dict[str, str] = {}
        self.body = bytearray()

    async def __call__(self, message: Message) -> None:
        kind = message["type"]
        if kind == "http.response.start":
            self.status = int(message["status"])
            self._keep(message.get("headers", ()))
        elif kind == "http.response.body" and len(self.body) < KEPT_BYTES:
            self.body += message.get("body", b"")[: KEPT_BYTES - len(self.body)]
        elif kind == "http.response.trailers":
            self._keep(message.get("headers", ()))
        await self._send(message)

    def _keep(self, headers: Any) -> None:
        for key, value in headers:
            self.headers[bytes(key).decode("latin-1").lower()] = bytes(value).decode("latin-1")

    def error(self) -> tuple[str, str]:
        """The status name and message of the answer (``OK``, ``""`` when it was none)."""
        if "grpc-status" in self.headers:  # gRPC and gRPC-Web
            text = self.headers["grpc-status"]
            number = int(text) if text.isdigit() else -1
            named = [status.name for status in grpc.StatusCode if status.value[0] == number]
            return (named or ["UNKNOWN"])[0], self.headers.get("grpc-message", "")
        found: Any = None
        try:
            if self.status != 200:
                found = orjson.loads(bytes(self.body))
            elif self.headers.get("content-type", "").startswith("application/connect+"):
                found = _end_of_stream(bytes(self.body)).get("error")
        except (orjson.JSONDecodeError, ValueError):
            return ("UNKNOWN" if self.status != 200 else "OK"), ""
        if not isinstance(found, dict):
            return "OK", ""
        code = str(found.get("code", "unknown")).upper().replace("CANCELED", "CANCELLED")
        return code, str(found.get("message", ""))


def _end_of_stream(body: bytes) -> dict[str, Any]:
    """The end frame of a Connect stream's answer (empty: none)."""
    offset = 0
    while offset + 5 <= len(body):
        size = int.from_bytes(body[offset + 1 : offset + 5], "big")
        frame = body[offset + 5 : offset + 5 + size]
        if body[offset] & END_STREAM:
            found = orjson.loads(frame)
            return found if isinstance(found, dict) else {}
        offset += 5 + size
    return {}


async def logged(
    method: str, peer: str, send: Send, serve: Callable[[Send], Awaitable[None]]
) -> None:
    """Serve a call with ``serve``; write its line when no handler took it."""
    flag = [False]
    token = TAKEN.set(flag)
    outcome = _Outcome(send)
    call = Call(method, peer)  # timed from now: the whole request's time
    try:
        await serve(outcome)
    finally:
        TAKEN.reset(token)
    if not flag[0]:
        call.status, call.verdict = outcome.error()
        call.write()
