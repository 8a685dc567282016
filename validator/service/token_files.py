"""The server's token files (``--admin-tokens``, ``--spectator-tokens``, ``--record-tokens``).

A token file says who holds a role: one ``NAME CREDENTIAL`` a line (docs/operating.md, "Token
files"). Whoever can write the file can make themselves an admin, so a file that someone else
may write is refused, as OpenSSH's ``StrictModes`` refuses an ``authorized_keys`` file: it
must be a regular file owned by the server's user (or root) and writable by no group and no
other user. A token must be one that a client can send: gRPC metadata carries printable ASCII
only, so a token holding any other character (a NUL byte, a tab, a letter outside ASCII) is
refused with its file, line and column, never kept as a token no one can ever present.
"""

from __future__ import annotations

import hashlib
import hmac
import os
import stat
from dataclasses import dataclass
from typing import Final

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.inputs import file_kind
from gamerec.validator.service.principal import Role
from gamerec.validator.service.transport import unsendable

#: The longest token file read.
MAX_TOKEN_FILE_BYTES: Final = 1024 * 1024
_SHA256: Final = "sha256:"
_SUBJECT: Final = "subject:"


def token_digest(token: str) -> bytes:
    """The hash under which a token is kept and looked up (SHA-256 of its UTF-8 bytes)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class TokenFileError(GamerecError):
    """A token file that cannot be read, or a line of it that says nothing usable."""


@dataclass(frozen=True, slots=True)
class TokenEntry:
    """One line of a token file: a name, its role, and the hash or subject it is known by."""

    name: str
    role: Role
    digest: bytes = b""
    subject: str = ""


def read_token_file(path: str, role: Role) -> list[TokenEntry]:
    """The entries of a token file (docs/operating.md, "Tokens").

    A line is ``NAME CREDENTIAL``: the credential is ``sha256:HEX`` (the token's hash, so
    the file holds no secret), ``subject:SUBJECT`` (a client certificate's subject, for mTLS
    clients that send no token), or the token itself. A line of one word is a token named
    after its line. Blank lines and lines starting with ``#`` are skipped.

    Raises:
        TokenFileError: the file cannot be read, is not a regular file, may be written by
            another user than the server's (see the module docstring), or a line is
            malformed (a token gRPC metadata cannot carry among them).
    """
    data = _read_checked(path, role)
    entries = []
    # Lines end at LF only (a CR before it is space): splitlines() would also end one at a
    # form feed or U+2028 inside a token, and read the halves as two lines.
    for number, line in enumerate(data.decode("utf-8", "replace").split("\n"), start=1):
        text = line.strip()
        if text and not text.startswith("#"):
            start = len(line) - len(line.lstrip())  # the column before the text, less one
            entries.append(_entry(text, role, f"{path}:{number}", start))
    if not entries:
        raise TokenFileError(f"{path}: no {role} token in it (lines of NAME TOKEN)")
    return entries


def _entry(text: str, role: Role, where: str, start: int = 0) -> TokenEntry:
    name, _, credential = text.partition(" ")
    credential = credential.strip()
    if not credential:
        name, credential = f"line {where.rsplit(':', 1)[1]}", name
    lowered = credential.lower()
    if lowered.startswith(_SHA256):
        try:
            digest = bytes.fromhex(credential[len(_SHA256) :])
        except ValueError:
            digest = b""
        if len(digest) != 32:
            raise TokenFileError(f"{where}: sha256: must be followed by 64 hexadecimal digits")
        return TokenEntry(name, role, digest=digest)
    if lowered.startswith(_SUBJECT):
        subject = credential[len(_SUBJECT) :].strip()
        if not subject:
            raise TokenFileError(f"{where}: subject: must be followed by a certificate subject")
        return TokenEntry(name, role, subject=subject)
    if len(credential) < 16:
        raise TokenFileError(f"{where}: a token must be at least 16 characters")
    problem = unsendable(credential)
    if problem is not None:  # no client could ever send it: gRPC metadata is printable ASCII
        index, reason = problem
        column = start + len(text) - len(credential) + index + 1
        raise TokenFileError(f"{where}: column {column}: the token {reason}")
    return TokenEntry(name, role, digest=token_digest(credential))


class TokenBook:
    """The tokens of the token files, by role (see :func:`read_token_file`).

    Args:
        files: the token file of each role that has one.
    """

    def __init__(self, files: dict[Role, str]) -> None:
        """Read the files.

        Raises:
            TokenFileError: a file cannot be read or holds a malformed line.
        """
        self.files = dict(files)
        self._entries: tuple[TokenEntry, ...] = ()
        self.load()

    def load(self) -> None:
        """Read every file; the tokens change only when all of them can be read.

        Raises:
            TokenFileError: a file cannot be read or holds a malformed line.
        """
        entries = [
            entry for role, path in self.files.items() for entry in read_token_file(path, role)
        ]
        self._entries = tuple(entries)

    def has(self, role: Role) -> bool:
        """Whether the book has a file for ``role``."""
        return role in self.files

    def by_digest(self, digest: bytes) -> TokenEntry | None:
        """The entry whose token has this hash; every entry is compared (constant time)."""
        found = None
        for entry in self._entries:
            if hmac.compare_digest(entry.digest or bytes(32), digest) and entry.digest:
                found = entry
        return found

    def by_subject(self, subject: str) -> TokenEntry | None:
        """The entry of a client certificate's subject."""
        for entry in self._entries:
            if entry.subject and entry.subject == subject:
                return entry
        return None

    def __len__(self) -> int:
        """The number of entries."""
        return len(self._entries)


def _read_checked(path: str, role: Role) -> bytes:
    """The bytes of a token file that only the server's user (or root) may write."""
    try:
        # Opened without blocking, so that a named pipe is refused rather than waited on.
        descriptor = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with open(descriptor, "rb") as stream:
            status = os.fstat(descriptor)
            if not stat.S_ISREG(status.st_mode):
                kind = file_kind(status.st_mode)
                raise TokenFileError(
                    f"{path}: the {role} tokens must be a regular file, not {kind}"
                )
            _check_owner_and_mode(path, role, status)
            data = stream.read(MAX_TOKEN_FILE_BYTES + 1)
    except OSError as error:
        raise TokenFileError(f"{path}: cannot read the {role} tokens: {error.strerror}") from None
    if len(data) > MAX_TOKEN_FILE_BYTES:
        raise TokenFileError(f"{path}: larger than {MAX_TOKEN_FILE_BYTES:,} bytes")
    return data


def _check_owner_and_mode(path: str, role: Role, status: os.stat_result) -> None:
    """Refuse a file another user may write (OpenSSH's ``StrictModes``); POSIX only."""
    if os.name != "posix":
        return
    writers = [
        who
        for bit, who in ((stat.S_IWGRP, "its group"), (stat.S_IWOTH, "every user"))
        if status.st_mode & bit
    ]
    if writers:
        mode = stat.S_IMODE(status.st_mode)
        raise TokenFileError(
            f"{path}: the {role} tokens may be written by {' and '.join(writers)} "
            f"(mode {mode:04o}), so whoever can write it can take the {role} role; "
            f"refused, as ssh refuses such a key file: chmod go-w {path}"
        )
    user = os.geteuid()
    if status.st_uid not in (user, 0):
        raise TokenFileError(
            f"{path}: the {role} tokens belong to user {status.st_uid}, neither this "
            f"server's user ({user}) nor root; refused, as ssh refuses such a key file"
        )
