"""Oh-Wah-Ree: move tokens, variants and tags, the registry and the position snapshot."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamerec.validator.games import engine
from gamerec.validator.games.ohwahree import (
    ENGINE,
    RESIGN,
    Move,
    OhWahReeState,
    OhWahReeVariant,
    PositionError,
    Sow,
    pit_owners,
)
from gamerec.validator.games.protocol import Engine, MoveSyntaxError, VariantError

ROOT = Path(__file__).resolve().parents[2]
TWO = ENGINE.variant(players=2)
THREE = ENGINE.variant(players=3)
FOUR_CCW = ENGINE.variant(players=4, direction="ccw")

# ---------------------------------------------------------------------------------------------
# Move tokens (notation.md)
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("4", Sow(4)),
        ("4ccw", Sow(4, "ccw")),
        ("4cw", Sow(4, "cw")),
        ("12CCW", Sow(12, "ccw")),
        ("  7Cw\t", Sow(7, "cw")),
        ("resign", RESIGN),
        (" RESIGN ", RESIGN),
        ("04", Sow(4)),
    ],
)
def test_parse_move_reads_tokens_case_insensitively(text: str, move: Move) -> None:
    assert ENGINE.parse_move(TWO, text) == move


@pytest.mark.parametrize("text", ["0", "13", "99ccw", "100cw"])
def test_a_number_that_is_not_a_pit_parses_and_check_rejects_it(text: str) -> None:
    move = ENGINE.parse_move(THREE, text)
    illegal = ENGINE.new_game(THREE).check(move)
    assert illegal is not None
    assert illegal.code == "NOT_A_PIT"


@pytest.mark.parametrize(
    "text",
    ["", " ", "ccw", "4 ccw", "4x", "-4", "+4", "4.0", "4ccwcw", "pass", "swap", "resigns", "４"],
)
def test_text_that_is_no_token_is_a_syntax_error(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        ENGINE.parse_move(TWO, text)


@pytest.mark.parametrize(
    ("variant", "move", "token"),
    [
        (TWO, Sow(4), "4"),
        (TWO, Sow(4, "ccw"), "4"),
        (TWO, Sow(4, "cw"), "4cw"),
        (FOUR_CCW, Sow(5, "ccw"), "5"),
        (THREE, Sow(4, "ccw"), "4ccw"),
        (THREE, Sow(4, "cw"), "4cw"),
        (THREE, Sow(4), "4"),
        (THREE, RESIGN, "resign"),
    ],
)
def test_format_move_writes_the_token_the_variant_expects(
    variant: OhWahReeVariant, move: Move, token: str
) -> None:
    assert ENGINE.format_move(variant, move) == token


@pytest.mark.parametrize(
    "variant", [TWO, THREE, FOUR_CCW, ENGINE.variant(players=4)], ids=["2", "3", "4ccw", "4free"]
)
def test_every_legal_move_round_trips_through_its_token(variant: OhWahReeVariant) -> None:
    moves = [*ENGINE.new_game(variant).legal_moves(), RESIGN]
    for move in moves:
        token = ENGINE.format_move(variant, move)
        assert token == token.lower()
        assert ENGINE.parse_move(variant, token.upper()) == move


# ---------------------------------------------------------------------------------------------
# Variants (§8.1) and GRN tags
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "stones", "direction"), [(2, 4, "ccw"), (3, 4, "free"), (4, 6, "free")]
)
def test_variant_defaults(players: int, stones: int, direction: str) -> None:
    variant = ENGINE.variant(players=players)
    assert (variant.stones_per_pit, variant.direction) == (stones, direction)
    assert variant == OhWahReeVariant(players, stones, direction)


@pytest.mark.parametrize(
    "options",
    [
        {"players": 1},
        {"players": 5},
        {"players": "2"},
        {"players": True},
        {"players": 2, "stones_per_pit": -1},
        {"players": 2, "stones_per_pit": 2.5},
        {"players": 2, "direction": "free"},
        {"players": 2, "direction": "cw"},
        {"players": 3, "direction": "ccw"},
        {"players": 4, "direction": "sideways"},
        {"stones_per_pit": 4},
        {"players": 2, "board": 12},
    ],
)
def test_impossible_variants_are_variant_errors(options: dict[str, object]) -> None:
    with pytest.raises(VariantError):
        ENGINE.variant(**options)


def test_variant_from_tags_reads_the_options_and_ignores_other_tags() -> None:
    tags = {"Players": "4", "StonesPerPit": "3", "Direction": "CCW", "Event": "Club"}
    assert ENGINE.variant_from_tags(tags) == OhWahReeVariant(4, 3, "ccw")
    assert ENGINE.variant_from_tags({"Players": " 3 "}) == OhWahReeVariant(3, 4, "free")


@pytest.mark.parametrize(
    "tags",
    [
        {},
        {"Players": "two"},
        {"Players": "5"},
        {"Players": "2", "StonesPerPit": "0"},
        {"Players": "2", "StonesPerPit": "-3"},
        {"Players": "2", "StonesPerPit": "4.5"},
        {"Players": "3", "Direction": "ccw"},
    ],
)
def test_bad_tags_are_variant_errors(tags: dict[str, str]) -> None:
    with pytest.raises(VariantError):
        ENGINE.variant_from_tags(tags)


@pytest.mark.parametrize(
    "variant",
    [TWO, THREE, FOUR_CCW, OhWahReeVariant(4), OhWahReeVariant(3, 9), OhWahReeVariant(2, 1)],
    ids=str,
)
def test_variant_tags_round_trip(variant: OhWahReeVariant) -> None:
    assert ENGINE.variant_from_tags(ENGINE.variant_tags(variant)) == variant


# ---------------------------------------------------------------------------------------------
# Registry and protocol
# ---------------------------------------------------------------------------------------------


def test_registry_finds_the_engine_by_its_grn_name() -> None:
    assert engine("Oh-Wah-Ree") is ENGINE
    assert engine(" oh-wah-ree ") is ENGINE
    assert ENGINE.name == "Oh-Wah-Ree"


def test_engine_satisfies_the_protocol() -> None:
    typed: Engine[OhWahReeVariant, Move] = ENGINE  # mypy checks the shape; this checks the values
    state = typed.new_game(TWO)
    assert (state.seats, state.to_move, state.ply, state.is_over) == (2, 1, 0, False)


def test_copy_is_independent() -> None:
    state = ENGINE.new_game(TWO)
    copy = state.copy()
    copy.play(Sow(1))
    assert state.pits == (4,) * 12
    assert copy.ply == 1
    assert state.ply == 0


# ---------------------------------------------------------------------------------------------
# Position snapshot and digest
# ---------------------------------------------------------------------------------------------


def test_position_lists_pits_with_owner_and_stones_and_the_stores() -> None:
    state = ENGINE.new_game(THREE)
    state.play(Sow(1, "cw"))
    position = state.position()
    assert position.to_move == 2
    assert [site.name for site in position.sites] == [str(pit) for pit in range(1, 13)]
    assert tuple(site.owner for site in position.sites) == pit_owners(3)
    assert tuple(site.pieces for site in position.sites) == tuple((n,) for n in state.pits)
    assert position.captured == (0, 0, 0)
    assert position.supplies == ()
    assert position.resigned == ()


def test_equal_positions_have_equal_digests_whatever_the_history() -> None:
    played = ENGINE.new_game(TWO)
    for pit in (1, 7, 2, 9, 3, 8):
        played.play(Sow(pit))
    set_up = OhWahReeState.from_position(TWO, played.pits, played.stores, played.to_move)
    assert set_up.ply == 0
    assert set_up.digest() == played.digest()


def test_digest_tells_the_seat_to_move_the_skip_counter_and_resignations_apart() -> None:
    pits = [1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]
    stores = [15, 15, 15]
    digests = {
        OhWahReeState.from_position(THREE, pits, stores, 1).digest(),
        OhWahReeState.from_position(THREE, pits, stores, 2).digest(),
        OhWahReeState.from_position(THREE, pits, stores, 1, skipped=1).digest(),
        OhWahReeState.from_position(THREE, pits, stores, 1, resigned=(2,)).digest(),
        OhWahReeState.from_position(THREE, pits, stores, 1, resigned=(3,)).digest(),
    }
    assert len(digests) == 5


def test_digest_is_the_same_in_another_process() -> None:
    script = (
        "from gamerec.validator.games.ohwahree import ENGINE, Sow\n"
        "state = ENGINE.new_game(ENGINE.variant(players=3))\n"
        "state.play(Sow(2, 'cw'))\n"
        "print(state.digest())\n"
    )
    state = ENGINE.new_game(THREE)
    state.play(Sow(2, "cw"))
    other = subprocess.run(
        [sys.executable, "-c", script],
        cwd=ROOT,
        env={"PYTHONHASHSEED": "12345"},
        capture_output=True,
        text=True,
        check=True,
    )
    assert other.stdout.strip() == state.digest()


@pytest.mark.parametrize(
    ("pits", "stores", "to_move", "skipped", "resigned"),
    [
        ([4] * 11, [0, 0], 1, 0, ()),
        ([4] * 12, [0, 0, 0], 1, 0, ()),
        ([4] * 12, [1, 0], 1, 0, ()),
        ([-1, 5, *[4] * 10], [0, 0], 1, 0, ()),
        ([4] * 12, [0, 0], 3, 0, ()),
        ([4] * 12, [0, 0], 1, 1, ()),
        ([4] * 12, [0, 0], 1, 0, (2,)),
    ],
)
def test_impossible_positions_are_refused(
    pits: list[int], stores: list[int], to_move: int, skipped: int, resigned: tuple[int, ...]
) -> None:
    with pytest.raises(PositionError):
        OhWahReeState.from_position(TWO, pits, stores, to_move, skipped=skipped, resigned=resigned)


def test_three_seat_position_refuses_a_resigned_seat_to_move() -> None:
    with pytest.raises(PositionError):
        OhWahReeState.from_position(THREE, [4] * 12, [0, 0, 0], 2, resigned=(2,))
