"""Oh-Wah-Ree: the worked examples and the rule clauses of docs/rules/ohwahree.md.

Positions are drawn as the rules text draws them: pits 1..12 in order, stores in seat order
(``"21-20"``). With two seats, seat 1 owns pits 1-6 and seat 2 pits 7-12; with three seats,
seat 1 owns 1-4, seat 2 9-12, seat 3 5-8; with four, seat 1 1-3, seat 2 10-12, seat 3 7-9,
seat 4 4-6.
"""

from __future__ import annotations

from typing import NamedTuple

import pytest

from gamerec.validator.games.ohwahree import (
    ENGINE,
    RESIGN,
    OhWahReeState,
    Sow,
    SowDirection,
    last_pit,
    pit_owners,
    seat_pits,
)
from gamerec.validator.games.protocol import GameEvent, MoveSyntaxError


def board(text: str) -> list[int]:
    """Stone counts written as in the rules: ``"0 5 5 5 5 4 4 4 4 4 4 4"``."""
    return [int(count) for count in text.split()]


def stores(text: str) -> list[int]:
    """Stores written as in the rules: ``"21-20"``."""
    return [int(count) for count in text.split("-")]


def set_up(
    players: int,
    pits: str,
    store_counts: str,
    to_move: int = 1,
    *,
    resigned: tuple[int, ...] = (),
    skipped: int = 0,
    **options: object,
) -> OhWahReeState:
    variant = ENGINE.variant(players=players, **options)
    return OhWahReeState.from_position(
        variant,
        board(pits),
        stores(store_counts),
        to_move,
        resigned=resigned,
        skipped=skipped,
    )


def play(state: OhWahReeState, tokens: str) -> list[GameEvent]:
    """Play the moves of a move text (plies separated by spaces); return all events."""
    events: list[GameEvent] = []
    for token in tokens.split():
        events.extend(state.play(ENGINE.parse_move(state.variant, token)))
    return events


def new_game(players: int, tokens: str = "", **options: object) -> OhWahReeState:
    state = ENGINE.new_game(ENGINE.variant(players=players, **options))
    play(state, tokens)
    return state


def captures(events: list[GameEvent]) -> list[tuple[int, tuple[str, ...], int]]:
    return [(event.seat, event.where, event.count) for event in events if event.kind == "capture"]


def kinds(events: list[GameEvent]) -> list[tuple[str, int]]:
    return [(event.kind, event.seat) for event in events]


# ---------------------------------------------------------------------------------------------
# §9 Worked examples
# ---------------------------------------------------------------------------------------------

E1_MOVES = "1 7 2 9 3 8"

E1_TABLE = """
ply | move | last pit | captured | pits 1..12 after        | stores
1   | 1    | 5        |          | 0 5 5 5 5 4 4 4 4 4 4 4 | 0-0
2   | 7    | 11       |          | 0 5 5 5 5 4 0 5 5 5 5 4 | 0-0
3   | 2    | 7        |          | 0 0 6 6 6 5 1 5 5 5 5 4 | 0-0
4   | 9    | 2        |          | 1 1 6 6 6 5 1 5 0 6 6 5 | 0-0
5   | 3    | 9        |          | 1 1 0 7 7 6 2 6 1 6 6 5 | 0-0
6   | 8    | 2        | 2 1      | 0 0 0 7 7 6 2 0 2 7 7 6 | 0-4
"""


class E1Row(NamedTuple):
    ply: int
    move: str
    last: int
    captured: tuple[str, ...]
    pits: list[int]
    stores: list[int]


def e1_rows() -> list[E1Row]:
    rows = []
    for line in E1_TABLE.strip().splitlines()[1:]:
        ply, move, last, captured, pits, store_counts = (cell.strip() for cell in line.split("|"))
        rows.append(
            E1Row(
                int(ply),
                move,
                int(last),
                tuple(captured.split()),
                board(pits),
                stores(store_counts),
            )
        )
    return rows


@pytest.mark.parametrize("row", e1_rows(), ids=lambda row: f"ply{row.ply}")
def test_e1_two_seats_two_pit_chain_row_by_row(row: E1Row) -> None:
    before = new_game(2, " ".join(E1_MOVES.split()[: row.ply - 1]))
    stones = before.pits[int(row.move) - 1]
    events = play(before, row.move)
    assert last_pit(int(row.move), "ccw", stones) == row.last
    assert before.pits == tuple(row.pits)
    assert before.stores == tuple(row.stores)
    taken = captures(events)
    assert [where for _, where, _ in taken] == ([row.captured] if row.captured else [])


def test_e1_ply_6_scores_20_28() -> None:
    state = new_game(2, E1_MOVES)
    assert state.scores() == (20, 28)
    assert state.to_move == 1


def test_e2_three_seats_cw_sowing_chain_through_two_opponents() -> None:
    state = new_game(3, "4ccw 9ccw 5ccw 1ccw")
    assert state.pits == tuple(board("0 5 5 1 1 7 6 6 1 6 5 5"))
    events = play(state, "10cw")
    assert captures(events) == [(2, ("4", "5"), 4)]
    assert state.pits == tuple(board("0 5 5 0 0 8 7 7 2 0 5 5"))
    assert state.stores == (0, 4, 0)
    assert state.scores() == (10, 16, 22)
    assert state.to_move == 3


def test_e3_four_seats_six_stones_per_pit() -> None:
    state = new_game(4, "1cw")
    assert state.pits == tuple(board("0 6 6 6 6 6 7 7 7 7 7 7"))
    play(state, "10ccw")
    assert state.pits[5 - 1] == 7
    events = play(state, "8cw")
    assert captures(events) == [(3, ("1",), 2)]
    assert state.pits == tuple(board("0 8 8 8 8 7 8 0 7 0 8 8"))
    assert state.stores == (0, 0, 2, 0)
    assert state.scores() == (16, 16, 17, 23)
    assert state.to_move == 4


def test_e3_with_fixed_ccw_direction_is_illegal_at_ply_1() -> None:
    variant = ENGINE.variant(players=4, direction="ccw")
    moves = [ENGINE.parse_move(variant, token) for token in ["1cw", "10ccw", "8cw"]]
    outcome = ENGINE.replay(variant, moves)
    assert outcome.plies == 0
    assert outcome.illegal is not None
    assert outcome.illegal.code == "DIRECTION_NOT_ALLOWED"


def test_e4_exactly_12_stones_skip_the_origin() -> None:
    state = set_up(2, "2 0 1 1 0 12 1 1 0 4 1 0", "12-13")
    events = play(state, "6")
    assert captures(events) == [(1, ("7",), 3)]  # pit 8 holds 2 but is not examined
    assert state.pits == tuple(board("3 1 2 2 1 0 0 2 1 5 2 1"))
    assert state.stores == (15, 13)
    assert state.scores() == (24, 24)


def test_e4_seventeen_stones_skip_the_origin() -> None:
    state = set_up(2, "2 0 17 1 0 3 0 1 0 4 1 0", "9-10")
    events = play(state, "3")
    assert captures(events) == [(1, ("9", "8", "7"), 7)]
    assert state.pits == tuple(board("3 1 0 3 2 5 0 0 0 5 2 1"))
    assert state.stores == (16, 10)
    assert state.scores() == (30, 18)


def test_e5_two_seats_the_end() -> None:
    state = set_up(2, "0 0 0 0 0 1 1 3 2 0 0 0", "21-20")
    events = play(state, "6")
    assert captures(events) == [(1, ("7",), 2)]
    assert state.stores == (23, 20)
    assert not state.is_over  # seat 1's pits are empty, but seat 2 must move first
    assert state.to_move == 2
    events = play(state, "9")
    assert captures(events) == []
    assert kinds(events) == [("end", 0)]
    assert state.is_over
    assert state.pits == tuple(board("0 0 0 0 0 0 0 3 0 1 1 0"))
    assert state.scores() == (23, 25)
    assert state.winners() == (2,)


def test_e6_three_seats_a_skip_and_the_end() -> None:
    state = set_up(3, "0 0 2 0 0 0 0 0 0 0 0 0", "16-15-15")
    events = play(state, "3ccw")
    assert kinds(events) == [("skip", 2)]
    assert state.skipped == 1
    assert state.to_move == 3
    events = play(state, "5cw")
    assert captures(events) == [(3, ("4",), 2)]
    assert kinds(events) == [("capture", 3), ("skip", 1), ("skip", 2), ("end", 0)]
    assert state.is_over
    assert state.scores() == (16, 15, 17)
    assert state.ranking() == (2, 3, 1)
    assert state.winners() == (3,)


# ---------------------------------------------------------------------------------------------
# §2 Board
# ---------------------------------------------------------------------------------------------

OWNERSHIP_TABLE = """
seats | seat 1 | seat 2 | seat 3 | seat 4
2     | 1-6    | 7-12   |        |
3     | 1-4    | 9-12   | 5-8    |
4     | 1-3    | 10-12  | 7-9    | 4-6
"""


def ownership_rows() -> list[tuple[int, list[tuple[int, ...]]]]:
    rows = []
    for line in OWNERSHIP_TABLE.strip().splitlines()[1:]:
        players, *blocks = (cell.strip() for cell in line.split("|"))
        ranges = []
        for block in blocks[: int(players)]:
            low, high = (int(end) for end in block.split("-"))
            ranges.append(tuple(range(low, high + 1)))
        rows.append((int(players), ranges))
    return rows


@pytest.mark.parametrize(("players", "blocks"), ownership_rows())
def test_each_seat_owns_its_block_of_neighbouring_pits(
    players: int, blocks: list[tuple[int, ...]]
) -> None:
    for seat, block in enumerate(blocks, 1):
        assert seat_pits(players, seat) == block
    sites = new_game(players).position().sites
    assert [site.name for site in sites] == [str(pit) for pit in range(1, 13)]
    assert tuple(site.owner for site in sites) == pit_owners(players)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_next_seats_block_lies_clockwise(players: int) -> None:
    owners = pit_owners(players)
    for seat in range(1, players + 1):
        first = seat_pits(players, seat)[0]
        clockwise_neighbour = (first - 2) % 12 + 1
        assert owners[clockwise_neighbour - 1] == seat % players + 1


def test_ring_is_closed_ccw_from_12_to_1() -> None:
    state = set_up(2, "0 0 0 0 0 1 0 0 0 0 0 2", "22-23", to_move=2)
    play(state, "12")
    assert state.pits == tuple(board("1 1 0 0 0 1 0 0 0 0 0 0"))


def test_ring_is_closed_cw_from_1_to_12() -> None:
    state = set_up(3, "2 0 0 0 0 0 0 0 0 0 0 0", "16-15-15")
    play(state, "1cw")
    assert state.pits == tuple(board("0 0 0 0 0 0 0 0 0 0 1 1"))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_turns_go_round_the_table_in_seat_order(players: int) -> None:
    state = new_game(players)
    order = []
    for _ in range(2 * players):
        order.append(state.to_move)
        state.play(state.legal_moves()[0])
    assert order == [*range(1, players + 1)] * 2


def test_pit_ownership_never_changes() -> None:
    state = new_game(3, "4ccw 9ccw 5ccw 1ccw 10cw")
    assert tuple(site.owner for site in state.position().sites) == pit_owners(3)


# ---------------------------------------------------------------------------------------------
# §3 Set-up
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("players", "stones", "total"), [(2, 4, 48), (3, 4, 48), (4, 6, 72)])
def test_every_pit_starts_with_the_stones_per_pit_and_stores_are_empty(
    players: int, stones: int, total: int
) -> None:
    state = new_game(players)
    assert state.pits == (stones,) * 12
    assert state.stores == (0,) * players
    assert sum(state.pits) == total


def test_stones_per_pit_option_sets_the_start() -> None:
    assert new_game(2, stones_per_pit=7).pits == (7,) * 12


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_1_moves_first(players: int) -> None:
    assert new_game(players).to_move == 1


# ---------------------------------------------------------------------------------------------
# §4.1 The move
# ---------------------------------------------------------------------------------------------


def test_seat_with_stones_must_move_there_is_no_pass() -> None:
    state = set_up(2, "0 0 0 1 0 0 4 0 0 0 0 0", "20-23")
    assert state.legal_moves() == [Sow(4)]
    with pytest.raises(MoveSyntaxError):
        ENGINE.parse_move(state.variant, "pass")


def test_move_names_an_own_pit_holding_a_stone() -> None:
    state = set_up(2, "0 3 0 1 0 0 4 0 0 0 0 0", "20-20")
    assert state.legal_moves() == [Sow(2), Sow(4)]


def test_two_seats_always_sow_ccw_and_write_the_bare_pit() -> None:
    state = new_game(2)
    assert state.legal_moves() == [Sow(pit) for pit in range(1, 7)]
    assert [ENGINE.format_move(state.variant, move) for move in state.legal_moves()] == [
        "1",
        "2",
        "3",
        "4",
        "5",
        "6",
    ]


def test_two_seats_accept_the_ccw_suffix_as_the_same_move() -> None:
    bare, suffixed = new_game(2), new_game(2)
    assert suffixed.check(Sow(4, "ccw")) is None
    play(bare, "4")
    play(suffixed, "4ccw")
    assert bare.digest() == suffixed.digest()


@pytest.mark.parametrize(("players", "options"), [(3, {}), (4, {}), (4, {"direction": "free"})])
def test_where_the_mover_chooses_both_directions_are_moves(
    players: int, options: dict[str, object]
) -> None:
    state = new_game(players, "", **options)
    pits = seat_pits(players, 1)
    assert state.legal_moves() == [Sow(pit, way) for pit in pits for way in ("ccw", "cw")]


def test_all_stones_of_a_move_go_the_chosen_way() -> None:
    ccw, cw = new_game(3, "2ccw"), new_game(3, "2cw")
    assert ccw.pits == tuple(board("4 0 5 5 5 5 4 4 4 4 4 4"))
    assert cw.pits == tuple(board("5 0 4 4 4 4 4 4 4 5 5 5"))


def test_four_seats_with_fixed_ccw_sow_every_move_ccw() -> None:
    state = new_game(4, direction="ccw")
    assert state.legal_moves() == [Sow(1), Sow(2), Sow(3)]
    play(state, "1")
    assert state.pits == tuple(board("0 7 7 7 7 7 7 6 6 6 6 6"))


def test_four_seats_with_fixed_ccw_accept_the_ccw_suffix_as_the_same_move() -> None:
    bare, suffixed = new_game(4, direction="ccw"), new_game(4, direction="ccw")
    play(bare, "1")
    play(suffixed, "1ccw")
    assert bare.digest() == suffixed.digest()


# ---------------------------------------------------------------------------------------------
# §4.2 Sowing
# ---------------------------------------------------------------------------------------------


def test_sowing_drops_one_stone_in_each_following_pit() -> None:
    state = new_game(2, "3")
    assert state.pits == tuple(board("4 4 0 5 5 5 5 4 4 4 4 4"))


def test_eleven_stones_give_each_other_pit_one() -> None:
    state = set_up(2, "0 0 0 0 11 0 0 0 0 0 1 0", "18-18")
    play(state, "5")
    assert state.pits == tuple(board("1 1 1 1 0 1 1 1 1 1 2 1"))


def test_twelve_stones_give_the_pit_after_the_origin_two() -> None:
    state = set_up(2, "0 12 0 0 0 0 0 0 0 0 1 0", "17-18")
    play(state, "2")
    assert state.pits == tuple(board("1 0 2 1 1 1 1 1 1 1 2 1"))


def test_origin_is_empty_after_the_move_whatever_the_count() -> None:
    state = set_up(2, "0 0 30 0 0 0 0 0 0 0 1 0", "8-9")
    play(state, "3")
    assert state.pits[3 - 1] == 0
    assert sum(state.pits) + sum(state.stores) == 48


@pytest.mark.parametrize(
    ("pit", "direction", "stones", "last"),
    [(1, "ccw", 4, 5), (1, "cw", 4, 9), (6, "ccw", 11, 5), (6, "ccw", 12, 7), (3, "ccw", 17, 9)],
)
def test_last_pit_skips_the_origin(
    pit: int, direction: SowDirection, stones: int, last: int
) -> None:
    assert last_pit(pit, direction, stones) == last


# ---------------------------------------------------------------------------------------------
# §4.3 Capture
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("before", [1, 2])
def test_last_stone_making_an_opponent_pit_hold_2_or_3_captures_it(before: int) -> None:
    state = set_up(2, f"0 0 0 0 0 1 {before} 1 0 0 0 0", f"{23 - before}-23")
    events = play(state, "6")
    assert captures(events) == [(1, ("7",), before + 1)]
    assert state.pits[7 - 1] == 0
    assert state.stores == (24, 23)


@pytest.mark.parametrize("before", [0, 3, 5])
def test_last_stone_making_anything_but_2_or_3_captures_nothing(before: int) -> None:
    state = set_up(2, f"0 0 0 0 0 1 {before} 1 0 0 0 0", f"{23 - before}-23")
    events = play(state, "6")
    assert captures(events) == []
    assert state.pits[7 - 1] == before + 1


def test_own_pit_of_2_or_3_is_never_captured() -> None:
    state = set_up(2, "1 1 0 0 0 0 1 0 0 0 0 0", "22-23")
    events = play(state, "1")
    assert captures(events) == []
    assert state.pits[2 - 1] == 2


def test_chain_goes_backwards_through_opponent_pits_of_2_or_3() -> None:
    state = set_up(2, "0 0 0 0 0 3 1 2 1 0 0 0", "20-21")
    events = play(state, "6")  # stones to 7, 8, 9: they hold 2, 3, 2
    assert captures(events) == [(1, ("9", "8", "7"), 7)]


def test_chain_stops_at_a_pit_not_holding_2_or_3() -> None:
    state = set_up(2, "0 0 0 0 0 3 1 3 1 0 0 0", "20-20")
    events = play(state, "6")  # 7, 8, 9 then hold 2, 4, 2
    assert captures(events) == [(1, ("9",), 2)]
    assert state.pits[7 - 1] == 2


def test_chain_stops_at_an_own_pit() -> None:
    state = set_up(2, "0 0 0 0 2 1 1 0 0 0 0 0", "22-22")
    events = play(state, "5")  # 6 (own) and 7 both hold 2
    assert captures(events) == [(1, ("7",), 2)]
    assert state.pits[6 - 1] == 2


def test_chain_runs_against_the_sowing_direction() -> None:
    # Three seats: seat 3 sows 2 stones cw from pit 5 into 4 and 3 (seat 1). Back against cw
    # is ccw: pit 3 (2) and pit 4 (3) are taken, then pit 5 is own. Pit 2 holds 2 but lies the
    # other way.
    state = set_up(3, "0 2 1 2 2 0 0 0 0 0 0 0", "14-14-13", to_move=3)
    events = play(state, "5cw")
    assert captures(events) == [(3, ("3", "4"), 5)]
    assert state.pits[2 - 1] == 2


def test_chain_runs_through_the_pits_of_several_opponents() -> None:
    # Four seats: seat 2 (pits 10-12) sows 4 stones cw from 10 to 9, 8, 7 (seat 3) and 6
    # (seat 4). Pit 6 holds 2, back (ccw) 7 holds 3, 8 holds 2, 9 holds 2: all taken; then 10
    # is seat 2's own: stop.
    state = set_up(4, "1 0 0 0 0 1 2 1 1 4 0 0", "15-15-16-16", to_move=2)
    events = play(state, "10cw")
    assert captures(events) == [(2, ("6", "7", "8", "9"), 9)]


def test_chain_runs_through_the_pits_of_a_resigned_seat() -> None:
    state = set_up(3, "2 0 0 1 1 1 0 0 0 0 0 0", "15-14-14", resigned=(3,))
    events = play(state, "4ccw")  # one stone into 5 (seat 3, resigned): holds 2
    assert captures(events) == [(1, ("5",), 2)]


def test_capturing_all_of_an_opponents_stones_is_allowed() -> None:
    state = set_up(2, "0 0 0 0 3 0 1 1 0 0 0 0", "20-23")
    events = play(state, "5")  # 6 (own), 7 and 8 (seat 2's only stones): 2 and 2
    assert captures(events) == [(1, ("8", "7"), 4)]
    assert state.is_over


def test_there_is_no_feeding_obligation() -> None:
    state = set_up(2, "1 0 0 0 0 1 0 0 0 0 0 0", "23-23")
    assert state.legal_moves() == [Sow(1), Sow(6)]  # 1 feeds nobody, 6 feeds seat 2
    play(state, "1")
    assert state.is_over


# ---------------------------------------------------------------------------------------------
# §5 Effects
# ---------------------------------------------------------------------------------------------


def test_a_move_changes_only_stone_counts_and_the_movers_store() -> None:
    state = new_game(2, "1 7 2 9 3")
    play(state, "8")
    assert state.stores == (0, 4)
    assert sum(state.pits) + sum(state.stores) == 48


# ---------------------------------------------------------------------------------------------
# §6.1 End, two seats
# ---------------------------------------------------------------------------------------------


def test_two_seats_game_ends_when_the_seat_to_move_has_no_stones() -> None:
    state = set_up(2, "1 0 0 0 0 1 0 0 0 0 0 0", "23-23")
    events = play(state, "1")  # into 2: seat 2 to move with no stones: the end
    assert kinds(events) == [("end", 0)]
    assert state.is_over
    assert state.to_move == 0
    assert state.legal_moves() == []


def test_two_seats_emptying_own_pits_does_not_end_the_game() -> None:
    state = set_up(2, "0 0 0 0 0 1 0 0 0 0 1 0", "23-23")
    play(state, "6")  # seat 1 empties its pits; seat 2 still has stones and moves
    assert state.to_move == 2


def test_two_seats_a_seat_with_no_stones_at_set_up_ends_the_game() -> None:
    state = set_up(2, "0 0 0 0 0 0 4 0 0 0 0 0", "22-22")
    assert state.is_over


# ---------------------------------------------------------------------------------------------
# §6.2 End, three or four seats
# ---------------------------------------------------------------------------------------------


def test_seat_with_no_stones_is_skipped_and_writes_no_ply() -> None:
    state = set_up(3, "2 0 0 1 0 0 0 0 0 0 0 0", "15-15-15")
    events = play(state, "4ccw")
    assert kinds(events) == [("skip", 2)]
    assert state.ply == 1
    assert state.to_move == 3


def test_a_move_sets_the_skip_counter_to_zero() -> None:
    state = set_up(3, "2 0 0 1 0 0 0 0 0 0 0 0", "15-15-15")
    play(state, "4ccw")
    assert state.skipped == 1
    play(state, "5ccw")
    assert state.skipped == 0


def test_skipped_seat_moves_again_when_stones_reach_it() -> None:
    state = set_up(3, "2 0 0 1 0 0 0 0 0 0 0 0", "15-15-15")
    play(state, "4ccw 5ccw")  # seat 2 skipped after 4ccw
    events = play(state, "1cw")  # stones into 12 and 11: seat 2 has stones again
    assert kinds(events) == []
    assert state.to_move == 2


def test_two_consecutive_skipped_seats_end_the_game() -> None:
    state = set_up(3, "1 0 0 0 0 0 0 0 0 0 0 0", "16-16-15")
    events = play(state, "1ccw")  # into pit 2, seat 1's own: seats 2 and 3 have nothing
    assert kinds(events) == [("skip", 2), ("skip", 3), ("end", 0)]
    assert state.is_over


def test_resign_leaves_the_skip_counter_unchanged() -> None:
    state = set_up(4, "0 0 0 0 1 0 0 0 0 1 0 1", "17-17-17-18", to_move=2)
    events = play(state, "10ccw")  # seat 3 (7-9) has nothing: skipped
    assert kinds(events) == [("skip", 3)]
    assert state.to_move == 4
    events = play(state, "resign")  # counter stays 1; seat 1 has nothing: the second skip
    assert kinds(events) == [("resign", 4), ("skip", 1), ("end", 0)]


def test_resigned_seats_are_not_examined_for_skips() -> None:
    state = set_up(3, "1 0 0 0 1 0 0 0 0 0 0 0", "15-16-15", resigned=(2,))
    events = play(state, "1ccw")
    assert kinds(events) == []
    assert state.to_move == 3
    assert state.skipped == 0


def test_skip_rule_holds_after_resignations_leave_two_seats() -> None:
    state = set_up(3, "1 1 0 0 0 0 0 0 0 0 0 0", "15-15-16", resigned=(3,))
    events = play(state, "1ccw")  # seat 2 has nothing: skipped, and seat 1 moves again
    assert kinds(events) == [("skip", 2)]
    assert state.to_move == 1
    assert not state.is_over


# ---------------------------------------------------------------------------------------------
# §6.3 Score, ranking, ties
# ---------------------------------------------------------------------------------------------


def test_score_is_the_store_plus_the_stones_left_in_own_pits() -> None:
    state = set_up(3, "1 0 0 0 2 0 0 0 0 3 0 0", "10-12-20")
    assert state.scores() == (11, 15, 22)


@pytest.mark.parametrize(
    ("store_counts", "ranking"),
    [("20-20-8", (1, 1, 3)), ("20-14-14", (1, 2, 2)), ("16-16-16", (1, 1, 1))],
)
def test_equal_scores_share_the_rank(store_counts: str, ranking: tuple[int, ...]) -> None:
    state = set_up(3, "0 0 0 0 0 0 0 0 0 0 0 0", store_counts)
    assert state.is_over
    assert state.ranking() == ranking
    assert state.winners() == tuple(seat for seat, rank in enumerate(ranking, 1) if rank == 1)


def test_two_seat_equal_scores_are_a_draw() -> None:
    state = set_up(2, "0 0 0 0 0 0 0 0 0 0 0 0", "24-24")
    assert state.is_over
    assert state.ranking() == (1, 1)
    assert state.winners() == (1, 2)


def test_no_winner_before_the_end() -> None:
    state = new_game(2, "1")
    assert state.winners() == ()
    assert state.ranking() == (1, 1)


# ---------------------------------------------------------------------------------------------
# §7 Resignation
# ---------------------------------------------------------------------------------------------


def test_two_seats_resigning_seat_loses_whatever_the_scores() -> None:
    state = set_up(2, "0 0 0 0 0 1 1 0 0 0 0 0", "40-6")
    events = play(state, "resign")
    assert kinds(events) == [("resign", 1), ("end", 0)]
    assert state.is_over
    assert state.scores() == (41, 7)
    assert state.ranking() == (2, 1)
    assert state.winners() == (2,)


def test_resign_is_the_turn_of_the_seat_to_move() -> None:
    state = new_game(3)
    illegal = state.check(RESIGN, seat=2)
    assert illegal is not None
    assert illegal.code == "NOT_YOUR_TURN"
    assert state.check(RESIGN, seat=1) is None


def test_resigned_seat_leaves_the_turn_order() -> None:
    state = new_game(3, "resign")
    assert state.resigned == (1,)
    order = []
    for _ in range(4):
        order.append(state.to_move)
        state.play(state.legal_moves()[0])
    assert order == [2, 3, 2, 3]


def test_resigned_seats_pits_stay_in_the_ring_and_count_for_it() -> None:
    state = new_game(3, "4ccw resign")  # seat 2 resigns
    play(state, "8ccw")  # seat 3 sows into 9..12, seat 2's pits
    assert state.pits[9 - 1 : 12] == (5, 5, 5, 5)
    assert state.scores()[2 - 1] == 20


def test_resigned_seats_rank_below_playing_seats_later_resignation_higher() -> None:
    state = new_game(4, "resign resign")  # seat 1, then seat 2
    assert state.resigned == (1, 2)
    assert state.scores() == (18, 18, 18, 18)
    assert state.ranking() == (4, 3, 1, 1)


def test_game_ends_when_one_seat_is_left_playing() -> None:
    state = set_up(3, "4 0 0 0 1 0 0 0 0 0 0 0", "0-0-43")
    events = play(state, "resign resign")  # seats 1 and 3 go; seat 2 is left
    assert kinds(events) == [("resign", 1), ("skip", 2), ("resign", 3), ("end", 0)]
    assert state.is_over
    assert state.winners() == (2,)
    assert state.ranking() == (3, 1, 2)
