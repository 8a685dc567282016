"""Token files under hostile input: tokens no client can send, files others may write, pipes.

docs/operating.md, "Token files": a token is printable ASCII (what gRPC metadata carries), and
a token file must be a regular file that no group and no other user may write (as OpenSSH's
StrictModes holds ``authorized_keys``); each refusal names the file, and the line and column.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from gamerec.validator.service.principal import Role
from gamerec.validator.service.token_files import TokenBook, TokenFileError, read_token_file
from gamerec.validator.service.transport import TransportError
from gamerec.validator.service.transport import read_token_file as read_client_token
from tests.network.conftest import ADMIN, hashed, token_file

GOOD = f"ops {hashed(ADMIN)}"


def written(path: Path, data: bytes, mode: int = 0o600) -> Path:
    path.write_bytes(data)
    path.chmod(mode)
    return path


@pytest.mark.parametrize(
    ("line", "column", "what"),
    [
        (b"ops admin-token-\x00-0123456789", 17, "U+0000"),
        (b"  ops admin-token-0123456789\x01", 29, "U+0001"),
        (b"ops admin\ttoken-0123456789", 10, "U+0009"),
        (b"ops admin-token-\x0c0123456789", 17, "U+000C"),
        (b"ops admin-token-\xc3\xa9-0123456789", 17, "U+00E9"),
        (b"ops admin-token-\xff-0123456789", 17, "a byte that is not UTF-8"),
        (b"admin-token-0123456789\x7f", 23, "U+007F"),
    ],
)
def test_a_token_that_grpc_metadata_cannot_carry_is_refused_with_its_place(
    tmp_path: Path, line: bytes, column: int, what: str
) -> None:
    path = written(tmp_path / "admins", b"# admins\n" + GOOD.encode() + b"\n" + line + b"\n")
    with pytest.raises(TokenFileError) as refused:
        read_token_file(str(path), Role.ADMIN)
    assert str(refused.value) == (
        f"{path}:3: column {column}: the token holds {what}, which gRPC metadata cannot carry "
        "(a token is printable ASCII: 0x20 to 0x7E)"
    )


def test_printable_tokens_and_crlf_lines_are_read(tmp_path: Path) -> None:
    path = written(
        tmp_path / "admins", b"ops admin-token-0123456789 ~!\r\nsha " + hashed(ADMIN).encode()
    )
    assert [entry.name for entry in read_token_file(str(path), Role.ADMIN)] == ["ops", "sha"]


@pytest.mark.parametrize(
    ("mode", "who"),
    [(0o666, "its group and every user"), (0o620, "its group"), (0o602, "every user")],
)
def test_a_token_file_others_may_write_is_refused(tmp_path: Path, mode: int, who: str) -> None:
    path = written(tmp_path / "admins", GOOD.encode(), mode)
    with pytest.raises(TokenFileError) as refused:
        read_token_file(str(path), Role.ADMIN)
    assert str(refused.value) == (
        f"{path}: the admin tokens may be written by {who} (mode {mode:04o}), so whoever can "
        f"write it can take the admin role; refused, as ssh refuses such a key file: "
        f"chmod go-w {path}"
    )
    for readable in (0o600, 0o644, 0o400):
        path.chmod(readable)
        assert len(read_token_file(str(path), Role.ADMIN)) == 1


def test_a_token_file_of_another_user_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = written(tmp_path / "spectators", GOOD.encode())
    server = os.geteuid()
    if server == 0:
        os.chown(path, 4242, -1)  # root may give the file away (root's own files are accepted)
    else:
        monkeypatch.setattr(os, "geteuid", lambda: server + 1)  # as if another user ran it
        server += 1
    owner = path.stat().st_uid
    with pytest.raises(TokenFileError) as refused:
        read_token_file(str(path), Role.SPECTATOR)
    assert str(refused.value) == (
        f"{path}: the spectator tokens belong to user {owner}, neither this server's user "
        f"({server}) nor root; refused, as ssh refuses such a key file"
    )


def test_a_named_pipe_is_refused_at_once(tmp_path: Path) -> None:
    pipe = tmp_path / "admins"
    os.mkfifo(pipe, 0o600)
    with pytest.raises(TokenFileError, match="must be a regular file, not a named pipe"):
        read_token_file(str(pipe), Role.ADMIN)  # no writer: a blocking open would hang here


def test_a_reload_keeps_the_tokens_when_the_file_becomes_writable_by_others(tmp_path: Path) -> None:
    path = written(tmp_path / "admins", GOOD.encode())
    book = TokenBook({Role.ADMIN: str(path)})
    path.write_text(GOOD + "\nintruder intruder-token-0123456789\n")
    path.chmod(0o666)
    with pytest.raises(TokenFileError, match="may be written by its group and every user"):
        book.load()
    assert len(book) == 1


def test_gamerec_serve_refuses_a_world_writable_admin_token_file(tmp_path: Path) -> None:
    path = written(token_file(tmp_path / "admins", GOOD), GOOD.encode(), 0o666)
    started = subprocess.run(
        [sys.executable, "-m", "gamerec", "serve", "--port", "0", "--admin-tokens", str(path)],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert started.returncode == 2, started.stderr
    assert started.stderr == (
        f"gamerec: error: {path}: the admin tokens may be written by its group and every user "
        f"(mode 0666), so whoever can write it can take the admin role; refused, as ssh "
        f"refuses such a key file: chmod go-w {path}\n"
    )


def test_a_clients_token_file_must_hold_a_token_it_can_send(tmp_path: Path) -> None:
    path = written(tmp_path / "token", b"  seat-token\x00-0123456789\nsecond line\x00\n")
    with pytest.raises(TransportError) as refused:
        read_client_token(path)
    assert str(refused.value) == (
        f"{path}:1: column 13: the token holds U+0000, which gRPC metadata cannot carry "
        "(a token is printable ASCII: 0x20 to 0x7E)"
    )
    assert (
        read_client_token(written(path, b" seat-token-0123456789 \r\n")) == "seat-token-0123456789"
    )
