"""The worked examples (§9) and perft counts of the rules documents, through the references.

The references must reproduce every example before their disagreements with the engines mean
anything. Positions are compared as plain dicts and lists, written as the rules write them.
"""

from __future__ import annotations

from typing import TypeVar

import pytest

from tests.reference.aronda_rules import (
    CAPACITY,
    EDGE,
    NEIGHBOURS,
    ArondaRules,
    ArondaState,
)
from tests.reference.ohwahree_rules import (
    OhWahReeRules,
    OhWahReeState,
    default_rules,
    pits_of,
)
from tests.reference.one_rules import OneBoard, OneRules, OneState
from tests.reference.oust_rules import OustBoard, OustRules, OustState
from tests.reference.standing import ReferenceState

State = TypeVar("State", bound=ReferenceState)


def played(state: State, moves: str) -> State:
    """Play ``1. a1 2. b2 ...`` (move numbers dropped) on ``state`` and return it."""
    for token in moves.split():
        if not token.endswith("."):
            state.play(token)
    return state


def perft(state: ReferenceState, depth: int, whole_turns: bool = False) -> int:
    """perft.md: leaves of the legal-move tree; a finished game is one leaf."""
    if depth == 0 or state.is_over:
        return 1
    if whole_turns:
        assert isinstance(state, OustState)
        moves = state.legal_turns()
    else:
        moves = state.legal_tokens()
    total = 0
    for move in moves:
        child = state.copy()
        child.play(move)
        total += perft(child, depth - 1, whole_turns)
    return total


# -- ONE ------------------------------------------------------------------------------------


def test_one_default_board_matches_the_table_of_section_2_2() -> None:
    board = OneBoard((10, 10, 20, 20))
    assert len(board.points) == 60
    assert sum(len(n) for n in board.adjacent.values()) == 2 * 100
    assert len(board.jumps) == 160
    assert board.adjacent["c1"] == {"c20", "c2", "b1", "d1"}
    assert board.adjacent["c2"] == {"c1", "c3", "d2"}
    assert board.adjacent["b10"] == {"b9", "b1", "a10", "c19"}
    landings_from_a1 = {t: q for (p, t), q in board.jumps.items() if p == "a1"}
    assert landings_from_a1 == {"a3": "a2", "a9": "a10", "c1": "b1"}
    landings_from_c2 = {t: q for (p, t), q in board.jumps.items() if p == "c2"}
    assert landings_from_c2 == {"c4": "c3", "c20": "c1"}
    assert [board.opposite(p) for p in ("a1", "b3", "c7", "d10")] == ["a6", "b8", "c17", "d20"]
    degrees = {p: len(n) for p, n in board.adjacent.items()}
    assert {degrees[f"c{j}"] for j in range(1, 21, 2)} == {4}
    assert {degrees[f"c{j}"] for j in range(2, 21, 2)} == {3}


def test_one_e1_anti_mirror() -> None:
    for mirror, legal in (("first", False), ("every", False), ("none", True)):
        state = played(OneState(OneRules(2, mirror=mirror)), "1. c7")
        assert (state.why_illegal("c17") is None) is legal
    first = played(OneState(OneRules(2, mirror="first")), "1. c7 2. c1")
    assert first.why_illegal("c11") is None
    every = played(OneState(OneRules(2, mirror="every")), "1. c7 2. c1")
    assert every.why_illegal("c11") == "mirror"


def test_one_e2_two_jumps_two_opponents_change_of_line() -> None:
    state = played(OneState(OneRules(3)), "1. c7 2. c8 3. b5 4. d1 5. d2 6. d3")
    assert state.why_illegal("c7xc9") is None
    assert state.why_illegal("c7xa5") == "not a jump"
    assert {"c7xc9", "c7xc9xa5"} <= state.legal_tokens()
    state.play("c7xc9xa5")
    assert state.stone_at == {"a5": 1, "d1": 1, "d2": 2, "d3": 3}
    assert state.supply == {1: 18, 2: 18, 3: 18}
    assert state.captured == {1: 2, 2: 0, 3: 0}
    assert state.scores() == (5, 1, 1)


E3 = "1. a1 2. a2 3. b1 4. a1xa3 5. b3 6. b2 7. a4 8. a2 9. a6 10. b5 11. b4 12. b6"


def test_one_e3_round_completion_and_tie() -> None:
    state = OneState(OneRules(3, rings=(6, 6)))
    played(state, "1. a1")
    assert state.why_illegal("a4") == "mirror"
    played(state, " ".join(E3.split()[2:22]))
    assert state.supply == {1: 1, 2: 0, 3: 1} and state.ending and not state.is_over
    state.play("b6")
    assert state.is_over and state.to_move == 0
    assert sorted(state.board.points) == sorted([*state.stone_at, "a1", "a5"])
    assert state.scores() == (4, 2, 4)
    assert state.ranking() == (1, 3, 1) and state.winners() == (1, 3)
    tiebroken = played(OneState(OneRules(3, rings=(6, 6), tiebreak="largest-group")), E3)
    assert tiebroken.ranking() == (2, 3, 1) and tiebroken.winners() == (3,)


def test_one_e4_resignation_then_trigger_by_the_last_seat() -> None:
    moves = E3.replace("11. b4", "11. resign")
    state = played(OneState(OneRules(3, rings=(6, 6))), moves)
    assert state.is_over and state.plies == 12
    assert state.scores() == (4, 1, 4)
    assert state.ranking() == (1, 3, 1) and state.winners() == (1, 3)


def test_one_perft_shallow() -> None:
    assert perft(OneState(OneRules(2)), 2) == 3480
    assert perft(OneState(OneRules(3)), 2) == 3480
    assert perft(OneState(OneRules(2, rings=(10, 10, 20))), 2) == 1520


@pytest.mark.slow
def test_one_perft_deep() -> None:
    assert perft(OneState(OneRules(2)), 3) == 202000
    assert perft(OneState(OneRules(3)), 3) == 201840
    assert perft(OneState(OneRules(2, rings=(10, 10, 20))), 3) == 57860


# -- Aronda ---------------------------------------------------------------------------------


def formula_neighbours(field: str) -> set[str]:
    """§2 "the same table as a rule", written independently of the literal table."""

    def wrap(k: int) -> int:
        return (k - 1) % 8 + 1

    if field == "c":
        return {f"i{k}" for k in range(1, 9)}
    ring, k = field[0], int(field[1:])
    if ring == "i":
        return {"c", f"i{wrap(k - 1)}", f"i{wrap(k + 1)}", f"m{k}", f"m{wrap(k + 1)}"}
    if ring == "m":
        found = {f"m{wrap(k - 1)}", f"m{wrap(k + 1)}", f"i{wrap(k - 1)}", f"i{k}", f"o{k}"}
        return found | ({f"o{wrap(k - 1)}", f"o{wrap(k + 1)}"} if k % 2 else set())
    found = {f"o{wrap(k - 1)}", f"o{wrap(k + 1)}", f"m{k}"}
    return found | (set() if k % 2 else {f"m{wrap(k - 1)}", f"m{wrap(k + 1)}"})


def test_aronda_table_agrees_with_the_formula_and_totals() -> None:
    assert {f: formula_neighbours(f) for f in NEIGHBOURS} == NEIGHBOURS
    assert sum(len(n) for n in NEIGHBOURS.values()) == 2 * 64
    assert sorted(f for f, c in CAPACITY.items() if c == 2) == ["o1", "o3", "o5", "o7"]
    assert sorted(f for f, c in CAPACITY.items() if c == 4) == ["c", "m1", "m3", "m5", "m7"]
    for field, neighbours in NEIGHBOURS.items():
        if field != "c":
            assert CAPACITY[field] == len(neighbours) // 2 + 1


def test_aronda_e1_first_turn_is_one_edge_piece() -> None:
    state = ArondaState(ArondaRules())
    assert state.legal_tokens() == EDGE
    assert state.why_illegal("o1,o2") is not None


def test_aronda_e2_first_piece_opens_the_field_behind_it() -> None:
    state = played(ArondaState(ArondaRules()), "1. o8")
    assert state.why_illegal("o8,m7") is None
    assert state.why_illegal("m7,o8") == "not connected"
    seconds = {t.split(",")[1] for t in state.legal_tokens() if t.startswith("o8,")}
    assert seconds == EDGE | {"m1", "m7", "m8"}


def test_aronda_e3_possession_from_inside() -> None:
    state = played(ArondaState(ArondaRules()), "1. o1 2. o4,o6 3. o1,m1")
    assert state.owner == {"o1": 1}
    pieces = {f: p for f, p in state.pieces.items() if p != {1: 0, 2: 0}}
    assert pieces == {"m1": {1: 1, 2: 0}, "o4": {1: 0, 2: 1}, "o6": {1: 0, 2: 1}}
    assert (state.supply(1), state.supply(2), state.to_move) == (15, 14, 2)


def test_aronda_e4_inside_then_outside() -> None:
    state = ArondaState(ArondaRules())
    supplies = []
    for token in ("o4", "o5,o6", "o4,o4", "o8,o8", "o6,o6", "o8,o1", "o6,m5"):
        state.play(token)
        supplies.append((state.supply(1), state.supply(2)))
    assert supplies == [(15, 16), (15, 14), (16, 14), (16, 12), (14, 12), (14, 13), (15, 15)]
    assert state.owner == {"o4": 1, "o5": 1, "o6": 1, "o8": 2}
    assert state.pieces["m5"] == {1: 1, 2: 0} and state.pieces["o1"] == {1: 0, 2: 1}
    assert state.scores() == (3, 1)
    seat_2_fields = {f for f in NEIGHBOURS if state.piece_refusal(f, 2) is None}
    assert seat_2_fields == {"o1", "o2", "o3", "o7", "m1", "m7", "m8"}


def test_aronda_perft_shallow() -> None:
    assert perft(ArondaState(ArondaRules()), 2) == 640


@pytest.mark.slow
def test_aronda_perft_deep() -> None:
    assert perft(ArondaState(ArondaRules()), 3) == 74508


# -- Oust -----------------------------------------------------------------------------------


def test_oust_board_of_section_2() -> None:
    assert [len(OustBoard(n).cells) for n in (3, 6, 7, 8)] == [19, 91, 127, 169]
    board = OustBoard(7)
    assert board.neighbours["g7"] == {"f7", "h7", "g8", "f8", "g6", "h6"}
    assert board.neighbours["a7"] == {"b7", "a8", "b6"}
    assert [c for c in board.cells if c.endswith("13") and len(c) == 3] == [
        f"{letter}13" for letter in "abcdefg"
    ]
    assert sorted(len(n) for n in board.neighbours.values()).count(3) == 6


def test_oust_e1_pie_rule_and_immediate_win() -> None:
    state = played(OustState(OustRules(7)), "1. g7 2. h7")
    assert state.why_illegal("f7,e5") == "turn already ended"
    state.play("f7")
    assert state.is_over and state.scores() == (1, 0) and state.winners() == (1,)
    swapped = played(OustState(OustRules(7)), "1. g7 2. swap 3. h7")
    assert swapped.stone_at == {"g7": 2, "h7": 1}
    swapped.play("f7")
    assert swapped.is_over and swapped.scores() == (0, 1) and swapped.winners() == (2,)
    no_pie = played(OustState(OustRules(7, pie=False)), "1. g7")
    assert no_pie.why_illegal("swap") == "swap not allowed"


def test_oust_e2_one_placement_removes_two_groups_and_the_turn_goes_on() -> None:
    state = played(OustState(OustRules(7)), "1. g7 2. h7 3. c8 4. i7,c9 5. g8 6. f7 7. g6 8. k5")
    assert state.stone_at == {
        **dict.fromkeys(["c8", "g6", "g8"], 1),
        **dict.fromkeys(["c9", "f7", "h7", "i7", "k5"], 2),
    }
    assert state.why_illegal("g7") == "must place again"
    assert state.why_illegal("g7,h6") == "no enemy contact"
    assert state.why_illegal("g7,d9") is None
    state.play("g7,b9,k9")
    assert state.stone_at == {**dict.fromkeys(["b9", "c8", "g6", "g7", "g8", "k9"], 1), "k5": 2}
    assert state.to_move == 2


OUST_E3 = "1. e2 2. c3 3. b2 4. c2,a3 5. d1 6. b2,a5 7. d4 8. e3 9. b4 10. e1 11. d1 12. c5"


def test_oust_e3_forced_pass() -> None:
    state = played(OustState(OustRules(3)), OUST_E3)
    assert state.legal_tokens() == {"pass"}
    assert state.why_illegal("b5") is not None
    state.play("pass")
    state.play("d2,d3")
    assert state.is_over and state.scores() == (0, 1) and state.winners() == (2,)


def test_oust_e4_no_placement_after_capture() -> None:
    state = played(OustState(OustRules(3)), "1. c1 2. c4 3. d4 4. e1 5. d1,a5 6. b5,e2")
    assert not any(state.stone_at.get(c) == 1 for c in ("d4", "a5"))
    played(state, "7. e3 8. b3 9. c5 10. d4")
    assert state.stone_at == {
        **dict.fromkeys(["c1", "d1"], 1),
        **dict.fromkeys(["b3", "b5", "c4", "d4", "e2"], 2),
    }
    assert state.to_move == 1 and not state.is_over


def test_oust_perft_shallow() -> None:
    assert perft(OustState(OustRules(3)), 3, whole_turns=True) == 5220
    assert perft(OustState(OustRules(3, pie=False)), 3, whole_turns=True) == 4878
    assert perft(OustState(OustRules(7)), 2, whole_turns=True) == 16129


@pytest.mark.slow
def test_oust_perft_deep() -> None:
    assert perft(OustState(OustRules(3)), 4, whole_turns=True) == 155514
    assert perft(OustState(OustRules(3, pie=False)), 4, whole_turns=True) == 150636


# -- Oh-Wah-Ree -----------------------------------------------------------------------------


def test_ohwahree_pits_of_section_2() -> None:
    assert [pits_of(s, 2) for s in (1, 2)] == [[1, 2, 3, 4, 5, 6], [7, 8, 9, 10, 11, 12]]
    assert [pits_of(s, 3) for s in (1, 2, 3)] == [[1, 2, 3, 4], [9, 10, 11, 12], [5, 6, 7, 8]]
    assert [pits_of(s, 4) for s in (1, 2, 3, 4)] == [[1, 2, 3], [10, 11, 12], [7, 8, 9], [4, 5, 6]]


def pits(state: OhWahReeState) -> list[int]:
    """Pits 1..12 as the examples list them."""
    return [state.stones[p] for p in range(1, 13)]


def test_ohwahree_e1_two_seats_two_pit_chain() -> None:
    state = OhWahReeState(default_rules(2))
    after = []
    for token in ("1", "7", "2", "9", "3", "8"):
        state.play(token)
        after.append(" ".join(map(str, pits(state))))
    assert after == [
        "0 5 5 5 5 4 4 4 4 4 4 4",
        "0 5 5 5 5 4 0 5 5 5 5 4",
        "0 0 6 6 6 5 1 5 5 5 5 4",
        "1 1 6 6 6 5 1 5 0 6 6 5",
        "1 1 0 7 7 6 2 6 1 6 6 5",
        "0 0 0 7 7 6 2 0 2 7 7 6",
    ]
    assert state.store == {1: 0, 2: 4} and state.scores() == (20, 28)


def test_ohwahree_e2_three_seats_cw_chain_through_two_opponents() -> None:
    state = played(OhWahReeState(default_rules(3)), "1. 4ccw 2. 9ccw 3. 5ccw 4. 1ccw")
    assert pits(state) == [0, 5, 5, 1, 1, 7, 6, 6, 1, 6, 5, 5]
    state.play("10cw")
    assert pits(state) == [0, 5, 5, 0, 0, 8, 7, 7, 2, 0, 5, 5]
    assert state.store == {1: 0, 2: 4, 3: 0} and state.scores() == (10, 16, 22)
    assert state.to_move == 3


def test_ohwahree_e3_four_seats_six_stones() -> None:
    state = played(OhWahReeState(default_rules(4)), "1. 1cw 2. 10ccw 3. 8cw")
    assert pits(state) == [0, 8, 8, 8, 8, 7, 8, 0, 7, 0, 8, 8]
    assert state.store == {1: 0, 2: 0, 3: 2, 4: 0} and state.scores() == (16, 16, 17, 23)
    assert state.to_move == 4
    fixed = OhWahReeState(OhWahReeRules(4, 6, "ccw"))
    assert fixed.why_illegal("1cw") == "direction not allowed"
    assert fixed.why_illegal("1ccw") is None and fixed.why_illegal("1") is None


def test_ohwahree_e4_sowing_twelve_or_more_skips_the_origin() -> None:
    state = OhWahReeState(default_rules(2))
    state.set_up([2, 0, 1, 1, 0, 12, 1, 1, 0, 4, 1, 0], [12, 13], 1)
    state.play("6")
    assert pits(state) == [3, 1, 2, 2, 1, 0, 0, 2, 1, 5, 2, 1]
    assert state.store == {1: 15, 2: 13} and state.scores() == (24, 24)
    state = OhWahReeState(default_rules(2))
    state.set_up([2, 0, 17, 1, 0, 3, 0, 1, 0, 4, 1, 0], [9, 10], 1)
    state.play("3")
    assert pits(state) == [3, 1, 0, 3, 2, 5, 0, 0, 0, 5, 2, 1]
    assert state.store == {1: 16, 2: 10} and state.scores() == (30, 18)


def test_ohwahree_e5_two_seats_the_end() -> None:
    state = OhWahReeState(default_rules(2))
    state.set_up([0, 0, 0, 0, 0, 1, 1, 3, 2, 0, 0, 0], [21, 20], 1)
    state.play("6")
    assert state.store[1] == 23 and not state.is_over and state.to_move == 2
    state.play("9")
    assert state.is_over and pits(state) == [0, 0, 0, 0, 0, 0, 0, 3, 0, 1, 1, 0]
    assert state.scores() == (23, 25) and state.winners() == (2,)


def test_ohwahree_e6_three_seats_a_skip_and_the_end() -> None:
    state = OhWahReeState(default_rules(3))
    state.set_up([0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0], [16, 15, 15], 1)
    state.play("3ccw")
    assert state.to_move == 3 and state.skips_in_a_row == 1
    state.play("5cw")
    assert state.is_over and state.store == {1: 16, 2: 15, 3: 17}
    assert state.scores() == (16, 15, 17) and state.ranking() == (2, 3, 1)


def test_ohwahree_perft_shallow() -> None:
    assert perft(OhWahReeState(default_rules(2)), 5) == 5219
    assert perft(OhWahReeState(default_rules(3)), 4) == 3670
    assert perft(OhWahReeState(default_rules(4)), 4) == 1296


@pytest.mark.slow
def test_ohwahree_perft_deep() -> None:
    assert perft(OhWahReeState(default_rules(2)), 7) == 139157
    assert perft(OhWahReeState(default_rules(3)), 5) == 26252
    assert perft(OhWahReeState(default_rules(4)), 5) == 7446
