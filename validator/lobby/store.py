"""Where the lobby keeps its challenges and its events: the interface and what backends share.

The lobby's tables live beside the match store's, in the same SQLite file or PostgreSQL
database (``gamerec serve --matches``), so a server that restarts finds its open challenges
again. Every write is one transaction, and the lobby's writes are one at a time (SQLite's
write lock, a PostgreSQL advisory lock): a change reads its challenge's row, lets a
:mod:`~gamerec.validator.lobby.table` decision decide, and writes the row and the events
the decision made, numbered on from the last (so numbers have no gaps and their order is
the order of the commits: a watcher that reads the events after its last one misses none).

The limits on open challenges (the store's and each client's) are counted in the same
transaction as the insert they bound.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Final, Protocol

from google.protobuf.message import DecodeError

from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.store import StoreError
from gamerec.validator.lobby.table import FREE, LIVE_STATUSES, Decision, Row

#: The bytes of a token hash (SHA-256); a free seat is kept as this many zero bytes.
DIGEST_BYTES: Final = 32
#: The row's columns, in the order :func:`row_values` gives them.
ROW_COLUMNS: Final = (
    "challenge_id, status, creator, creator_seat, created_ns, expires_ns, claimed_ns, "
    "challenge, request, tokens"
)

#: A change to one challenge: the row as read, to the decision (or a refusal).
Decide = Callable[[Row], Decision]


class ChallengeLimitError(StoreError):
    """The store holds as many open challenges as its limit allows (or the client does).

    Attributes:
        limit: ``open_challenges`` or ``client_challenges``.
    """

    def __init__(self, message: str, limit: str) -> None:
        """Say which limit and how."""
        super().__init__(message)
        self.limit = limit


def check_open(count: int, most: int, mine: int, most_mine: int) -> None:
    """Refuse a new challenge past the store's limit or its client's.

    Raises:
        ChallengeLimitError: a limit is reached.
    """
    if count >= most:
        raise ChallengeLimitError(
            f"the lobby holds {count:,} open challenges, its limit (limit open-challenges); "
            "take a seat of one instead",
            "open_challenges",
        )
    if mine >= most_mine:
        raise ChallengeLimitError(
            f"this client has {mine:,} open challenges, its limit (limit client-challenges); "
            "cancel one or wait for them to fill",
            "client_challenges",
        )


def row_values(row: Row) -> tuple[Any, ...]:
    """The row as the store's columns (:data:`ROW_COLUMNS`)."""
    return (
        row.challenge_id,
        row.status,
        row.creator,
        row.creator_seat,
        row.created_ns,
        row.expires_ns,
        row.claimed_ns,
        row.challenge.SerializeToString(),
        row.request.SerializeToString(),
        b"".join(digest or bytes(DIGEST_BYTES) for digest in row.tokens),
    )


def row_of(values: Sequence[Any]) -> Row:
    """The row the columns hold (:data:`ROW_COLUMNS`).

    Raises:
        StoreError: the stored challenge cannot be read (a damaged store).
    """
    challenge_id, _, creator, creator_seat, created, expires, claimed = values[:7]
    challenge_bytes, request_bytes, tokens = values[7:]
    try:
        challenge = lpb.Challenge.FromString(bytes(challenge_bytes))
        request = mpb.CreateMatchRequest.FromString(bytes(request_bytes))
    except DecodeError as error:
        raise StoreError(f"challenge {challenge_id}: it cannot be read ({error})") from None
    raw = bytes(tokens)
    digests = tuple(
        FREE if not any(part) else part
        for part in (raw[i : i + DIGEST_BYTES] for i in range(0, len(raw), DIGEST_BYTES))
    )
    return Row(
        challenge,
        request,
        digests,
        str(creator),
        int(creator_seat),
        int(created),
        int(expires),
        int(claimed),
    )


def new_digests(before: Row | None, after: Row) -> list[bytes]:
    """The token hashes ``after`` holds that ``before`` did not (seats just taken)."""
    held = set(before.tokens) if before is not None else set()
    return [digest for digest in after.tokens if digest != FREE and digest not in held]


def numbered(events: Sequence[lpb.LobbyEvent], last: int) -> list[lpb.LobbyEvent]:
    """The events numbered on from ``last``."""
    made = []
    for number, event in enumerate(events, start=last + 1):
        copy = lpb.LobbyEvent()
        copy.CopyFrom(event)
        copy.number = number
        made.append(copy)
    return made


def event_of(number: int, body: bytes) -> lpb.LobbyEvent:
    """A stored event.

    Raises:
        StoreError: it cannot be read, or says another number (a damaged store).
    """
    try:
        event = lpb.LobbyEvent.FromString(bytes(body))
    except DecodeError as error:
        raise StoreError(f"lobby event {number}: it cannot be read ({error})") from None
    if event.number != number:
        raise StoreError(f"lobby event {number}: it says it is event {event.number}")
    return event


#: The statuses of challenges that count as open (for SQL: ``status IN (...)``).
LIVE: Final = tuple(int(status) for status in LIVE_STATUSES)


class LobbyStore(Protocol):
    """Where challenges and the lobby's events are kept (see the module docstring)."""

    async def insert(
        self, decision: Decision, most_open: int, most_by_client: int
    ) -> list[lpb.LobbyEvent]:
        """Store a new challenge and its events (numbered: returned), within the limits.

        Raises:
            ChallengeLimitError: ``most_open`` challenges are open, or its creator's
                ``most_by_client``.
            StoreError: the write failed.
        """
        ...

    async def change(self, challenge_id: str, decide: Decide) -> tuple[Row, list[lpb.LobbyEvent]]:
        """Decide on the challenge's row and write the result, in one transaction.

        Returns the row written and its events, numbered.

        Raises:
            UnknownChallengeError: no such challenge.
            CommandRefusedError: the decision refuses (nothing changed).
            StoreError: the write failed.
        """
        ...

    async def get(self, challenge_id: str) -> Row | None:
        """The challenge's row; None: no such challenge."""
        ...

    async def by_token(self, digest: bytes) -> Row | None:
        """The challenge a seat token's hash holds a seat of; None: none."""
        ...

    async def listed(self, limit: int) -> list[Row]:
        """The open challenges, oldest first."""
        ...

    async def due(self, now_ns: int, claimed_before_ns: int) -> list[str]:
        """Open challenges expired at ``now_ns``, full ones claimed before ``claimed_before_ns``."""
        ...

    async def events(self, after: int, limit: int) -> list[lpb.LobbyEvent]:
        """The events after number ``after``, in order, at most ``limit``."""
        ...

    async def first_and_last(self) -> tuple[int, int]:
        """The numbers of the first event kept and the last (0, 0: none yet)."""
        ...

    async def prune(self, keep_events: int, closed_before_ns: int) -> None:
        """Forget all but the last ``keep_events`` events, and challenges closed long ago."""
        ...

    async def close(self) -> None:
        """Stop using the store."""
        ...
