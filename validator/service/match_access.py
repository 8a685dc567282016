"""Who may do what in the match service: the one place the admin's token is checked.

Seats prove themselves with their seat token, in the request (the referee checks it against
the hashes it keeps). The admin (who may create matches and abort any) proves itself with
the server's admin token as gRPC metadata, ``authorization: Bearer <token>``. A server given
no admin token lets anyone create matches (and logs so when it starts).
"""

from __future__ import annotations

import hmac
from collections.abc import Iterable

from gamerec.validator.live.referee import BadTokenError, token_hash

#: The metadata key of the admin's token.
AUTHORIZATION = "authorization"
_BEARER = "bearer "


class MatchAccess:
    """The admin check of one server.

    Args:
        admin_token_hash: the SHA-256 of the admin token (``token_hash``); None: no admin
            token, anyone is admin.
    """

    def __init__(self, admin_token_hash: bytes | None) -> None:
        """Check against this hash (None: open)."""
        self._admin = admin_token_hash

    @property
    def open(self) -> bool:
        """Whether anyone may create matches (no admin token is set)."""
        return self._admin is None

    def is_admin(self, metadata: Iterable[tuple[str, str | bytes]] | None) -> bool:
        """Whether the call's metadata carries the admin token (always, when open)."""
        if self._admin is None:
            return True
        token = _bearer(metadata)
        return token is not None and hmac.compare_digest(token_hash(token), self._admin)

    def check_admin(self, metadata: Iterable[tuple[str, str | bytes]] | None) -> None:
        """Refuse a call without the admin token.

        Raises:
            BadTokenError: no ``authorization: Bearer`` metadata, or not the admin's token.
        """
        if self.is_admin(metadata):
            return
        if _bearer(metadata) is None:
            raise BadTokenError(
                AUTHORIZATION,
                "this server needs its admin token as 'authorization: Bearer <token>' metadata",
            )
        raise BadTokenError(AUTHORIZATION, "the bearer token is not this server's admin token")


def _bearer(metadata: Iterable[tuple[str, str | bytes]] | None) -> str | None:
    for key, value in metadata or ():
        if (
            key.lower() == AUTHORIZATION
            and isinstance(value, str)
            and value[: len(_BEARER)].lower() == _BEARER
        ):
            return value[len(_BEARER) :].strip()
    return None
