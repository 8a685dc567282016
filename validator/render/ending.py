"""Why a game ended, and what its special plies did, said in words for a person.

:func:`ending_words` is the one sentence every shell shows at a game's end (``gamerec play``,
``gamerec replay``, the viewer, ``gamerec match show``): who won and why, for every way a game
ends: by its rules (each game's own reason, from its registry entry's
:class:`~gamerec.validator.games.registry.Wording`), a resignation, a timeout, a draw agreed,
a forfeit, an abort, an adjudication. :func:`match_ending` is that sentence for a live match's
``MatchEnded``. :func:`special_words` says what a special ply such as
Oust's ``swap`` (the pie rule) did. Neither knows a game: the words that are game knowledge
come from the registry.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Final

from gamerec.recorder.syntax import GameValue
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.games.protocol import GameState
from gamerec.validator.games.registry import Who, Wording, entry_of, seats_text
from gamerec.validator.identity import RulesError, identify
from gamerec.validator.replay import finish, walk


def ending_words(
    record: pb.GameRecord,
    state: GameState[Any] | None = None,
    *,
    seat: int = 0,
    finding: vpb.Finding | None = None,
) -> str:
    """Why the game of ``record`` ended and who won, as one sentence; ``""`` while it goes on.

    Args:
        record: the record (its seats' names, its plies, its claimed termination and winners,
            its comment).
        state: the position after its last ply (None: the record is replayed here).
        seat: the seat the end is about when the shell knows it (a live match's
            ``MatchEnded.seat``: who ran out of time, forfeited or aborted).
        finding: for a forfeit by an illegal move, the finding about that move.
    """
    if state is None:
        state = final_state(record)
    entry = entry_of(record.rules.game)
    if state is None or entry is None:
        return ""
    who = _namer(record)
    if state.is_over:
        return _by_rules(record, state, entry.wording, who)
    said = _outside_rules(record, state, who, seat, finding)
    if said is None:
        return ""
    cause, winners = said
    if not isinstance(winners, list):
        return _sentence(cause, winners)
    text = _sentence(cause, _outcome(winners, who, entry.wording, state.scores()))
    note = record.comment.strip()
    adjudicated = record.result.termination == pb.TERMINATION_ADJUDICATED
    if adjudicated and note and (finding is None or not finding.code):
        text += f" The record says: {note}"
    return text


def _by_rules(record: pb.GameRecord, state: GameState[Any], wording: Wording, who: Who) -> str:
    """A game the rules ended: the game's own reason, or the resignation of all but one."""
    plies = len(record.moves)
    resigned = state.position().resigned
    last = record.moves[-1].WhichOneof("action") if record.moves else None
    if last == "resign" and resigned and state.seats - len(resigned) <= 1:
        return _resigned(wording, state, who, resigned[-1], plies)
    cause = f"at ply {plies}, {wording.rules_end(state, who)}"
    return _sentence(cause, _outcome(state.winners(), who, wording, state.scores()))


def _outside_rules(
    record: pb.GameRecord,
    state: GameState[Any],
    who: Who,
    seat: int,
    finding: vpb.Finding | None,
) -> tuple[str, list[int] | str] | None:
    """An end the rules did not make: its cause, and its winners or the outcome in words.

    None for a record that does not say it ended (the game goes on).
    """
    termination = record.result.termination
    winners = list(record.result.winners)
    plies = len(record.moves)
    if termination == pb.TERMINATION_AGREEMENT:
        return f"the seats agreed to a draw after ply {plies}", winners
    if termination == pb.TERMINATION_TIMEOUT:
        return f"the time of {who(seat or state.to_move)} ran out on ply {plies + 1}", winners
    if termination == pb.TERMINATION_ABANDONED and not winners:
        by = f"{who(seat)} called the game off" if seat else "the game was called off"
        return f"{by} after ply {plies}", "it has no result"
    if termination == pb.TERMINATION_ABANDONED:
        return f"{who(seat) if seat else 'a seat'} abandoned the game after ply {plies}", winners
    if termination == pb.TERMINATION_ADJUDICATED:
        return _adjudicated(who, seat, finding, plies), winners
    return None


#: What the referee's reason says of a match aborted for want of a seat's first move
#: (docs/live.md "When the clocks start").
NO_FIRST_MOVE: Final = "did not make its first move"


def match_ending(ended: mpb.MatchEnded) -> str:
    """:func:`ending_words` of a live match's end (its final record, seat and finding).

    The referee's own sentence when the final record cannot be replayed (never for a record
    the referee keeps).
    """
    if ended.status == mpb.MATCH_STATUS_ABORTED and NO_FIRST_MOVE in ended.reason:
        return ended.reason[0].upper() + ended.reason[1:] + "."  # no seat called it off
    finding = ended.finding if ended.HasField("finding") else None
    return ending_words(ended.record, seat=ended.seat, finding=finding) or ended.reason


def special_words(game: GameValue, token: str) -> str:
    """What a special ply of ``game`` did (Oust's ``swap``: the pie rule); ``""`` for others."""
    entry = entry_of(game)
    return entry.wording.specials.get(token, "") if entry is not None else ""


def final_state(record: pb.GameRecord) -> GameState[Any] | None:
    """The position after the record's last legal ply; None when it cannot be replayed.

    (A record with an illegal ply, or of rules that cannot be identified, has no ending.)
    """
    try:
        identity = identify(record)
    except RulesError:
        return None
    judgement = finish(walk(record, identity))
    return None if judgement.stopped else judgement.state


def _namer(record: pb.GameRecord) -> Who:
    """``seat 2 (Ben)``: a seat with its player's name when the record has one."""
    names = [seat.name for seat in record.seats]

    def who(seat: int) -> str:
        name = names[seat - 1] if 0 < seat <= len(names) else ""
        return f"seat {seat} ({name})" if name else f"seat {seat}"

    return who


def _resigned(wording: Wording, state: GameState[Any], who: Who, seat: int, plies: int) -> str:
    """The last seat but one resigned: the one left wins, whatever the scores."""
    winners = state.winners()
    outcome = _outcome(winners, who, wording, ())
    if wording.scores:
        scores = "-".join(map(str, state.scores()))
        outcome += f", whatever the scores ({wording.scores}: {scores})"
    return _sentence(f"{who(seat)} resigned at ply {plies}", outcome)


def _adjudicated(who: Who, seat: int, finding: vpb.Finding | None, plies: int) -> str:
    """Who the referee ruled against: a forfeit by an illegal move, or its ruling."""
    if finding is not None and finding.code:
        against = finding.seat or seat
        return (
            f"{who(against)} forfeited the game by the illegal move {finding.move!r} at ply "
            f"{finding.ply} ({finding.code}: {finding.message})"
        )
    if seat:
        return f"the referee ruled against {who(seat)} after ply {plies}"
    return f"the referee decided the game after ply {plies}"


def _outcome(winners: Sequence[int], who: Who, wording: Wording, scores: Sequence[int]) -> str:
    """``seat 2 (Ben) wins (fields owned: 13-7)``, a shared first place, or no winner."""
    if not winners:
        outcome = "no one wins"
    elif len(winners) == 1:
        outcome = f"{who(winners[0])} wins"
    else:
        outcome = f"{seats_text(sorted(winners), who)} share first place"
    if wording.scores and scores:
        outcome += f" ({wording.scores}: {'-'.join(map(str, scores))})"
    return outcome


def _sentence(cause: str, outcome: str) -> str:
    """``Cause: outcome.``, the first letter upper case."""
    text = f"{cause}: {outcome}."
    return text[0].upper() + text[1:]
