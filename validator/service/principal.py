"""Who makes the call being served: its role and name, set by the gate for the handler.

The gate (``gamerec.validator.service.access``) decides who a call's caller is before the
handler runs and sets :data:`PRINCIPAL` for it; the handlers read it (a seat's number, the
admin's name) and the call log writes its role and name, never its token.
"""

from __future__ import annotations

from contextvars import ContextVar
from enum import StrEnum
from typing import Final, NamedTuple


class Role(StrEnum):
    """What a caller may do (docs/operating.md, "Who may do what")."""

    #: Creates and aborts matches, reads everything (``--admin-tokens``).
    ADMIN = "admin"
    #: Plays one seat of one match, by the seat token CreateMatch gave.
    SEAT = "seat"
    #: Watches matches and reads finished records (``--spectator-tokens``, or anyone when
    #: the server allows anonymous watching).
    SPECTATOR = "spectator"
    #: Calls RecordService (``--record-tokens``, or anyone when it is open).
    RECORD = "record"
    #: No token and no known client certificate.
    ANONYMOUS = "anonymous"


class Principal(NamedTuple):
    """A caller, as the gate found it.

    Immutable. A named tuple rather than a frozen dataclass: the gate makes one for every
    call, and a tuple is made in less than half the time.

    Attributes:
        role: what it may do in this call.
        name: its name for logs and limits: the token file's name, ``seat N``, or empty.
        key: what its limits are counted against (its token's hash, or its address).
        by_token: counted by token (True) or by peer address (False).
        match_id: a seat's match.
        seat: a seat's number (1-based).
    """

    role: Role
    name: str
    key: str
    by_token: bool
    match_id: str = ""
    seat: int = 0


#: The caller of the call being served (None outside a call, or for an ungated service).
PRINCIPAL: Final[ContextVar[Principal | None]] = ContextVar("gamerec_principal", default=None)


def current_principal() -> Principal | None:
    """The caller of the call being served."""
    return PRINCIPAL.get()
