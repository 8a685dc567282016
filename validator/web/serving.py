"""The web door's server: Hypercorn on its own port, in the gRPC server's process and loop.

:class:`WebServer` binds the web port (``SO_REUSEPORT`` when the server processes of
``gamerec serve`` share it, as they share the gRPC port), builds the Connect applications of
the services the gRPC server serves over the bridge (``gamerec.validator.web.bridge``), and
runs Hypercorn on them until the server stops: HTTP/1.1 and HTTP/2 (h2c without TLS; ALPN
with it), TLS with the gRPC port's certificate (read again on SIGHUP, as the gRPC port's), a
client certificate required when the server asks for one (``--client-ca``). At shutdown
Hypercorn stops accepting, and requests in flight (Watch streams too) get the server's grace
period.

Bounds: a request body of at most ``max_body_bytes``; request headers of at most
:data:`MAX_HEADER_BYTES`; a connection that carries no request for ``idle_seconds`` is closed
(an idle HTTP/1.1 connection costs a socket and a few KiB until then); an HTTP/2 connection
carries at most the gRPC port's ``CONNECTION_STREAMS`` requests at once.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
import ssl
from dataclasses import dataclass
from typing import Any, Final

import grpc
from hypercorn.asyncio import serve
from hypercorn.config import Config

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import assist_connect, lobby_connect, match_connect, service_connect
from gamerec.v1 import assist_pb2 as apb
from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import service_pb2 as spb
from gamerec.validator.service.access import Gate
from gamerec.validator.service.server import CONNECTION_STREAMS
from gamerec.validator.service.transport import ServerTransport
from gamerec.validator.web.app import Door, WebApplication
from gamerec.validator.web.asgi import ASGIApp
from gamerec.validator.web.bridge import Handlers, ServiceAdapter
from gamerec.validator.web.codecs import CODECS

#: Seconds a connection may carry no request before it is closed.
DEFAULT_IDLE_SECONDS: Final = 20.0
#: The longest request head (request line and headers) of HTTP/1.1.
MAX_HEADER_BYTES: Final = 16 * 1024
#: Connections waiting to be accepted.
BACKLOG: Final = 1024
#: The logger of Hypercorn's own errors (through the service's log).
HYPERCORN_LOGGER: Final = "gamerec.service.web"


class WebListenError(GamerecError):
    """The web door cannot listen on its address."""


@dataclass(frozen=True, slots=True)
class WebSettings:
    """How the web door runs (picklable: server processes receive it).

    Attributes:
        port: the web port; 0 picks a free one.
        allow_origins: the web origins whose pages may call (CORS); empty: none but the
            door's own pages.
        idle_seconds: a connection that carries no request this long is closed.
    """

    port: int = 0
    allow_origins: tuple[str, ...] = ()
    idle_seconds: float = DEFAULT_IDLE_SECONDS

    def log_fields(self, host: str, port: int, tls: bool) -> dict[str, object]:
        """What the ``listening`` line says of the web door."""
        shown = f"[{host}]" if ":" in host else host
        fields: dict[str, object] = {"web": f"{'https' if tls else 'http'}://{shown}:{port}"}
        if self.allow_origins:
            fields["web_allow_origins"] = list(self.allow_origins)
        return fields


def web_application(
    services: list[grpc.GenericRpcHandler], gate: Gate, door: Door
) -> WebApplication:
    """The web door over the gRPC server's services (``services``) and its gate."""
    handlers = Handlers(services, gate)
    apps: dict[str, ASGIApp] = {}
    record, match = spb.DESCRIPTOR.services_by_name, mpb.DESCRIPTOR.services_by_name
    known = [
        (record["RecordService"], service_connect.RecordServiceASGIApplication),
        (match["MatchService"], match_connect.MatchServiceASGIApplication),
        # The web client's services (docs/web-client.md), served with MatchService.
        (
            apb.DESCRIPTOR.services_by_name["AssistService"],
            assist_connect.AssistServiceASGIApplication,
        ),
        (
            lpb.DESCRIPTOR.services_by_name["LobbyService"],
            lobby_connect.LobbyServiceASGIApplication,
        ),
    ]
    for descriptor, application in known:
        adapter: Any = ServiceAdapter(descriptor, handlers)
        app = application(adapter, read_max_bytes=door.max_body_bytes)
        # The generated applications take no codecs: these read bodies as the servicers
        # take them (gamerec.validator.web.codecs).
        app._codecs = {codec.name(): codec for codec in CODECS}
        apps[f"/{descriptor.full_name}/"] = app
    return WebApplication(door, apps)


def bind(host: str, port: int, *, reuse_port: bool, listen: bool = True) -> socket.socket:
    """A listening socket for the web door (bound only, when not ``listen``).

    Raises:
        WebListenError: the address cannot be bound.
    """
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        if reuse_port:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
        sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        sock.bind((host.strip("[]"), port))
        if listen:
            sock.listen(BACKLOG)
    except OSError as error:
        sock.close()
        raise WebListenError(
            f"the web door cannot listen on {host}:{port}: {error.strerror or error}"
        ) from None
    sock.setblocking(False)
    return sock


class _Config(Config):
    """Hypercorn's settings, with one TLS context that a reload changes in place."""

    context: ssl.SSLContext | None = None

    def create_ssl_context(self) -> ssl.SSLContext | None:
        if self.context is None:
            self.context = super().create_ssl_context()
        return self.context


def hypercorn_config(
    sock: socket.socket, web: WebSettings, transport: ServerTransport, grace: float
) -> Config:
    """Hypercorn's settings for the web door on ``sock``."""
    config = _Config()
    config.bind = [f"fd://{sock.fileno()}"]  # Hypercorn's socket object owns it from now
    config.backlog = BACKLOG
    config.keep_alive_timeout = web.idle_seconds
    config.h11_max_incomplete_size = MAX_HEADER_BYTES
    config.h2_max_concurrent_streams = CONNECTION_STREAMS
    config.graceful_timeout = grace
    config.include_server_header = False
    config.accesslog = None
    errors = logging.getLogger(HYPERCORN_LOGGER)
    errors.setLevel(logging.WARNING)
    config.errorlog = errors
    if transport.tls:
        config.certfile = transport.cert
        config.keyfile = transport.key
        if transport.client_ca:
            config.ca_certs = transport.client_ca
            config.verify_mode = ssl.CERT_REQUIRED
    return config


class WebServer:
    """The web door while the server runs (see the module docstring)."""

    def __init__(self, app: WebApplication, config: Config, sock: socket.socket) -> None:
        """Serve ``app`` on ``sock`` with ``config`` (:func:`hypercorn_config`)."""
        self.app = app
        self.config = config
        self.port = int(sock.getsockname()[1])
        sock.detach()  # the descriptor is Hypercorn's (config.bind names it)
        self._stop = asyncio.Event()
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Serve, from the running loop."""
        _quiet_cancelled_connections(asyncio.get_running_loop())
        self._task = asyncio.create_task(
            serve(self.app, self.config, shutdown_trigger=self._stop.wait)  # type: ignore[arg-type]
        )

    def reload(self) -> None:
        """Read the TLS files again: connections made from now on use them.

        Files that cannot be used leave the context as it was, and the log says so.
        """
        context = getattr(self.config, "context", None)
        if context is None:
            return
        try:
            context.load_cert_chain(self.config.certfile, self.config.keyfile)
            if self.config.ca_certs is not None:
                context.load_verify_locations(self.config.ca_certs)
        except (OSError, ssl.SSLError) as error:
            logging.getLogger(HYPERCORN_LOGGER).error(
                "the web door's TLS files were not reloaded: %s", error
            )

    async def stop(self) -> None:
        """Stop accepting; requests in flight get the grace period, then end."""
        self._stop.set()
        if self._task is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await self._task


def _quiet_cancelled_connections(loop: asyncio.AbstractEventLoop) -> None:
    """Do not report a connection's task cancelled at shutdown as an error.

    Hypercorn cancels the connections still open when the grace period ends; Python 3.11's
    ``asyncio.start_server`` then reports each one's ``CancelledError`` to the loop's
    exception handler (a traceback on standard error, among the log's JSON lines; 3.12 no
    longer does). A cancellation is no error: every other report goes on as before.
    """
    previous = loop.get_exception_handler()

    def handle(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if isinstance(context.get("exception"), asyncio.CancelledError):
            return
        if previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    loop.set_exception_handler(handle)
