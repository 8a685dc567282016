"""Replay a record ply by ply: one frame per ply with the position, scores and events.

This is the slow, explaining replay (the engine's ``play`` with its events), used by
``gamerec replay``, the service's streaming ``Replay``, annotation and rendering. Validation
uses the engine's fast checked replay; both agree ply for ply (tests hold them to it).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.deadline import check_deadline, paced
from gamerec.validator.games.protocol import GameEvent, GameState, Position
from gamerec.validator.identity import RulesIdentity, identify
from gamerec.validator.moves import UnreadableMoveError, reader_for


@dataclass(frozen=True, slots=True)
class Step:
    """One ply of a replay, in library (not protobuf) form.

    Attributes:
        ply: the 1-based ply number; 0 for the start position.
        seat: the seat that made the ply (0 for the start position).
        token: the ply as written (``""`` for the start position).
        state: a copy of the position after the ply (safe to keep).
        events: what the ply did.
    """

    ply: int
    seat: int
    token: str
    state: GameState[Any]
    events: tuple[GameEvent, ...]


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
    identity = identity or identify(record)
    reader = reader_for(identity)
    start = min(start, len(record.moves))
    state = _fast_forward(record, identity, start, deadline) if start else None
    if state is None:
        state, start = identity.engine.new_game(identity.variant), 0
    if include_start and not start:
        yield Step(0, 0, "", state.copy(), ())
    for ply, move in enumerate(record.moves[start:], start=start + 1):
        check_deadline(deadline, f"{ply - 1:,} of {len(record.moves):,} plies")
        seat = state.to_move
        try:
            engine_move = reader.engine_move(move)
        except UnreadableMoveError as problem:
            code = "GAME_ALREADY_OVER" if state.is_over else problem.code
            raise ReplayStoppedError(
                vpb.Finding(ply=ply, seat=seat, code=code, message=str(problem), move=problem.text)
            ) from None
        illegal = state.check(engine_move, move.seat or None)
        if illegal is not None:
            raise ReplayStoppedError(
                vpb.Finding(
                    ply=ply,
                    seat=seat or move.seat,
                    code=illegal.code,
                    message=illegal.message,
                    move=reader.text(move),
                )
            )
        events = state.play(engine_move)
        yield Step(ply, seat, reader.text(move), state.copy(), events)


def _fast_forward(
    record: pb.GameRecord, identity: RulesIdentity, plies: int, deadline: float | None
) -> GameState[Any] | None:
    """The state after the first ``plies`` plies, or None when one of them is not legal."""
    read = reader_for(identity).engine_moves(record.moves[:plies])
    if read.problem is not None:
        return None
    outcome = identity.engine.replay(identity.variant, paced(read.moves, deadline), read.seats)
    return outcome.state if outcome.illegal is None else None


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
    """
    for step in steps(record, start=start, deadline=deadline):
        yield frame_of(step)
