"""ONE move text (notation.md, ONE): points, placements, captures, resign; variants as GRN tags."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerec.validator.games.one import (
    CODE_STRIDE,
    ENGINE,
    RESIGN,
    OneVariant,
    format_move,
    parse_move,
    point_code,
    point_name,
)
from gamerec.validator.games.protocol import MoveSyntaxError, VariantError

DEFAULT = OneVariant(players=2)


def test_point_is_a_ring_letter_and_a_1_based_index() -> None:
    assert point_name(point_code("c7")) == "c7"
    assert point_code("a1") != point_code("b1") != point_code("a2")
    assert point_code("c7") == 2 + CODE_STRIDE * 7


def test_placement_is_the_point() -> None:
    assert ENGINE.parse_move(DEFAULT, "c7") == (point_code("c7"),)
    assert ENGINE.format_move(DEFAULT, (point_code("c7"),)) == "c7"


def test_capture_is_the_start_and_each_landing_joined_by_x() -> None:
    move = ENGINE.parse_move(DEFAULT, "c7xc9xa5")
    assert move == (point_code("c7"), point_code("c9"), point_code("a5"))
    assert ENGINE.format_move(DEFAULT, move) == "c7xc9xa5"


def test_resign_is_the_empty_move() -> None:
    assert ENGINE.parse_move(DEFAULT, "resign") == RESIGN == ()
    assert ENGINE.format_move(DEFAULT, ()) == "resign"


@pytest.mark.parametrize("text", ["C7XC9", "  c7xc9\n", "\tC7xc9 "])
def test_parsing_is_case_insensitive_and_ignores_surrounding_space(text: str) -> None:
    assert ENGINE.parse_move(DEFAULT, text) == parse_move("c7xc9")
    assert ENGINE.parse_move(DEFAULT, " RESIGN ") == ()


def test_ring_x_is_a_ring_letter_too() -> None:
    assert parse_move("x1xa3") == (point_code("x1"), point_code("a3"))
    assert parse_move("x3") == (point_code("x3"),)
    assert format_move(parse_move("x1xx3")) == "x1xx3"


@pytest.mark.parametrize("text", ["e1", "c21", "a0", "z99", "d1000"])
def test_point_not_on_the_board_parses(text: str) -> None:
    move = ENGINE.parse_move(DEFAULT, text)
    assert ENGINE.format_move(DEFAULT, move) == text
    illegal = ENGINE.new_game(DEFAULT).check(move)
    assert illegal is not None and illegal.code == "NO_SUCH_POINT"


def test_leading_zeros_are_read_as_a_number() -> None:
    assert parse_move("c07") == parse_move("c7")


@pytest.mark.parametrize(
    "text",
    [
        "",
        "pass",
        "swap",
        "c",
        "7",
        "c7x",
        "xc7",
        "c7xx",
        "c7-c9",
        "c7 x c9",
        "c7,c9",
        "cc7",
        "c-1",
        "c7.",
        "c\u0663",
        "é1",
        "c" + "9" * 19,
    ],
)
def test_text_that_is_not_a_token_is_a_syntax_error(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        ENGINE.parse_move(DEFAULT, text)


POINTS = st.builds(
    lambda ring, index: ring + CODE_STRIDE * index,
    st.integers(0, CODE_STRIDE - 1),
    st.integers(0, 10**6),
)


@given(st.one_of(st.just(()), st.lists(POINTS, min_size=1, max_size=6).map(tuple)))
def test_format_then_parse_gives_the_move_back(move: tuple[int, ...]) -> None:
    text = format_move(move)
    assert text == text.lower()
    assert parse_move(text) == move
    assert parse_move(f" {text.upper()} ") == move


# -- variants as GRN tags ----------------------------------------------------------------------


def test_variant_defaults() -> None:
    variant = ENGINE.variant_from_tags({"Players": "3"})
    assert variant == OneVariant(
        players=3, rings=(10, 10, 20, 20), mirror="first", tiebreak="shared"
    )


def test_variant_reads_every_tag_and_ignores_others() -> None:
    tags = {
        "Players": " 4 ",
        "Board": "6, 6,12",
        "Mirror": "EVERY",
        "Tiebreak": "Largest-Group",
        "Event": "club night",
    }
    variant = ENGINE.variant_from_tags(tags)
    assert variant == OneVariant(
        players=4, rings=(6, 6, 12), mirror="every", tiebreak="largest-group"
    )


@pytest.mark.parametrize(
    "options",
    [
        {"players": 2, "rings": (10, 10, 20, 20), "mirror": "first", "tiebreak": "shared"},
        {"players": 6, "rings": (5,) * 26, "mirror": "none", "tiebreak": "largest-group"},
        {"players": 3, "rings": (6, 6), "mirror": "every", "tiebreak": "shared"},
    ],
)
def test_variant_tags_round_trip(options: dict[str, object]) -> None:
    variant = ENGINE.variant(**options)
    assert ENGINE.variant_from_tags(ENGINE.variant_tags(variant)) == variant


@pytest.mark.parametrize(
    "tags",
    [
        {"Players": "2", "Board": "10,10,20,"},
        {"Players": "2", "Board": "10;10"},
        {"Players": "2", "Board": "4"},
        {"Players": "2", "Board": "10,15"},
        {"Players": "2", "Board": ",".join(["5"] * 27)},
        {"Players": "2", "Board": "5000,10000"},
        {"Players": "2", "Mirror": "always"},
        {"Players": "2", "Tiebreak": "captures"},
        {"Players": "-2"},
    ],
)
def test_impossible_variant_is_a_variant_error(tags: dict[str, str]) -> None:
    with pytest.raises(VariantError):
        ENGINE.variant_from_tags(tags)


def test_variant_options_are_checked() -> None:
    with pytest.raises(VariantError):
        ENGINE.variant(players=2, colour="red")
    with pytest.raises(VariantError):
        ENGINE.variant(rings=(10, 10))
    with pytest.raises(VariantError):
        ENGINE.variant(players=True)
    assert ENGINE.variant(players=2, rings=[10, 10]).rings == (10, 10)
