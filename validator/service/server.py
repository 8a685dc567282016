"""The gRPC server: RecordService, health and reflection wired in one place, and its life.

:func:`create_server` builds a ``grpc.aio`` server on an address (port 0 picks a free port)
with explicit message-size limits: a request or response past ``max_message_bytes`` ends with
``RESOURCE_EXHAUSTED``. Every call passes the gate (gamerec.validator.service.access: who
may do what, limits per client), and the port serves TLS when the transport has a
certificate (gamerec.validator.service.transport). :func:`serve_until` runs one in this
process until its stop event is set, then shuts it down gracefully: health turns
``NOT_SERVING``, no new call is accepted, calls in flight get ``grace`` seconds to finish,
and the workers stop. ``gamerec serve`` runs one such server per core, sharing the port
(gamerec.validator.service.processes).
"""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import AsyncIterator, Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, NamedTuple, cast

import grpc
import grpc.aio
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_health.v1.health import aio as health_aio

from gamerec.recorder.errors import GamerecError
from gamerec.validator.service import metrics
from gamerec.validator.service.access import AccessSettings, Gate, SeatFinder
from gamerec.validator.service.calls import LOGGER, log_event
from gamerec.validator.service.pool import DEFAULT_INLINE_BYTES, WorkerPool
from gamerec.validator.service.reflection import enable_reflection
from gamerec.validator.service.servicer import SERVICE_NAME, RecordServicer
from gamerec.validator.service.transport import ServerCertificates, ServerTransport

if TYPE_CHECKING:
    from gamerec.validator.service.match_servicer import MatchSettings
    from gamerec.validator.web.serving import WebServer, WebSettings

#: The default limit of a request or response (a record of about two million plies).
DEFAULT_MAX_MESSAGE_BYTES: Final = 16 * 1024 * 1024
#: Seconds that calls in flight get to finish at shutdown.
DEFAULT_GRACE_SECONDS: Final = 10.0
#: Keepalive: the server pings a connection quiet this long, and drops it when the ping is
#: not answered in time (a client that vanished without closing its connection).
KEEPALIVE_MS: Final = 60_000
KEEPALIVE_TIMEOUT_MS: Final = 20_000
#: A connection must finish its handshake (HTTP/2 preface, TLS) within this time.
HANDSHAKE_TIMEOUT_MS: Final = 20_000
#: Calls in flight on one connection at once (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS).
CONNECTION_STREAMS: Final = 256
#: Calls that reached gRPC and wait for the server's event loop to take them (it takes one
#: at a time), at least; more when the match service allows more watchers of a match.
PENDING_CALLS: Final = 10_000


class ListenError(GamerecError):
    """The server cannot listen on the address (taken, or not an address of this machine)."""


class ExtraService(NamedTuple):
    """Another service to serve beside RecordService, with the same configuration.

    Attributes:
        name: its full name (``pkg.v1.EchoService``), for health and reflection.
        register: adds its servicer to a server (e.g. a generated ``add_*_to_server``).
    """

    name: str
    register: Callable[[grpc.aio.Server], None]


async def create_server(
    address: str,
    *,
    pool: WorkerPool,
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
    health: health_aio.HealthServicer | None = None,
    extra_services: Sequence[ExtraService] = (),
    reuse_port: bool = False,
    gate: Gate | None = None,
    certificates: ServerCertificates | None = None,
    pending_calls: int = PENDING_CALLS,
    registered: list[grpc.GenericRpcHandler] | None = None,
) -> tuple[grpc.aio.Server, int]:
    """Build a server for RecordService (and ``extra_services``), bound but not started.

    Args:
        address: ``host:port``; port 0 picks a free port.
        pool: the worker pool the calls run in (create it before the server).
        max_message_bytes: the largest request and response, in bytes.
        health: the health servicer to serve (pass one to change its status later, e.g. at
            shutdown); every service starts as ``SERVING``.
        extra_services: services to serve beside RecordService.
        reuse_port: share the port with this machine's other servers that set it too
            (``SO_REUSEPORT``: the kernel spreads connections among them); off, a taken port
            fails.
        gate: who may do what (default: the default access settings: open, default limits).
        certificates: serve TLS with these; None: plain text.
        pending_calls: calls gRPC holds until the event loop takes them (more are refused).
        registered: gets every service's handler the server serves (RecordService's and
            the extra services'), for another door onto the same handlers
            (gamerec.validator.web).

    Returns:
        The server and the port it is bound to.

    Raises:
        ListenError: the address cannot be bound.
    """
    options = [
        ("grpc.max_receive_message_length", max_message_bytes),
        ("grpc.max_send_message_length", max_message_bytes),
        # Unless asked to share it, a second server on a taken port must fail, not silently
        # take some of the port's calls.
        ("grpc.so_reuseport", int(reuse_port)),
        ("grpc.keepalive_time_ms", KEEPALIVE_MS),
        ("grpc.keepalive_timeout_ms", KEEPALIVE_TIMEOUT_MS),
        ("grpc.server_handshake_timeout_ms", HANDSHAKE_TIMEOUT_MS),
        # Calls in flight on one connection (HTTP/2 SETTINGS_MAX_CONCURRENT_STREAMS): a
        # client's further calls wait on its side. Without a bound, one connection's flood
        # of calls made gRPC cancel other connections' calls too (tests/network).
        ("grpc.max_concurrent_streams", CONNECTION_STREAMS),
        # Count a connection's streams as HTTP/2 does (closed: no longer counted). gRPC's
        # default counts a stream until its call is freed, and refuses (REFUSED_STREAM,
        # UNAVAILABLE) streams its client opened within the limit it was told: bots with a
        # Watch each and a Play at each turn on one connection then stalled (issue 38).
        ("grpc.http.overload_protection", 0),
        # Calls gRPC holds until the event loop takes them. Past grpc's defaults (1,000,
        # then a random share refused up to 3,000) streams opened at once ended CANCELLED
        # before any handler ran, below the watchers limit (issue 38).
        ("grpc.server.max_pending_requests", pending_calls),
        ("grpc.server.max_pending_requests_hard_limit", pending_calls),
    ]
    gate = gate or Gate(AccessSettings())
    server = grpc.aio.server(options=options, interceptors=[gate])
    registering = _Registering(server, registered if registered is not None else [])
    registering.add_generic_rpc_handlers((RecordServicer(pool).handler(),))
    for extra in extra_services:
        extra.register(cast(grpc.aio.Server, registering))
    names = [SERVICE_NAME, *(extra.name for extra in extra_services)]
    health = health or health_aio.HealthServicer()
    health_pb2_grpc.add_HealthServicer_to_server(health, server)
    for name in ("", *names):
        await health.set(name, health_pb2.HealthCheckResponse.SERVING)
    reflected = [*names, health_pb2.DESCRIPTOR.services_by_name["Health"].full_name]
    enable_reflection(reflected, server)
    return server, _bind(server, address, certificates)


class _Registering:
    """Registers services' handlers on a server, keeping them in a list too."""

    def __init__(self, server: grpc.aio.Server, kept: list[grpc.GenericRpcHandler]) -> None:
        self.server = server
        self.kept = kept

    def add_generic_rpc_handlers(self, handlers: Sequence[grpc.GenericRpcHandler]) -> None:
        self.server.add_generic_rpc_handlers(handlers)
        self.kept.extend(handlers)

    def add_registered_method_handlers(
        self, service: str, handlers: dict[str, grpc.RpcMethodHandler[Any, Any]]
    ) -> None:
        # Generated add_*_to_server functions register each method this way too.
        self.server.add_registered_method_handlers(service, handlers)


def _bind(server: grpc.aio.Server, address: str, certificates: ServerCertificates | None) -> int:
    """Listen on ``address`` (TLS with ``certificates``); the port bound."""
    try:
        if certificates is not None:
            port = server.add_secure_port(address, certificates.credentials)
        else:
            port = server.add_insecure_port(address)
    except RuntimeError as error:
        raise ListenError(f"cannot listen on {address}: {error}") from None
    if not port:
        raise ListenError(f"cannot listen on {address}")
    return port


def check_free(host: str, port: int) -> None:
    """Fail early, in plain words, when ``host:port`` cannot be bound (gRPC says it less well).

    Raises:
        ListenError: the port is taken or the host is not an address of this machine.
    """
    if not port:
        return
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host.strip("[]"), port))
        except OSError as error:
            reason = error.strerror or str(error)
            raise ListenError(f"cannot listen on {address_of(host, port)}: {reason}") from None


def address_of(host: str, port: int) -> str:
    """``host:port``, with an IPv6 host in brackets."""
    return f"[{host}]:{port}" if ":" in host and not host.startswith("[") else f"{host}:{port}"


@dataclass(frozen=True, slots=True)
class ServeSettings:
    """How ``gamerec serve`` runs (picklable: server processes receive it when they start).

    Attributes:
        host: the address to listen on.
        port: the port; 0 picks a free one.
        workers: worker processes for large requests, in all (0: one per core).
        inline_bytes: requests up to this size are judged on the event loop.
        max_message_bytes: the largest request and response.
        grace: seconds that calls in flight get to finish at shutdown.
        extra_services: services served beside RecordService (their ``register`` functions
            must be module-level, so that other processes can import them).
        matches: serve MatchService too, with this store and these settings (live matches,
            gamerec.validator.service.match_servicer); None: not.
        access: who may do what, and the limits per client.
        transport: TLS (the files), or plain text.
        metrics_host: the address of the metrics endpoint.
        metrics_port: serve Prometheus metrics on this port; None: no metrics.
        web: serve the same services over Connect, gRPC-Web and gRPC on another port too
            (the web door, gamerec.validator.web); None: not.
    """

    host: str = "127.0.0.1"
    port: int = 0
    workers: int = 0
    inline_bytes: int = DEFAULT_INLINE_BYTES
    max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES
    grace: float = DEFAULT_GRACE_SECONDS
    extra_services: tuple[ExtraService, ...] = ()
    matches: MatchSettings | None = None
    access: AccessSettings = field(default_factory=AccessSettings)
    transport: ServerTransport = field(default_factory=ServerTransport)
    metrics_host: str = "127.0.0.1"
    metrics_port: int | None = None
    web: WebSettings | None = None

    def log_fields(self) -> dict[str, object]:
        """What the ``listening`` line says besides the address."""
        fields: dict[str, object] = {**self.transport.log_fields(), **self.access.log_fields()}
        if self.matches is not None:
            fields.update(self.matches.log_fields())
        return fields


async def serve_until(
    settings: ServeSettings,
    stop: asyncio.Event,
    *,
    port: int,
    workers: int,
    reuse_port: bool,
    listening: Callable[[int, int, int | None], None],
    stopping: Callable[[], None],
) -> None:
    """Run one server in this process until ``stop`` is set, then shut it down gracefully.

    Args:
        settings: what to serve and how.
        stop: set it to begin the graceful shutdown.
        port: the port to bind (``settings.port``, or the port a sibling process bound).
        workers: this server's own worker processes.
        reuse_port: share the port (and the web port) with sibling server processes.
        listening: called with the bound port, the number of workers and the web door's port
            (None: no web door) once it serves.
        stopping: called when the shutdown begins.

    Raises:
        ListenError: the address cannot be bound.
    """
    metrics.start_counting()
    with WorkerPool(workers, inline_bytes=settings.inline_bytes) as pool:
        async with _match_service(settings) as (matches, seats):
            gate = Gate(settings.access, seats)
            certificates = (
                ServerCertificates(settings.transport) if settings.transport.tls else None
            )
            health = health_aio.HealthServicer()
            services: list[grpc.GenericRpcHandler] = []
            server, bound = await create_server(
                address_of(settings.host, port),
                pool=pool,
                max_message_bytes=settings.max_message_bytes,
                health=health,
                extra_services=(*settings.extra_services, *matches),
                reuse_port=reuse_port,
                gate=gate,
                certificates=certificates,
                pending_calls=pending_calls_of(settings),
                registered=services,
            )
            web = _web_door(settings, services, gate, reuse_port)
            reload_on_hangup(gate, certificates, web)
            await server.start()
            if web is not None:
                web.start()
            listening(bound, pool.workers, web.port if web is not None else None)
            await stop.wait()
            stopping()
            await health.enter_graceful_shutdown()
            await asyncio.gather(
                server.stop(settings.grace), *((web.stop(),) if web is not None else ())
            )


def _web_door(
    settings: ServeSettings,
    services: list[grpc.GenericRpcHandler],
    gate: Gate,
    reuse_port: bool,
) -> WebServer | None:
    """The web door onto the server's services, bound, when the settings ask for it.

    Raises:
        WebListenError: the web port cannot be bound.
    """
    if settings.web is None:
        return None
    from gamerec.validator.web import serving  # noqa: PLC0415 (only a web door loads it)
    from gamerec.validator.web.app import Door  # noqa: PLC0415

    door = Door(settings.max_message_bytes, settings.web.allow_origins)
    sock = serving.bind(settings.host, settings.web.port, reuse_port=reuse_port)
    config = serving.hypercorn_config(sock, settings.web, settings.transport, settings.grace)
    return serving.WebServer(serving.web_application(services, gate, door), config, sock)


def pending_calls_of(settings: ServeSettings) -> int:
    """Calls gRPC may hold for the event loop: PENDING_CALLS, or twice the watchers limit.

    So every watcher the match service's limit allows can open its stream at once.
    """
    watchers = settings.matches.limits.watchers if settings.matches is not None else 0
    return max(PENDING_CALLS, 2 * watchers)


@contextlib.asynccontextmanager
async def _match_service(
    settings: ServeSettings,
) -> AsyncIterator[tuple[tuple[ExtraService, ...], SeatFinder | None]]:
    """MatchService's referee and the lobby while the server runs, when the settings ask."""
    if settings.matches is None:
        yield (), None
        return
    from gamerec.validator.lobby.servicer import running_lobby  # noqa: PLC0415
    from gamerec.validator.service.assist_servicer import ASSIST_SERVICE  # noqa: PLC0415
    from gamerec.validator.service.match_servicer import running_matches  # noqa: PLC0415

    limits = settings.access.limits
    # AssistService (clicks into moves, the viewer's page) helps the pages that play them.
    async with (
        running_matches(settings.matches, limits) as running,
        running_lobby(settings.matches.store, running.referee, limits.client_challenges) as lobby,
    ):
        yield (running.service, lobby, ASSIST_SERVICE), running.seat_of


def reload_on_hangup(
    gate: Gate, certificates: ServerCertificates | None, web: WebServer | None = None
) -> None:
    """On SIGHUP read the token files and the TLS files (both doors') again (from the loop).

    A token file that cannot be read keeps the tokens as they were, and says so in the log.
    """

    def reload() -> None:
        problem = gate.reload()
        if certificates is not None:
            certificates.reload()
        if web is not None:
            web.reload()
        if problem is None:
            log_event("reloaded", tokens=len(gate.book))
        else:
            LOGGER.error("the token files were not reloaded: %s", problem)

    asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, reload)


def stop_on_signals(stop: asyncio.Event) -> None:
    """Set ``stop`` on SIGTERM or SIGINT (from the running loop)."""
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(signum, stop.set)
