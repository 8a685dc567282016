"""The web door's ASGI application: Connect, gRPC-Web and gRPC calls, CORS, the static files.

A request for ``/gamerec.v1.RecordService/...`` or ``/gamerec.v1.MatchService/...`` goes to
that service's Connect application (generated in ``gamerec/v1/*_connect.py``, served by
``connectrpc``), whose handlers are the gRPC door's (``gamerec.validator.web.bridge``). Before
it gets there, this application refuses, each with a Connect error (a JSON body with ``code``
and ``message``) and without running anything:

- a body longer than the limit (``Content-Length``; a body sent in chunks is cut off at the
  limit by connectrpc): ``resource_exhausted``;
- a body in gRPC-Web's text mode (base64) is decoded first (``text``);
- a content type the door does not speak: HTTP 415, ``invalid_argument``, naming the types it
  speaks; gRPC (``application/grpc``) over HTTP/1.1, which has no trailers: ``invalid_argument``;
- a request from a web page of another origin that the operator did not allow
  (``--web-allow-origin``; none by default): ``permission_denied``. A page of an allowed
  origin gets the CORS headers, and its preflight (``OPTIONS``) is answered.

Any other ``GET`` or ``HEAD`` is a static file of ``static/`` (``/`` is ``index.html``).
"""

from __future__ import annotations

import mimetypes
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Final

import orjson

from gamerec.validator.web.asgi import ASGIApp, Message, Receive, Scope, Send
from gamerec.validator.web.bridge import peer_of
from gamerec.validator.web.calls import logged
from gamerec.validator.web.text import TEXT_TYPES, text_limit, text_mode

#: The folder of the web client's built files.
STATIC: Final = Path(__file__).resolve().parent / "static"
#: The content types the door speaks, by the protocol they select.
CONTENT_TYPES: Final = (
    "application/json",
    "application/proto",
    "application/connect+json",
    "application/connect+proto",
    "application/grpc-web",
    "application/grpc-web+proto",
    "application/grpc-web+json",
    *TEXT_TYPES,
    "application/grpc",
    "application/grpc+proto",
    "application/grpc+json",
)
#: Request headers a page of an allowed origin may send (Connect, gRPC-Web, a bearer token).
ALLOWED_HEADERS: Final = (
    "authorization",
    "content-type",
    "connect-protocol-version",
    "connect-timeout-ms",
    "connect-accept-encoding",
    "connect-content-encoding",
    "grpc-timeout",
    "x-grpc-web",
    "x-user-agent",
)
#: Response headers such a page may read (a gRPC-Web status, a refused call's limit).
EXPOSED_HEADERS: Final = (
    "grpc-status",
    "grpc-message",
    "grpc-status-details-bin",
    "trailer-limit",
)
#: Seconds a browser may keep a preflight's answer.
PREFLIGHT_SECONDS: Final = 7200


@dataclass(frozen=True, slots=True)
class Door:
    """The settings the application applies before a call reaches its service.

    Attributes:
        max_body_bytes: the longest request body.
        allow_origins: the web origins (``https://site.example``) whose pages may call; ``*``
            allows every origin.
        static: the folder served at ``/``.
    """

    max_body_bytes: int
    allow_origins: tuple[str, ...] = ()
    static: Path = STATIC

    def allows(self, origin: str) -> bool:
        """Whether a page of ``origin`` may call."""
        return "*" in self.allow_origins or origin.lower() in self.allow_origins


class WebApplication:
    """The ASGI application (see the module docstring).

    Args:
        door: the limits and origins.
        services: each served service's Connect application, by its path prefix
            (``/gamerec.v1.MatchService/``).
    """

    def __init__(self, door: Door, services: dict[str, ASGIApp]) -> None:
        """Route to ``services``; serve ``door.static``."""
        self.door = door
        self.services = services
        self.static = door.static.resolve()

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve one request (or the server's lifespan)."""
        if scope["type"] == "lifespan":
            await _lifespan(receive, send)
            return
        if scope["type"] != "http":  # a WebSocket: refused
            await send({"type": "websocket.close", "code": 1003})
            return
        service = self._service(scope["path"])
        if service is None or scope["method"] == "OPTIONS":  # a file, or a preflight: no call
            await self._door(scope, receive, send, service)
            return
        method = scope["path"].rsplit("/", 1)[-1]
        peer = peer_of(_client(scope))

        async def serve(sending: Send) -> None:
            await self._door(scope, receive, sending, service)

        await logged(method, peer, send, serve)

    async def _door(
        self, scope: Scope, receive: Receive, send: Send, service: ASGIApp | None
    ) -> None:
        """CORS, then the service's call (after the door's checks) or a static file."""
        headers = _headers(scope)
        origin = headers.get("origin", "")
        cross = bool(origin) and not _same_origin(origin, scope, headers)
        if cross and not self.door.allows(origin):
            await _error(
                send,
                403,
                "permission_denied",
                f"requests from web pages of {_quoted(origin)} are not allowed here; the "
                "server's operator can allow that origin (gamerec serve --web-allow-origin)",
            )
            return
        if scope["method"] == "OPTIONS" and cross:
            await self._preflight(origin, send)
            return
        if cross:
            send = _with_cors(send, origin)
        if service is None:
            await self._static(scope, send)
            return
        refusal = self._refusal(scope, headers)
        if refusal is not None:
            await _error(send, *refusal)
            return
        if _content_type(headers) in TEXT_TYPES:
            service = text_mode(service, self.door.max_body_bytes, _error)
        await service(scope, receive, send)

    def _service(self, path: str) -> ASGIApp | None:
        prefix = path[: path.find("/", 1) + 1] if path.count("/") >= 2 else ""
        return self.services.get(prefix)

    def _refusal(self, scope: Scope, headers: dict[str, str]) -> tuple[int, str, str] | None:
        """Why a call cannot go to its service (None: it can)."""
        if scope["method"] != "POST":
            return 405, "unimplemented", f"{scope['method']} is not how a call is made: POST it"
        content_type = _content_type(headers)
        if content_type not in CONTENT_TYPES:
            return (
                415,
                "invalid_argument",
                f"the content type {_quoted(content_type or '(none)')} is not one this door "
                f"speaks: {', '.join(CONTENT_TYPES)}",
            )
        plain_grpc = content_type.startswith("application/grpc") and "-web" not in content_type
        if plain_grpc and "http.response.trailers" not in scope.get("extensions", {}):
            return (
                400,
                "invalid_argument",
                "gRPC needs HTTP/2 (its status travels in trailers); over HTTP/1.1 use "
                "gRPC-Web or Connect",
            )
        length = headers.get("content-length", "")
        limit = self.door.max_body_bytes
        if content_type in TEXT_TYPES:  # base64: four characters for every three bytes
            limit = text_limit(limit)
        if length.isdigit() and int(length) > limit:
            return (
                429,
                "resource_exhausted",
                f"the request body is {int(length):,} bytes, more than this server's limit "
                f"of {limit:,} (gamerec serve --max-message-bytes"
                f"{', in base64' if limit != self.door.max_body_bytes else ''})",
            )
        return None

    async def _preflight(self, origin: str, send: Send) -> None:
        """Answer a CORS preflight of an allowed origin."""
        headers = [
            *_cors_headers(origin),
            (b"access-control-allow-methods", b"POST, GET"),
            (b"access-control-allow-headers", ", ".join(ALLOWED_HEADERS).encode()),
            (b"access-control-max-age", str(PREFLIGHT_SECONDS).encode()),
            (b"content-length", b"0"),
        ]
        await send({"type": "http.response.start", "status": 204, "headers": headers})
        await send({"type": "http.response.body", "body": b""})

    async def _static(self, scope: Scope, send: Send) -> None:
        """A file of the static folder, for GET and HEAD."""
        if scope["method"] not in ("GET", "HEAD"):
            await _error(send, 404, "unimplemented", f"no service or file at {scope['path']}")
            return
        path = self._file(scope["path"])
        if path is None:
            await _error(send, 404, "not_found", f"no file at {_quoted(scope['path'])}")
            return
        body = path.read_bytes()
        kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        if kind.startswith("text/") or kind in ("application/javascript", "text/javascript"):
            kind += "; charset=utf-8"
        headers = [
            (b"content-type", kind.encode()),
            (b"content-length", str(len(body)).encode()),
            (b"cache-control", b"no-cache"),
            (b"x-content-type-options", b"nosniff"),
        ]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        if scope["method"] == "HEAD":
            body = b""
        await send({"type": "http.response.body", "body": body})

    def _file(self, url_path: str) -> Path | None:
        """The file a URL path names inside the static folder (None: none, or outside it)."""
        relative = url_path.lstrip("/")
        if not relative or relative.endswith("/"):
            relative += "index.html"
        if "\x00" in relative:
            return None
        candidate = (self.static / relative).resolve()
        if candidate != self.static and self.static not in candidate.parents:
            return None
        if candidate.is_dir():
            candidate = candidate / "index.html"
        return candidate if candidate.is_file() else None


async def _lifespan(receive: Receive, send: Send) -> None:
    """Nothing to start or stop: the services run with the gRPC server."""
    while True:
        message = await receive()
        if message["type"] == "lifespan.startup":
            await send({"type": "lifespan.startup.complete"})
        elif message["type"] == "lifespan.shutdown":
            await send({"type": "lifespan.shutdown.complete"})
            return


def _client(scope: Scope) -> str | None:
    client = scope.get("client")
    return f"{client[0]}:{client[1]}" if client else None


def _headers(scope: Scope) -> dict[str, str]:
    """The request's headers by lower-case name (the last of a name given twice)."""
    return {
        bytes(key).decode("latin-1").lower(): bytes(value).decode("latin-1")
        for key, value in scope.get("headers", ())
    }


def _content_type(headers: dict[str, str]) -> str:
    """The request's content type, without parameters, in lower case."""
    return headers.get("content-type", "").split(";", 1)[0].strip().lower()


def _same_origin(origin: str, scope: Scope, headers: dict[str, str]) -> bool:
    """Whether ``origin`` is this server's own (a page it served)."""
    host = headers.get("host", "")
    return bool(host) and origin.lower() == f"{scope.get('scheme', 'http')}://{host}".lower()


def _quoted(text: str) -> str:
    shown = text if len(text) <= 100 else text[:97] + "..."
    return repr(shown)


def _cors_headers(origin: str) -> list[tuple[bytes, bytes]]:
    return [
        (b"access-control-allow-origin", origin.encode("latin-1")),
        (b"vary", b"Origin"),
    ]


def _with_cors(send: Send, origin: str) -> Send:
    """``send`` adding the CORS headers of an allowed origin to the response."""
    extra = [
        *_cors_headers(origin),
        (b"access-control-expose-headers", ", ".join(EXPOSED_HEADERS).encode()),
    ]

    async def sending(message: Message) -> None:
        if message["type"] == "http.response.start":
            message = {**message, "headers": [*message.get("headers", ()), *extra]}
        await send(message)

    return sending


async def _error(send: Send, status: int, code: str, message: str) -> None:
    """A Connect error response."""
    body = orjson.dumps({"code": code, "message": message})
    headers: Iterable[tuple[bytes, bytes]] = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ]
    await send({"type": "http.response.start", "status": status, "headers": list(headers)})
    await send({"type": "http.response.body", "body": body})
