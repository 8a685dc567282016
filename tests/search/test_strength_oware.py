"""The lockstep referee of ``bench.strength_oware``: Oh-Wah-Ree and OpenSpiel's Oware move for move.

The scripted games were found by playing random Oh-Wah-Ree moves through the referee; each
test checks the referee's verdict against what the two engines themselves show at that ply.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

import pytest

from bench.strength_oware import (
    FEEDING,
    GRAND_SLAM,
    MORE_THAN_HALF,
    NO_FEEDING_MOVE,
    REPETITION,
    GamerecSide,
    Lockstep,
    OpenSpielSide,
    Side,
    adjudicate,
    oware_action,
    oware_board,
    play_game,
    report,
)
from gamerec.validator.games.ohwahree import OhWahReeState, OhWahReeVariant
from gamerec.validator.tables import open_table
from gamerec.validator.tables.build import solve
from gamerec.validator.tables.tablefile import encode

pyspiel: Any = pytest.importorskip("pyspiel", reason="OpenSpiel is in the bench extra")

GRAND_SLAM_GAME = [4, 10, 6, 8, 5, 9, 1, 7, 4, 11, 6, 12, 5]
FEEDING_GAME = [5, 8, 4, 11, 6, 10, 3, 11, 1, 7, 2, 9, 6, 8, 5, 7, 6, 7]
MORE_THAN_HALF_GAME = [3, 11, 3, 12, 3, 10, 5, 9, 4, 7, 2, 12, 5, 8, 1]
NO_FEEDING_MOVE_GAME = [3, 12, 6, 7, 5, 8, 2, 9, 6, 12, 1, 7, 4, 11, 4, 7, 5, 9, 3, 7, 5, 8, 2]
NO_FEEDING_MOVE_GAME += [12, 1, 9, 6, 10, 5, 12, 2, 11, 6, 12]
REPETITION_GAME = [1, 10, 1, 12, 2, 10, 3, 11, 6, 7, 4, 7, 1, 10, 6, 9, 3, 8, 3, 10, 5, 11, 3, 8]
REPETITION_GAME += [4, 10, 1, 7, 6, 8, 2, 9, 1, 12, 6, 10, 3, 9, 2, 11, 6, 10, 3, 12, 5, 12, 1]
REPETITION_GAME += [8, 4, 7, 6, 10, 5, 12, 3, 11, 6, 12, 1, 7, 4, 8, 2, 9, 5, 10, 3, 11]


def played(moves: list[int]) -> Lockstep:
    """The referee after ``moves``, each checked to leave both games coinciding but the last."""
    game = Lockstep(pyspiel)
    for ply, pit in enumerate(moves, 1):
        assert not game.over, f"the game ended before ply {ply}"
        game.play(pit)
        if ply < len(moves):
            pits, stores = oware_board(game.oware)
            assert (pits, stores) == (game.ohwahree.pits, game.ohwahree.stores)
    return game


def test_a_grand_slam_stops_the_game_at_its_ply() -> None:
    before = played(GRAND_SLAM_GAME[:-1])
    seat = before.ohwahree.to_move
    game = played(GRAND_SLAM_GAME)
    assert game.divergence is not None
    assert (game.divergence.ply, game.divergence.reason) == (13, GRAND_SLAM)
    assert game.divergence.seat == seat
    assert game.divergence.common.pits == before.ohwahree.pits  # the last common position
    # Oh-Wah-Ree took the whole row (and ended); Oware captured nothing.
    assert game.ohwahree.is_over
    assert game.ohwahree.stores[seat - 1] > before.ohwahree.stores[seat - 1]
    assert oware_board(game.oware)[1] == before.ohwahree.stores
    assert game.decided_winner() is None


def test_a_feeding_obligation_stops_the_game_at_its_ply() -> None:
    before = played(FEEDING_GAME[:-1])
    seat, pit = before.ohwahree.to_move, FEEDING_GAME[-1]
    assert pit in before.legal_pits() and pit not in before.both_legal()
    assert oware_action(seat, pit) not in before.oware.legal_actions()
    game = played(FEEDING_GAME)
    assert game.divergence is not None
    assert (game.divergence.ply, game.divergence.reason, game.divergence.seat) == (
        18,
        FEEDING,
        seat,
    )
    opponent_row = game.divergence.common.pits[6:] if seat == 1 else game.divergence.common.pits[:6]
    assert not any(opponent_row)


def test_oware_ending_at_more_than_half_decides_the_same_winner() -> None:
    game = played(MORE_THAN_HALF_GAME)
    assert game.divergence is not None
    assert (game.divergence.ply, game.divergence.reason) == (15, MORE_THAN_HALF)
    assert game.divergence.seat == 3 - game.ohwahree.to_move
    assert game.oware.is_terminal() and not game.ohwahree.is_over
    winner = game.decided_winner()
    assert winner is not None and game.ohwahree.stores[winner - 1] > 24
    assert game.oware.returns()[winner - 1] == 1.0


def test_a_repetition_ends_oware_and_stops_the_game() -> None:
    game = played(REPETITION_GAME)
    assert game.divergence is not None
    assert (game.divergence.ply, game.divergence.reason) == (68, REPETITION)
    assert game.oware.is_terminal() and not game.ohwahree.is_over


def test_a_game_finished_under_both_rule_sets_is_scored_the_same_by_both() -> None:
    game = played(NO_FEEDING_MOVE_GAME)
    assert game.finished and game.divergence is None and game.ending == NO_FEEDING_MOVE
    assert game.oware.is_terminal() and not game.ohwahree.is_over
    scores = game.final_scores()
    assert scores == oware_board(game.oware)[1]
    for pit in game.legal_pits():  # Oh-Wah-Ree ends one ply later, whatever is sown
        after = game.ohwahree.copy()
        after.play(after.legal_moves()[game.legal_pits().index(pit)])
        assert after.is_over and after.scores() == scores
    first, second = scores
    assert game.decided_winner() == (0 if first == second else 1 if first > second else 2)


def test_no_random_game_ends_at_the_same_ply_under_both_rule_sets() -> None:
    rng = random.Random(3)
    for _ in range(60):
        game = Lockstep(pyspiel)
        while not game.over:
            game.play(rng.choice(game.legal_pits()))
        assert not game.ohwahree.is_over or game.divergence is not None


def test_the_referee_refuses_a_move_neither_rule_set_allows() -> None:
    game = Lockstep(pyspiel)
    with pytest.raises(ValueError, match="either game"):
        game.play(7)  # seat 2's pit, seat 1 to move


def test_the_openspiel_side_stops_at_its_deadline() -> None:
    side = OpenSpielSide(0.0)  # already late: the first simulation with a choice is the last
    choice = side.choose(Lockstep(pyspiel))
    assert choice.work == 2 and choice.pit in range(1, 7)


def test_a_short_match_game_is_recorded_whole() -> None:
    sides: dict[int, Side] = {1: OpenSpielSide(0.0), 2: GamerecSide(0.005)}
    record = play_game(pyspiel, sides, [3, 10])
    moves = sum(len(choices) for choices in record.choices.values())
    assert record.plies == 2 + moves and (record.opening, record.gamerec_seat) == (2, 2)
    assert (record.divergence is None) == (record.scores is not None)
    text = report([record], None)
    assert "of 1 games" in text
    if record.divergence is not None:
        mover = "gamerec search" if record.divergence.seat == 2 else "OpenSpiel MCTS"
        assert f"ply {record.divergence.ply}, {record.divergence.reason} by {mover}" in text
    assert f"gamerec search: {len(record.choices['gamerec search'])} moves" in text


def test_a_position_where_perfect_play_never_ends_is_adjudicated_by_stores_and_says_so(
    tmp_path: Path,
) -> None:
    path = tmp_path / "t3.owrt"
    path.write_bytes(encode(solve(3)))
    table = open_table(path)
    pits = [0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 1]  # docs/tables.md: seat 1 can end it, or stall
    endless = OhWahReeState.from_position(OhWahReeVariant(2), pits, (30, 16), to_move=1)
    assert adjudicate(endless, lambda _: None, table) == (
        "stores; the table: perfect play never ends there",
        14,
    )
    assert adjudicate(endless, lambda _: None) == ("stores", 14)  # no table: nothing to say


def test_a_stopped_game_is_adjudicated_by_the_table_where_it_covers_the_position() -> None:
    game = played(GRAND_SLAM_GAME)
    assert game.divergence is not None
    common = game.divergence.common
    assert adjudicate(common, lambda state: 5 if state is common else None) == ("exact", 5)
    assert adjudicate(common, lambda _: None) == ("stores", common.stores[0] - common.stores[1])
    assert adjudicate(common, None) == ("stores", common.stores[0] - common.stores[1])
