"""How a command reaches a gamerec server: the options every client command shares.

``gamerec match``, and the players' ``play`` and ``bot``, take the same ``--server``,
``--tls``, ``--ca``, ``--client-cert``, ``--client-key`` and ``--server-name`` options;
:func:`client_transport` turns them into the library's
:class:`~gamerec.validator.service.transport.ClientTransport`, which opens the channels.
A command decorated with :func:`with_connection` takes them all (and ``--token-file``),
defined once here, and receives them as one :class:`Connection`.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Annotated, Any, Final

import typer

from gamerec.cli.edge import reported_errors

if TYPE_CHECKING:
    from gamerec.validator.service.transport import ClientTransport

#: The server a client command calls when ``--server`` is not given.
DEFAULT_SERVER = "127.0.0.1:50051"

ServerOption = Annotated[
    str,
    typer.Option(
        "--server",
        metavar="HOST:PORT",
        envvar="GAMEREC_SERVER",
        help="The gamerec server (gamerec serve).",
    ),
]
OptionalServerOption = Annotated[
    str | None,
    typer.Option(
        "--server",
        metavar="HOST:PORT",
        help="Do it through this gamerec server (gamerec serve) instead of in this process.",
    ),
]
TlsOption = Annotated[
    bool,
    typer.Option(
        "--tls",
        envvar="GAMEREC_TLS",
        help="Connect with TLS, trusting the system's CAs (implied by --ca and --client-cert).",
    ),
]
CaOption = Annotated[
    str,
    typer.Option(
        "--ca",
        metavar="PEM",
        envvar="GAMEREC_CA",
        help="Connect with TLS, trusting the CA in this file (the server's own CA).",
    ),
]
ClientCertOption = Annotated[
    str,
    typer.Option(
        "--client-cert",
        metavar="PEM",
        envvar="GAMEREC_CLIENT_CERT",
        help="This client's certificate, for a server that asks for one (mTLS).",
    ),
]
ClientKeyOption = Annotated[
    str,
    typer.Option(
        "--client-key",
        metavar="PEM",
        envvar="GAMEREC_CLIENT_KEY",
        help="The client certificate's private key.",
    ),
]
ServerNameOption = Annotated[
    str,
    typer.Option(
        "--server-name",
        metavar="NAME",
        help="The name the server's certificate must carry, when not the address's host.",
    ),
]


TokenFileOption = Annotated[
    str,
    typer.Option(
        "--token-file",
        "--admin-token-file",
        metavar="PATH",
        envvar="GAMEREC_TOKEN_FILE",
        help="A file holding a token, an admin's or a spectator's (sent as "
        "'authorization: Bearer').",
    ),
]


@dataclass(frozen=True, slots=True)
class Connection:
    """Where a command's calls go, and how: the server's address and the transport."""

    server: str
    transport: ClientTransport


#: The options :func:`with_connection` adds: each parameter's name, type and default.
CONNECTION_OPTIONS: Final = (
    ("server", ServerOption, DEFAULT_SERVER),
    ("token_file", TokenFileOption, ""),
    ("tls", TlsOption, False),
    ("ca", CaOption, ""),
    ("client_cert", ClientCertOption, ""),
    ("client_key", ClientKeyOption, ""),
    ("server_name", ServerNameOption, ""),
)
#: The options :func:`with_optional_connection` adds: no server unless one is given.
OPTIONAL_CONNECTION_OPTIONS: Final = (
    ("server", OptionalServerOption, None),
    *CONNECTION_OPTIONS[1:],
)


def with_connection(command: Callable[..., None]) -> Callable[..., None]:
    """``command`` taking the connection options, which it receives as ``connection``.

    The options join the command's signature (Typer reads it from ``__signature__``), after
    its own; a file that cannot be read (the token's, a certificate's) is the usual one-line
    error and exit code 2.
    """
    return _connecting(command, CONNECTION_OPTIONS)


def with_optional_connection(command: Callable[..., None]) -> Callable[..., None]:
    """As :func:`with_connection`, for a command that calls a server only when given one.

    Without ``--server`` the command receives ``connection=None`` and works in process.
    """
    return _connecting(command, OPTIONAL_CONNECTION_OPTIONS)


def _connecting(
    command: Callable[..., None], options: tuple[tuple[str, Any, Any], ...]
) -> Callable[..., None]:
    """``command`` with ``options`` in its signature, given to it as one ``connection``."""
    own = inspect.signature(command, eval_str=True)
    kept = [parameter for name, parameter in own.parameters.items() if name != "connection"]
    added = [
        inspect.Parameter(name, inspect.Parameter.KEYWORD_ONLY, annotation=kind, default=default)
        for name, kind, default in options
    ]

    @functools.wraps(command)
    def connected(**arguments: Any) -> None:
        chosen = {name: arguments.pop(name) for name, _, _ in options}
        server = chosen.pop("server")
        if server is None:
            command(connection=None, **arguments)
            return
        with reported_errors():
            transport = _transport(**chosen)
        command(connection=Connection(server, transport), **arguments)

    parameters = [*kept, *added]
    connected.__signature__ = own.replace(parameters=parameters)  # type: ignore[attr-defined]
    connected.__annotations__ = {parameter.name: parameter.annotation for parameter in parameters}
    return connected


def _transport(
    *, tls: bool, ca: str, client_cert: str, client_key: str, server_name: str, token_file: str
) -> ClientTransport:
    """The connection the options ask for, sending the token file's token (if given)."""
    from gamerec.validator.service.transport import read_token_file

    token = read_token_file(token_file) if token_file else ""
    return client_transport(
        tls=tls,
        ca=ca,
        client_cert=client_cert,
        client_key=client_key,
        server_name=server_name,
        token=token,
    )


def client_transport(
    *,
    tls: bool = False,
    ca: str = "",
    client_cert: str = "",
    client_key: str = "",
    server_name: str = "",
    token: str = "",
) -> ClientTransport:
    """The transport the options describe (``token``: sent as bearer on every call)."""
    from gamerec.validator.service.transport import ClientTransport

    return ClientTransport(tls, ca, client_cert, client_key, server_name, token)
