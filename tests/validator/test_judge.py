"""Validation semantics (architecture.md, "Validation semantics"), one test per clause."""

from __future__ import annotations

from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.judge import score, validate
from tests.validator.examples import E1_OWR, E3_MOVES, grn, one_e3, owr_e1


def codes(verdict: vpb.Verdict) -> list[str]:
    return [finding.code for finding in verdict.errors]


def test_a_finished_game_claiming_its_result_is_valid() -> None:
    verdict = validate(one_e3('[Result "4-2-4"]\n[Winner "1,3"]\n[Termination "normal"]'))
    assert verdict.valid
    assert verdict.status == vpb.GAME_STATUS_FINISHED
    assert list(verdict.result.scores) == [4, 2, 4]
    assert list(verdict.result.ranks) == [1, 3, 1]
    assert list(verdict.result.winners) == [1, 3]
    assert verdict.result.termination == pb.TERMINATION_NORMAL
    assert not verdict.result.provisional
    assert verdict.plies_replayed == 12
    assert len(verdict.final_digest) >= 16


def test_a_finished_game_claiming_nothing_is_valid() -> None:
    assert validate(one_e3()).valid


def test_an_unfinished_record_claiming_no_end_is_valid_and_says_unfinished() -> None:
    for tags in ("", '[Result "*"]'):
        verdict = validate(owr_e1(tags))
        assert verdict.valid, codes(verdict)
        assert verdict.status == vpb.GAME_STATUS_UNFINISHED
        assert verdict.result.provisional
        assert list(verdict.result.scores) == [20, 28]
        assert list(verdict.result.winners) == []


def test_a_record_that_stops_early_claiming_a_normal_end_is_flagged() -> None:
    verdict = validate(owr_e1('[Termination "normal"]'))
    assert codes(verdict) == ["RECORD_ENDS_EARLY"]
    assert verdict.errors[0].ply == 0
    assert "after ply 6" in verdict.errors[0].message


def test_a_record_that_stops_early_claiming_scores_is_flagged() -> None:
    assert codes(validate(owr_e1('[Result "20-28"]'))) == ["RECORD_ENDS_EARLY"]


def test_a_record_that_stops_early_claiming_a_winner_is_flagged() -> None:
    assert codes(validate(owr_e1('[Winner "2"]'))) == ["RECORD_ENDS_EARLY"]


def test_resignation_claimed_without_a_resign_ply_is_flagged() -> None:
    verdict = validate(owr_e1('[Termination "resignation"]\n[Winner "1"]'))
    assert codes(verdict) == ["RECORD_ENDS_EARLY"]
    assert "no seat resigned" in verdict.errors[0].message


def test_terminations_outside_the_rules_explain_an_early_end() -> None:
    for termination in ("timeout", "agreement", "abandoned", "adjudicated"):
        verdict = validate(owr_e1(f'[Termination "{termination}"]\n[Winner "1"]'))
        assert verdict.valid, (termination, codes(verdict))
        assert verdict.result.provisional
        assert verdict.result.termination != pb.TERMINATION_NORMAL


def test_a_wrong_claimed_score_says_both_results() -> None:
    verdict = validate(one_e3('[Result "4-4-2"]'))
    assert codes(verdict) == ["RESULT_MISMATCH"]
    assert "4-4-2" in verdict.errors[0].message and "4-2-4" in verdict.errors[0].message


def test_a_finished_game_claimed_unfinished_is_a_result_mismatch() -> None:
    verdict = validate(one_e3('[Result "*"]'))
    assert codes(verdict) == ["RESULT_MISMATCH"]
    assert "ply 12" in verdict.errors[0].message


def test_a_wrong_claimed_winner_is_flagged() -> None:
    verdict = validate(one_e3('[Result "4-2-4"]\n[Winner "3"]'))
    assert codes(verdict) == ["WINNER_MISMATCH"]


def test_a_claimed_outside_termination_of_a_finished_game_is_flagged() -> None:
    verdict = validate(one_e3('[Termination "abandoned"]'))
    assert codes(verdict) == ["TERMINATION_MISMATCH"]


def test_resignation_is_the_computed_termination_when_the_last_ply_resigns() -> None:
    verdict = validate(owr_e1('[Termination "resignation"]\n[Winner "2"]', E1_OWR + " 7. resign"))
    assert verdict.valid, codes(verdict)
    assert verdict.result.termination == pb.TERMINATION_RESIGNATION
    assert list(verdict.result.winners) == [2]
    assert list(verdict.result.scores) == [20, 28]


E3_RESIGN_LAST = E3_MOVES.replace("12. b6", "12. resign")


def test_a_resign_completing_the_last_round_of_three_seats_ends_normally() -> None:
    # docs/rules/one.md §7: the game ended by §6.2 (two seats still play), so "normal".
    verdict = validate(one_e3('[Termination "normal"]', E3_RESIGN_LAST))
    assert verdict.valid, codes(verdict)
    assert verdict.status == vpb.GAME_STATUS_FINISHED
    assert verdict.result.termination == pb.TERMINATION_NORMAL
    assert verdict.result.ranks[2] == 3  # the resigned seat ranks below the others


def test_claiming_resignation_for_a_resign_that_completed_the_round_is_a_mismatch() -> None:
    verdict = validate(one_e3('[Termination "resignation"]', E3_RESIGN_LAST))
    assert codes(verdict) == ["TERMINATION_MISMATCH"]
    assert "Termination normal" in verdict.errors[0].message


def test_a_resign_that_leaves_one_seat_of_three_playing_ends_by_resignation() -> None:
    verdict = validate(one_e3('[Termination "resignation"]', "1. a1 2. resign 3. resign"))
    assert verdict.valid, codes(verdict)
    assert verdict.result.termination == pb.TERMINATION_RESIGNATION
    assert list(verdict.result.winners) == [1]


def test_the_first_illegal_ply_stops_the_replay_and_names_ply_seat_move_and_code() -> None:
    verdict = validate(one_e3('[Result "4-2-4"]', "1. a1 2. a2 3. b1 4. a1xa4 5. b3"))
    assert codes(verdict) == ["NOT_A_JUMP"]
    finding = verdict.errors[0]
    assert (finding.ply, finding.seat, finding.move) == (4, 1, "a1xa4")
    assert verdict.plies_replayed == 3
    assert verdict.status == vpb.GAME_STATUS_UNFINISHED


def test_an_illegal_record_is_not_compared_with_its_claim() -> None:
    verdict = validate(one_e3('[Result "9-9-9"]', "1. a1 2. a1"))
    assert codes(verdict) == ["OCCUPIED"]


def test_a_point_missing_from_the_board_is_an_illegal_move_not_a_malformed_record() -> None:
    verdict = validate(one_e3("", "1. a1 2. e1"))
    assert codes(verdict) == ["NO_SUCH_POINT"]
    assert verdict.errors[0].ply == 2


def test_moves_after_the_end_are_flagged_at_the_first_extra_ply() -> None:
    verdict = validate(one_e3("", E3_MOVES + " 13. a5"))
    assert codes(verdict) == ["GAME_ALREADY_OVER"]
    assert verdict.errors[0].ply == 13
    assert verdict.status == vpb.GAME_STATUS_FINISHED
    assert list(verdict.result.scores) == [4, 2, 4]


def test_a_ply_stated_for_the_wrong_seat_is_not_your_turn() -> None:
    verdict = validate(one_e3("", "1. a1 2. a2 {[%seat 3]}"))
    assert codes(verdict) == ["NOT_YOUR_TURN"]
    assert verdict.errors[0].ply == 2


def test_a_ply_stated_for_the_right_seat_is_fine() -> None:
    assert validate(one_e3("", "1. a1 {[%seat 1]} 2. a2 {[%seat 2]}")).valid


def test_an_impossible_variant_is_not_replayed() -> None:
    verdict = validate(grn('[Game "ONE"]\n[Players "7"]\n\n1. a1\n'))
    assert codes(verdict) == ["IMPOSSIBLE_VARIANT"]
    assert verdict.status == vpb.GAME_STATUS_NOT_REPLAYED
    assert verdict.plies_replayed == 0
    assert verdict.final_digest == ""


def test_a_missing_required_players_tag_is_an_impossible_variant() -> None:
    assert codes(validate(grn('[Game "ONE"]\n\n1. a1\n'))) == ["IMPOSSIBLE_VARIANT"]


def test_a_variant_of_another_game_is_impossible() -> None:
    record = owr_e1()
    record.rules.oust.board_side = 5
    assert codes(validate(record)) == ["IMPOSSIBLE_VARIANT"]


def test_an_unknown_game_is_not_replayed() -> None:
    record = owr_e1()
    record.rules.game = 99  # type: ignore[assignment]
    assert codes(validate(record)) == ["UNKNOWN_GAME"]


def test_seats_listed_must_match_the_player_count() -> None:
    verdict = validate(one_e3('[Seat1 "Ana"]\n[Seat2 "Ben"]'))
    assert codes(verdict) == ["SEAT_COUNT_MISMATCH"]


def test_a_ply_without_action_and_a_ply_of_another_game_are_flagged() -> None:
    record = owr_e1()
    record.moves[2].ClearField("oh_wah_ree")
    assert codes(validate(record)) == ["EMPTY_MOVE"]
    record.moves[2].one.path.add(ring=1, index=1)
    assert codes(validate(record)) == ["MOVE_OF_OTHER_GAME"]
    assert validate(record).errors[0].ply == 3


def test_a_special_action_the_game_does_not_have_is_malformed() -> None:
    verdict = validate(one_e3("", "1. a1 2. pass"))
    assert codes(verdict) == ["MALFORMED_MOVE"]
    assert verdict.errors[0].ply == 2


def test_score_is_final_for_a_finished_game_and_provisional_otherwise() -> None:
    assert not score(one_e3()).provisional
    assert list(score(one_e3()).scores) == [4, 2, 4]
    assert score(owr_e1()).provisional
    assert list(score(owr_e1()).scores) == [20, 28]


def test_several_findings_are_all_reported() -> None:
    verdict = validate(one_e3('[Result "1-1-1"]\n[Winner "2"]\n[Termination "timeout"]'))
    assert codes(verdict) == ["RESULT_MISMATCH", "WINNER_MISMATCH", "TERMINATION_MISMATCH"]
