"""Conformance: every registered engine honours the protocol the same way (OpenSpiel's habit).

These tests know nothing of any one game: they reach every engine through the registry and
``gamerec.validator.games.protocol`` only, so a new engine is covered the day it is registered.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from gamerec.validator.games import engine, game_names
from gamerec.validator.games.protocol import (
    BaseEngine,
    Engine,
    IllegalMoveError,
    MoveSyntaxError,
    VariantError,
    perft,
)

# A variant per game small enough to play many games quickly, with its GRN tags.
VARIANT_TAGS: dict[str, list[dict[str, str]]] = {
    "ONE": [{"Players": "2"}, {"Players": "3", "Board": "10,10,20"}, {"Players": "6"}],
    "Aronda": [{}, {"Supply": "pass", "SecondPiece": "lose"}],
    "Oust": [{"Board": "3"}, {"Board": "5", "Pie": "off"}],
    # 4 seats with Direction ccw can cycle for ever (no repetition rule); its own tests cover it.
    "Oh-Wah-Ree": [{"Players": "2"}, {"Players": "3"}, {"Players": "4", "StonesPerPit": "2"}],
}

CASES = [(name, tags) for name in game_names() for tags in VARIANT_TAGS[name]]


def case_id(case: tuple[str, dict[str, str]]) -> str:
    name, tags = case
    return name + "".join(f"-{k}={v}" for k, v in sorted(tags.items()))


@pytest.fixture(params=CASES, ids=[case_id(c) for c in CASES])
def game(request: pytest.FixtureRequest) -> tuple[Engine[Any, Any], Any]:
    name, tags = request.param
    found = engine(name)
    return found, found.variant_from_tags(dict(tags))


def test_every_game_is_registered_under_its_grn_name() -> None:
    assert game_names() == ("ONE", "Aronda", "Oust", "Oh-Wah-Ree")
    for name in game_names():
        assert engine(name).name == name
        assert engine(name.upper()).name == name


def test_reason_codes_are_stable_upper_snake_names() -> None:
    for name in game_names():
        codes = engine(name).reason_codes
        assert {"NOT_YOUR_TURN", "GAME_ALREADY_OVER"} <= set(codes), name
        for code, description in codes.items():
            assert code == code.upper() and " " not in code
            assert description.strip()


def test_variant_tags_round_trip(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    assert found.variant_from_tags(found.variant_tags(variant)) == variant


def test_random_games_are_deterministic_per_seed(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    first = found.random_game(variant, random.Random(7))
    again = found.random_game(variant, random.Random(7))
    assert first == again
    assert len(first) > 0


def test_random_game_replays_legally_to_the_end(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    for seed in range(3):
        moves = found.random_game(variant, random.Random(seed))
        outcome = found.replay(variant, moves)
        assert outcome.illegal is None
        assert outcome.plies == len(moves)
        assert outcome.state.is_over
        assert outcome.state.to_move == 0
        assert outcome.state.legal_moves() == []


def test_state_api_agrees_with_fast_replay(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    moves = found.random_game(variant, random.Random(11))
    state = found.new_game(variant)
    for ply, move in enumerate(moves, start=1):
        assert state.check(move) is None, (ply, found.format_move(variant, move))
        assert state.check(move, seat=state.to_move) is None
        state.play(move)
        assert state.ply == ply
    assert state.digest() == found.replay(variant, moves).state.digest()
    assert state.scores() == found.replay(variant, moves).state.scores()


def test_every_token_round_trips_through_text(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    for move in found.random_game(variant, random.Random(3)):
        text = found.format_move(variant, move)
        assert text == text.lower()
        assert found.parse_move(variant, text) == move
        assert found.parse_move(variant, f"  {text.upper()} ") == move


def test_wrong_seat_is_not_your_turn(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    state = found.new_game(variant)
    move = state.legal_moves()[0]
    other = state.to_move % state.seats + 1
    illegal = state.check(move, seat=other)
    assert illegal is not None and illegal.code == "NOT_YOUR_TURN"


def test_play_rejects_an_illegal_move_and_leaves_the_state(
    game: tuple[Engine[Any, Any], Any],
) -> None:
    found, variant = game
    moves = found.random_game(variant, random.Random(5))
    state = found.new_game(variant)
    state.play(moves[0])
    before = state.digest()
    # The first ply again is illegal in every game: the point is taken, the pit is not the
    # next seat's, or (Aronda) a later turn needs two pieces.
    assert state.check(moves[0]) is not None
    with pytest.raises(IllegalMoveError):
        state.play(moves[0])
    assert state.digest() == before


def test_finished_game_rejects_everything(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    moves = found.random_game(variant, random.Random(2))
    state = found.replay(variant, moves).state
    illegal = state.check(moves[-1])
    assert illegal is not None and illegal.code == "GAME_ALREADY_OVER"
    outcome = found.replay(variant, [*moves, moves[-1]])
    assert outcome.plies == len(moves)
    assert outcome.illegal is not None and outcome.illegal.code == "GAME_ALREADY_OVER"


def test_copy_is_independent(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    state = found.new_game(variant)
    child = state.copy()
    child.play(child.legal_moves()[0])
    assert state.ply == 0
    assert state.digest() == found.new_game(variant).digest()
    assert child.digest() != state.digest()


def test_position_lists_every_site_once(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    moves = found.random_game(variant, random.Random(9))
    state = found.replay(variant, moves[: len(moves) // 2]).state
    position = state.position()
    names = [site.name for site in position.sites]
    assert len(names) == len(set(names))
    assert position.to_move == state.to_move
    for site in position.sites:
        assert 0 <= site.owner <= state.seats


def test_scores_and_ranking_have_one_entry_per_seat(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    state = found.replay(variant, found.random_game(variant, random.Random(4))).state
    assert len(state.scores()) == state.seats
    ranks = state.ranking()
    assert len(ranks) == state.seats
    assert min(ranks) == 1
    assert set(state.winners()) <= {s for s in range(1, state.seats + 1) if ranks[s - 1] == 1}


def test_garbage_text_is_a_syntax_error(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    for text in ("", "banana", "??", "1.5.3", "x", ",,"):
        with pytest.raises(MoveSyntaxError):
            found.parse_move(variant, text)


def test_generic_perft_agrees_at_depth_two(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    if found.name == "Oust":
        pytest.skip("Oust lists placements, not whole turns; its own perft counts turns")
    start = found.new_game(variant)
    assert perft(start, 1) == len(start.legal_moves())
    assert perft(start, 2) == sum(
        len(_after(start, move).legal_moves()) or 1 for move in start.legal_moves()
    )


def test_engine_perft_agrees_with_the_generic_perft(game: tuple[Engine[Any, Any], Any]) -> None:
    found, variant = game
    if found.name == "Oust":
        pytest.skip("Oust's perft counts whole turns, the generic perft placements")
    assert isinstance(found, BaseEngine)
    assert found.perft(variant, 2) == perft(found.new_game(variant), 2)


def _after(state: Any, move: Any) -> Any:
    child = state.copy()
    child.play(move)
    return child


@pytest.mark.parametrize("value", ["-2", "+2", "2_0", "٢", "2.0", "", "9999999999"])
def test_numeric_variant_tags_take_plain_digits_only(value: str) -> None:
    tag = {"ONE": "Players", "Aronda": "Players", "Oust": "Board", "Oh-Wah-Ree": "Players"}
    for name in game_names():
        with pytest.raises(VariantError):
            engine(name).variant_from_tags({"Players": "2", tag[name]: value})
