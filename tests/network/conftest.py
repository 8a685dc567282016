"""Servers with token files and certificates, and what the network tests share."""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import grpc

from tests.live.conftest import details

#: Tokens of the token files the tests write (16 characters at least).
ADMIN = "admin-token-0123456789"
OTHER_ADMIN = "admin-token-abcdefghij"
SPECTATOR = "spectator-token-0123456789"
RECORD = "record-token-0123456789"


def bearer(token: str) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token}"),)


def token_file(path: Path, *lines: str) -> Path:
    path.write_text("# written by the test\n" + "\n".join(lines) + "\n")
    return path


def hashed(token: str) -> str:
    """A token file's credential for ``token`` that holds no secret."""
    return "sha256:" + hashlib.sha256(token.encode()).hexdigest()


def refusal(error: grpc.RpcError) -> tuple[str, str, str]:
    """A refused call's code, its message, and the field its ErrorInfo names."""
    assert isinstance(error, grpc.Call)
    info: Any = details(error)["ErrorInfo"]
    return error.code().name, str(error.details()), str(info.metadata["field"])
