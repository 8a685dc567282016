"""Replay a record ply by ply: one frame per ply with the position, scores and events.

The explaining consumer of the one replay (:func:`gamerec.validator.replay.walk` with its
steps), used by ``gamerec replay``, the service's streaming ``Replay``, annotation and
rendering. A ply that cannot be played ends it with the finding validation gives.
"""

from __future__ import annotations

from collections.abc import Iterator

from gamerec.recorder.arguments import require_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.games.protocol import GameEvent, Position
from gamerec.validator.identity import RulesIdentity, identify
from gamerec.validator.replay import Step, walk

__all__ = [
    "ReplayStoppedError",
    "Step",
    "event_message",
    "frame_of",
    "position_message",
    "replay",
    "steps",
]


class ReplayStoppedError(Exception):
    """The replay met a ply it cannot play; carries the finding.

    Not a GamerecError: the record is readable, it is just not legal from this ply on.
    """

    def __init__(self, finding: vpb.Finding) -> None:
        """Wrap the finding about the first ply that cannot be played."""
        self.finding = finding
        super().__init__(f"ply {finding.ply}: {finding.code}: {finding.message}")


def steps(
    record: pb.GameRecord,
    identity: RulesIdentity | None = None,
    *,
    include_start: bool = False,
    start: int = 0,
    deadline: float | None = None,
) -> Iterator[Step]:
    """Replay ``record`` ply by ply, yielding a :class:`Step` after each legal ply.

    Args:
        record: the record to replay.
        identity: its rules, when the caller has resolved them already.
        include_start: yield the start position first (as ply 0).
        start: skip the steps of the first ``start`` plies (they are played by the engine's
            fast replay), so that a long replay can be produced in pieces.
        deadline: a ``time.monotonic()`` time to give up at, checked before every ply.

    Raises:
        RulesError: the record's game or variant cannot be judged (before any step).
        ReplayStoppedError: after the last legal step, when a ply is illegal or unreadable.
        DeadlineExceededError: the deadline passed.
    """
    judgement = yield from walk(
        record,
        identity or identify(record),
        steps=True,
        start=start,
        include_start=include_start,
        deadline=deadline,
    )
    if judgement.findings:
        raise ReplayStoppedError(judgement.findings[0])


def position_message(position: Position) -> vpb.Position:
    """The protobuf form of an engine's position snapshot."""
    return vpb.Position(
        to_move=position.to_move,
        sites=[
            vpb.Site(name=site.name, owner=site.owner, pieces=site.pieces)
            for site in position.sites
        ],
        supplies=position.supplies,
        captured=position.captured,
        resigned=position.resigned,
    )


def event_message(event: GameEvent) -> vpb.GameEvent:
    """The protobuf form of an engine event."""
    return vpb.GameEvent(kind=event.kind, seat=event.seat, where=event.where, count=event.count)


def frame_of(step: Step) -> vpb.ReplayFrame:
    """The ReplayFrame message of one step."""
    return vpb.ReplayFrame(
        ply=step.ply,
        seat=step.seat,
        move=step.token,
        position=position_message(step.state.position()),
        scores=step.state.scores(),
        events=[event_message(event) for event in step.events],
        digest=step.state.digest(),
    )


def replay(
    record: pb.GameRecord, *, start: int = 0, deadline: float | None = None
) -> Iterator[vpb.ReplayFrame]:
    """One ReplayFrame per legal ply of ``record`` (from ply ``start + 1`` on).

    Raises:
        RulesError: the record's game or variant cannot be judged.
        ReplayStoppedError: after the last legal frame, at the first illegal ply.
        DeadlineExceededError: the ``deadline`` (monotonic time) passed.
        TypeError: ``record`` is not a GameRecord (at the call, not at the first frame).
    """
    require_record(record, "replay")
    return (frame_of(step) for step in steps(record, start=start, deadline=deadline))
