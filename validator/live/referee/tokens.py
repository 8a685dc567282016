"""Seat tokens: made, hashed (only the hashes are kept) and matched in constant time.

It may import ``gamerec.recorder``.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from collections.abc import Sequence
from typing import Final

from gamerec.recorder.errors import GamerecError

#: What every seat token begins with (then 192 random bits, base64url): a secret that can be
#: recognised in a log or a paste, and never begins with "-" on a command line.
TOKEN_PREFIX: Final = "seat_"


class BadTokenError(GamerecError):
    """A seat or admin token that is missing or wrong.

    Attributes:
        field: the field that held it (``token``, or ``authorization`` metadata).
    """

    def __init__(self, field_name: str, message: str) -> None:
        """Name the field and the problem."""
        self.field = field_name
        super().__init__(message)


def token_hash(token: str) -> bytes:
    """The hash under which a token is kept (SHA-256 of its UTF-8 bytes)."""
    return hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


def new_token() -> str:
    """A new seat token: :data:`TOKEN_PREFIX`, then 192 random bits (base64url)."""
    return TOKEN_PREFIX + secrets.token_urlsafe(24)


def seat_of(token: str, hashes: Sequence[bytes]) -> int:
    """The seat whose token this is, comparing hashes in constant time; 0 when none.

    Every seat's hash is compared, whichever matches, so the time does not tell which.
    """
    digest = token_hash(token)
    found = 0
    for seat, stored in enumerate(hashes, start=1):
        if hmac.compare_digest(digest, stored):
            found = seat
    return found
