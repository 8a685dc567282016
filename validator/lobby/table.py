"""A challenge as the store keeps it (:class:`Row`), and every change to it as a pure decision.

A decision takes the row as the store read it inside its transaction and returns the row
to write with the lobby events to append (:class:`Decision`), or raises the refusal that
leaves everything as it was. So the SQLite and PostgreSQL backends run the same decisions,
and two takers racing for the last seat are decided one after the other on the row each
finds: the second finds the seat taken (or the table full) and is refused.

The row keeps the match's ``CreateMatchRequest`` as it fills, seat by seat, and the hashes
of the seat holders' tokens: the match is created from exactly these.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Final

from google.protobuf.timestamp_pb2 import Timestamp

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import lobby_pb2 as lpb
from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import NS_PER_MS
from gamerec.validator.live.match import CommandRefusedError, Refusal

OPEN: Final = lpb.CHALLENGE_STATUS_OPEN
FULL: Final = lpb.CHALLENGE_STATUS_FULL
STARTED: Final = lpb.CHALLENGE_STATUS_STARTED
CANCELLED: Final = lpb.CHALLENGE_STATUS_CANCELLED
EXPIRED: Final = lpb.CHALLENGE_STATUS_EXPIRED
#: The statuses a challenge counts as open in (against the limits): waiting, or starting.
LIVE_STATUSES: Final = (OPEN, FULL)
#: The hash a free seat holds.
FREE: Final = b""
#: Seconds a full challenge's creator has to create its match before another process may.
CLAIM_SECONDS: Final = 30


class UnknownChallengeError(GamerecError):
    """No challenge has this id (or it was forgotten long after it closed)."""

    def __init__(self, challenge_id: str) -> None:
        """Name the id (cut when long)."""
        self.challenge_id = challenge_id
        super().__init__(f"no challenge {challenge_id[:64]!r} in this lobby")


@dataclass(frozen=True, slots=True)
class Row:
    """A challenge as the store keeps it.

    Attributes:
        challenge: the challenge as the lobby shows it (``your_seat`` unset).
        request: the match to create, its seats filled as they are taken.
        tokens: each seat's token hash (SHA-256), in seat order; :data:`FREE` when free.
        creator: the client that opened it (the gate's key: a token's hash or an address).
        creator_seat: the seat its creator took.
        created_ns: when it was opened (wall clock, ns); ``expires_ns``: when it expires.
        claimed_ns: when a process began creating its match (0: none).
    """

    challenge: lpb.Challenge
    request: mpb.CreateMatchRequest
    tokens: tuple[bytes, ...]
    creator: str
    creator_seat: int
    created_ns: int
    expires_ns: int
    claimed_ns: int = 0

    @property
    def challenge_id(self) -> str:
        """The challenge's id."""
        return self.challenge.challenge_id

    @property
    def status(self) -> lpb.ChallengeStatus.ValueType:
        """Where it stands."""
        return self.challenge.status

    def seat_of(self, digest: bytes) -> int:
        """The seat whose token has this hash; 0: none."""
        for seat, held in enumerate(self.tokens, start=1):
            if held and held == digest:
                return seat
        return 0

    def shown(self, your_seat: int = 0) -> lpb.Challenge:
        """The challenge as an answer shows it, to the holder of ``your_seat``."""
        shown = lpb.Challenge()
        shown.CopyFrom(self.challenge)
        shown.your_seat = your_seat
        return shown


@dataclass(frozen=True, slots=True)
class Decision:
    """What a change writes: the row, and the lobby's events (numbered by the store)."""

    row: Row
    events: tuple[lpb.LobbyEvent, ...]


def timestamp(wall_ns: int) -> Timestamp:
    """A wall time as a Timestamp, to the millisecond."""
    stamp = Timestamp()
    stamp.FromMilliseconds(wall_ns // NS_PER_MS)
    return stamp


def new_row(
    challenge_id: str,
    request: lpb.OpenChallengeRequest,
    match: mpb.CreateMatchRequest,
    *,
    seats: int,
    digest: bytes,
    creator: str,
    now_ns: int,
    lifetime_ns: int,
) -> Decision:
    """A new challenge whose creator holds ``request.seat`` (0: seat 1), and its event."""
    seat = request.seat or 1
    challenge = lpb.Challenge(
        challenge_id=challenge_id,
        status=OPEN,
        rules=request.rules,
        time_control=match.time_control,
        rated=request.rated,
        illegal_move_policy=match.illegal_move_policy,
        seats=[lpb.ChallengeSeat(seat=number) for number in range(1, seats + 1)],
        created=timestamp(now_ns),
        expires=timestamp(now_ns + lifetime_ns),
    )
    filled = mpb.CreateMatchRequest()
    filled.CopyFrom(match)
    del filled.seats[:]
    filled.seats.extend(mpb.MatchSeat() for _ in range(seats))
    row = Row(challenge, filled, (FREE,) * seats, creator, seat, now_ns, now_ns + lifetime_ns)
    row = _seated(row, seat, request.player, digest)
    opened = lpb.LobbyEvent(time=timestamp(now_ns), opened=row.challenge)
    return Decision(row, (opened,))


def take(row: Row, seat: int, player: mpb.MatchSeat, digest: bytes, now_ns: int) -> Decision:
    """``player`` takes ``seat`` (0: the first free one); full: the row is claimed now.

    Raises:
        CommandRefusedError: the challenge is not open (or has expired), the seat does not
            exist or is taken (FAILED_PRECONDITION; an unknown seat number: INVALID_ARGUMENT).
    """
    _require_open(row, now_ns)
    seats = len(row.tokens)
    if seat > seats:
        raise CommandRefusedError(
            Refusal.INVALID,
            "seat",
            "NO_SUCH_SEAT",
            f"challenge {row.challenge_id} has seats 1 to {seats}, not seat {seat}",
        )
    if not seat:
        seat = next(number for number, held in enumerate(row.tokens, 1) if held == FREE)
    elif row.tokens[seat - 1] != FREE:
        raise CommandRefusedError(
            Refusal.PRECONDITION,
            "seat",
            "SEAT_TAKEN",
            f"seat {seat} of challenge {row.challenge_id} is taken; take another free seat",
        )
    row = _seated(row, seat, player, digest)
    free = row.tokens.count(FREE)
    if not free:
        challenge = lpb.Challenge()
        challenge.CopyFrom(row.challenge)
        challenge.status = FULL
        row = dataclasses.replace(row, challenge=challenge, claimed_ns=now_ns)
    taken = lpb.SeatTaken(challenge_id=row.challenge_id, seat=seat, name=player.name, free=free)
    return Decision(row, (lpb.LobbyEvent(time=timestamp(now_ns), seat_taken=taken),))


def started(row: Row, match_id: str, now_ns: int) -> Decision:
    """The full challenge's match was created (nothing when it was marked so already)."""
    if row.status != FULL:
        return Decision(row, ())
    challenge = lpb.Challenge()
    challenge.CopyFrom(row.challenge)
    challenge.status = STARTED
    challenge.match_id = match_id
    event = lpb.LobbyEvent(
        time=timestamp(now_ns),
        started=lpb.MatchStarted(challenge_id=row.challenge_id, match_id=match_id),
    )
    return Decision(dataclasses.replace(row, challenge=challenge), (event,))


def claim(row: Row, now_ns: int) -> Decision:
    """A full challenge whose creating process went quiet: this process creates its match.

    Raises:
        CommandRefusedError: it is not full, or its claim is still fresh (someone else
            creates the match or has just created it).
    """
    if row.status != FULL or now_ns - row.claimed_ns < CLAIM_SECONDS * 1_000_000_000:
        raise CommandRefusedError(
            Refusal.PRECONDITION, "challenge_id", "CLAIMED", "another process starts it"
        )
    return Decision(dataclasses.replace(row, claimed_ns=now_ns), ())


def vacate(row: Row, seat: int, now_ns: int) -> Decision:
    """Give back the seat whose taking filled the table: its match could not be created."""
    if row.status != FULL:
        return Decision(row, ())
    tokens = list(row.tokens)
    tokens[seat - 1] = FREE
    challenge = lpb.Challenge()
    challenge.CopyFrom(row.challenge)
    challenge.status = OPEN
    challenge.seats[seat - 1].CopyFrom(lpb.ChallengeSeat(seat=seat))
    request = mpb.CreateMatchRequest()
    request.CopyFrom(row.request)
    request.seats[seat - 1].CopyFrom(mpb.MatchSeat())
    vacated = dataclasses.replace(
        row, challenge=challenge, request=request, tokens=tuple(tokens), claimed_ns=0
    )
    freed = lpb.SeatFreed(challenge_id=row.challenge_id, seat=seat, free=tokens.count(FREE))
    return Decision(vacated, (lpb.LobbyEvent(time=timestamp(now_ns), seat_freed=freed),))


def cancel(row: Row, now_ns: int) -> Decision:
    """Its creator withdraws it (the caller checked the token: :func:`is_creator`).

    Raises:
        CommandRefusedError: it is no longer open (an expired one may still be withdrawn).
    """
    _require_open(row, now_ns, expired_too=False)
    return _closed(row, CANCELLED, now_ns)


def expire(row: Row, now_ns: int) -> Decision:
    """Nobody filled it in time (nothing when it is no longer open or not yet due)."""
    if row.status != OPEN or row.expires_ns > now_ns:
        return Decision(row, ())
    return _closed(row, EXPIRED, now_ns)


def is_creator(row: Row, digest: bytes) -> bool:
    """Whether ``digest`` is the hash of its creator's token."""
    return row.seat_of(digest) == row.creator_seat


def _closed(row: Row, status: lpb.ChallengeStatus.ValueType, now_ns: int) -> Decision:
    challenge = lpb.Challenge()
    challenge.CopyFrom(row.challenge)
    challenge.status = status
    event = lpb.LobbyEvent(
        time=timestamp(now_ns),
        closed=lpb.ChallengeClosed(challenge_id=row.challenge_id, status=status),
    )
    return Decision(dataclasses.replace(row, challenge=challenge), (event,))


def _require_open(row: Row, now_ns: int, *, expired_too: bool = True) -> None:
    words = {
        FULL: "is full, its match starting",
        STARTED: f"has started: match {row.challenge.match_id}",
        CANCELLED: "was cancelled",
        EXPIRED: "has expired",
    }
    if row.status == OPEN and expired_too and row.expires_ns <= now_ns:
        said = words[EXPIRED]
    elif row.status != OPEN:
        said = words.get(row.status, "is not open")
    else:
        return
    raise CommandRefusedError(
        Refusal.PRECONDITION,
        "challenge_id",
        "CHALLENGE_CLOSED",
        f"challenge {row.challenge_id} {said}",
    )


def _seated(row: Row, seat: int, player: mpb.MatchSeat, digest: bytes) -> Row:
    challenge = lpb.Challenge()
    challenge.CopyFrom(row.challenge)
    challenge.seats[seat - 1].CopyFrom(
        lpb.ChallengeSeat(seat=seat, taken=True, name=player.name, player_id=player.player_id)
    )
    request = mpb.CreateMatchRequest()
    request.CopyFrom(row.request)
    request.seats[seat - 1].CopyFrom(player)
    tokens = list(row.tokens)
    tokens[seat - 1] = digest
    return dataclasses.replace(row, challenge=challenge, request=request, tokens=tuple(tokens))
