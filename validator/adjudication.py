"""Adjudicate a record's result for a tournament director.

The decision follows how the record ends:

- a game that reached its end by the rules: the claimed result is confirmed, or corrected to
  the rules' result (every difference is named);
- a timeout: the seat whose clock ran out is the seat to move when the record stops. With two
  seats still playing the other seat wins; with more, the timed-out seat ranks last, the
  others are ranked by the scores of the position reached (provisional) and those ranked first
  win, as the live referee rules a flag;
- an agreement: the claimed result stands as agreed (the rules cannot check it), with the
  score of the position reached;
- abandoned, adjudicated, or stopped without a termination: the provisional standing of the
  position reached, by the scores the rules define, and no winner;
- a record that is not a legal game (an illegal ply, an unknown game): void, with the
  standing before the first illegal ply.

With the engine (``engine``, an :class:`~.analysis.assessment.EngineRequest`), a game that
did not reach its end (abandoned, adjudicated, stopped) is also searched from the position
reached; the ruling keeps the rules' provisional standing and the engine's assessment
apart (``Ruling.engine``) and says which decides: the engine when its value is exact or its
favourite's chance of winning reaches the confidence threshold (``DECISION_ENGINE``: the
winner is the engine's, the scores stay those of the position reached), else the rules.
Finished games, timeouts, agreements and void records are ruled by the rules alone.

A ruling on a sealed record ends by stating what its signatures prove (docs/seals.md): the
break of a broken seal, then for each seat and the host what it signed ("Seat 2 (SHA256:...)
signed every ply up to 40; plies 41-44 carry only seat 1's signature.").
"""

from __future__ import annotations

from collections.abc import Iterable

from gamerec.recorder.arguments import require_record
from gamerec.recorder.limits import Limits
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.analysis.assessment import EngineRequest, assess, assessment_sentence
from gamerec.validator.judge import (
    TERMINATION_WORDS,
    Judgement,
    computed_result,
    format_scores,
    format_seats,
    judge,
    termination_word,
    verdict_of,
)
from gamerec.validator.verification import proof_sentence, seal_proof


def adjudicate(
    record: pb.GameRecord,
    *,
    deadline: float | None = None,
    limits: Limits | None = None,
    engine: EngineRequest | None = None,
    serialized: bytes | None = None,
) -> vpb.Ruling:
    """Rule on the result of ``record`` (see the module docstring for the cases).

    ``serialized``: the bytes the record was parsed from, or its main line serialized, when
    at hand (its moves are read from them; see ``judge.judge``).

    Raises:
        DeadlineExceededError: the ``deadline`` (monotonic time) passed first.
        LimitExceededError: more plies than ``limits.max_plies`` (see ``judge``).
    """
    require_record(record, "adjudicate")
    judgement = judge(record, deadline=deadline, limits=limits, serialized=serialized)
    verdict = verdict_of(record, judgement)
    ruling = _rule(record, verdict, judgement)
    if engine is not None and ruling.decision == vpb.DECISION_PROVISIONAL:
        _with_engine(ruling, judgement, engine)
    if record.HasField("seal"):
        proof = seal_proof(record)
        ruling.explanation += " " + proof_sentence(proof, len(record.moves))
    return ruling


def _rule(record: pb.GameRecord, verdict: vpb.Verdict, judgement: Judgement) -> vpb.Ruling:
    """The ruling by how the record ends (see the module docstring)."""
    result = computed_result(record, judgement)
    if judgement.state is None or judgement.identity is None:
        return _void(verdict, result, "the record cannot be replayed")
    if _illegal_play(judgement):
        return _void(verdict, result, "the record is not a legal game")
    if judgement.finished:
        return _finished(verdict, result, judgement)
    termination = record.result.termination
    if termination == pb.TERMINATION_TIMEOUT:
        return _timeout(record, verdict, result, judgement)
    if termination == pb.TERMINATION_AGREEMENT and _has_claim(record):
        return _agreement(record, verdict, result, judgement)
    return _provisional(record, verdict, result, judgement)


def _illegal_play(judgement: Judgement) -> bool:
    """Whether a finding is about a ply (not only about the claimed result)."""
    return any(finding.ply for finding in judgement.findings)


def _has_claim(record: pb.GameRecord) -> bool:
    """Whether the record claims scores or winners."""
    return record.result.HasField("scores") or bool(record.result.winners)


def _void(verdict: vpb.Verdict, result: vpb.ComputedResult, why: str) -> vpb.Ruling:
    """No result can be derived from an illegal or unreadable record."""
    first = verdict.errors[0]
    where = f"ply {first.ply} ({first.move}): " if first.ply else ""
    standing = ""
    if result.scores:
        standing = f" The standing before that was {format_scores(result.scores)} (provisional)."
    explanation = f"Void: {why}. {where}{first.code}: {first.message}.{standing}"
    return vpb.Ruling(
        verdict=verdict, decision=vpb.DECISION_VOID, result=result, explanation=explanation
    )


def _sentence(text: str) -> str:
    """A finding's message as a sentence of its own (its first letter capital)."""
    return text[:1].upper() + text[1:]


def _finished(verdict: vpb.Verdict, result: vpb.ComputedResult, judgement: Judgement) -> vpb.Ruling:
    """The game reached its end: confirm or correct the claim."""
    assert judgement.identity is not None
    citation = judgement.identity.entry.citation
    how = TERMINATION_WORDS[result.termination]
    outcome = (
        f"The game ended by its rules at ply {judgement.plies} ({how}; "
        f"{citation.cite(citation.end)}). Result {format_scores(result.scores)} "
        f"({citation.cite(citation.score)}); {winners_sentence(result.winners)}"
    )
    if verdict.errors:
        differences = " ".join(f"{_sentence(error.message)}." for error in verdict.errors)
        explanation = f"Corrected. {outcome}. {differences}"
        decision = vpb.DECISION_CORRECTED
    else:
        explanation = f"Confirmed. {outcome}."
        decision = vpb.DECISION_CONFIRMED
    return vpb.Ruling(verdict=verdict, decision=decision, result=result, explanation=explanation)


def _timeout(
    record: pb.GameRecord,
    verdict: vpb.Verdict,
    result: vpb.ComputedResult,
    judgement: Judgement,
) -> vpb.Ruling:
    """The seat to move ran out of time: it loses.

    ``result`` already ranks it so (``judge._rule_timeout``, as the live referee rules a flag):
    the seats still playing by the scores of the position reached, the timed-out seat below
    them, and those ranked first win. With two seats playing the ruling is final; with more,
    the standing stays provisional.
    """
    state = judgement.state
    assert state is not None and judgement.identity is not None
    citation = judgement.identity.entry.citation
    loser = state.to_move
    ruled = vpb.ComputedResult()
    ruled.CopyFrom(result)
    winners = list(ruled.winners)
    claimed = sorted(record.result.winners)
    agrees = not claimed or claimed == winners
    lead = (
        f"Seat {loser} was to move when the record stops after ply {judgement.plies}, so its "
        f"time ran out; timeout is not a rule event ({citation.cite(citation.terminations)}) "
        f"and the seat whose time ran out loses."
    )
    scores = f"{format_scores(result.scores)} ({citation.cite(citation.score)})"
    playing = state.seats - len(state.position().resigned)
    if playing == 2:
        ruled.provisional = False
        verb, decision = (
            ("Confirmed", vpb.DECISION_CONFIRMED)
            if agrees
            else ("Corrected", vpb.DECISION_CORRECTED)
        )
        explanation = (
            f"{verb}. {lead} Seat {winners[0]} wins. Scores of the position reached {scores}."
        )
        return vpb.Ruling(verdict=verdict, decision=decision, result=ruled, explanation=explanation)
    verb, decision = (
        ("Provisional", vpb.DECISION_PROVISIONAL)
        if agrees
        else ("Corrected", vpb.DECISION_CORRECTED)
    )
    explanation = (
        f"{verb}. {lead} Seat {loser} ranks last; the seats still playing are ranked by the "
        f"scores of the position reached, {scores}: {winners_sentence(winners)}."
    )
    return vpb.Ruling(verdict=verdict, decision=decision, result=ruled, explanation=explanation)


def _agreement(
    record: pb.GameRecord,
    verdict: vpb.Verdict,
    result: vpb.ComputedResult,
    judgement: Judgement,
) -> vpb.Ruling:
    """The players agreed on a result: it stands, the rules cannot check it."""
    assert judgement.identity is not None
    citation = judgement.identity.entry.citation
    ruled = vpb.ComputedResult()
    ruled.CopyFrom(result)
    ruled.termination = pb.TERMINATION_AGREEMENT
    ruled.provisional = False
    del ruled.winners[:]
    ruled.winners.extend(record.result.winners)
    claim = (
        f"Result {format_scores(record.result.scores.values)}"
        if record.result.HasField("scores")
        else f"Winner {format_seats(record.result.winners)}"
    )
    explanation = (
        f"Confirmed as agreed. The players agreed on {claim} after ply {judgement.plies}; an "
        f"agreement is not a rule event ({citation.cite(citation.terminations)}), so the rules "
        f"cannot check it. The position reached scores {format_scores(result.scores)} "
        f"({citation.cite(citation.score)})."
    )
    return vpb.Ruling(
        verdict=verdict, decision=vpb.DECISION_CONFIRMED, result=ruled, explanation=explanation
    )


def _provisional(
    record: pb.GameRecord,
    verdict: vpb.Verdict,
    result: vpb.ComputedResult,
    judgement: Judgement,
) -> vpb.Ruling:
    """The game did not reach its end: the standing of the position reached."""
    assert judgement.identity is not None and judgement.state is not None
    citation = judgement.identity.entry.citation
    termination = record.result.termination
    why = (
        f"the record stops after ply {judgement.plies} ({termination_word(termination)})"
        if termination
        else f"the record stops after ply {judgement.plies} without a termination"
    )
    leaders = [seat for seat, rank in enumerate(result.ranks, start=1) if rank == 1]
    lead = f"seat {leaders[0]} leads" if len(leaders) == 1 else "no seat leads alone"
    explanation = (
        f"Provisional. The game did not reach its end: {why}, with seat "
        f"{judgement.state.to_move} to move. This is not a rule end "
        f"({citation.cite(citation.terminations)}), so no winner is derived; the standing is "
        f"the score of the position reached, {format_scores(result.scores)} "
        f"({citation.cite(citation.score)}): {lead}."
    )
    return vpb.Ruling(
        verdict=verdict,
        decision=vpb.DECISION_PROVISIONAL,
        result=result,
        explanation=explanation,
    )


def _with_engine(ruling: vpb.Ruling, judgement: Judgement, engine: EngineRequest) -> None:
    """Add the engine's assessment of the position reached; let it decide when it may.

    Only a provisional ruling of a game that did not end on time is assessed (a timed-out
    seat's loss is the rules' provisional ranking too, and it stands).
    """
    state, identity = judgement.state, judgement.identity
    if state is None or identity is None or state.is_over:
        return
    if ruling.result.termination == pb.TERMINATION_TIMEOUT:
        return
    assessment = assess(identity, state, engine)
    ruling.engine.CopyFrom(assessment)
    ruling.explanation += " " + assessment_sentence(assessment)
    if not assessment.decides:
        ruling.explanation += " The rules' provisional standing stands."
        return
    result = ruling.result
    seat = assessment.favourite
    del result.winners[:]
    result.winners.append(seat)
    scores = list(result.scores)
    others = [other for other in range(1, len(scores) + 1) if other != seat]
    ranks = [1] * len(scores)
    for other in others:
        ranks[other - 1] = 2 + sum(1 for o in others if scores[o - 1] > scores[other - 1])
    del result.ranks[:]
    result.ranks.extend(ranks)
    ruling.decision = vpb.DECISION_ENGINE
    ruling.explanation = ruling.explanation.replace("Provisional.", "Decided by the engine.", 1)
    ruling.explanation += f" Seat {seat} wins by the engine's assessment."


def winners_sentence(winners: Iterable[int]) -> str:
    """``seat 2 wins`` / ``seats 1,3 share first place`` / ``no seat wins``."""
    seats = sorted(winners)
    if not seats:
        return "no seat wins"
    if len(seats) == 1:
        return f"seat {seats[0]} wins"
    return f"seats {format_seats(seats)} share first place"
