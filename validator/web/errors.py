"""A gRPC status as a Connect error: the same code, message and google.rpc details.

The servicers end a call they refuse with a gRPC status whose google.rpc details travel in the
``grpc-status-details-bin`` trailer (a ``google.rpc.Status``). :func:`connect_error` turns
such a status into a ``ConnectError`` with the same code, the same message and the same
details, each the very ``google.protobuf.Any`` the gRPC door sends; Connect writes them as
``{"type": ..., "value": base64}`` (and a gRPC or gRPC-Web client of the web door reads them
back from ``grpc-status-details-bin``). Any other trailing metadata (``limit`` of a refused
call) goes into the response's trailers.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import grpc
from connectrpc.code import Code
from connectrpc.errors import ConnectError, ErrorDetail
from google.rpc import status_pb2  # type: ignore[import-untyped]
from protobuf.wkt import Any as WireAny

#: The trailer that carries a status's google.rpc details on gRPC.
DETAILS_KEY: Final = "grpc-status-details-bin"
#: gRPC's names of the codes that Connect spells differently.
_RENAMED: Final = {grpc.StatusCode.CANCELLED: Code.CANCELED}

Metadata = Sequence[tuple[str, str | bytes]]


class WebConnectError(ConnectError):
    """A ConnectError that also carries the status's other trailing metadata.

    Attributes:
        trailers: the trailing metadata besides the details (text values only).
    """

    def __init__(
        self,
        code: Code,
        message: str,
        details: Sequence[ErrorDetail],
        trailers: Sequence[tuple[str, str]],
    ) -> None:
        """The error, and its trailers."""
        super().__init__(code, message, details)
        self.trailers = tuple(trailers)


def code_of(code: grpc.StatusCode) -> Code:
    """Connect's code for a gRPC status code (the same code, spelled Connect's way)."""
    return _RENAMED.get(code) or Code[code.name]


def connect_error(
    code: grpc.StatusCode, message: str, trailing_metadata: Metadata | None
) -> WebConnectError:
    """The Connect error of a gRPC status (see the module docstring)."""
    details: list[ErrorDetail] = []
    trailers: list[tuple[str, str]] = []
    for key, value in trailing_metadata or ():
        if key == DETAILS_KEY and isinstance(value, bytes):
            status = status_pb2.Status.FromString(value)
            details = [
                ErrorDetail(WireAny(type_url=packed.type_url, value=packed.value))
                for packed in status.details
            ]
        elif isinstance(value, str):
            trailers.append((key, value))
    return WebConnectError(code_of(code), message, details, trailers)
