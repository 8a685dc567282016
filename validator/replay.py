"""The one replay of a record's main line, which every consumer drives.

:func:`walk` replays a record under its rules and returns what it found (a
:class:`Judgement`); when asked for per-ply states it also yields a :class:`Step` after every
legal ply. Its consumers, in the manner of python-chess's PGN visitors:

- ``judge`` (validate, score, adjudicate): no steps: the engine's checked fast replay of the
  whole main line, the same loop without a state per ply;
- ``frames.steps`` (``gamerec replay``, the service's ``Replay``, annotation, pictures, the
  viewer): every step, with the position after the ply and what it did;
- :func:`replay_to` (``LegalMoves``, the shared position of a ``diff``): the fast replay of
  the first plies only.

Moves are read once (``moves.MoveReader``, straight from their fields), and a ply the rules
refuse or no engine move can stand for ends the replay with the same finding whoever asked.
"""

from __future__ import annotations

from collections.abc import Generator
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from gamerec.recorder.errors import bounded, excerpt
from gamerec.recorder.words import plural
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.deadline import check_deadline, paced
from gamerec.validator.games.protocol import GameEvent, GameState, Illegal
from gamerec.validator.identity import RulesIdentity
from gamerec.validator.moves import ReadMoves, UnreadableMoveError, reader_for


@dataclass
class Judgement:
    """Everything one replay of a record found.

    Attributes:
        identity: the engine and variant, None when the record cannot be replayed.
        state: the position after the last legal ply (None when not replayed).
        plies: how many plies were replayed legally.
        findings: every finding, in order.
        stopped: the replay stopped before the end of the record (an illegal ply, or the
            record could not be replayed); the claimed result is then not compared.
        last_move: the record move of the last legal ply (None when none).
        result: the computed result, once ``judge.computed_result`` has made it.
    """

    identity: RulesIdentity | None
    state: GameState[Any] | None
    plies: int = 0
    findings: list[vpb.Finding] = field(default_factory=list)
    stopped: bool = False
    last_move: pb.Move | None = None
    result: vpb.ComputedResult | None = None

    @property
    def finished(self) -> bool:
        """Whether the game reached its end by the rules."""
        return self.state is not None and self.state.is_over

    @property
    def last_token(self) -> str:
        """The token of the last legal ply (``""`` when none), written when asked for."""
        if self.last_move is None or self.identity is None:
            return ""
        return reader_for(self.identity).text(self.last_move)


class Step(NamedTuple):
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


Walk = Generator[Step, None, Judgement]


def walk(
    record: pb.GameRecord,
    identity: RulesIdentity,
    *,
    steps: bool = False,
    start: int = 0,
    include_start: bool = False,
    deadline: float | None = None,
    serialized: bytes | None = None,
) -> Walk:
    """Replay ``record`` under ``identity``; return what the replay found.

    Args:
        record: the record.
        identity: its rules.
        steps: yield a :class:`Step` after every legal ply (else yield nothing: the fast
            path).
        start: with ``steps``, the first ``start`` plies are played by the fast path and
            yield nothing (a long replay made in pieces).
        include_start: with ``steps``, yield the start position first (as ply 0) when
            ``start`` is 0.
        deadline: a ``time.monotonic()`` time to give up at.
        serialized: the bytes ``record`` was parsed from, or its main line serialized, when
            at hand (its moves are then read from them instead of serializing the record
            again; see ``moves.main_line_keys``).

    Raises:
        DeadlineExceededError: the deadline passed.
    """
    if not steps:
        return replay_main_line(record, identity, deadline=deadline, serialized=serialized)
    reader = reader_for(identity)
    total = len(record.moves)
    if deadline is not None:
        check_deadline(deadline, f"0 of {plural(total, 'ply')}")
    read = reader.main_line(record, serialized)
    judgement = _fast(record, identity, read, deadline, plies=min(start, total))
    if judgement.stopped or judgement.state is None:
        return judgement
    state = judgement.state
    if include_start and not judgement.plies:
        yield Step(0, 0, "", state.copy(), ())
    for index in range(judgement.plies, total):
        check_deadline(deadline, f"{index:,} of {plural(total, 'ply')}")
        move = record.moves[index]
        finding = _refusal(identity, read, index, move, state)
        if finding is not None:
            judgement.findings.append(finding)
            judgement.stopped = True
            return judgement
        seat = state.to_move
        events = state.play(read.moves[index])
        token = reader.text(move)
        judgement.plies, judgement.last_move = index + 1, move
        yield Step(index + 1, seat, token, state.copy(), events)
    return judgement


def replay_main_line(
    record: pb.GameRecord,
    identity: RulesIdentity,
    *,
    deadline: float | None = None,
    serialized: bytes | None = None,
) -> Judgement:
    """The fast replay of the whole main line: :func:`walk` without steps, as a plain call.

    Raises:
        DeadlineExceededError: the deadline passed.
    """
    if deadline is not None:
        check_deadline(deadline, f"0 of {plural(len(record.moves), 'ply')}")
    read = reader_for(identity).main_line(record, serialized)
    return _fast(record, identity, read, deadline)


def replay_to(
    record: pb.GameRecord, identity: RulesIdentity, plies: int, deadline: float | None = None
) -> Judgement:
    """The fast replay of the first ``plies`` plies of ``record`` (the position they reach).

    Raises:
        DeadlineExceededError: the deadline passed.
    """
    read = reader_for(identity).main_line(record)
    return _fast(record, identity, read, deadline, plies=min(plies, len(record.moves)))


def finish(walking: Walk) -> Judgement:
    """Run a walk to its end (dropping its steps) and return its judgement."""
    while True:
        try:
            next(walking)
        except StopIteration as done:
            judgement: Judgement = done.value
            return judgement


def _fast(
    record: pb.GameRecord,
    identity: RulesIdentity,
    read: ReadMoves,
    deadline: float | None,
    plies: int | None = None,
) -> Judgement:
    """The engine's checked fast replay of the first ``plies`` plies (None: all of them)."""
    total = len(record.moves) if plies is None else plies
    if deadline is not None:
        check_deadline(deadline, f"0 of {plural(total, 'ply')}")
    moves, seats = read.moves, read.seats
    if total < len(moves):
        moves, seats = moves[:total], seats[:total]
    outcome = identity.engine.replay(identity.variant, paced(moves, deadline), seats)
    if deadline is not None:
        check_deadline(deadline, f"{outcome.plies:,} of {plural(total, 'ply')}")
    index = outcome.plies
    judgement = Judgement(identity, outcome.state, index)
    if index:
        judgement.last_move = record.moves[index - 1]
    if outcome.illegal is not None:
        move = record.moves[index]
        text = reader_for(identity).text(move)
        finding = illegal_finding(index + 1, move, text, outcome.state, outcome.illegal)
        judgement.findings.append(finding)
    elif index < total and read.problem is not None:
        problem = read.problem
        finding = unreadable_finding(
            index + 1, record.moves[index], problem, outcome.state, identity
        )
        judgement.findings.append(finding)
    judgement.stopped = bool(judgement.findings)
    return judgement


def _refusal(
    identity: RulesIdentity, read: ReadMoves, index: int, move: pb.Move, state: GameState[Any]
) -> vpb.Finding | None:
    """Why ply ``index + 1`` cannot be played, or None (``state``: the position before it)."""
    if index >= len(read.moves):
        assert read.problem is not None
        return unreadable_finding(index + 1, move, read.problem, state, identity)
    illegal = state.check(read.moves[index], read.seats[index] or None)
    if illegal is None:
        return None
    return illegal_finding(index + 1, move, reader_for(identity).text(move), state, illegal)


# -- findings about one ply ----------------------------------------------------------------------


def illegal_finding(
    ply: int, move: pb.Move, text: str, state: GameState[Any], illegal: Illegal
) -> vpb.Finding:
    """The finding of an illegal ply (``state`` is the position before it)."""
    seat = state.to_move or move.seat
    return vpb.Finding(
        ply=ply, seat=seat, code=illegal.code, message=bounded(illegal.message), move=shown(text)
    )


def unreadable_finding(
    ply: int,
    move: pb.Move,
    problem: UnreadableMoveError,
    state: GameState[Any],
    identity: RulesIdentity,
) -> vpb.Finding:
    """The finding of a ply no engine move can stand for (``state``: the position before it)."""
    if state.is_over:
        return after_end_finding(ply, move, problem.text, identity)
    return vpb.Finding(
        ply=ply,
        seat=move.seat or state.to_move,
        code=problem.code,
        message=str(problem),
        move=shown(problem.text),
    )


def after_end_finding(ply: int, move: pb.Move, text: str, identity: RulesIdentity) -> vpb.Finding:
    """The finding of a ply recorded after the game was over."""
    citation = identity.entry.citation
    return vpb.Finding(
        ply=ply,
        seat=move.seat,
        code="GAME_ALREADY_OVER",
        message=f"the game was already over after ply {ply - 1} "
        f"({citation.cite(citation.end)}), so no further ply may be recorded",
        move=shown(text),
    )


#: The longest move text a finding carries (a longer one is cut, and the cut marked).
MAX_FINDING_MOVE_CHARS = 80


def shown(text: str) -> str:
    """A move's text as a finding shows it: whole, or its start and how long it was."""
    return excerpt(text, MAX_FINDING_MOVE_CHARS, quoted=False)
