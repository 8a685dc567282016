"""ONE rules, clause by clause, and the worked examples of docs/rules/one.md §9.

Positions are reached by playing the moves, then drawn with ``OneState.diagram()`` where a
picture says more than a list: one row per ring, ``.`` empty, a digit the seat of the stone.
"""

from __future__ import annotations

from textwrap import dedent

import pytest

from gamerec.validator.games.one import ENGINE, OneState, OneVariant, point_code
from gamerec.validator.games.protocol import GameEvent, IllegalMoveError

# -- helpers ---------------------------------------------------------------------------------


def variant(players: int = 2, board: str = "10,10,20,20", **tags: str) -> OneVariant:
    return ENGINE.variant_from_tags({"Players": str(players), "Board": board, **tags})


def play(movetext: str, rules: OneVariant) -> OneState:
    """Play a move text (``1. c7 2. c8 ...``; numbers are skipped) with check and play.

    Also asserts that the fast replay reaches the very same position.
    """
    tokens = [token for token in movetext.split() if not token.endswith(".")]
    moves = [ENGINE.parse_move(rules, token) for token in tokens]
    state = ENGINE.new_game(rules)
    for ply, move in enumerate(moves, start=1):
        illegal = state.check(move)
        assert illegal is None, f"ply {ply} {ENGINE.format_move(rules, move)}: {illegal}"
        state.play(move)
    fast = ENGINE.replay(rules, moves)
    assert fast.illegal is None
    assert fast.state.digest() == state.digest()
    return state


def code(state: OneState, token: str) -> str | None:
    """The reason code ``check`` gives for ``token`` (None when legal)."""
    illegal = state.check(ENGINE.parse_move(state.variant, token))
    return None if illegal is None else illegal.code


def lists(state: OneState, token: str) -> bool:
    return ENGINE.parse_move(state.variant, token) in state.legal_moves()


def diagram(text: str) -> str:
    return dedent(text).strip()


# -- §3 set-up ---------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "stones"), [(2, 30), (3, 20), (4, 15), (5, 12), (6, 10)])
def test_supply_is_points_divided_by_seats_rounded_down(players: int, stones: int) -> None:
    state = ENGINE.new_game(variant(players))
    assert state.supplies == (stones,) * players


def test_supply_on_board_10_10_20_with_3_seats_is_13() -> None:
    assert ENGINE.new_game(variant(3, "10,10,20")).supplies == (13, 13, 13)


def test_leftover_point_is_an_ordinary_empty_point() -> None:
    # Board 5,5 has 10 points; 3 seats get 3 stones each and one point is never needed.
    state = play("a1 a2 a3 a4 a5 b1 b2 b3", variant(3, "5,5"))
    assert state.supplies == (0, 0, 1) and state.to_move == 3
    assert lists(state, "b4") and lists(state, "b5")
    state.play(ENGINE.parse_move(state.variant, "b4"))
    assert state.is_over and state.supplies == (0, 0, 0)
    assert state.stone_at("b5") == 0


def test_each_seat_needs_at_least_one_stone() -> None:
    with pytest.raises(Exception, match="no stones"):
        variant(6, "5")


def test_players_is_required_and_from_2_to_6() -> None:
    for tags in ({}, {"Players": "1"}, {"Players": "7"}, {"Players": "two"}):
        with pytest.raises(ValueError, match=r"Players|players"):
            ENGINE.variant_from_tags(tags)


def test_board_starts_empty_and_seat_1_moves_first_then_clockwise() -> None:
    state = ENGINE.new_game(variant(3))
    assert state.stones_on_board == 0 and state.captured == (0, 0, 0)
    seen = []
    for token in ("a1", "a2", "a3", "a4"):
        seen.append(state.to_move)
        state.play(ENGINE.parse_move(state.variant, token))
    assert seen == [1, 2, 3, 1]


# -- §4.1 placement ----------------------------------------------------------------------------


def test_placement_needs_an_empty_point() -> None:
    state = play("c7", variant())
    assert code(state, "c7") == "OCCUPIED"


def test_placement_puts_a_stone_and_takes_one_from_the_supply() -> None:
    state = play("c7", variant())
    assert state.stone_at("c7") == 1 and state.supplies == (29, 30)


def test_placement_needs_a_stone_in_the_supply() -> None:
    # §4.3 makes this unreachable in play; a set-up position shows the clause.
    state = OneState.set_up(variant(), {"c7": 1}, supplies=[0, 30])
    assert code(state, "c8") == "NO_STONES_LEFT"
    assert state.legal_moves() == []


def test_mirror_first_forbids_ply_2_opposite_ply_1() -> None:
    state = play("c7", variant(Mirror="first"))
    assert code(state, "c17") == "MIRROR"
    assert not lists(state, "c17")


def test_mirror_first_restricts_no_other_ply() -> None:
    state = play("c7 c1", variant(Mirror="first"))
    assert code(state, "c11") is None


def test_mirror_every_forbids_opposite_the_previous_placement() -> None:
    state = play("c7 c1", variant(Mirror="every"))
    assert code(state, "c11") == "MIRROR"
    assert code(state, "c17") is None


def test_mirror_every_does_not_follow_a_capture() -> None:
    # Ply 4 placed a5; ply 5 is a capture, so ply 6 may go on a10, opposite a5.
    state = play("a1 a2 b1 a5 a1xa3", variant(Mirror="every"))
    assert state.captured == (1, 0)
    assert code(state, "a10") is None


def test_mirror_every_allows_the_banned_point_when_it_is_the_only_empty_point() -> None:
    state = play("a1 a2 a4 a5 a3", variant(2, "6", Mirror="every"))
    assert state.diagram() == "a 1 2 1 1 2 ."
    assert code(state, "a6") is None
    assert lists(state, "a6")


def test_mirror_none_allows_the_opposite_point() -> None:
    state = play("c7", variant(Mirror="none"))
    assert code(state, "c17") is None


def test_point_on_an_odd_ring_is_never_mirror_restricted() -> None:
    state = play("a1", variant(2, "5,10", Mirror="every"))
    assert all(code(state, f"a{i}") is None for i in range(2, 6))


def test_mirror_has_no_point_to_forbid_after_a_resignation_at_ply_1() -> None:
    state = play("resign", variant(3, Mirror="first"))
    assert all(code(state, f"c{j}") is None for j in range(1, 21))


# -- §4.2 capture ------------------------------------------------------------------------------

# Seat 1 on a1, seat 2 on a2: seat 1 may jump a1xa3.
JUMP_READY = "a1 a2 b1 b2"


def test_capture_starts_on_a_stone_of_the_mover() -> None:
    state = play(JUMP_READY, variant())
    assert code(state, "a2xa10") == "NOT_YOUR_STONE"  # seat 2's stone
    assert code(state, "a4xa2") == "NOT_YOUR_STONE"  # empty point


def test_jump_follows_a_jump_triple() -> None:
    state = play(JUMP_READY, variant())
    assert code(state, "a1xa4") == "NOT_A_JUMP"  # three steps along the ring
    assert code(state, "a1xb2") == "NOT_A_JUMP"  # diagonal
    assert code(state, "a1xa1") == "NOT_A_JUMP"


def test_jump_passes_over_a_stone() -> None:
    state = play(JUMP_READY, variant())
    assert code(state, "a1xa9") == "JUMP_OVER_EMPTY"


def test_jump_passes_over_another_seats_stone() -> None:
    state = play(JUMP_READY, variant())
    assert code(state, "a1xc1") == "CAPTURE_OVER_OWN_STONE"


def test_jump_lands_on_an_empty_point() -> None:
    state = play(JUMP_READY + " a3 c1", variant())
    assert code(state, "a1xa3") == "LANDING_OCCUPIED"


def test_jump_over_two_stones_at_once_is_not_a_jump() -> None:
    state = play("a1 a2 b1 a3", variant())
    assert code(state, "a1xa4") == "NOT_A_JUMP"


def test_capture_removes_the_jumped_stone_and_moves_the_jumper() -> None:
    state = play(JUMP_READY, variant())
    events = state.play(ENGINE.parse_move(state.variant, "a1xa3"))
    assert events == (GameEvent("capture", 1, ("a2",), 1),)
    assert state.diagram().splitlines()[:2] == ["a . . 1 . . . . . . .", "b 1 2 . . . . . . . ."]
    assert state.captured == (1, 0)


def test_capture_does_not_use_or_change_a_supply() -> None:
    state = play(JUMP_READY + " a1xa3", variant())
    assert state.supplies == (28, 28)


def test_capture_is_optional() -> None:
    state = play(JUMP_READY, variant())
    assert code(state, "c5") is None and lists(state, "a1xa3")


def test_capture_may_take_stones_of_a_resigned_seat() -> None:
    state = play("a1 a2 b5 c1 resign c9", variant(3))
    assert state.resigned == (2,) and state.to_move == 1
    assert code(state, "a1xa3") is None


def test_removed_stone_cannot_be_jumped_again() -> None:
    state = play(JUMP_READY, variant())
    assert code(state, "a1xa3xa1") == "JUMP_OVER_EMPTY"


def test_capture_chain_may_land_on_its_own_start() -> None:
    # Board 6,6: seat 1 on a1, seat 2 on a2, a4, a6; a1xa3xa5xa1 goes once round ring a.
    state = play("a1 a2 b1 a4 b2 a6", variant(2, "6,6"))
    assert state.diagram() == "a 1 2 . 2 . 2\nb 1 1 . . . ."
    state.play(ENGINE.parse_move(state.variant, "a1xa3xa5xa1"))
    assert state.diagram() == "a 1 . . . . .\nb 1 1 . . . ."
    assert state.captured == (3, 0)


def test_capture_chain_is_made_by_one_stone_from_landing_to_landing() -> None:
    state = play("a1 a2 b1 a4 b2 a6", variant(2, "6,6"))
    assert code(state, "a1xa3xa5") is None
    assert code(state, "a1xa3xb3") == "NOT_A_JUMP"  # the second jump goes on from a3


def test_capture_may_stop_after_any_jump_and_each_stop_is_a_move() -> None:
    state = play("a1 a2 b1 a4 b2 a6", variant(2, "6,6"))
    captures = sorted(
        ENGINE.format_move(state.variant, m) for m in state.legal_moves() if len(m) > 1
    )
    assert captures == [
        "a1xa3",
        "a1xa3xa5",
        "a1xa3xa5xa1",
        "a1xa5",
        "a1xa5xa3",
        "a1xa5xa3xa1",
    ]


def test_capture_chain_may_change_line() -> None:
    state = play("c7 c8 b5 d1 d2 d3", variant(3))
    assert code(state, "c7xc9xa5") is None  # ring c, then the spoke a5-b5-c9-d9


def test_capture_may_take_stones_of_several_opponents() -> None:
    state = play("c7 c8 b5 d1 d2 d3 c7xc9xa5", variant(3))
    assert state.stone_at("c8") == 0 and state.stone_at("b5") == 0
    assert state.captured == (2, 0, 0)


# -- §5, §6.3 groups and scores ----------------------------------------------------------------


def test_group_joins_stones_through_adjacent_points_of_one_seat() -> None:
    state = play("c1 c5 c2 c6 c3 d1", variant())
    assert state.largest_groups() == (3, 2)


def test_stones_of_different_seats_never_connect() -> None:
    state = play("c1 c2 c3", variant())
    assert state.largest_groups() == (1, 1)


def test_diagonal_stones_are_not_a_group() -> None:
    state = play("c1 a1 d2", variant())
    assert state.largest_groups() == (1, 1)


def test_seat_without_stones_has_largest_group_zero() -> None:
    state = play("c1", variant(3))
    assert state.largest_groups() == (1, 0, 0)


def test_score_is_largest_group_plus_two_per_capture() -> None:
    state = play(JUMP_READY + " a1xa3 c9", variant())
    assert state.largest_groups() == (1, 1)
    assert state.scores() == (1 + 2 * 1, 1)


# -- §6.1, §6.2 end of game --------------------------------------------------------------------


def test_placing_the_last_stone_sets_off_the_end() -> None:
    state = play("a1 b1 a2 b2 a3 b3 a4 b4", variant(2, "5,5"))
    assert state.supplies == (1, 1) and not state.ending
    state.play(ENGINE.parse_move(state.variant, "a5"))
    assert state.ending and not state.is_over  # seat 2 completes the round


def test_capture_never_sets_off_the_end() -> None:
    # Seat 2 loses its only stone on the board: the game goes on.
    state = play("a1 a2 a1xa3", variant(2, "5,5"))
    assert state.stone_at("a2") == 0 and state.largest_groups() == (1, 0)
    assert not state.ending and state.to_move == 2


def test_game_ends_when_the_turn_would_wrap_round() -> None:
    state = play("a1 b1 a2 b2 a3 b3 a4 b4 a5", variant(2, "5,5"))
    events = state.play(ENGINE.parse_move(state.variant, "b5"))
    assert events == (GameEvent("end", 2),)
    assert state.is_over and state.to_move == 0


def test_trigger_by_the_last_seat_of_the_round_ends_the_game_at_once() -> None:
    # Seat 1 spent a ply on a capture, so seat 2 (last in the round) runs out first.
    state = play("a1 a2 a1xa3 b1 b2 b3 b4 b5 a1", variant(2, "5,5"))
    assert state.supplies == (1, 1) and not state.ending
    state.play(ENGINE.parse_move(state.variant, "a5"))
    assert state.supplies == (1, 0) and state.is_over


def test_round_ends_before_the_lowest_seat_still_playing_when_seat_1_resigned() -> None:
    # 3 seats on 5,5: 3 stones each. Seat 1 resigns; seat 2 then places its last stone.
    state = play("resign a1 a2 b1 b2", variant(3, "5,5"))
    assert state.supplies == (3, 1, 1)
    state.play(ENGINE.parse_move(state.variant, "b3"))  # seat 2: trigger
    assert state.ending and state.to_move == 3
    state.play(ENGINE.parse_move(state.variant, "b4"))  # seat 3 ends the round
    assert state.is_over and state.supplies == (3, 0, 0)


def test_stones_left_in_a_supply_score_nothing() -> None:
    state = e3()
    assert state.supplies == (1, 0, 0)
    assert state.scores()[0] == state.largest_groups()[0] + 2 * state.captured[0] == 4


def test_no_move_is_legal_once_the_game_is_over() -> None:
    state = play("a1 b1 a2 b2 a3 b3 a4 b4 a5 b5", variant(2, "5,5"))
    assert state.legal_moves() == []
    assert code(state, "resign") == "GAME_ALREADY_OVER"


# -- §6.4, §7 ranking, ties, resignation -------------------------------------------------------


def test_ranking_is_by_score_highest_first() -> None:
    state = play("c1 a1 c2 a3 c3 a5", variant(2, Tiebreak="shared"))
    assert state.scores() == (3, 1) and state.ranking() == (1, 2)


def test_two_seats_resign_ends_the_game_and_the_other_seat_ranks_first() -> None:
    state = play(JUMP_READY + " a1xa3", variant())
    assert state.scores() == (3, 1)
    events = state.play(ENGINE.parse_move(state.variant, "resign"))  # seat 2
    assert events == (GameEvent("resign", 2), GameEvent("end", 2))
    assert state.ranking() == (1, 2) and state.winners() == (1,)
    state = play(JUMP_READY + " a1xa3 c9 resign", variant())  # seat 1 resigns, ahead on score
    assert state.is_over and state.scores() == (3, 1)
    assert state.ranking() == (2, 1) and state.winners() == (2,)


def test_resigned_seat_leaves_the_turn_order_and_its_stones_stay() -> None:
    state = play("c1 c2 c3 c4 resign", variant(3))
    assert state.to_move == 3 and state.resigned == (2,)
    assert state.stone_at("c2") == 2
    state.play(ENGINE.parse_move(state.variant, "c5"))
    assert state.to_move == 1


def test_resigned_seats_rank_below_playing_seats_later_resignation_higher() -> None:
    state = play("c1 c2 c3 c4 c20 resign c6 resign", variant(4))
    assert state.resigned == (2, 4)
    assert state.ranking() == (1, 4, 2, 3)


def test_one_seat_left_playing_ends_the_game_and_ranks_first() -> None:
    state = play("c1 c2 c3 resign resign", variant(3))
    assert state.is_over and state.resigned == (1, 2)
    assert state.ranking() == (3, 2, 1) and state.winners() == (3,)


def test_resigned_seat_still_scores_its_groups() -> None:
    state = play("a1 c2 a5 d7 c3 d9 d11 resign", variant(3))
    assert state.resigned == (2,)
    assert state.scores() == (1, 2, 1)


def test_tiebreak_shared_gives_competition_ranks() -> None:
    state = play("c1 c3 c5 c20", variant(3, Tiebreak="shared"))
    assert state.scores() == (2, 1, 1) and state.ranking() == (1, 2, 2)


def test_tiebreak_largest_group_prefers_the_larger_group_on_equal_scores() -> None:
    # Seat 1 scores 3 by a group of one and a capture; seat 2 scores 3 by a group of three.
    line = "b1 a2 a1 a5 a1xa3 a6 c15 a7"
    shared = play(line, variant(2, Tiebreak="shared"))
    assert shared.scores() == (3, 3) and shared.largest_groups() == (1, 3)
    assert shared.ranking() == (1, 1)
    assert play(line, variant(2, Tiebreak="largest-group")).ranking() == (2, 1)


def test_winners_are_named_only_when_the_game_is_over() -> None:
    state = play("c1", variant())
    assert state.winners() == ()


# -- §9 worked examples ------------------------------------------------------------------------


def test_e1_ply_2_opposite_ply_1_is_illegal_under_first_and_every_legal_under_none() -> None:
    for mirror, verdict in (("first", "MIRROR"), ("every", "MIRROR"), ("none", None)):
        assert code(play("1. c7", variant(Mirror=mirror)), "c17") == verdict


def test_e1_ply_3_opposite_ply_2_is_legal_under_first_illegal_under_every() -> None:
    assert code(play("1. c7 2. c1", variant(Mirror="first")), "c11") is None
    assert code(play("1. c7 2. c1", variant(Mirror="every")), "c11") == "MIRROR"


E2_MOVES = "1. c7 2. c8 3. b5 4. d1 5. d2 6. d3"


def test_e2_two_jumps_two_opponents_change_of_line() -> None:
    state = play(E2_MOVES, variant(3))
    assert state.diagram() == diagram(
        """
        a . . . . . . . . . .
        b . . . . 3 . . . . .
        c . . . . . . 1 2 . . . . . . . . . . . .
        d 1 2 3 . . . . . . . . . . . . . . . . .
        """
    )
    events = state.play(ENGINE.parse_move(state.variant, "c7xc9xa5"))
    assert events == (GameEvent("capture", 1, ("c8", "b5"), 2),)
    assert state.diagram() == diagram(
        """
        a . . . . 1 . . . . .
        b . . . . . . . . . .
        c . . . . . . . . . . . . . . . . . . . .
        d 1 2 3 . . . . . . . . . . . . . . . . .
        """
    )
    assert state.supplies == (18, 18, 18)
    assert state.captured == (2, 0, 0)
    assert state.scores() == (5, 1, 1)


def test_e2_stopping_after_one_jump_is_legal_and_b5_stays() -> None:
    state = play(E2_MOVES + " 7. c7xc9", variant(3))
    assert state.stone_at("c9") == 1 and state.stone_at("b5") == 3
    assert state.captured == (1, 0, 0)


def test_e2_c7xa5_is_not_a_capture() -> None:
    assert code(play(E2_MOVES, variant(3)), "c7xa5") == "NOT_A_JUMP"


# E3: (ply, seat, move, supplies after, captured after)
E3_PLIES = [
    (1, 1, "a1", (3, 4, 4), (0, 0, 0)),
    (2, 2, "a2", (3, 3, 4), (0, 0, 0)),
    (3, 3, "b1", (3, 3, 3), (0, 0, 0)),
    (4, 1, "a1xa3", (3, 3, 3), (1, 0, 0)),
    (5, 2, "b3", (3, 2, 3), (1, 0, 0)),
    (6, 3, "b2", (3, 2, 2), (1, 0, 0)),
    (7, 1, "a4", (2, 2, 2), (1, 0, 0)),
    (8, 2, "a2", (2, 1, 2), (1, 0, 0)),
    (9, 3, "a6", (2, 1, 1), (1, 0, 0)),
    (10, 1, "b5", (1, 1, 1), (1, 0, 0)),
    (11, 2, "b4", (1, 0, 1), (1, 0, 0)),
    (12, 3, "b6", (1, 0, 0), (1, 0, 0)),
]


def e3(tiebreak: str = "shared") -> OneState:
    return play(" ".join(row[2] for row in E3_PLIES), variant(3, "6,6", Tiebreak=tiebreak))


def test_e3_every_ply_as_tabled() -> None:
    state = ENGINE.new_game(variant(3, "6,6"))
    for ply, seat, token, supplies, captured in E3_PLIES:
        assert state.to_move == seat, ply
        state.play(ENGINE.parse_move(state.variant, token))
        assert (state.supplies, state.captured) == (supplies, captured), ply
    assert state.is_over


def test_e3_a4_at_ply_2_is_illegal_opposite_a1() -> None:
    assert code(play("a1", variant(3, "6,6")), "a4") == "MIRROR"


def test_e3_trigger_at_ply_11_and_game_over_after_ply_12() -> None:
    state = play(" ".join(row[2] for row in E3_PLIES[:10]), variant(3, "6,6"))
    state.play(ENGINE.parse_move(state.variant, "b4"))
    assert state.ending and state.to_move == 3
    state.play(ENGINE.parse_move(state.variant, "b6"))
    assert state.is_over and state.ply == 12
    assert state.supplies[0] == 1  # seat 1 still holds a stone but gets no turn 13


def test_e3_final_position_groups_scores_and_result() -> None:
    state = e3()
    assert state.diagram() == "a . 2 1 1 . 3\nb 3 3 2 2 1 3"
    assert state.largest_groups() == (2, 2, 4)
    assert state.scores() == (4, 2, 4)
    assert "-".join(map(str, state.scores())) == "4-2-4"


def test_e3_tiebreak_shared_and_largest_group() -> None:
    assert e3("shared").ranking() == (1, 3, 1)
    assert e3("shared").winners() == (1, 3)
    assert e3("largest-group").ranking() == (2, 3, 1)
    assert e3("largest-group").winners() == (3,)


def test_e4_resignation_with_3_seats_and_trigger_by_the_last_seat() -> None:
    line = " ".join(row[2] for row in E3_PLIES[:10]) + " resign b6"
    state = play(line, variant(3, "6,6"))
    assert state.resigned == (2,)
    assert state.stone_at("a2") == 2 and state.stone_at("b3") == 2
    assert state.supplies == (1, 1, 0)
    assert state.is_over and state.ply == 12
    assert state.scores() == (4, 1, 4)
    assert state.ranking() == (1, 3, 1)


def test_e4_game_goes_on_after_the_resignation_until_the_trigger() -> None:
    state = play(" ".join(row[2] for row in E3_PLIES[:10]) + " resign", variant(3, "6,6"))
    assert not state.is_over and state.to_move == 3


# -- reason codes: an illegal move for every one -----------------------------------------------

REASON_CASES = {
    "NOT_YOUR_TURN": ("c7", "c8", 1),
    "GAME_ALREADY_OVER": ("a1 b1 a2 b2 a3 b3 a4 b4 a5 b5", "c1", None),
    "NO_SUCH_POINT": ("c7", "e1", None),
    "OCCUPIED": ("c7", "c7", None),
    "MIRROR": ("c7", "c17", None),
    "NOT_YOUR_STONE": (JUMP_READY, "a2xa10", None),
    "NOT_A_JUMP": (E2_MOVES, "c7xa5", None),
    "JUMP_OVER_EMPTY": (JUMP_READY, "a1xa9", None),
    "CAPTURE_OVER_OWN_STONE": (JUMP_READY, "a1xc1", None),
    "LANDING_OCCUPIED": (JUMP_READY + " a3 c1", "a1xa3", None),
}


@pytest.mark.parametrize("reason", sorted(REASON_CASES))
def test_illegal_move_gets_its_reason_code(reason: str) -> None:
    before, token, seat = REASON_CASES[reason]
    board = "5,5" if reason == "GAME_ALREADY_OVER" else "10,10,20,20"
    rules = variant(3 if reason == "NOT_A_JUMP" else 2, board)
    state = play(before, rules)
    move = ENGINE.parse_move(rules, token)
    illegal = state.check(move, seat)
    assert illegal is not None and illegal.code == reason
    assert illegal.message.endswith(")") and "docs/rules/one.md §" in illegal.message
    moves = [ENGINE.parse_move(rules, t) for t in before.split() if not t.endswith(".")]
    outcome = ENGINE.replay(rules, [*moves, move], seats=[0] * len(moves) + [seat or 0])
    assert outcome.plies == len(moves) and outcome.illegal == illegal


@pytest.mark.parametrize("reason", sorted(r for r in REASON_CASES if r != "NOT_YOUR_TURN"))
def test_play_refuses_an_illegal_move_and_leaves_the_state(reason: str) -> None:
    before, token, _seat = REASON_CASES[reason]
    board = "5,5" if reason == "GAME_ALREADY_OVER" else "10,10,20,20"
    rules = variant(3 if reason == "NOT_A_JUMP" else 2, board)
    state = play(before, rules)
    digest, ply = state.digest(), state.ply
    with pytest.raises(IllegalMoveError) as raised:
        state.play(ENGINE.parse_move(rules, token))
    assert raised.value.illegal.code == reason
    assert (state.digest(), state.ply) == (digest, ply)


def test_no_stones_left_has_its_reason_code_too() -> None:
    state = OneState.set_up(variant(), {"c7": 1, "c9": 2}, supplies=[0, 29])
    illegal = state.check(ENGINE.parse_move(state.variant, "c1"))
    assert illegal is not None and illegal.code == "NO_STONES_LEFT"


def test_every_reason_code_is_tested_and_described() -> None:
    assert set(ENGINE.reason_codes) == {*REASON_CASES, "NO_STONES_LEFT"}


def test_messages_name_the_points_and_cite_the_rule() -> None:
    state = play(JUMP_READY + " a3 c1", variant())
    illegal = state.check(ENGINE.parse_move(state.variant, "a1xa3"))
    assert illegal is not None
    assert illegal.message == "landing point a3 is occupied (docs/rules/one.md §4.2)"
    off_board = state.check((point_code("e1"),))
    assert off_board is not None and "e1" in off_board.message


def test_point_off_the_board_anywhere_in_a_capture_is_no_such_point() -> None:
    state = play(JUMP_READY, variant())
    assert code(state, "a1xa3xe3") == "NO_SUCH_POINT"
    assert code(state, "e1xa3") == "NO_SUCH_POINT"


def test_game_over_comes_before_not_your_turn() -> None:
    state = play("a1 b1 a2 b2 a3 b3 a4 b4 a5 b5", variant(2, "5,5"))
    illegal = state.check(ENGINE.parse_move(state.variant, "c1"), seat=1)
    assert illegal is not None and illegal.code == "GAME_ALREADY_OVER"


def test_resign_is_legal_for_the_seat_to_move_and_not_listed() -> None:
    state = play("c7", variant(3))
    assert state.check((), seat=2) is None
    assert state.check((), seat=3) is not None
    assert () not in state.legal_moves()
