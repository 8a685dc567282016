"""The match's data: its events as logged, what a command did, why one is refused.

Holds the constants of a match (statuses, policies, limits), :class:`Logged`,
:class:`Outcome`, the refusals (:class:`CommandRefusedError`, :class:`MatchLogError`) and the
small builders of messages (durations, timestamps, findings, ranks) the match uses.
It may import ``gamerec.recorder``, ``gamerec.v1`` and ``gamerec.validator.live``'s
``clocks`` and ``starts``; nothing of the match itself.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from enum import StrEnum
from typing import Final

from google.protobuf.duration_pb2 import Duration
from google.protobuf.timestamp_pb2 import Timestamp

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.limits import DEFAULT_LIMITS
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.live.clocks import NS_PER_MS, Instant
from gamerec.validator.live.starts import stamp

OPEN: Final = mpb.MATCH_STATUS_OPEN
FINISHED: Final = mpb.MATCH_STATUS_FINISHED
ABORTED: Final = mpb.MATCH_STATUS_ABORTED
REJECT: Final = mpb.ILLEGAL_MOVE_POLICY_REJECT
FORFEIT: Final = mpb.ILLEGAL_MOVE_POLICY_FORFEIT
#: The admin, as the ``seat`` of a command (:meth:`Match.abort`).
ADMIN: Final = 0
#: The longest name, id, event, site or round a match takes (characters).
MAX_MATCH_TEXT: Final = 200
#: The code of a finding about a move that is no token of the game.
MALFORMED_MOVE: Final = "MALFORMED_MOVE"
#: The events of one match, at most (``gamerec limits``: events).
MAX_EVENTS: Final = 250_000
#: Events kept below the events limit for a command's own (a ply, the resignations it
#: brings due, a lapsed offer, the end): a command that finds less room abandons the match.
EVENTS_ROOM: Final = 2 * DEFAULT_LIMITS.max_seats + 8


class Refusal(StrEnum):
    """Why a command cannot be carried out (the service's gRPC status)."""

    INVALID = "INVALID_ARGUMENT"
    PRECONDITION = "FAILED_PRECONDITION"


class CommandRefusedError(GamerecError):
    """A command the match cannot carry out; nothing changed.

    Attributes:
        refusal: the kind (the service's status code).
        field: the request's field at fault (``ply``, ``seats[1].public_key``).
        reason: a stable UPPER_SNAKE code (``NOT_YOUR_TURN``, ``STALE_PLY``, ``MATCH_OVER``).
        current_ply: the ply the match is at (played plies plus one), for plies refused.
    """

    def __init__(
        self, refusal: Refusal, field: str, reason: str, message: str, *, current_ply: int = 0
    ) -> None:
        """Build the refusal; its message is the sentence."""
        self.refusal = refusal
        self.field = field
        self.reason = reason
        self.current_ply = current_ply
        super().__init__(message)


class MatchLogError(GamerecError):
    """A log that does not rebuild into a match (another host key, a corrupted store)."""


@dataclass(frozen=True, slots=True)
class Logged:
    """One event of a match's log with the instant it took effect (kept beside it)."""

    event: mpb.MatchEvent
    at: Instant


@dataclass(slots=True)
class Outcome:
    """What a command did.

    Attributes:
        events: the events it appended (for a repeated Play: those of the first call).
        finding: a move the rules refuse (Play) or a signature that does not hold (Sign).
        refusal: raise it once ``events`` are stored (a flag that fell before the command).
        repeated: nothing new was appended: ``events`` are an earlier call's.
    """

    events: list[Logged] = field(default_factory=list)
    finding: vpb.Finding | None = None
    refusal: CommandRefusedError | None = None
    repeated: bool = False


#: Events that change nothing in the record.
_STATE_ONLY: Final = frozenset(
    {"draw_offered", "draw_answered", "draw_offer_lapsed", "resignation_pending", "outage"}
)


def _ranks(scores: Sequence[int], leaders: Sequence[int], below: Sequence[int]) -> list[int]:
    """Competition ranks: ``leaders`` by score, then each of ``below`` in its order."""
    ranks = [0] * len(scores)
    for seat in leaders:
        ranks[seat - 1] = 1 + sum(1 for o in leaders if scores[o - 1] > scores[seat - 1])
    for offset, seat in enumerate(below):
        ranks[seat - 1] = len(leaders) + 1 + offset
    return ranks


def _outage_note(outage: mpb.ServerOutage) -> str:
    """The comment on the ply a server outage interrupted."""
    down = outage.up_at.ToNanoseconds() - outage.down_since.ToNanoseconds()
    return (
        f"The server was down during this ply from {outage.down_since.ToJsonString()} to "
        f"{outage.up_at.ToJsonString()} ({_seconds(down)}); that time was charged to no one."
    )


def _seconds(nanoseconds: int) -> str:
    return f"{max(0, nanoseconds) / 1e9:.3f} s"


def _signature_finding(seat: int, ply: int, code: str, why: str) -> vpb.Finding:
    head = "the final head" if ply == 0 else f"the head after ply {ply}"
    sentence = why if code == "SIGNATURE_INVALID" else f"seat {seat} {why}"
    return vpb.Finding(
        ply=ply, seat=seat, code=code, message=f"{sentence} (signing {head}; docs/seals.md §4)"
    )


def _invalid(field_name: str, reason: str, message: str) -> CommandRefusedError:
    return CommandRefusedError(Refusal.INVALID, field_name, reason, message)


def _precondition(
    field_name: str, reason: str, message: str, *, current_ply: int = 0
) -> CommandRefusedError:
    return CommandRefusedError(
        Refusal.PRECONDITION, field_name, reason, message, current_ply=current_ply
    )


def _duration(milliseconds: int | None) -> Duration:
    duration = Duration()
    duration.FromMilliseconds(milliseconds or 0)
    return duration


def _timestamp(at: Instant) -> Timestamp:
    """The instant's wall time, to the millisecond."""
    return stamp(at)


def _datetime(at: Instant) -> datetime:
    """The instant's wall time as a ``datetime``, to the millisecond."""
    return datetime.fromtimestamp(at.wall_ns // NS_PER_MS / 1000, UTC)
