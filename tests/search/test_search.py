"""The search: forced wins at the right depth, seeded reproducibility, limits, the exact hook."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor
from typing import Any

import pytest

from gamerec.validator.analysis.searcher import evaluation_of
from gamerec.validator.games.protocol import GameState
from gamerec.validator.search.alphabeta import CLOCK_EVERY, alphabeta
from gamerec.validator.search.core import LimitError, Limits, leads, rewards
from gamerec.validator.search.maxn import maxn
from gamerec.validator.search.mcts import mcts
from tests.search.positions import FORCED_WINS, Composed, after, position, wins_within


@pytest.mark.parametrize("case", FORCED_WINS, ids=lambda case: f"{case.game}-win-in-{case.depth}")
def test_alphabeta_finds_the_forced_win_at_its_depth(case: Composed) -> None:
    entry, _, state = position(case.game, case.seats, case.seed, case.plies)
    seat = state.to_move
    assert wins_within(state, seat, case.depth)
    assert case.depth == 1 or not wins_within(state, seat, case.depth - 2)
    found = alphabeta(state, Limits(depth=case.depth + 2), evaluation_of(entry))
    assert found.proven == case.depth
    assert found.win == tuple(1.0 if other == seat else 0.0 for other in (1, 2))
    assert wins_within(after(state, found.move), seat, case.depth - 1)
    assert len(found.pv) == case.depth


@pytest.mark.parametrize(
    "case", [case for case in FORCED_WINS if case.depth == 1], ids=lambda case: case.game
)
def test_mcts_plays_the_winning_decision(case: Composed) -> None:
    _, _, state = position(case.game, case.seats, case.seed, case.plies)
    playouts = max(400, 4 * len(state.legal_moves()))  # every decision tried, then some
    found = mcts(state, Limits(playouts=playouts), seed=3)
    # the win itself, or (Oust) a capturing placement after which the same seat wins at once
    assert wins_within(after(state, found.move), state.to_move, 3)
    assert found.win[state.to_move - 1] > 0.5


def test_the_loser_sees_its_loss_coming() -> None:
    entry, _, state = position("ONE", 2, 0, 69)
    winner = state.to_move
    line = alphabeta(state, Limits(depth=5), evaluation_of(entry)).pv
    reply = after(state, line[0])
    assert reply.to_move != winner
    found = alphabeta(reply, Limits(depth=4), evaluation_of(entry))
    assert found.proven == -2


@pytest.mark.parametrize("game", ["ONE", "Oh-Wah-Ree"])
def test_paranoid_and_maxn_take_a_win_in_one_with_three_seats(game: str) -> None:
    entry, state = _three_seat_win_in_one(game)
    seat = state.to_move
    for found in (
        alphabeta(state, Limits(depth=2), evaluation_of(entry)),
        maxn(state, Limits(depth=2), evaluation_of(entry)),
    ):
        assert after(state, found.move).winners() == (seat,)
    assert alphabeta(state, Limits(depth=2), evaluation_of(entry)).proven == 1


def _three_seat_win_in_one(game: str) -> tuple[Any, GameState[Any]]:
    """The first three-seat random game whose last ply is a sole win: the state before it."""
    for seed in range(50):
        entry, variant, end = position(game, 3, seed, 100_000)
        moves = entry.engine.random_game(variant, __import__("random").Random(seed))
        if end.is_over and len(end.winners()) == 1:
            _, _, before = position(game, 3, seed, len(moves) - 1)
            if before.to_move == end.winners()[0] and wins_within(before, before.to_move, 1):
                return entry, before
    raise AssertionError("no three-seat win in one found")


@pytest.mark.parametrize("game", ["ONE", "Aronda", "Oust", "Oh-Wah-Ree"])
def test_a_seeded_search_answers_the_same_every_time(game: str) -> None:
    entry, _, state = position(game, 2, 5, 6)
    first = mcts(state, Limits(playouts=60), seed=9)
    again = mcts(state, Limits(playouts=60), seed=9)
    assert first == again.__class__(**{**_fields(again), "seconds": first.seconds})
    assert first.visits == 60
    deep = alphabeta(state, Limits(nodes=3000), evaluation_of(entry))
    deep_again = alphabeta(state, Limits(nodes=3000), evaluation_of(entry))
    assert (deep.move, deep.pv, deep.score, deep.depth) == (
        deep_again.move,
        deep_again.pv,
        deep_again.score,
        deep_again.depth,
    )


def _fields(result: Any) -> dict[str, Any]:
    return {name: getattr(result, name) for name in result.__slots__}


def test_another_seed_explores_otherwise() -> None:
    _, _, state = position("Oh-Wah-Ree", 2, 5, 6)
    lines = {mcts(state, Limits(playouts=80), seed=seed).pv for seed in range(4)}
    assert len(lines) > 1


def test_root_parallel_workers_share_the_playouts() -> None:
    _, _, state = position("Oh-Wah-Ree", 2, 5, 6)
    with ProcessPoolExecutor(2) as pool:
        found = mcts(state, Limits(playouts=100), seed=4, workers=2, executor=pool)
        again = mcts(state, Limits(playouts=100), seed=4, workers=2, executor=pool)
    assert found.visits == 100 and found.playouts == 100
    assert (found.move, found.win, found.pv) == (again.move, again.win, again.pv)
    assert found.move in state.legal_moves()


def test_exact_answers_replace_the_search_below_them() -> None:
    entry, _, state = position("Oh-Wah-Ree", 2, 5, 30)
    mover = state.to_move

    def seat_one_wins_by_three(position: GameState[Any]) -> int | None:
        return 3

    found = mcts(state, Limits(playouts=200), exact=seat_one_wins_by_three)
    assert found.exact
    assert found.win == (1.0, 0.0)
    assert found.margin == (3.0, -3.0)
    searched = alphabeta(state, Limits(depth=3), evaluation_of(entry), exact=seat_one_wins_by_three)
    assert searched.proven == (1 if mover == 1 else -1)
    assert searched.margin[0] == 3


def test_limits_need_a_positive_bound() -> None:
    with pytest.raises(LimitError, match="needs a limit"):
        Limits()
    with pytest.raises(LimitError, match="nodes limit must be positive"):
        Limits(nodes=-1)
    assert Limits(playouts=10).deterministic and not Limits(time=1).deterministic


def test_a_finished_game_has_nothing_to_search() -> None:
    entry, _, state = position("ONE", 2, 0, 10_000)
    assert state.is_over
    with pytest.raises(ValueError, match="nothing to search"):
        mcts(state, Limits(playouts=1))
    with pytest.raises(ValueError, match="nothing to search"):
        alphabeta(state, Limits(depth=1), evaluation_of(entry))


def test_rewards_share_first_place_and_leads_count_from_the_best_other() -> None:
    assert leads((5, 3, 1)) == (2, -2, -4)
    assert leads((4, 4)) == (0, 0)
    _, _, state = position("Oh-Wah-Ree", 2, 0, 0)
    assert rewards(state) == (0.5, 0.5)


def test_alphabeta_does_not_return_to_a_position_the_game_has_reached() -> None:
    entry, _, state = position("Oh-Wah-Ree", 3, 2, 10)
    moves = state.legal_moves()
    children = {move: after(state, move).digest() for move in moves}
    digests = list(children.values())
    free = next(move for move in moves if digests.count(children[move]) == 1)
    avoid = frozenset(digest for move, digest in children.items() if move != free)
    found = alphabeta(state, Limits(depth=2), evaluation_of(entry), avoid=avoid)
    assert found.move == free
    everywhere = frozenset(children.values())
    assert alphabeta(state, Limits(depth=2), evaluation_of(entry), avoid=everywhere).move in moves


def test_a_chained_turn_uses_up_one_step_of_depth() -> None:
    # Oust seed 0 after 46 plies: the seat to move wins within its turn, by three placements
    # (two captures, each giving the move again, then the last enemy stone taken).
    entry, _, state = position("Oust", 2, 0, 46)
    seat = state.to_move
    found = alphabeta(state, Limits(depth=1), evaluation_of(entry))
    assert (found.depth, found.proven) == (1, 3)
    assert len(found.pv) == 3
    for move in found.pv:
        assert state.to_move == seat
        state = after(state, move)
    assert state.is_over and state.winners() == (seat,)


def test_an_unfinished_iteration_plays_a_better_root_decision_it_found() -> None:
    # ONE seed 1 after 13 plies: one decision deep (51 nodes) prefers a decision that the
    # second iteration finds worse than another; 256 nodes stop that iteration half way
    # (it needs 348).
    entry, _, state = position("ONE", 2, 1, 13)
    evaluate = evaluation_of(entry)
    shallow = alphabeta(state, Limits(depth=1), evaluate)
    cut = alphabeta(state, Limits(nodes=256), evaluate)
    assert cut.depth == 1 and cut.move != shallow.move

    def two_deep(move: Any) -> int:
        """The root seat's value of ``move`` two decisions deep (its opponent's, negated)."""
        return -alphabeta(after(state, move), Limits(depth=1), evaluate).score

    assert two_deep(cut.move) > two_deep(shallow.move)
    assert cut.score == two_deep(cut.move)


def test_a_first_iteration_cut_short_still_answers() -> None:
    # Aronda seed 1 after 6 plies has 307 turns; the limit is read every CLOCK_EVERY nodes,
    # first at or after the 100th: the root, then the turns weighed before that node, which
    # ends the first iteration (one turn deep) half way.
    entry, _, state = position("Aronda", 2, 1, 6)
    moves = state.legal_moves()
    read_at = -(-100 // CLOCK_EVERY) * CLOCK_EVERY
    assert len(moves) > read_at
    found = alphabeta(state, Limits(nodes=100), evaluation_of(entry))
    assert found.depth == 0 and found.pv == (found.move,)
    # the root weighs its turns best first by the value of the position each leads to, so the
    # one it answers is the best of them all one turn deep (the first in that order)
    evaluate = evaluation_of(entry)
    values = {move: evaluate(after(state, move), state.to_move) for move in moves}
    first = sorted(moves, key=lambda move: -values[move])[0]
    assert found.move == first
    assert values[first] == max(values.values()) == found.score


def test_time_is_read_before_each_root_decision() -> None:
    # Oust seed 1 after 30 plies: a dozen captures on the board, a turn's chained decisions
    # too many for the first iteration. A time limit already reached stops the search before
    # its first root decision is searched (the nodes between two readings in the tree may
    # take longer than the time a chained decision is left), and the first decision is played.
    entry, _, state = position("Oust", 2, 1, 30)
    found = alphabeta(state, Limits(time=1e-9), evaluation_of(entry))
    assert (found.depth, found.nodes, found.pv) == (0, 1, (found.move,))
    assert found.move in state.legal_moves()


def test_the_root_weighs_its_most_promising_decisions_first() -> None:
    # The same position: the first iteration cannot finish in 1,000 nodes, so the decision
    # played is the first the root weighed; ordered by value it is the capture that removes
    # most (in the board's order it was g1, a quiet placement on the first cell).
    entry, _, state = position("Oust", 2, 1, 30)
    evaluate = evaluation_of(entry)
    found = alphabeta(state, Limits(nodes=1000), evaluate)
    assert found.depth == 0
    values = {move: evaluate(after(state, move), state.to_move) for move in state.legal_moves()}
    assert values[found.move] == max(values.values())
    assert after(state, found.move).to_move == state.to_move  # a capture: the turn goes on
