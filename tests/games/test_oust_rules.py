"""Oust rules, clause by clause (docs/rules/oust.md §2.2-§7), the worked examples §9 and every
reason code. X = seat 1, O = seat 2; pictures are drawn as in docs/rules/oust.md §2.1.
"""

from __future__ import annotations

from typing import cast

import pytest

from gamerec.validator.games.oust import (
    ENGINE,
    PASS,
    REASON_CODES,
    RESIGN,
    SWAP,
    Move,
    OustState,
    OustVariant,
    cell_code,
    parse_move,
)
from gamerec.validator.games.protocol import GameEvent, Illegal, IllegalMoveError
from tests.games.test_oust_board import codes, draw, names, picture, stones_in

SIDE_3 = OustVariant(side=3)
SIDE_7 = OustVariant()


def moves_of(record: str) -> list[Move]:
    """The plies of a move text such as ``1. g7 2. h7 3. f7`` (move numbers skipped)."""
    return [parse_move(token) for token in record.split() if not token.endswith(".")]


def replayed(variant: OustVariant, record: str) -> OustState:
    """The state after a legal record, checked by both the fast replay and play()."""
    outcome = ENGINE.replay(variant, moves_of(record))
    assert outcome.illegal is None
    state = OustState(variant)
    for move in moves_of(record):
        state.play(move)
    replayed_state = cast(OustState, outcome.state)
    assert replayed_state.digest() == state.digest()
    return replayed_state


def refusal(variant: OustVariant, record: str, move_text: str) -> Illegal:
    """check's verdict on ``move_text`` after ``record``; replay must say the same at that ply."""
    state = replayed(variant, record)
    illegal = state.check(parse_move(move_text))
    assert illegal is not None
    plies = moves_of(record)
    outcome = ENGINE.replay(variant, [*plies, parse_move(move_text)])
    assert (outcome.plies, outcome.illegal) == (len(plies), illegal)
    with pytest.raises(IllegalMoveError) as raised:
        state.copy().play(parse_move(move_text))
    assert raised.value.illegal == illegal
    return illegal


def position(text: str, variant: OustVariant = SIDE_3, to_move: int = 1) -> OustState:
    """A state set up from a picture."""
    first, second = stones_in(text, variant.side)
    return OustState.with_stones(
        variant, [cell_code(c) for c in first], [cell_code(c) for c in second], to_move
    )


def turn(text: str) -> tuple[int, ...]:
    return tuple(cell_code(name) for name in text.split(","))


# ---------------------------------------------------------------------------------------------
# §3 set-up, §2.2 groups


def test_the_board_starts_empty_and_seat_1_places_first() -> None:
    state = ENGINE.new_game(SIDE_7)
    assert state.to_move == 1 and state.ply == 0 and not state.is_over
    assert all(site.owner == 0 for site in state.position().sites)
    assert len(state.legal_moves()) == 127
    state.play(parse_move("g7"))
    assert state.owner(cell_code("g7")) == 1 and state.to_move == 2


def test_a_group_is_a_maximal_set_of_connected_stones_of_one_seat() -> None:
    state = position(
        """
             X   X  c5
           a4  b4   X  d4
         a3  b3   O  d3  e3
           b2   X   O  e2
             c1   X  e1
        """
    )
    assert names(state.group_of(cell_code("a5"))) == ["c4", "a5", "b5"]
    assert names(state.group_of(cell_code("c2"))) == ["d1", "c2"]
    assert names(state.group_of(cell_code("d2"))) == ["d2", "c3"]
    assert state.group_of(cell_code("c1")) == ()


# ---------------------------------------------------------------------------------------------
# §4.1 kinds of placement


def test_a_placement_touching_no_own_stone_is_non_capturing_and_legal_even_next_to_enemies() -> (
    None
):
    state = position(
        """
             a5  b5  c5
           a4  b4  c4  d4
         a3  b3   O   O  e3
           b2  c2  d2  e2
             c1  d1  e1
        """
    )
    assert state.check(turn("c2")) is None
    events = state.play(turn("c2"))
    assert events == ()
    assert state.to_move == 2
    assert names(state.stones(2)) == ["c3", "d3"]


def test_joining_own_stones_without_touching_an_enemy_group_is_illegal() -> None:
    state = position(
        """
             a5  b5  c5
           a4  b4  c4  d4
         a3  b3   X  d3  e3
           b2  c2  d2  e2
             c1  d1   O
        """
    )
    assert state.check(turn("d3")) == Illegal(
        "NO_ENEMY_CONTACT",
        "placement d3: it joins own stones into a group of 2 that touches no enemy group "
        "(docs/rules/oust.md §4.1)",
    )


def test_touching_an_enemy_group_of_the_same_size_is_illegal() -> None:
    state = position(
        """
             a5  b5  c5
           a4  b4  c4  d4
         a3   X  c3  d3  e3
           b2   O   O  e2
             c1  d1  e1
        """
    )
    assert state.check(turn("c3")) == Illegal(
        "ENEMY_NOT_SMALLER",
        "placement c3: it joins own stones into a group of 2 that touches the enemy group "
        "c2 d2 of 2, which is not smaller (docs/rules/oust.md §4.1)",
    )


def test_touching_a_larger_enemy_group_is_illegal_even_if_another_is_smaller() -> None:
    state = position(
        """
             a5  b5  c5
           a4  b4  c4  d4
         a3   X  c3   O  e3
           b2   O   O   O
             c1  d1  e1
        """
    )
    assert state.check(turn("c3")).code == "ENEMY_NOT_SMALLER"  # type: ignore[union-attr]


def test_a_capture_removes_every_enemy_group_it_touches_and_nothing_else() -> None:
    state = position(
        """
             a5  b5  c5
           a4  b4  c4  d4
         a3   X  c3   O  e3
           b2   O  d2  e2
             c1  d1   O
        """
    )
    events = state.play(turn("c3,a5"))
    assert events[0] == GameEvent("capture", 1, ("c2", "d3"), 2)
    assert draw(state) == picture(
        """
              X  b5  c5
           a4  b4  c4  d4
         a3   X   X  d3  e3
           b2  c2  d2  e2
             c1  d1   O
        """
    )


def test_enemy_groups_touching_the_old_part_of_the_group_count_too() -> None:
    blocked = position(
        """
             a5  b5  c5
            O  b4  c4  d4
          O   X  c3  d3  e3
           b2  c2  d2  e2
             c1  d1   O
        """
    )
    assert blocked.check(turn("c3")) == Illegal(
        "ENEMY_NOT_SMALLER",
        "placement c3: it joins own stones into a group of 2 that touches the enemy group "
        "a3 a4 of 2, which is not smaller (docs/rules/oust.md §4.1)",
    )
    capturing = position(
        """
             a5  b5  c5
           a4  b4  c4  d4
          O   X  c3  d3  e3
           b2  c2  d2  e2
             c1  d1   O
        """
    )
    capturing.play(turn("c3,a5"))
    assert names(capturing.stones(2)) == ["e1"]


def test_sizes_compare_the_whole_merged_group() -> None:
    state = position(
        """
              O  b5  c5
           a4  b4  c4  d4
         a3   X  c3   X  e3
           b2   O   O  e2
             c1  d1  e1
        """
    )
    events = state.play(turn("c3,e1"))
    assert events[0] == GameEvent("capture", 1, ("c2", "d2"), 2)
    assert names(state.group_of(cell_code("c3"))) == ["b3", "c3", "d3"]


def test_an_enemy_group_touching_the_new_group_in_several_places_is_removed_once() -> None:
    state = position(
        """
             a5  b5   O
           a4   X  c4  d4
         a3   X  c3   X  e3
           b2   O   O  e2
             c1  d1  e1
        """
    )
    events = state.play(turn("c3,e1"))
    assert events == (GameEvent("capture", 1, ("c2", "d2"), 2),)
    assert names(state.group_of(cell_code("c3"))) == ["b3", "c3", "d3", "b4"]


# ---------------------------------------------------------------------------------------------
# §4.2 a turn


def test_after_a_non_capturing_placement_the_turn_ends() -> None:
    assert refusal(SIDE_7, "", "g7,h7") == Illegal(
        "TURN_ALREADY_ENDED",
        "second placement h7: the turn ended with the non-capturing placement g7 "
        "(docs/rules/oust.md §4.2)",
    )


def test_after_a_capture_the_mover_must_place_again_while_it_can() -> None:
    record = "1. g7 2. h7 3. c8 4. i7,c9 5. g8 6. f7 7. g6 8. k5"
    assert refusal(SIDE_7, record, "g7") == Illegal(
        "MUST_PLACE_AGAIN",
        "the turn ends with the capturing placement g7, but seat 1 has a legal placement "
        "left and must place again (docs/rules/oust.md §4.2)",
    )
    assert refusal(SIDE_7, record, "g7,b9").code == "MUST_PLACE_AGAIN"


def test_after_a_capture_with_no_legal_placement_left_the_turn_ends() -> None:
    record = "1. c1 2. c4 3. d4 4. e1 5. d1,a5 6. b5,e2 7. e3 8. b3 9. c5"
    state = replayed(SIDE_3, record)
    assert state.check(parse_move("d4")) is None
    assert refusal(SIDE_3, record, "d4,a5") == Illegal(
        "TURN_ALREADY_ENDED",
        "second placement a5: the turn ended after the capturing placement d4 because no "
        "legal placement was left (docs/rules/oust.md §4.2)",
    )


def test_the_turn_is_written_as_its_placements_every_one_but_the_last_capturing() -> None:
    state = replayed(SIDE_7, "1. g7 2. h7 3. c8 4. i7,c9")
    assert ENGINE.format_move(SIDE_7, parse_move("I7,C9")) == "i7,c9"
    assert names(state.stones(2)) == ["h7", "i7", "c9"]


# ---------------------------------------------------------------------------------------------
# §4.3 pass


def test_pass_is_illegal_while_the_mover_has_a_legal_placement() -> None:
    assert refusal(SIDE_7, "", "pass") == Illegal(
        "PASS_NOT_ALLOWED",
        "pass: seat 1 has a legal placement (such as g1) and may not pass "
        "(docs/rules/oust.md §4.3)",
    )


def test_pass_is_illegal_in_the_middle_of_a_turn() -> None:
    state = replayed(SIDE_7, "1. g7 2. h7 3. c8 4. i7,c9 5. g8 6. f7 7. g6 8. k5")
    state.place(cell_code("g7"))
    assert state.check(PASS) == Illegal(
        "PASS_NOT_ALLOWED",
        "pass: seat 1 must place again after the capturing placement g7 (docs/rules/oust.md §4.2)",
    )


def test_a_seat_without_a_legal_placement_must_pass_and_only_pass() -> None:
    state = replayed(
        SIDE_3, "1. e2 2. c3 3. b2 4. c2,a3 5. d1 6. b2,a5 7. d4 8. e3 9. b4 10. e1 11. d1 12. c5"
    )
    assert state.must_pass and state.legal_moves() == [PASS] and state.legal_placements() == []
    illegal = state.check(parse_move("b5"))
    assert illegal == Illegal(
        "ENEMY_NOT_SMALLER",
        "placement b5: it joins own stones into a group of 2 that touches the enemy group "
        "b2 c2 a3 c3 of 4, which is not smaller; seat 1 has no legal placement and must pass "
        "(docs/rules/oust.md §4.1)",
    )
    assert state.play(PASS) == (GameEvent("pass", 1),)
    assert state.to_move == 2


# Set up, not reached in play (docs/rules/oust.md §6.2 notes that searches never found it). On a3,
# X would join b2 into a group of 2 touching the O group c1 d1 e1 c2 d2 of 5; O would join
# a4 a5 b3 into a group of 4 touching the X group of 9.
BOTH_BLOCKED = """
     O   X   X
   O   X   X   X
 a3  O   X   X   X
   X   O   O   X
     O   O   O
"""


def test_when_neither_seat_can_place_the_game_ends_with_no_winner_and_no_pass() -> None:
    state = position(BOTH_BLOCKED, to_move=2)
    assert state.is_over and state.end_reason == "blocked"
    assert state.to_move == 0 and state.legal_moves() == []
    assert state.scores() == (0, 0) and state.winners() == () and state.ranking() == (1, 1)
    assert state.check(PASS) == Illegal(
        "GAME_ALREADY_OVER",
        "the game is over: neither seat has a legal placement (docs/rules/oust.md §6.2)",
    )


def test_a_turn_that_leaves_both_seats_blocked_ends_the_game() -> None:
    state = position(
        """
             O   X   X
           O   X   X   X
         a3  O   X   X   X
           b2  O   O   X
             O   O   O
        """
    )
    assert state.legal_placements() == codes("b2 a3")
    assert state.play(turn("b2")) == (GameEvent("end", 0),)
    assert state.is_over and state.scores() == (0, 0)


# ---------------------------------------------------------------------------------------------
# §4.4 pie rule


def test_swap_gives_the_first_stone_to_seat_2_and_seat_1_places_next() -> None:
    state = replayed(SIDE_7, "1. g7")
    assert SWAP in state.legal_moves()
    assert state.play(SWAP) == (GameEvent("swap", 2, ("g7",)),)
    assert state.owner(cell_code("g7")) == 2
    assert state.to_move == 1 and state.ply == 2 and not state.is_over
    assert SWAP not in state.legal_moves()


def test_swap_is_illegal_with_the_pie_rule_off() -> None:
    assert refusal(OustVariant(pie=False), "1. g7", "swap") == Illegal(
        "SWAP_NOT_ALLOWED", "swap: the pie rule is off in this game (docs/rules/oust.md §4.4)"
    )


@pytest.mark.parametrize("record", ["", "1. g7 2. h7", "1. g7 2. swap"])
def test_swap_is_legal_only_as_ply_2(record: str) -> None:
    illegal = refusal(SIDE_7, record, "swap")
    assert illegal.code == "SWAP_NOT_ALLOWED"
    assert f"this is ply {len(moves_of(record)) + 1}" in illegal.message


# ---------------------------------------------------------------------------------------------
# §6 end of game, §7 resignation


def test_a_seat_with_no_stones_before_it_has_placed_is_not_beaten() -> None:
    state = replayed(SIDE_7, "1. g7")
    assert state.stones(2) == () and not state.is_over and state.winners() == ()
    state.play(SWAP)
    assert state.stones(1) == () and not state.is_over


def test_removing_the_last_enemy_stone_wins_at_once() -> None:
    state = replayed(SIDE_7, "1. g7 2. h7")
    assert state.play(turn("f7")) == (
        GameEvent("capture", 1, ("h7",), 1),
        GameEvent("end", 1),
    )
    assert state.is_over and state.end_reason == "capture"
    assert state.scores() == (1, 0) and state.winners() == (1,) and state.ranking() == (1, 2)


def test_resign_loses_and_ends_the_game() -> None:
    state = replayed(SIDE_7, "1. g7")
    assert state.check(RESIGN) is None
    assert state.play(RESIGN) == (GameEvent("resign", 2), GameEvent("end", 1))
    assert state.is_over and state.end_reason == "resign"
    assert state.scores() == (1, 0) and state.winners() == (1,)
    assert state.position().resigned == (2,)
    assert state.check(parse_move("a7")) == Illegal(
        "GAME_ALREADY_OVER", "the game is over: seat 2 resigned (docs/rules/oust.md §7)"
    )


def test_resign_is_legal_for_a_seat_that_must_pass() -> None:
    state = replayed(
        SIDE_3, "1. e2 2. c3 3. b2 4. c2,a3 5. d1 6. b2,a5 7. d4 8. e3 9. b4 10. e1 11. d1 12. c5"
    )
    assert state.check(RESIGN) is None
    outcome = ENGINE.replay(
        SIDE_3,
        moves_of(
            "1. e2 2. c3 3. b2 4. c2,a3 5. d1 6. b2,a5 7. d4 8. e3 9. b4 10. e1 11. d1 12. c5 "
            "13. resign"
        ),
    )
    assert outcome.illegal is None and outcome.state.winners() == (2,)


# ---------------------------------------------------------------------------------------------
# §9 worked examples


def test_e1_pie_rule_and_an_immediate_win() -> None:
    state = replayed(SIDE_7, "1. g7 2. h7")
    assert draw(state) == picture(
        """
                    a13 b13 c13 d13 e13 f13 g13
                  a12 b12 c12 d12 e12 f12 g12 h12
                a11 b11 c11 d11 e11 f11 g11 h11 i11
              a10 b10 c10 d10 e10 f10 g10 h10 i10 j10
             a9  b9  c9  d9  e9  f9  g9  h9  i9  j9  k9
           a8  b8  c8  d8  e8  f8  g8  h8  i8  j8  k8  l8
         a7  b7  c7  d7  e7  f7   X   O  i7  j7  k7  l7  m7
           b6  c6  d6  e6  f6  g6  h6  i6  j6  k6  l6  m6
             c5  d5  e5  f5  g5  h5  i5  j5  k5  l5  m5
               d4  e4  f4  g4  h4  i4  j4  k4  l4  m4
                 e3  f3  g3  h3  i3  j3  k3  l3  m3
                   f2  g2  h2  i2  j2  k2  l2  m2
                     g1  h1  i1  j1  k1  l1  m1
        """
    )
    won = replayed(SIDE_7, "1. g7 2. h7 3. f7")
    assert won.is_over and won.scores() == (1, 0) and names(won.stones(1)) == ["f7", "g7"]
    assert refusal(SIDE_7, "1. g7 2. h7", "f7,e5") == Illegal(
        "TURN_ALREADY_ENDED",
        "second placement e5: the game ended when f7 removed the last enemy stone "
        "(docs/rules/oust.md §6.1)",
    )


def test_e1_after_swap_seat_2_wins_with_the_first_stone() -> None:
    state = replayed(SIDE_7, "1. g7 2. swap 3. h7")
    assert state.owner(cell_code("g7")) == 2 and state.owner(cell_code("h7")) == 1
    won = replayed(SIDE_7, "1. g7 2. swap 3. h7 4. f7")
    assert won.is_over and won.scores() == (0, 1) and won.winners() == (2,)
    assert refusal(OustVariant(pie=False), "1. g7", "swap").code == "SWAP_NOT_ALLOWED"


E2_BEFORE_PLY_9 = """
           a13 b13 c13 d13 e13 f13 g13
         a12 b12 c12 d12 e12 f12 g12 h12
       a11 b11 c11 d11 e11 f11 g11 h11 i11
     a10 b10 c10 d10 e10 f10 g10 h10 i10 j10
    a9  b9   O  d9  e9  f9  g9  h9  i9  j9  k9
  a8  b8   X  d8  e8  f8   X  h8  i8  j8  k8  l8
a7  b7  c7  d7  e7   O  g7   O   O  j7  k7  l7  m7
  b6  c6  d6  e6  f6   X  h6  i6  j6  k6  l6  m6
    c5  d5  e5  f5  g5  h5  i5  j5   O  l5  m5
      d4  e4  f4  g4  h4  i4  j4  k4  l4  m4
        e3  f3  g3  h3  i3  j3  k3  l3  m3
          f2  g2  h2  i2  j2  k2  l2  m2
            g1  h1  i1  j1  k1  l1  m1
"""

E2_AFTER_PLY_9 = """
           a13 b13 c13 d13 e13 f13 g13
         a12 b12 c12 d12 e12 f12 g12 h12
       a11 b11 c11 d11 e11 f11 g11 h11 i11
     a10 b10 c10 d10 e10 f10 g10 h10 i10 j10
    a9   X  c9  d9  e9  f9  g9  h9  i9  j9   X
  a8  b8   X  d8  e8  f8   X  h8  i8  j8  k8  l8
a7  b7  c7  d7  e7  f7   X  h7  i7  j7  k7  l7  m7
  b6  c6  d6  e6  f6   X  h6  i6  j6  k6  l6  m6
    c5  d5  e5  f5  g5  h5  i5  j5   O  l5  m5
      d4  e4  f4  g4  h4  i4  j4  k4  l4  m4
        e3  f3  g3  h3  i3  j3  k3  l3  m3
          f2  g2  h2  i2  j2  k2  l2  m2
            g1  h1  i1  j1  k1  l1  m1
"""

E2_RECORD = "1. g7 2. h7 3. c8 4. i7,c9 5. g8 6. f7 7. g6 8. k5"


def test_e2_ply_4_captures_and_goes_on_with_a_non_capturing_placement() -> None:
    state = replayed(SIDE_7, "1. g7 2. h7 3. c8")
    assert state.play(turn("i7,c9")) == (GameEvent("capture", 2, ("g7",), 1),)
    assert names(state.stones(1)) == ["c8"]


def test_e2_one_placement_removes_two_groups_and_the_turn_goes_on() -> None:
    state = replayed(SIDE_7, E2_RECORD)
    assert draw(state) == picture(E2_BEFORE_PLY_9)
    assert stones_in(E2_BEFORE_PLY_9, 7) == (["g6", "c8", "g8"], ["k5", "f7", "h7", "i7", "c9"])
    assert names(state.group_of(cell_code("h7"))) == ["h7", "i7"]
    events = state.play(turn("g7,b9,k9"))
    assert events == (
        GameEvent("capture", 1, ("f7", "h7", "i7"), 3),
        GameEvent("capture", 1, ("c9",), 1),
    )
    assert draw(state) == picture(E2_AFTER_PLY_9)
    assert state.to_move == 2 and state.ply == 9


def test_e2_placement_by_placement_with_the_alternatives_it_names() -> None:
    state = replayed(SIDE_7, E2_RECORD)
    assert state.place(cell_code("g7")) is True
    assert state.in_turn and state.to_move == 1 and state.turn_so_far == (cell_code("g7"),)
    for cell in ("h6", "h8", "f8"):
        illegal = state.check_placement(cell_code(cell))
        assert illegal == Illegal(
            "NO_ENEMY_CONTACT",
            f"second placement {cell}: it joins own stones into a group of 4 that touches no "
            "enemy group (docs/rules/oust.md §4.1)",
        )
        assert cell_code(cell) not in state.legal_placements()
    assert {cell_code("b9"), cell_code("d9"), cell_code("k9")} <= set(state.legal_placements())
    assert state.check(turn("d9")) is None  # `9. g7,d9` would also be legal
    assert state.check(turn("b9")).code == "MUST_PLACE_AGAIN"  # type: ignore[union-attr]
    assert state.place(cell_code("b9")) is True
    assert state.place(cell_code("k9")) is False
    assert draw(state) == picture(E2_AFTER_PLY_9)


def test_e2_alternative_ending_with_d9_is_legal() -> None:
    state = replayed(SIDE_7, E2_RECORD + " 9. g7,d9")
    assert names(state.stones(2)) == ["k5", "c9"]


@pytest.mark.parametrize("cell", ["h6", "h8", "f8"])
def test_e2_placements_next_to_the_new_group_are_illegal_mid_turn(cell: str) -> None:
    assert refusal(SIDE_7, E2_RECORD, f"g7,{cell}").code == "NO_ENEMY_CONTACT"


E3_RECORD = "1. e2 2. c3 3. b2 4. c2,a3 5. d1 6. b2,a5 7. d4 8. e3 9. b4 10. e1 11. d1 12. c5"

E3_BEFORE_PLY_13 = """
     O  b5   O        position before ply 13
  a4   X  c4   X
 O  b3   O  d3   O
   O   O  d2   X
    c1   X   O
"""


def test_e3_forced_pass_then_a_double_capture_wins() -> None:
    state = replayed(SIDE_3, E3_RECORD)
    assert stones_in(draw(state), 3) == stones_in(E3_BEFORE_PLY_13, 3)
    assert stones_in(E3_BEFORE_PLY_13, 3) == (
        ["d1", "e2", "b4", "d4"],
        ["e1", "b2", "c2", "a3", "c3", "e3", "a5", "c5"],
    )
    assert names(state.group_of(cell_code("a3"))) == ["b2", "c2", "a3", "c3"]
    assert state.legal_moves() == [PASS]
    assert refusal(SIDE_3, E3_RECORD, "a4").code == "ENEMY_NOT_SMALLER"
    state.play(PASS)
    events = state.play(turn("d2,d3"))
    assert events == (
        GameEvent("capture", 2, ("d1", "e2", "b4"), 3),
        GameEvent("capture", 2, ("d4",), 1),
        GameEvent("end", 2),
    )
    assert state.scores() == (0, 1) and state.winners() == (2,)
    assert replayed(SIDE_3, E3_RECORD + " 13. pass 14. d2,d3").digest() == state.digest()


E4_AFTER_PLY_10 = """
     a5   O  c5        position after ply 10
   a4  b4   O   O
 a3   O  c3  d3  e3
   b2  c2  d2   O
      X   X  e1
"""


def test_e4_a_capture_after_which_no_placement_is_legal_ends_the_turn() -> None:
    state = replayed(SIDE_3, "1. c1 2. c4 3. d4 4. e1 5. d1,a5")
    assert state.play(turn("b5,e2")) == (GameEvent("capture", 2, ("d4", "a5"), 2),)
    state = replayed(SIDE_3, "1. c1 2. c4 3. d4 4. e1 5. d1,a5 6. b5,e2 7. e3 8. b3 9. c5")
    assert state.play(turn("d4")) == (
        GameEvent("capture", 2, ("e3", "c5"), 2),
        GameEvent("turn-ended", 2, ("d4",)),
    )
    assert stones_in(draw(state), 3) == stones_in(E4_AFTER_PLY_10, 3)
    assert stones_in(E4_AFTER_PLY_10, 3) == (["c1", "d1"], ["e2", "b3", "c4", "d4", "b5"])
    assert state.to_move == 1 and not state.is_over


# ---------------------------------------------------------------------------------------------
# Reason codes not covered above


def test_not_your_turn() -> None:
    state = ENGINE.new_game(SIDE_7)
    assert state.check(parse_move("g7"), seat=2) == Illegal(
        "NOT_YOUR_TURN", "seat 2 is not to move: it is seat 1's turn (docs/rules/oust.md §4.2)"
    )
    outcome = ENGINE.replay(SIDE_7, moves_of("1. g7 2. h7"), seats=[1, 1])
    assert outcome.plies == 1 and outcome.illegal is not None
    assert outcome.illegal.code == "NOT_YOUR_TURN"


def test_game_already_over_is_checked_before_the_seat() -> None:
    state = replayed(SIDE_7, "1. g7 2. h7 3. f7")
    illegal = state.check(parse_move("a7"), seat=1)
    assert illegal == Illegal(
        "GAME_ALREADY_OVER",
        "the game is over: seat 1 removed the last enemy stone (docs/rules/oust.md §6.1)",
    )
    assert refusal(SIDE_7, "1. g7 2. h7 3. f7", "a7") == illegal


@pytest.mark.parametrize(
    ("variant", "cell"), [(SIDE_7, "a1"), (SIDE_7, "z99"), (SIDE_3, "e9"), (SIDE_3, "a0")]
)
def test_a_cell_that_is_not_on_the_board_is_no_such_cell(variant: OustVariant, cell: str) -> None:
    assert refusal(variant, "", cell) == Illegal(
        "NO_SUCH_CELL",
        f"placement {cell}: there is no such cell on the side-{variant.side} board "
        "(docs/rules/oust.md §2.1)",
    )


def test_no_such_cell_inside_a_turn_names_the_placement() -> None:
    illegal = refusal(SIDE_7, E2_RECORD, "g7,b9,z99")
    assert illegal.code == "NO_SUCH_CELL"
    assert illegal.message.startswith("third placement z99: ")


def test_occupied() -> None:
    assert refusal(SIDE_7, "1. g7", "g7") == Illegal(
        "OCCUPIED", "placement g7: the cell is occupied (docs/rules/oust.md §4.1)"
    )


def test_the_reason_codes_are_the_ten_documented_ones() -> None:
    documented = {
        "NOT_YOUR_TURN",
        "GAME_ALREADY_OVER",
        "NO_SUCH_CELL",
        "OCCUPIED",
        "NO_ENEMY_CONTACT",
        "ENEMY_NOT_SMALLER",
        "MUST_PLACE_AGAIN",
        "TURN_ALREADY_ENDED",
        "PASS_NOT_ALLOWED",
        "SWAP_NOT_ALLOWED",
    }
    assert set(ENGINE.reason_codes) == set(REASON_CODES) == documented


def test_play_leaves_the_state_unchanged_when_it_refuses() -> None:
    state = replayed(SIDE_7, E2_RECORD)
    before = state.digest()
    with pytest.raises(IllegalMoveError):
        state.play(turn("g7,b9,h6"))
    with pytest.raises(IllegalMoveError):
        state.place(cell_code("h6"))
    assert state.digest() == before and not state.in_turn


def test_a_value_that_is_not_a_move_is_a_value_error() -> None:
    state = ENGINE.new_game(SIDE_7)
    with pytest.raises(ValueError, match="not an Oust move"):
        state.check(())
    with pytest.raises(ValueError, match="not an Oust move"):
        state.check("castle")  # type: ignore[arg-type]


# ---------------------------------------------------------------------------------------------
# Snapshots and digests


def test_position_lists_every_cell_in_board_order_with_its_seat() -> None:
    snapshot = replayed(SIDE_3, "1. c1 2. e3").position()
    assert [site.name for site in snapshot.sites][:5] == ["c1", "d1", "e1", "b2", "c2"]
    assert {site.name: site.owner for site in snapshot.sites if site.owner} == {"c1": 1, "e3": 2}
    assert snapshot.to_move == 1 and snapshot.supplies == () and snapshot.captured == ()


def test_transposed_move_orders_give_equal_digests() -> None:
    one = replayed(SIDE_7, "1. g7 2. h7 3. a7 4. m7")
    other = replayed(SIDE_7, "1. a7 2. m7 3. g7 4. h7")
    assert one.digest() == other.digest()


def test_digest_tells_apart_the_seat_to_move_and_an_open_swap() -> None:
    board_x, board_o = codes("g7"), codes("")
    after_ply_1 = replayed(SIDE_7, "1. g7")
    later = OustState.with_stones(SIDE_7, board_x, board_o, to_move=2, ply=3)
    other_seat = OustState.with_stones(SIDE_7, board_x, board_o, to_move=1, ply=3)
    assert len({after_ply_1.digest(), later.digest(), other_seat.digest()}) == 3
