"""Certificates made in the test: a CA, a server's for 127.0.0.1 and localhost, clients'."""

from __future__ import annotations

import datetime
import ipaddress
from dataclasses import dataclass
from pathlib import Path

from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID


@dataclass(frozen=True)
class Issued:
    """A certificate and its key, as PEM files."""

    cert: Path
    key: Path


class Authority:
    """A CA that issues server and client certificates into a folder."""

    def __init__(self, folder: Path, name: str) -> None:
        self.folder = folder
        self.name = name
        self.key = ec.generate_private_key(ec.SECP256R1())
        subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
        self.subject = subject
        usage = x509.KeyUsage(
            digital_signature=True,
            content_commitment=False,
            key_encipherment=False,
            data_encipherment=False,
            key_agreement=False,
            key_cert_sign=True,
            crl_sign=True,
            encipher_only=False,
            decipher_only=False,
        )
        self.certificate = (
            _builder(subject, subject, self.key.public_key())
            .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
            .add_extension(usage, critical=True)
            .sign(self.key, hashes.SHA256())
        )
        self.cert = folder / f"{name}.pem"
        self.cert.write_bytes(self.certificate.public_bytes(serialization.Encoding.PEM))

    def server(self, stem: str = "server") -> Issued:
        """A server certificate for 127.0.0.1 and localhost."""
        names = x509.SubjectAlternativeName(
            [x509.DNSName("localhost"), x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]
        )
        return self._issue(stem, "localhost", names, ExtendedKeyUsageOID.SERVER_AUTH)

    def client(self, common_name: str, organisation: str = "") -> Issued:
        """A client certificate with this subject."""
        return self._issue(
            f"client-{common_name}", common_name, None, ExtendedKeyUsageOID.CLIENT_AUTH,
            organisation,
        )  # fmt: skip

    def _issue(
        self,
        stem: str,
        common_name: str,
        names: x509.SubjectAlternativeName | None,
        usage: x509.ObjectIdentifier,
        organisation: str = "",
    ) -> Issued:
        key = ec.generate_private_key(ec.SECP256R1())
        attributes = [x509.NameAttribute(NameOID.COMMON_NAME, common_name)]
        if organisation:
            attributes.append(x509.NameAttribute(NameOID.ORGANIZATION_NAME, organisation))
        builder = (
            _builder(x509.Name(attributes), self.subject, key.public_key())
            .add_extension(x509.BasicConstraints(ca=False, path_length=None), critical=True)
            .add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
        )
        if names is not None:
            builder = builder.add_extension(names, critical=False)
        certificate = builder.sign(self.key, hashes.SHA256())
        issued = Issued(self.folder / f"{stem}.pem", self.folder / f"{stem}.key")
        issued.cert.write_bytes(certificate.public_bytes(serialization.Encoding.PEM))
        issued.key.write_bytes(
            key.private_bytes(
                serialization.Encoding.PEM,
                serialization.PrivateFormat.PKCS8,
                serialization.NoEncryption(),
            )
        )
        return issued


def _builder(
    subject: x509.Name, issuer: x509.Name, public_key: ec.EllipticCurvePublicKey
) -> x509.CertificateBuilder:
    now = datetime.datetime.now(datetime.UTC)
    return (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(issuer)
        .public_key(public_key)
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(hours=1))
        .not_valid_after(now + datetime.timedelta(days=2))
    )
