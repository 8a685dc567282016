"""The referee's own timeout records: ``validate`` names the winner the timeout gives.

A flag falls on the seat to move, which the record shows where it stops; the verdict's
computed result ranks and names the winners as the referee did (docs/live.md, "How a match
ends"), and the record's claim agrees with it. Forfeits ruled ``adjudicated`` or ``abandoned``
name no winner in the verdict: the record cannot tell which seat the referee ruled against
(a resignation out of turn loses for the seat that is not to move).
"""

from __future__ import annotations

import pytest

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.live.match import Match
from gamerec.validator.live.players import PolicyPlayer
from tests.live.matches import GAMES_AND_SEATS, moves_of, new_match


def played_until_flag(game: str, seats: int, plies: int, seed: int) -> Match:
    """A match whose seat to move lets its time run out after ``plies`` random plies."""
    match, clock = new_match(game, seats, clock="60", keyed=False)
    player = PolicyPlayer(match.record, "random", seed)
    while match.is_open and match.plies < plies:
        outcome = match.play(match.to_move, match.plies + 1, player.next_ply(), clock.now())
        for accepted in moves_of(outcome):
            player.played(accepted.token)
    if match.is_open:
        clock.advance(61)
        late = match.play(match.to_move, match.plies + 1, player.next_ply(), clock.now())
        assert late.refusal is not None and not moves_of(late)
    return match


@pytest.mark.parametrize(("game", "seats"), GAMES_AND_SEATS)
@pytest.mark.parametrize("plies", [0, 1, 5, 17])
def test_a_flag_record_validates_with_the_referee_s_winners_and_ranks(
    game: str, seats: int, plies: int
) -> None:
    match = played_until_flag(game, seats, plies, seed=plies + seats)
    ended = match.ended
    assert ended is not None
    if ended.result.termination != pb.TERMINATION_TIMEOUT:
        pytest.skip("the game ended by its rules first")
    verdict = validate(match.record)
    assert verdict.valid, list(verdict.errors)
    assert verdict.result.termination == pb.TERMINATION_TIMEOUT and verdict.result.provisional
    assert list(verdict.result.ranks) == list(ended.result.ranks)
    assert list(verdict.result.winners) == list(ended.result.winners)
    assert list(verdict.result.winners) == list(match.record.result.winners)
    assert verdict.result.winners


def test_an_engine_that_stops_answering_loses_by_timeout_and_the_verdict_says_so() -> None:
    match, clock = new_match("Oust", 2, keyed=False)
    match.play(1, 1, "g7", clock.now())
    match.forfeit(2, pb.TERMINATION_TIMEOUT, "seat 2's engine did not answer go", clock.now())
    verdict = validate(match.record)
    assert verdict.valid and list(verdict.result.winners) == [1]
    assert list(verdict.result.ranks) == [1, 2]


def test_a_forfeit_the_record_cannot_explain_names_no_winner() -> None:
    match, clock = new_match("Aronda", keyed=False)
    match.play(1, 1, "o1", clock.now())
    match.resign(1, clock.now())  # out of turn: seat 2, the seat to move, wins
    assert match.record.result.termination == pb.TERMINATION_ADJUDICATED
    verdict = validate(match.record)
    assert verdict.valid and list(verdict.result.winners) == []


def test_a_resigned_seat_ranks_below_the_seat_whose_flag_fell() -> None:
    match, clock = new_match("ONE", 4, clock="60", keyed=False)
    match.play(1, 1, "c7", clock.now())
    match.resign(2, clock.now())  # a ply of its own: seat 2 leaves the turn order
    match.play(3, 3, "d1", clock.now())
    clock.advance(61)
    match.play(4, 4, "d2", clock.now())  # seat 4's flag has fallen
    ended = match.ended
    assert ended is not None and ended.result.termination == pb.TERMINATION_TIMEOUT
    verdict = validate(match.record)
    assert list(verdict.result.ranks) == list(ended.result.ranks)
    assert verdict.result.ranks[3] == 3 and verdict.result.ranks[1] == 4
    assert list(verdict.result.winners) == list(ended.result.winners) == [1, 3]
