"""The bridge: a Connect request runs the very handler a gRPC call of the same method runs.

The gRPC server's services are registered as ``grpc.GenericRpcHandler`` objects (RecordService's
servicer, MatchService's, and any extra service); :class:`Handlers` keeps the same objects and,
for a method, asks the server's gate (``gamerec.validator.service.access.Gate``, the gRPC
interceptor) for the handler it would run: so who may do what, the limits per client, the call
log and the metrics are the gRPC door's, by construction. The handler is called with a
:class:`WebContext`, which gives it what a ``grpc.aio.ServicerContext`` gives (the peer, the
deadline, the metadata, ``abort``) from the HTTP request; a status it aborts with becomes a
Connect error with the same code and details (``gamerec.validator.web.errors``).

:class:`ServiceAdapter` is the object the generated Connect applications call
(``gamerec/v1/*_connect.py``): one method per RPC, each forwarding to the bridge.
"""

from __future__ import annotations

import re
from collections.abc import AsyncIterator, Callable, Sequence
from typing import Any, Final, NoReturn

import grpc
import grpc.aio
from connectrpc.request import RequestContext
from google.protobuf.descriptor import ServiceDescriptor

from gamerec.validator.service.access import Gate
from gamerec.validator.web.calls import took
from gamerec.validator.web.codecs import Payload
from gamerec.validator.web.errors import Metadata, WebConnectError, connect_error

_CAMEL: Final = re.compile(r"(?<!^)(?=[A-Z])")


class WebAbortError(grpc.aio.AbortError):
    """A handler's ``abort``: the status it ends the call with.

    Attributes:
        code: the status code.
        details: its message.
        trailing_metadata: its trailing metadata (the google.rpc details among it).
    """

    def __init__(self, code: grpc.StatusCode, details: str, trailing_metadata: Metadata) -> None:
        """Keep the status."""
        super().__init__(details)
        self.code = code
        self.details = details
        self.trailing_metadata = trailing_metadata

    def as_connect(self) -> WebConnectError:
        """The Connect error of the status."""
        return connect_error(self.code, self.details, self.trailing_metadata)


class WebContext:
    """What a handler reads of its call (``grpc.aio.ServicerContext``'s part), from HTTP."""

    __slots__ = ("_context", "_peer")

    def __init__(self, context: RequestContext[Any, Any]) -> None:
        """The call of one HTTP request."""
        self._context = context
        self._peer = peer_of(context.client_address)

    def peer(self) -> str:
        """The client's address as gRPC writes it (``ipv4:127.0.0.1:5000``)."""
        return self._peer

    def time_remaining(self) -> float | None:
        """Seconds to the call's deadline (``connect-timeout-ms``, ``grpc-timeout``)."""
        remaining = self._context.timeout_ms
        return None if remaining is None else max(0.0, remaining / 1000)

    def invocation_metadata(self) -> tuple[tuple[str, str], ...]:
        """The request's headers, names in lower case."""
        return tuple(
            (key.lower(), value) for key, value in self._context.request_headers.allitems()
        )

    def auth_context(self) -> dict[str, list[bytes]]:
        """No client certificate subject: Hypercorn's ASGI scope does not carry it."""
        return {}

    async def abort(
        self, code: grpc.StatusCode, details: str = "", trailing_metadata: Metadata = ()
    ) -> NoReturn:
        """End the call with a status."""
        raise WebAbortError(code, details, trailing_metadata)

    async def abort_with_status(self, status: grpc.Status) -> NoReturn:
        """End the call with a status and its details."""
        raise WebAbortError(status.code, status.details, status.trailing_metadata)


def peer_of(address: str | None) -> str:
    """A client address ``host:port`` as gRPC spells a peer (``ipv6:[::1]:5000``)."""
    if not address:
        return "unknown"
    host, _, port = address.rpartition(":")
    if ":" in host:
        return f"ipv6:[{host.strip('[]')}]:{port}"
    return f"ipv4:{host}:{port}"


class _CallDetails(grpc.HandlerCallDetails):
    """The method being called, as the gate and the generic handlers look it up."""

    def __init__(self, method: str, metadata: tuple[tuple[str, str], ...]) -> None:
        self.method = method
        self.invocation_metadata = metadata


class Handlers:
    """The server's handlers of each method, behind its gate."""

    def __init__(self, services: Sequence[grpc.GenericRpcHandler], gate: Gate) -> None:
        """The generic handlers the gRPC server registered, and its gate."""
        self._services = tuple(services)
        self._gate = gate

    async def _continuation(
        self, details: grpc.HandlerCallDetails
    ) -> grpc.RpcMethodHandler[Any, Any] | None:
        for service in self._services:
            handler = service.service(details)
            if handler is not None:
                return handler
        return None

    async def find(self, method: str, context: WebContext) -> grpc.RpcMethodHandler[Any, Any]:
        """The handler a gRPC call of ``method`` (``/pkg.Service/Method``) runs.

        Raises:
            WebConnectError: UNIMPLEMENTED, no service here has the method.
        """
        details = _CallDetails(method, context.invocation_metadata())
        handler = await self._gate.intercept_service(self._continuation, details)
        took()  # the gate, then the handler, write the call's line from here
        if handler is None:
            raise connect_error(grpc.StatusCode.UNIMPLEMENTED, f"{method} is not served here", None)
        return handler

    async def unary(self, payload: Payload, context: RequestContext[Any, Any]) -> Payload:
        """One unary call: the handler's answer, or its status as a Connect error."""
        web = WebContext(context)
        try:
            handler = await self.find(_path(context), web)
            behaviour: Any = handler.unary_unary  # a coroutine function (the stubs say not)
            answer = await behaviour(payload.data, web)
        except WebAbortError as aborted:
            raise _refused(aborted, context) from None
        return Payload(answer, context.method.output)

    async def stream(
        self, payload: Payload, context: RequestContext[Any, Any]
    ) -> AsyncIterator[Payload]:
        """One server-streaming call: the handler's answers, or its status as an error."""
        web = WebContext(context)
        output = context.method.output
        try:
            handler = await self.find(_path(context), web)
            streaming: Any = handler.unary_stream  # an async generator function
            answers = streaming(payload.data, web)
            try:
                async for answer in answers:
                    yield Payload(answer, output)
            finally:
                await answers.aclose()
        except WebAbortError as aborted:
            raise _refused(aborted, context) from None


def _path(context: RequestContext[Any, Any]) -> str:
    method = context.method
    return f"/{method.service_name}/{method.name}"


def _refused(aborted: WebAbortError, context: RequestContext[Any, Any]) -> WebConnectError:
    """The Connect error of a status; its other trailing metadata goes into the trailers."""
    error = aborted.as_connect()
    for key, value in error.trailers:
        context.response_trailers.add(key, value)
    return error


def snake_name(method: str) -> str:
    """The generated stubs' name of an RPC (``CreateMatch`` -> ``create_match``)."""
    return _CAMEL.sub("_", method).lower()


class ServiceAdapter:
    """The object a generated Connect application calls: each RPC goes over the bridge.

    Args:
        service: the service's descriptor (its methods become this object's methods).
        handlers: the bridge.
    """

    def __init__(self, service: ServiceDescriptor, handlers: Handlers) -> None:
        """One method per RPC of ``service``, named as the generated stubs call them."""
        self._methods: dict[str, Callable[..., Any]] = {}
        for method in service.methods:
            behaviour = handlers.stream if method.server_streaming else handlers.unary
            self._methods[snake_name(method.name)] = behaviour

    def __getattr__(self, name: str) -> Callable[[Payload, RequestContext[Any, Any]], Any]:
        """The behaviour of an RPC, by its generated name."""
        try:
            return self._methods[name]
        except KeyError:
            raise AttributeError(name) from None
