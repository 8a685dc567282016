"""How a command reaches a gamerec server: the options every client command shares.

``gamerec match``, and the players' ``play`` and ``bot``, take the same ``--server``,
``--tls``, ``--ca``, ``--client-cert``, ``--client-key`` and ``--server-name`` options;
:func:`client_transport` turns them into the library's
:class:`~gamerec.validator.service.transport.ClientTransport`, which opens the channels.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

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
