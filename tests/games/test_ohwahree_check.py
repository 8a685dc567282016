"""Oh-Wah-Ree: every way a move can be wrong, through check, play and replay.

Each case is a record from the start position whose last ply is the illegal one.
"""

from __future__ import annotations

import re
from typing import NamedTuple

import pytest

from gamerec.validator.games.ohwahree import ENGINE, RESIGN, Move, OhWahReeVariant, Sow
from gamerec.validator.games.protocol import IllegalMoveError


class IllegalCase(NamedTuple):
    code: str
    players: int
    options: dict[str, object]
    record: str  # the plies, the last one illegal
    claims: tuple[int, ...] | None  # the seat each ply claims, when the record states them
    names: str  # what the message must name


CASES = [
    IllegalCase("NOT_YOUR_TURN", 2, {}, "1 7", (1, 1), "seat 1"),
    IllegalCase("NOT_YOUR_TURN", 3, {}, "1ccw 9ccw 5cw", (1, 2, 1), "seat 1"),
    IllegalCase("GAME_ALREADY_OVER", 2, {}, "resign 7", None, "over"),
    IllegalCase("GAME_ALREADY_OVER", 3, {}, "resign resign 5ccw", None, "over"),
    IllegalCase("NOT_A_PIT", 2, {}, "13", None, "13"),
    IllegalCase("NOT_A_PIT", 3, {}, "0ccw", None, "0"),
    IllegalCase("NOT_YOUR_PIT", 2, {}, "7", None, "pit 7"),
    IllegalCase("NOT_YOUR_PIT", 4, {}, "1ccw 1cw", None, "pit 1"),
    IllegalCase("EMPTY_PIT", 2, {}, "1 7 1", None, "pit 1"),
    IllegalCase("EMPTY_PIT", 4, {"direction": "ccw"}, "1 10 7 6 1", None, "pit 1"),
    IllegalCase("DIRECTION_REQUIRED", 3, {}, "1", None, "1ccw or 1cw"),
    IllegalCase("DIRECTION_REQUIRED", 4, {"direction": "free"}, "2", None, "2ccw or 2cw"),
    IllegalCase("DIRECTION_NOT_ALLOWED", 2, {}, "1cw", None, "1cw"),
    IllegalCase("DIRECTION_NOT_ALLOWED", 4, {"direction": "ccw"}, "3cw", None, "3cw"),
]


def case_id(case: IllegalCase) -> str:
    return f"{case.code}-{case.players}seats"


def variant_and_moves(case: IllegalCase) -> tuple[OhWahReeVariant, list[Move]]:
    variant = ENGINE.variant(players=case.players, **case.options)
    return variant, [ENGINE.parse_move(variant, token) for token in case.record.split()]


def test_every_reason_code_has_a_case() -> None:
    assert {case.code for case in CASES} == set(ENGINE.reason_codes)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_check_gives_the_code_and_a_sentence_citing_the_rule(case: IllegalCase) -> None:
    variant, moves = variant_and_moves(case)
    state = ENGINE.new_game(variant)
    for move in moves[:-1]:
        state.play(move)
    claim = None if case.claims is None else case.claims[-1]
    illegal = state.check(moves[-1], claim)
    assert illegal is not None
    assert illegal.code == case.code
    assert case.names in illegal.message
    assert re.search(r"\(docs/rules/ohwahree\.md §\d", illegal.message)


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_play_raises_and_leaves_the_state_unchanged(case: IllegalCase) -> None:
    variant, moves = variant_and_moves(case)
    state = ENGINE.new_game(variant)
    for move in moves[:-1]:
        state.play(move)
    if case.claims is not None:  # play takes no seat: the claim matters only to check/replay
        assert state.check(moves[-1]) is None
        return
    before = (state.digest(), state.ply, state.position())
    with pytest.raises(IllegalMoveError) as raised:
        state.play(moves[-1])
    assert raised.value.illegal.code == case.code
    assert (state.digest(), state.ply, state.position()) == before


@pytest.mark.parametrize("case", CASES, ids=case_id)
def test_replay_stops_at_the_illegal_ply(case: IllegalCase) -> None:
    variant, moves = variant_and_moves(case)
    outcome = ENGINE.replay(variant, moves, case.claims)
    assert outcome.plies == len(moves) - 1
    assert outcome.illegal is not None
    assert outcome.illegal.code == case.code
    played = ENGINE.new_game(variant)
    for move in moves[:-1]:
        played.play(move)
    assert outcome.state.digest() == played.digest()


def test_unstated_claims_are_not_checked() -> None:
    variant = ENGINE.variant(players=2)
    outcome = ENGINE.replay(variant, [Sow(1), Sow(7)], [0, 0])
    assert outcome.illegal is None
    assert outcome.plies == 2


def test_right_claims_are_accepted() -> None:
    variant = ENGINE.variant(players=3)
    moves: list[Move] = [Sow(1, "ccw"), Sow(9, "ccw"), Sow(5, "cw"), RESIGN, Sow(10, "cw")]
    outcome = ENGINE.replay(variant, moves, [1, 2, 3, 1, 2])
    assert outcome.illegal is None
    assert outcome.state.position().resigned == (1,)
    assert outcome.plies == 5


def test_game_already_over_comes_before_a_wrong_claim() -> None:
    variant = ENGINE.variant(players=2)
    outcome = ENGINE.replay(variant, [RESIGN, Sow(7)], [1, 1])
    assert outcome.illegal is not None
    assert outcome.illegal.code == "GAME_ALREADY_OVER"


def test_a_pit_off_the_board_is_checked_before_the_direction() -> None:
    state = ENGINE.new_game(ENGINE.variant(players=3))
    illegal = state.check(Sow(13))
    assert illegal is not None
    assert illegal.code == "NOT_A_PIT"


def test_the_direction_is_checked_before_the_owner_of_the_pit() -> None:
    state = ENGINE.new_game(ENGINE.variant(players=2))
    illegal = state.check(Sow(7, "cw"))
    assert illegal is not None
    assert illegal.code == "DIRECTION_NOT_ALLOWED"


def test_resign_is_legal_whenever_the_game_goes_on() -> None:
    for players in (2, 3, 4):
        assert ENGINE.new_game(ENGINE.variant(players=players)).check(RESIGN) is None


def test_reason_codes_are_upper_snake_with_a_description() -> None:
    for code, description in ENGINE.reason_codes.items():
        assert re.fullmatch(r"[A-Z]+(_[A-Z]+)*", code)
        assert description
