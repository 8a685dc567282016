"""How the service's connections are made: TLS on the server, and every client's channel.

Server side, :class:`ServerTransport` holds ``gamerec serve``'s ``--tls-cert``, ``--tls-key``
and ``--client-ca`` (PEM files): with a certificate the port serves TLS; with a client CA
too, every client must show a certificate that CA signed (mTLS), and its subject is handed
to authorisation (``gamerec.validator.service.access``). The files are read again when
:meth:`ServerTransport.reload` is called (SIGHUP): connections made after it use the new
certificate. Plain text is allowed on a loopback address; elsewhere only with ``insecure``.

Client side, :class:`ClientTransport` is the one description of how a client of the
project's own reaches a server (``gamerec match``, ``play``, ``bot``, the Python helpers):
``--tls`` (the system's roots), ``--ca FILE`` (a private CA), ``--client-cert`` and
``--client-key`` (mTLS), ``--server-name`` (the name the certificate must carry, when it is
not the address's host). :meth:`ClientTransport.channel` and :meth:`~ClientTransport.
aio_channel` open the channels; ``gamerec.cli.connection`` turns the options into one.
"""

from __future__ import annotations

import ipaddress
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

import grpc
import grpc.aio

from gamerec.recorder.errors import GamerecError

#: The longest PEM file read (a certificate chain or a CA bundle).
MAX_PEM_BYTES: Final = 1024 * 1024
#: The metadata key that carries a token, as ``Bearer <token>``.
AUTHORIZATION: Final = "authorization"


class TransportError(GamerecError):
    """A certificate, key or CA file that cannot be used, or plain text where it is refused."""


def read_pem(path: str, what: str) -> bytes:
    """The bytes of a PEM file, checked to hold at least one PEM block.

    Raises:
        TransportError: the file cannot be read, is too large, or holds no PEM block.
    """
    try:
        with open(path, "rb") as stream:
            data = stream.read(MAX_PEM_BYTES + 1)
    except OSError as error:
        raise TransportError(f"{path}: cannot read the {what}: {error.strerror}") from None
    if len(data) > MAX_PEM_BYTES:
        raise TransportError(f"{path}: the {what} is larger than {MAX_PEM_BYTES:,} bytes")
    if b"-----BEGIN " not in data:
        raise TransportError(f"{path}: the {what} is not PEM (no '-----BEGIN' line)")
    return data


def is_loopback(host: str) -> bool:
    """Whether ``host`` is an address of this machine only (127.0.0.0/8, ::1, localhost)."""
    name = host.strip("[]").lower()
    if name == "localhost":
        return True
    try:
        return ipaddress.ip_address(name).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True, slots=True)
class ServerTransport:
    """The server's TLS files (all empty: plain text).

    Attributes:
        cert: the server's certificate chain (PEM).
        key: its private key (PEM).
        client_ca: the CA whose certificates clients must show (mTLS); empty: none asked.
        insecure: plain text on an address that is not loopback was asked for.
    """

    cert: str = ""
    key: str = ""
    client_ca: str = ""
    insecure: bool = False

    @property
    def tls(self) -> bool:
        """Whether the port serves TLS."""
        return bool(self.cert)

    @property
    def mutual(self) -> bool:
        """Whether clients must show a certificate."""
        return bool(self.client_ca)

    def check(self, host: str) -> str | None:
        """Check the files (read now) and the address; a warning to print, if any.

        Raises:
            TransportError: a file cannot be used, a certificate without its key, a client
                CA without a certificate, or plain text on another address than loopback
                without ``insecure``.
        """
        if bool(self.cert) != bool(self.key):
            raise TransportError("--tls-cert and --tls-key go together")
        if self.client_ca and not self.cert:
            raise TransportError("--client-ca needs --tls-cert and --tls-key (mTLS is TLS)")
        if self.tls:
            self.configuration()
            return None
        if is_loopback(host):
            return None
        if not self.insecure:
            raise TransportError(
                f"{host} is not a loopback address: serve TLS (--tls-cert, --tls-key) or say "
                "--insecure to send tokens and moves in plain text"
            )
        return (
            f"serving plain text on {host}: seat and admin tokens cross the network "
            "unencrypted (--insecure); use --tls-cert and --tls-key"
        )

    def configuration(self) -> Any:
        """The certificate configuration, read from the files now.

        Raises:
            TransportError: a file cannot be used.
        """
        pair = (read_pem(self.key, "TLS key"), read_pem(self.cert, "TLS certificate"))
        roots = read_pem(self.client_ca, "client CA") if self.client_ca else None
        return grpc.ssl_server_certificate_configuration([pair], root_certificates=roots)

    def log_fields(self) -> dict[str, object]:
        """What the ``listening`` line says of the transport."""
        if not self.tls:
            return {"tls": False}
        return {"tls": True, "client_certificates": self.mutual}


class ServerCertificates:
    """A TLS port's credentials, whose files are read again after :meth:`reload` (SIGHUP).

    gRPC asks for the configuration at each new connection's handshake; it changes only
    after a reload, and a reload whose files cannot be used keeps the old ones (logged).
    """

    def __init__(self, transport: ServerTransport) -> None:
        """Read the files now."""
        self.transport = transport
        self._pending = False
        self._lock = threading.Lock()
        self.credentials = grpc.dynamic_ssl_server_credentials(
            transport.configuration(),
            self._fetch,
            require_client_authentication=transport.mutual,
        )

    def reload(self) -> None:
        """Read the files again at the next connection."""
        with self._lock:
            self._pending = True

    def _fetch(self) -> Any:
        with self._lock:
            if not self._pending:
                return None
            self._pending = False
        try:
            return self.transport.configuration()
        except TransportError as error:
            from gamerec.validator.service.calls import LOGGER  # noqa: PLC0415

            LOGGER.error("the TLS files were not reloaded: %s", error)
            return None


@dataclass(frozen=True, slots=True)
class ClientTransport:
    """How a client reaches a server (see the module docstring).

    Attributes:
        tls: use TLS (implied by any file below).
        ca: the CA that signed the server's certificate (PEM); empty: the system's roots.
        client_cert: this client's certificate chain, for mTLS (PEM).
        client_key: its private key (PEM).
        server_name: the name the server's certificate must carry; empty: the address's host.
        token: sent as ``authorization: Bearer <token>`` on every call; empty: none.
    """

    tls: bool = False
    ca: str = ""
    client_cert: str = ""
    client_key: str = ""
    server_name: str = ""
    token: str = ""

    @property
    def secure(self) -> bool:
        """Whether the channel uses TLS."""
        return self.tls or bool(self.ca or self.client_cert or self.client_key)

    def with_token(self, token: str) -> ClientTransport:
        """The same transport sending another token."""
        return ClientTransport(
            self.tls, self.ca, self.client_cert, self.client_key, self.server_name, token
        )

    def metadata(self) -> tuple[tuple[str, str], ...]:
        """The call metadata that carries the token (empty without one)."""
        return bearer(self.token)

    def channel(self, address: str, options: Sequence[tuple[str, Any]] = ()) -> grpc.Channel:
        """A blocking channel to ``address``.

        Raises:
            TransportError: a certificate, key or CA file that cannot be used.
        """
        if not self.secure:
            return grpc.insecure_channel(address, options=list(options))
        return grpc.secure_channel(
            address, self.credentials(), options=[*self._options(), *options]
        )

    def aio_channel(
        self, address: str, options: Sequence[tuple[str, Any]] = ()
    ) -> grpc.aio.Channel:
        """An asyncio channel to ``address``.

        Raises:
            TransportError: a certificate, key or CA file that cannot be used.
        """
        if not self.secure:
            return grpc.aio.insecure_channel(address, options=list(options))
        return grpc.aio.secure_channel(
            address, self.credentials(), options=[*self._options(), *options]
        )

    def credentials(self) -> grpc.ChannelCredentials:
        """The channel's TLS credentials.

        Raises:
            TransportError: a file that cannot be used, or a client certificate without
                its key.
        """
        if bool(self.client_cert) != bool(self.client_key):
            raise TransportError("--client-cert and --client-key go together")
        return grpc.ssl_channel_credentials(
            root_certificates=read_pem(self.ca, "CA") if self.ca else None,
            private_key=read_pem(self.client_key, "client key") if self.client_key else None,
            certificate_chain=(
                read_pem(self.client_cert, "client certificate") if self.client_cert else None
            ),
        )

    def _options(self) -> list[tuple[str, Any]]:
        if not self.server_name:
            return []
        return [("grpc.ssl_target_name_override", self.server_name)]


def retry_delay(error: grpc.RpcError) -> float | None:
    """The seconds a RESOURCE_EXHAUSTED answer asks to wait (google.rpc.RetryInfo), if any."""
    from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]  # noqa: PLC0415

    if not isinstance(error, grpc.Call) or error.code() != grpc.StatusCode.RESOURCE_EXHAUSTED:
        return None
    for key, value in error.trailing_metadata() or ():
        if key != "grpc-status-details-bin" or not isinstance(value, bytes):
            continue
        for detail in status_pb2.Status.FromString(value).details:
            if detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
                info = error_details_pb2.RetryInfo()
                detail.Unpack(info)
                return float(info.retry_delay.ToTimedelta().total_seconds())
    return None


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    """``authorization: Bearer <token>`` metadata (empty for no token)."""
    return ((AUTHORIZATION, f"Bearer {token}"),) if token else ()


def unsendable(token: str) -> tuple[int, str] | None:
    """Where and why gRPC metadata cannot carry ``token``; None when it can.

    A metadata value that is not binary is printable ASCII (0x20 to 0x7E, gRPC's
    PROTOCOL-HTTP2.md), so a token holding anything else could never be presented.
    """
    for index, char in enumerate(token):
        if not " " <= char <= "~":
            what = "a byte that is not UTF-8" if char == "\ufffd" else f"U+{ord(char):04X}"
            return index, (
                f"holds {what}, which gRPC metadata cannot carry "
                "(a token is printable ASCII: 0x20 to 0x7E)"
            )
    return None


def read_token_file(path: str | Path) -> str:
    """The token on the first line of a file (a client's ``--token-file``).

    Raises:
        TransportError: the file cannot be read, its first line is empty, or its token holds
            a character gRPC metadata cannot carry (see :func:`unsendable`).
    """
    try:
        with open(path, "rb") as stream:
            line = stream.readline(4096).decode("utf-8", "replace").rstrip("\n")
    except OSError as error:
        raise TransportError(f"{path}: cannot read the token: {error.strerror}") from None
    token = line.strip()
    if not token:
        raise TransportError(f"{path}: expected a token on the first line")
    problem = unsendable(token)
    if problem is not None:
        column = len(line) - len(line.lstrip()) + problem[0] + 1
        raise TransportError(f"{path}:1: column {column}: the token {problem[1]}")
    return token
