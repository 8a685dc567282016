"""Validate, score and adjudicate records: the main job of gamerec.

One replay serves all three: :func:`judge` replays a record with the engine's checked fast
path and collects every finding; :func:`validate`, :func:`score` and :func:`adjudicate` shape
its answer into the protobuf messages that the CLI prints and the service returns.

Findings beyond the engines' own reason codes (see the README's table):
``UNKNOWN_GAME``, ``IMPOSSIBLE_VARIANT``, ``SEAT_COUNT_MISMATCH`` (the record cannot be
replayed); ``EMPTY_MOVE``, ``MOVE_OF_OTHER_GAME``, ``MALFORMED_MOVE`` (a ply no engine move can
stand for); ``GAME_ALREADY_OVER`` (plies after the end); ``RECORD_ENDS_EARLY`` (the record stops
before the end and its claimed termination does not explain it); ``RESULT_MISMATCH``,
``WINNER_MISMATCH``, ``TERMINATION_MISMATCH`` (the claim differs from the rules' result).
"""

from __future__ import annotations

from typing import Any

from gamerec.recorder.arguments import require_record
from gamerec.recorder.limits import Limits, check_plies
from gamerec.recorder.main_line import main_line_moves
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.identity import RulesError, identify
from gamerec.validator.replay import (
    Judgement,
    after_end_finding,
    illegal_finding,
    replay_main_line,
    unreadable_finding,
)

__all__ = [
    "OUTSIDE_TERMINATIONS",
    "TERMINATION_WORDS",
    "Judgement",
    "after_end_finding",
    "claim_findings",
    "computed_result",
    "format_scores",
    "format_seats",
    "illegal_finding",
    "judge",
    "ranks_with_last",
    "score",
    "termination_word",
    "unreadable_finding",
    "validate",
    "verdict_of",
]

#: Terminations that are not rule events: the record stops for a reason outside the rules.
OUTSIDE_TERMINATIONS = frozenset(
    {
        pb.TERMINATION_TIMEOUT,
        pb.TERMINATION_AGREEMENT,
        pb.TERMINATION_ABANDONED,
        pb.TERMINATION_ADJUDICATED,
    }
)

TERMINATION_WORDS: dict[int, str] = {
    pb.TERMINATION_UNSPECIFIED: "unstated",
    pb.TERMINATION_NORMAL: "normal",
    pb.TERMINATION_RESIGNATION: "resignation",
    pb.TERMINATION_TIMEOUT: "timeout",
    pb.TERMINATION_AGREEMENT: "agreement",
    pb.TERMINATION_ABANDONED: "abandoned",
    pb.TERMINATION_ADJUDICATED: "adjudicated",
}


def termination_word(termination: int) -> str:
    """A termination as the findings write it; a value this version does not know is kept.

    Binary and JSON records may carry enum numbers from a newer schema (proto3 enums are open).
    """
    return TERMINATION_WORDS.get(termination, f"{termination} (unknown to this version)")


def judge(
    record: pb.GameRecord,
    *,
    deadline: float | None = None,
    limits: Limits | None = None,
    serialized: bytes | None = None,
) -> Judgement:
    """Replay ``record`` move by move and collect every finding (the shared core).

    Args:
        record: the record to judge.
        deadline: a ``time.monotonic()`` time to give up at (see gamerec.validator.deadline).
        limits: the plies limit is checked first (default ``DEFAULT_LIMITS``), so a record
            built in memory cannot make the replay take unbounded time.
        serialized: the bytes ``record`` was parsed from, or its main line serialized, when
            at hand (its moves are read from them, not from the record serialized again; see
            ``moves.main_line_keys``).

    Raises:
        DeadlineExceededError: the deadline passed before the judgement was done.
        LimitExceededError: the main line has more plies than the limit; nothing is judged
            (the record is refused as a decoder would refuse it, not found invalid).
    """
    check_plies(record, limits)
    try:
        identity = identify(record)
    except RulesError as error:
        finding = vpb.Finding(code=error.code, message=str(error))
        return Judgement(identity=None, state=None, findings=[finding], stopped=True)
    judgement = replay_main_line(record, identity, deadline=deadline, serialized=serialized)
    if not judgement.stopped:
        judgement.findings.extend(claim_findings(record, judgement))
    return judgement


# -- the computed result and the claim -----------------------------------------------------


def computed_result(record: pb.GameRecord, judgement: Judgement) -> vpb.ComputedResult:
    """The result the rules give for the position the replay reached (made once, then kept)."""
    if judgement.result is None:
        judgement.result = _compute_result(record, judgement)
    return judgement.result


def _compute_result(record: pb.GameRecord, judgement: Judgement) -> vpb.ComputedResult:
    """Scores, ranks, winners and termination of the position the replay reached."""
    state = judgement.state
    if state is None:
        return vpb.ComputedResult(provisional=True)
    if state.is_over:
        return vpb.ComputedResult(
            scores=state.scores(),
            ranks=state.ranking(),
            winners=state.winners(),
            termination=(
                pb.TERMINATION_RESIGNATION
                if _resignation_ended(judgement)
                else pb.TERMINATION_NORMAL
            ),
        )
    result = vpb.ComputedResult(scores=state.scores(), ranks=state.ranking(), provisional=True)
    claimed = record.result.termination
    if claimed in OUTSIDE_TERMINATIONS:
        result.termination = claimed
    if claimed == pb.TERMINATION_TIMEOUT:
        _rule_timeout(result, state)
    return result


def _rule_timeout(result: vpb.ComputedResult, state: Any) -> None:
    """A timeout: the seat to move when the record stops ran out of time, and it loses.

    As the live referee ends a match on a flag (docs/live.md, "How a match ends") and
    ``gamerec adjudicate`` rules a timeout: the seats still playing are ranked by the scores
    of the position reached, the seat whose time ran out below them, then the resigned seats
    (later resignations first); the seats ranked first win (with two seats playing, the
    other one). The scores stay those of the position reached (``provisional``).
    """
    loser = state.to_move
    resigned = tuple(state.position().resigned)
    others = [seat for seat in range(1, state.seats + 1) if seat != loser and seat not in resigned]
    ranks = ranks_with_last(list(result.scores), others, loser, resigned)
    del result.ranks[:]
    result.ranks.extend(ranks)
    result.winners.extend(seat for seat in others if ranks[seat - 1] == 1)


def ranks_with_last(
    scores: list[int], others: list[int], loser: int, resigned: tuple[int, ...]
) -> list[int]:
    """Competition ranks: ``others`` by score, then ``loser``, then the resigned seats.

    Resigned seats keep the rules' order among themselves: the later resignation ranks higher.
    """
    ranks = [0] * len(scores)
    for seat in others:
        ranks[seat - 1] = 1 + sum(1 for o in others if scores[o - 1] > scores[seat - 1])
    for offset, seat in enumerate([loser, *reversed(resigned)]):
        ranks[seat - 1] = len(others) + 1 + offset
    return ranks


def _resignation_ended(judgement: Judgement) -> bool:
    """Whether a resignation ended the finished game: the last ply resigned and one seat is left.

    A ``resign`` that completes the last round of a game of three or more seats, with several
    seats still playing, ends the game by its normal end rule, not by resignation.
    """
    state, last = judgement.state, judgement.last_move
    # A ply's token is "resign" exactly when its action is (notation.format_action).
    if state is None or last is None or last.WhichOneof("action") != "resign":
        return False
    return state.seats - len(state.position().resigned) <= 1


def claim_findings(record: pb.GameRecord, judgement: Judgement) -> list[vpb.Finding]:
    """Findings that compare the record's claimed result with the rules' result."""
    if judgement.finished:
        return _finished_claim_findings(record, judgement)
    return _unfinished_claim_findings(record, judgement)


def _finished_claim_findings(record: pb.GameRecord, judgement: Judgement) -> list[vpb.Finding]:
    """A finished game: every part of the claim must match the rules' result."""
    computed = computed_result(record, judgement)
    claim = record.result
    unfinished = claim.HasField("unfinished")
    # A slice ([:]) copies a repeated field to a list in C, several times faster than list().
    scores_differ = (
        not unfinished and claim.HasField("scores") and claim.scores.values[:] != computed.scores[:]
    )
    winners = claim.winners[:]
    winners_differ = bool(winners) and sorted(winners) != sorted(computed.winners[:])
    termination_differs = bool(claim.termination) and claim.termination != computed.termination
    if not (unfinished or scores_differ or winners_differ or termination_differs):
        return []  # the usual case: no sentence is written
    assert judgement.identity is not None
    citation = judgement.identity.entry.citation
    findings = []
    end = f"the game ended by its rules at ply {judgement.plies}"
    if unfinished:
        findings.append(
            _record_finding(
                "RESULT_MISMATCH",
                f"the record claims the game is unfinished (Result *), but {end} with "
                f"{format_scores(computed.scores)} ({citation.cite(citation.end)})",
            )
        )
    elif scores_differ:
        findings.append(
            _record_finding(
                "RESULT_MISMATCH",
                f"the record claims Result {format_scores(claim.scores.values)}, but the rules "
                f"give {format_scores(computed.scores)} ({citation.cite(citation.score)})",
            )
        )
    if winners_differ:
        findings.append(
            _record_finding(
                "WINNER_MISMATCH",
                f"the record claims Winner {format_seats(claim.winners)}, but the rules give "
                f"{format_seats(computed.winners)} ({citation.cite(citation.ranking)})",
            )
        )
    if termination_differs:
        findings.append(
            _record_finding(
                "TERMINATION_MISMATCH",
                f"the record claims Termination {termination_word(claim.termination)}, but "
                f"{end} (Termination {TERMINATION_WORDS[computed.termination]}; "
                f"{citation.cite(citation.terminations)})",
            )
        )
    return findings


def _unfinished_claim_findings(record: pb.GameRecord, judgement: Judgement) -> list[vpb.Finding]:
    """A record that stops before the end must say why (or claim nothing)."""
    claim = record.result
    termination = claim.termination
    if termination in OUTSIDE_TERMINATIONS:
        return []
    assert judgement.state is not None and judgement.identity is not None
    citation = judgement.identity.entry.citation
    stops = (
        f"the record stops after ply {judgement.plies} but the game is not over "
        f"(seat {judgement.state.to_move} to move)"
    )
    if termination == pb.TERMINATION_RESIGNATION:
        reason = "it claims Termination resignation, yet no seat resigned"
    elif termination == pb.TERMINATION_NORMAL:
        reason = "it claims Termination normal"
    elif claim.HasField("scores"):
        reason = f"it claims Result {format_scores(claim.scores.values)}"
    elif claim.winners:
        reason = f"it claims Winner {format_seats(claim.winners)}"
    else:
        return []
    return [
        _record_finding(
            "RECORD_ENDS_EARLY",
            f"{stops}; {reason}, but only a Termination of timeout, agreement, abandoned or "
            f"adjudicated explains an early end ({citation.cite(citation.end)}, "
            f"{citation.terminations})",
        )
    ]


def _record_finding(code: str, message: str) -> vpb.Finding:
    """A finding about the record as a whole (ply 0)."""
    return vpb.Finding(code=code, message=message)


def format_scores(scores: Any) -> str:
    """Scores as the GRN Result tag writes them (``31-24``)."""
    return "-".join(str(score) for score in scores) or "(none)"


def format_seats(seats: Any) -> str:
    """Seats as the GRN Winner tag writes them (``1,3``), or ``none``."""
    return ",".join(str(seat) for seat in sorted(seats)) or "none"


# -- the public answers ----------------------------------------------------------------------


def verdict_of(
    record: pb.GameRecord,
    judgement: Judgement,
    *,
    seal: spb.SealStatus.ValueType | None = None,
    digest: bool = True,
    serialized: bytes | None = None,
) -> vpb.Verdict:
    """Shape a judgement as the Verdict message.

    ``seal``: the record's ``SealStatus`` when already known; else its seal is checked here
    (chain and signatures, docs/seals.md) when it has one. ``digest``: False leaves
    ``final_digest`` empty, for a caller that shows no one the verdict (a valid record under
    ``gamerec validate --quiet``). ``serialized``: as :func:`judge` takes it; the seal's
    check reads the moves' bytes from it.
    """
    state = judgement.state
    if state is None:
        status, final_digest = vpb.GAME_STATUS_NOT_REPLAYED, ""
    else:
        status = vpb.GAME_STATUS_FINISHED if state.is_over else vpb.GAME_STATUS_UNFINISHED
        final_digest = state.digest() if digest else ""
    findings = judgement.findings
    verdict = vpb.Verdict(
        valid=not findings,
        plies_replayed=judgement.plies,
        game=record.rules.game,
        status=status,
        final_digest=final_digest,
        seal=_seal_status(record, serialized) if seal is None else seal,
    )
    if findings:
        verdict.errors.extend(findings)
    # Copied in after: a message given to the constructor is copied through a slower path.
    verdict.result.CopyFrom(computed_result(record, judgement))
    return verdict


def _seal_status(record: pb.GameRecord, serialized: bytes | None) -> spb.SealStatus.ValueType:
    """NONE for an unsealed record; else the seal checked (crypto is loaded only then)."""
    if not record.HasField("seal"):
        return spb.SEAL_STATUS_NONE
    from gamerec.validator.seal_check import seal_status  # noqa: PLC0415 (loads cryptography)

    moves_bytes = None if serialized is None else main_line_moves(serialized)
    return seal_status(record, moves_bytes)


def validate(
    record: pb.GameRecord,
    *,
    deadline: float | None = None,
    limits: Limits | None = None,
    serialized: bytes | None = None,
    digest: bool = True,
) -> vpb.Verdict:
    """Judge ``record``: is it a legal game under its rules, and is its claim right?

    ``valid`` is true only when there is no finding. A record that claims no end (Result
    ``*`` or none, no Termination) is valid when every ply is legal; its status is then
    ``GAME_STATUS_UNFINISHED``. ``serialized``: the bytes the record was parsed from, or its
    main line serialized, when at hand (see :func:`judge`). ``digest``: False leaves
    ``final_digest`` empty, for a caller that never reads it (see :func:`verdict_of`).

    Raises:
        DeadlineExceededError: the ``deadline`` (monotonic time) passed first.
        LimitExceededError: more plies than ``limits.max_plies`` (see :func:`judge`).
        TypeError: ``record`` is not a GameRecord (a path or bytes: the message names
            ``read_records`` or ``decode_record``).
    """
    require_record(record, "validate")
    judgement = judge(record, deadline=deadline, limits=limits, serialized=serialized)
    return verdict_of(record, judgement, digest=digest, serialized=serialized)


def score(
    record: pb.GameRecord,
    *,
    deadline: float | None = None,
    limits: Limits | None = None,
    serialized: bytes | None = None,
) -> vpb.ComputedResult:
    """The rules' result of ``record``: final, or provisional when the game did not end.

    Raises:
        DeadlineExceededError: the ``deadline`` (monotonic time) passed first.
        LimitExceededError: more plies than ``limits.max_plies`` (see :func:`judge`).
    """
    require_record(record, "score")
    judgement = judge(record, deadline=deadline, limits=limits, serialized=serialized)
    return computed_result(record, judgement)
