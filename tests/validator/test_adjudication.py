"""Adjudication: confirm, correct, rule on timeouts and agreements, and give standings."""

from __future__ import annotations

from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.judge import validate
from tests.validator.examples import E1_OWR, grn, one_e3, owr_e1


def test_a_correct_claim_of_a_finished_game_is_confirmed_citing_the_rules() -> None:
    ruling = adjudicate(one_e3('[Result "4-2-4"]\n[Winner "1,3"]'))
    assert ruling.decision == vpb.DECISION_CONFIRMED
    assert list(ruling.result.winners) == [1, 3]
    assert "docs/rules/one.md §6.2" in ruling.explanation
    assert "share first place" in ruling.explanation


def test_a_wrong_claim_is_corrected_naming_every_difference() -> None:
    ruling = adjudicate(one_e3('[Result "4-4-2"]\n[Winner "2"]'))
    assert ruling.decision == vpb.DECISION_CORRECTED
    assert list(ruling.result.scores) == [4, 2, 4]
    assert list(ruling.result.winners) == [1, 3]
    assert "4-4-2" in ruling.explanation and "Winner 2" in ruling.explanation


def test_a_missing_claim_of_a_finished_game_is_confirmed_from_the_rules() -> None:
    ruling = adjudicate(one_e3())
    assert ruling.decision == vpb.DECISION_CONFIRMED
    assert list(ruling.result.scores) == [4, 2, 4]


def test_a_resignation_lets_the_other_seat_win() -> None:
    ruling = adjudicate(owr_e1('[Termination "resignation"]', E1_OWR + " 7. resign"))
    assert ruling.decision == vpb.DECISION_CONFIRMED
    assert list(ruling.result.winners) == [2]
    assert ruling.result.termination == pb.TERMINATION_RESIGNATION


def test_timeout_with_two_seats_the_seat_to_move_loses() -> None:
    # After Oh-Wah-Ree E1's six plies seat 1 is to move: its time ran out.
    ruling = adjudicate(owr_e1('[Termination "timeout"]'))
    assert ruling.decision == vpb.DECISION_CONFIRMED
    assert list(ruling.result.winners) == [2]
    assert list(ruling.result.ranks) == [2, 1]
    assert ruling.result.termination == pb.TERMINATION_TIMEOUT
    assert not ruling.result.provisional
    assert "Seat 1 was to move" in ruling.explanation
    assert "docs/rules/ohwahree.md §7" in ruling.explanation


def test_timeout_claimed_for_the_wrong_winner_is_corrected() -> None:
    ruling = adjudicate(owr_e1('[Termination "timeout"]\n[Winner "1"]'))
    assert ruling.decision == vpb.DECISION_CORRECTED
    assert list(ruling.result.winners) == [2]


def test_timeout_with_three_seats_ranks_the_timed_out_seat_last_provisionally() -> None:
    # ONE E2 position after 7 plies: scores 5-1-1, seat 2 to move.
    record = grn(
        '[Game "ONE"]\n[Players "3"]\n[Termination "timeout"]\n\n'
        "1. c7 2. c8 3. b5 4. d1 5. d2 6. d3 7. c7xc9xa5\n"
    )
    ruling = adjudicate(record)
    assert ruling.decision == vpb.DECISION_PROVISIONAL
    assert list(ruling.result.scores) == [5, 1, 1]
    assert list(ruling.result.ranks) == [1, 3, 2]
    assert list(ruling.result.winners) == [1]
    assert ruling.result.provisional
    assert "seat 1 wins" in ruling.explanation
    # The ruling and the verdict's computed result agree, as the live referee rules a flag.
    assert ruling.result == validate(record).result


def test_timeout_with_three_seats_claiming_another_winner_is_corrected() -> None:
    record = grn(
        '[Game "ONE"]\n[Players "3"]\n[Termination "timeout"]\n[Winner "3"]\n\n'
        "1. c7 2. c8 3. b5 4. d1 5. d2 6. d3 7. c7xc9xa5\n"
    )
    ruling = adjudicate(record)
    assert ruling.decision == vpb.DECISION_CORRECTED
    assert list(ruling.result.winners) == [1]
    assert ruling.explanation.startswith("Corrected.")


def test_an_agreed_result_stands() -> None:
    ruling = adjudicate(owr_e1('[Termination "agreement"]\n[Winner "1"]'))
    assert ruling.decision == vpb.DECISION_CONFIRMED
    assert list(ruling.result.winners) == [1]
    assert ruling.result.termination == pb.TERMINATION_AGREEMENT
    assert "agreed" in ruling.explanation


def test_an_abandoned_game_gets_the_provisional_standing_and_no_winner() -> None:
    ruling = adjudicate(owr_e1('[Termination "abandoned"]\n[Result "*"]'))
    assert ruling.decision == vpb.DECISION_PROVISIONAL
    assert list(ruling.result.scores) == [20, 28]
    assert list(ruling.result.ranks) == [2, 1]
    assert list(ruling.result.winners) == []
    assert ruling.result.provisional
    assert "seat 2 leads" in ruling.explanation
    assert "docs/rules/ohwahree.md §6.3" in ruling.explanation


def test_an_unfinished_record_without_termination_is_provisional() -> None:
    ruling = adjudicate(owr_e1())
    assert ruling.decision == vpb.DECISION_PROVISIONAL
    assert "without a termination" in ruling.explanation


def test_an_illegal_record_is_void_with_the_standing_before_the_illegal_ply() -> None:
    ruling = adjudicate(one_e3('[Result "4-2-4"]', "1. a1 2. a2 3. b1 4. a1xa4"))
    assert ruling.decision == vpb.DECISION_VOID
    assert "ply 4" in ruling.explanation and "NOT_A_JUMP" in ruling.explanation
    assert list(ruling.result.scores) == [1, 1, 1]


def test_an_unknown_game_is_void() -> None:
    record = owr_e1()
    record.rules.game = pb.GAME_UNSPECIFIED
    ruling = adjudicate(record)
    assert ruling.decision == vpb.DECISION_VOID
    assert "UNKNOWN_GAME" in ruling.explanation


def test_the_ruling_carries_the_full_verdict() -> None:
    record = one_e3('[Result "4-4-2"]')
    assert adjudicate(record).verdict == validate(record)
