"""The ONE state behind the protocol: snapshots, digests, copies, set-up, the fast replay."""

from __future__ import annotations

import random
from collections.abc import Hashable

import pytest

from gamerec.validator.games import engine
from gamerec.validator.games.one import ENGINE, OneEngine, OneState, OneVariant
from gamerec.validator.games.protocol import Engine, GameState, Position, Site, VariantError


def moves(text: str) -> list[tuple[int, ...]]:
    return [ENGINE.parse_move(OneVariant(players=2), token) for token in text.split()]


def state_after(text: str, variant: OneVariant | None = None) -> OneState:
    state = ENGINE.new_game(variant or OneVariant(players=2))
    for move in moves(text):
        state.play(move)
    return state


def test_engine_is_registered_as_one_and_fits_the_protocol() -> None:
    typed: Engine[OneVariant, tuple[int, ...]] = ENGINE
    state: GameState[tuple[int, ...]] = ENGINE.new_game(OneVariant(players=2))
    assert engine("one") is typed
    assert isinstance(ENGINE, OneEngine) and state.seats == 2


def test_position_lists_every_point_in_board_order() -> None:
    state = state_after("c7 c8")
    position = state.position()
    assert isinstance(position, Position)
    assert [site.name for site in position.sites[:3]] == ["a1", "a2", "a3"]
    assert position.sites[-1] == Site("d20", 0)
    assert {site.name: site.owner for site in position.sites if site.owner} == {"c7": 1, "c8": 2}
    assert (position.to_move, position.supplies, position.captured) == (1, (29, 29), (0, 0))


def test_equal_positions_by_different_move_orders_have_equal_digests() -> None:
    assert state_after("c1 c2 c3 c4").digest() == state_after("c3 c4 c1 c2").digest()


def test_digest_tells_apart_what_decides_the_future() -> None:
    base = state_after("c1 c2 c3 c4")
    assert base.digest() != state_after("c1 c2 c3 c5").digest()  # a stone
    assert base.digest() != state_after("c1 c2 c3").digest()  # seat to move, supplies
    every = OneVariant(players=2, mirror="every")
    assert base.digest() != state_after("c1 c2 c3 c4", every).digest()  # the rules
    # Same stones, supplies and seat to move; only the mirror ban on the next ply differs.
    unbanned = OneState.set_up(every, {"c1": 1}, supplies=[29, 30], to_move=2)
    assert unbanned.position() == state_after("c1", every).position()
    assert unbanned.digest() != state_after("c1", every).digest()


def test_digest_is_stable_across_processes() -> None:
    assert ENGINE.new_game(OneVariant(players=2)).digest() == "9bfcf94fd55a00ad829f940556545f39"


def test_copy_is_independent_and_equal() -> None:
    state = state_after("a1 a2 b1 b2")
    child = state.copy()
    assert child.digest() == state.digest() and child.ply == state.ply
    child.play(moves("a1xa3")[0])
    assert state.stone_at("a2") == 2 and child.stone_at("a2") == 0
    assert state.captured == (0, 0)


def test_set_up_draws_a_position_by_hand() -> None:
    state = OneState.set_up(OneVariant(players=3), {"c7": 1, "c8": 2, "b5": 3}, to_move=1)
    assert state.supplies == (19, 19, 19) and state.stones_on_board == 3
    assert state.check(moves("c7xc9")[0]) is None


@pytest.mark.parametrize(
    "arguments",
    [
        {"stones": {"e1": 1}},
        {"stones": {"c7": 4}},
        {"stones": {}, "to_move": 3},
        {"stones": {}, "supplies": [1]},
        {"stones": {}, "captured": [0, -1]},
    ],
)
def test_set_up_refuses_impossible_positions(arguments: dict[str, object]) -> None:
    with pytest.raises(VariantError):
        OneState.set_up(OneVariant(players=2), **arguments)  # type: ignore[arg-type]


def test_stone_at_a_point_not_on_the_board_is_a_key_error() -> None:
    with pytest.raises(KeyError):
        ENGINE.new_game(OneVariant(players=2)).stone_at("e1")


def test_replay_stops_at_the_first_illegal_ply_and_keeps_the_position_before_it() -> None:
    variant = OneVariant(players=2)
    outcome = ENGINE.replay(variant, moves("c7 c8 c7 c9"))
    assert outcome.plies == 2
    assert outcome.illegal is not None and outcome.illegal.code == "OCCUPIED"
    assert outcome.state.digest() == state_after("c7 c8").digest()
    assert outcome.state.ply == 2 and outcome.state.to_move == 1


def test_replay_checks_claimed_seats_and_treats_0_or_missing_as_unstated() -> None:
    variant = OneVariant(players=2)
    plies = moves("c7 c8 c9")
    assert ENGINE.replay(variant, plies, [1, 0]).illegal is None
    outcome = ENGINE.replay(variant, plies, [1, 2, 2])
    assert outcome.plies == 2
    assert outcome.illegal is not None and outcome.illegal.code == "NOT_YOUR_TURN"


def test_replay_plays_resignations_and_goes_on() -> None:
    variant = OneVariant(players=3)
    outcome = ENGINE.replay(variant, moves("c7 resign c9 c10"))
    assert outcome.illegal is None and outcome.state.position().resigned == (2,)
    assert outcome.state.to_move == 3


def test_replay_of_the_mirror_every_exception_agrees_with_play() -> None:
    variant = OneVariant(players=2, rings=(6,), mirror="every")
    plies = moves("a1 a2 a4 a5 a3 a6")
    outcome = ENGINE.replay(variant, plies)
    assert outcome.illegal is None and outcome.state.is_over
    assert outcome.state.digest() == state_after("a1 a2 a4 a5 a3 a6", variant).digest()


def test_replay_undoes_a_half_checked_capture_before_explaining_it() -> None:
    variant = OneVariant(players=2, rings=(6, 6))
    plies = moves("a1 a2 b1 a4 b2 b4 a1xa3xa5xa1")  # a6 is empty: the third jump fails
    outcome = ENGINE.replay(variant, plies)
    assert outcome.illegal is not None and outcome.illegal.code == "JUMP_OVER_EMPTY"
    assert outcome.state.digest() == state_after("a1 a2 b1 a4 b2 b4", variant).digest()


def test_random_game_is_deterministic_per_seed_and_legal() -> None:
    variant = OneVariant(players=4, rings=(10, 10, 20))
    game = ENGINE.random_game(variant, random.Random(42))
    assert game == ENGINE.random_game(variant, random.Random(42))
    assert game != ENGINE.random_game(variant, random.Random(43))
    outcome = ENGINE.replay(variant, game)
    assert outcome.illegal is None and outcome.state.is_over


def test_random_game_follows_choose() -> None:
    def first_listed(
        state: GameState[tuple[int, ...]], legal: list[tuple[int, ...]]
    ) -> tuple[int, ...]:
        return legal[0]

    game = ENGINE.random_game(OneVariant(players=2), random.Random(0), first_listed)
    assert game[:3] == moves("a1 a2 a3")


def test_perft_of_a_finished_game_is_one_leaf() -> None:
    state = state_after("resign")
    assert state.is_over and ENGINE.perft_from(state, 3) == 1


def test_diagram_draws_rings_from_a_outwards() -> None:
    state = state_after("a1 b2 c20 d3", OneVariant(players=2, rings=(5, 5, 20, 20)))
    assert state.diagram().splitlines() == [
        "a 1 . . . .",
        "b . 2 . . .",
        "c " + " ".join(["."] * 19 + ["1"]),
        "d . . 2" + " ." * 17,
    ]


def test_replay_outcome_state_is_the_position_reached() -> None:
    outcome = ENGINE.replay(OneVariant(players=2), moves("c7"))
    state: GameState[Hashable] = outcome.state
    owners = {site.name: site.owner for site in state.position().sites}
    assert owners["c7"] == 1 and sum(owners.values()) == 1
