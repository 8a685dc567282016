"""The engines' one shape: ``protocol.BaseEngine`` and what each engine keeps of its own."""

from __future__ import annotations

import random

import pytest

from gamerec.validator.games import aronda, engine, game_names, ohwahree, one, oust, protocol
from gamerec.validator.games.protocol import BaseEngine, Engine, VariantError

# mypy holds each engine to the protocol with its own variant and move types.
_ONE: Engine[one.OneVariant, one.Move] = one.ENGINE
_ARONDA: Engine[aronda.ArondaVariant, aronda.Move] = aronda.ENGINE
_OUST: Engine[oust.OustVariant, oust.Move] = oust.ENGINE
_OH_WAH_REE: Engine[ohwahree.OhWahReeVariant, ohwahree.Move] = ohwahree.ENGINE


def test_every_engine_is_a_base_engine_named_by_its_module() -> None:
    for module in (one, aronda, oust, ohwahree):
        assert isinstance(module.ENGINE, BaseEngine)
        assert module.ENGINE.name == module.NAME
        assert module.ENGINE.reason_codes == module.REASON_CODES
        assert module.ENGINE.citations == {
            code: tuple(f"{module.RULES} {section}" for section in sections)
            for code, sections in module.REASON_SECTIONS.items()
        }


def test_reason_codes_are_a_copy() -> None:
    codes = one.ENGINE.reason_codes
    codes.clear()
    assert one.ENGINE.reason_codes == one.REASON_CODES


def test_variant_options_are_the_variant_fields() -> None:
    for name in game_names():
        with pytest.raises(VariantError, match=r"unknown .* option\(s\): colour"):
            engine(name).variant(players=2, colour="red")
    assert aronda.ENGINE.variant() == aronda.ArondaVariant()
    assert aronda.ENGINE.variant(supply="pass") == aronda.ArondaVariant(supply="pass")
    assert oust.ENGINE.variant(side=5, pie=False) == oust.OustVariant(side=5, pie=False)
    assert one.ENGINE.variant(players=3, rings=[5, 10]) == one.OneVariant(3, (5, 10))
    assert ohwahree.ENGINE.variant(players=3) == ohwahree.OhWahReeVariant(3, 4, "free")


def test_a_variant_field_without_default_is_a_required_option() -> None:
    with pytest.raises(VariantError, match=r"ONE needs the option\(s\) players"):
        one.ENGINE.variant(mirror="none")
    with pytest.raises(VariantError, match=r"Oh-Wah-Ree needs the option\(s\) players"):
        ohwahree.ENGINE.variant(stones_per_pit=3)


def test_an_impossible_option_value_is_the_variant_s_own_error() -> None:
    with pytest.raises(VariantError, match="2 to 6 players"):
        one.ENGINE.variant(players=7)
    with pytest.raises(VariantError, match="side"):
        oust.ENGINE.variant(side=1)


def test_the_first_decision_is_the_move_except_for_an_oust_turn() -> None:
    assert one.ENGINE.first_decision((184, 186)) == (184, 186)
    assert ohwahree.ENGINE.first_decision(ohwahree.Sow(4)) == ohwahree.Sow(4)
    assert oust.ENGINE.first_decision((1, 2, 3)) == (1,)
    assert oust.ENGINE.first_decision(oust.PASS) == oust.PASS


def test_one_plays_listed_moves_unchecked_and_chosen_ones_checked(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    variant = one.OneVariant(players=2, rings=(5, 10))
    checked = 0
    check = one.OneState.check

    def counting_check(state: one.OneState, move: one.Move, seat: int | None = None) -> object:
        nonlocal checked
        checked += 1
        return check(state, move, seat)

    monkeypatch.setattr(one.OneState, "check", counting_check)
    listed = one.ENGINE.random_game(variant, random.Random(3))
    assert checked == 0
    count = one.ENGINE.perft(variant, 2)
    assert checked == 0
    assert count == protocol.perft(one.ENGINE.new_game(variant), 2)
    checked = 0
    chosen = one.ENGINE.random_game(variant, random.Random(3), lambda state, legal: legal[-1])
    assert checked == len(chosen)
    for moves in (listed, chosen):
        outcome = one.ENGINE.replay(variant, moves)
        assert outcome.illegal is None and outcome.state.is_over


def test_the_base_random_game_is_the_old_loop_ply_for_ply() -> None:
    # The same seed gives the game the engines' own loops gave: one rng.choice per ply.
    variant = aronda.ArondaVariant()
    rng = random.Random(5)
    state = aronda.ENGINE.new_game(variant)
    moves = []
    while not state.is_over:
        move = rng.choice(state.legal_moves())
        state.play(move)
        moves.append(move)
    assert aronda.ENGINE.random_game(variant, random.Random(5)) == moves
