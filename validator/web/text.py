"""gRPC-Web's text mode: a call whose body and answer are base64 (``application/grpc-web-text``).

Browsers' gRPC-Web clients (grpc-web's ``mode=grpcwebtext``, its default, and improbable-eng's)
send and read base64 so that a response can be read while it streams in through XHR. connectrpc
speaks gRPC-Web in binary only, so this wrapper turns a text call into a binary one in front of
the service and its answer back into text:

- the request body (at most the door's limit once decoded) is read whole and decoded; a body
  may be several base64 runs one after another, each ending in its padding (as a client that
  encodes each message on its own sends them); anything else is refused with
  ``invalid_argument`` naming the byte where the base64 goes wrong;
- the service sees ``application/grpc-web+proto`` and the decoded body;
- each frame of the answer (each message, then the trailers) is sent as base64 of its own,
  padded, as Envoy's gRPC-Web filter writes it: a stream's messages reach the page as they
  are sent, and a client that decodes each run on its own finds whole frames in it. The
  answer's content type says ``application/grpc-web-text+proto``.

It imports the standard library and ``asgi``; ``app`` calls it.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Awaitable, Callable
from itertools import pairwise
from typing import Final

from gamerec.validator.web.asgi import ASGIApp, Message, Receive, Scope, Send

#: The content types of the text mode (a request's), by what the service is told instead.
TEXT_TYPES: Final = {
    "application/grpc-web-text": "application/grpc-web+proto",
    "application/grpc-web-text+proto": "application/grpc-web+proto",
}
#: What an answer in text mode says it is.
ANSWER_TYPE: Final = b"application/grpc-web-text+proto"

#: A run of base64: whole groups of four, the last one possibly padded.
_RUN: Final = re.compile(rb"(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?")

#: How the wrapper refuses a call: (HTTP status, Connect code, message).
Refuse = Callable[[Send, int, str, str], Awaitable[None]]


class TextError(ValueError):
    """A body that is not base64 (the message names the byte)."""


def text_limit(max_body_bytes: int) -> int:
    """The longest text body whose decoding can fit in ``max_body_bytes``."""
    return -(-max_body_bytes // 3) * 4


def decode_text(body: bytes) -> bytes:
    """The bytes of a text-mode body: one or more padded base64 runs, one after another.

    Raises:
        TextError: a byte that is no part of such a run (its offset is named).
    """
    decoded = bytearray()
    at = 0
    while at < len(body):
        run = _RUN.match(body, at)
        end = run.end() if run else at
        if end == at:
            raise TextError(f"byte {at} of the body is not base64 (gRPC-Web text mode)")
        decoded += base64.b64decode(body[at:end])
        if not body.endswith(b"=", at, end) and end < len(body):
            raise TextError(f"byte {end} of the body is not base64 (gRPC-Web text mode)")
        at = end
    return bytes(decoded)


def encode_text(chunk: bytes) -> bytes:
    """One piece of an answer as text: its own padded base64."""
    return base64.b64encode(chunk)


def text_mode(service: ASGIApp, max_body_bytes: int, refuse: Refuse) -> ASGIApp:
    """``service`` spoken to in text mode (see the module docstring)."""

    async def serve(scope: Scope, receive: Receive, send: Send) -> None:
        body = await _whole_body(receive, text_limit(max_body_bytes))
        if body is _GONE:  # the client went away before its body was whole: no call
            return
        if body is None:
            await refuse(
                send,
                429,
                "resource_exhausted",
                f"the request body is longer than this server's limit of {max_body_bytes:,} "
                "bytes once decoded (gamerec serve --max-message-bytes)",
            )
            return
        try:
            decoded = decode_text(body)
        except (TextError, binascii.Error) as error:
            await refuse(send, 400, "invalid_argument", str(error))
            return
        await service(_binary_scope(scope, len(decoded)), _replay(decoded, receive), _as_text(send))

    return serve


#: What :func:`_whole_body` answers when the client went away first.
_GONE: Final = b"(the client went away)"


async def _whole_body(receive: Receive, limit: int) -> bytes | None:
    """The request body, or why there is none to call with.

    None once it passes ``limit`` bytes (the rest is not read); :data:`_GONE` (that very
    object) when the client disconnects before the body is whole.
    """
    body = bytearray()
    while True:
        message = await receive()
        if message["type"] != "http.request":
            return _GONE
        body += message.get("body", b"")
        if len(body) > limit:
            return None
        if not message.get("more_body", False):
            return bytes(body)


def _binary_scope(scope: Scope, length: int) -> Scope:
    """``scope`` with the binary content type and the decoded body's length."""
    headers = []
    for key, value in scope.get("headers", ()):
        name = bytes(key).lower()
        if name == b"content-type":
            kind = bytes(value).decode("latin-1").split(";", 1)[0].strip().lower()
            headers.append((key, TEXT_TYPES.get(kind, kind).encode("latin-1")))
        elif name == b"content-length":
            headers.append((key, str(length).encode()))
        else:
            headers.append((key, value))
    return {**scope, "headers": headers}


def _replay(body: bytes, receive: Receive) -> Receive:
    """A receive that hands over ``body`` once, then waits on the client (for a disconnect)."""
    given = False

    async def receiving() -> Message:
        nonlocal given
        if given:
            return await receive()
        given = True
        return {"type": "http.request", "body": body, "more_body": False}

    return receiving


def _as_text(send: Send) -> Send:
    """``send`` writing the answer in text mode, each whole frame as base64 of its own."""
    pending = bytearray()

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            headers = [
                (key, ANSWER_TYPE if bytes(key).lower() == b"content-type" else value)
                for key, value in message.get("headers", ())
                if bytes(key).lower() != b"content-length"
            ]
            message = {**message, "headers": headers}
        elif message["type"] == "http.response.body":
            pending.extend(message.get("body", b""))
            more = message.get("more_body", False)
            ends = frame_ends(pending)
            if not more and len(pending) > (ends[-1] if ends else 0):
                ends.append(len(pending))  # the end of the answer: the rest, whole or not
            if not ends and more:
                return  # a frame not yet whole: sent with the rest of it
            text = b"".join(
                encode_text(bytes(pending[start:end])) for start, end in pairwise([0, *ends])
            )
            del pending[: ends[-1] if ends else 0]
            message = {**message, "body": text}
        await send(message)

    return sending


def frame_ends(data: bytes | bytearray) -> list[int]:
    """Where each whole gRPC-Web frame (5-byte head, message) at the start of ``data`` ends."""
    ends, at = [], 0
    while at + 5 <= len(data):
        end = at + 5 + int.from_bytes(data[at + 1 : at + 5], "big")
        if end > len(data):
            break
        ends.append(end)
        at = end
    return ends


def whole_frames(data: bytes | bytearray) -> int:
    """How many leading bytes of ``data`` are whole gRPC-Web frames."""
    ends = frame_ends(data)
    return ends[-1] if ends else 0
