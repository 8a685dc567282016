"""Oust board, notation and variant (docs/rules/oust.md §2.1, §8.1; notation.md, Oust section).

Also home of the board pictures the other Oust test files draw positions with: ``draw`` renders
a state in the layout of docs/rules/oust.md §2.1 (row 1 at the bottom, ``X`` = seat 1,
``O`` = seat 2,
empty cells by name) and ``stones_in`` reads such a picture back, token by token, so the
hand-drawn diagrams of the worked examples can be read too.
"""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerec.validator.games import engine
from gamerec.validator.games.oust import (
    ENGINE,
    MAX_SIDE,
    MIN_SIDE,
    PASS,
    RESIGN,
    SWAP,
    Move,
    OustState,
    OustVariant,
    cell_code,
    cell_name,
    hex_board,
)
from gamerec.validator.games.protocol import Engine, GameState, MoveSyntaxError, VariantError

# ---------------------------------------------------------------------------------------------
# Pictures


def _rows(side: int) -> list[list[int]]:
    """The board's cell codes row by row, top row (number 2N-1) first."""
    board = hex_board(side)
    by_row: dict[int, list[int]] = {}
    for code in board.cells:
        by_row.setdefault(code // 32, []).append(code)
    return [by_row[v] for v in sorted(by_row, reverse=True)]


def draw(state: OustState) -> str:
    """The position in the layout of docs/rules/oust.md §2.1 with X and O on occupied cells.

    The common left margin is removed, as :func:`picture` removes it from a drawn picture.
    """
    side = state.variant.side
    lines = []
    for row in _rows(side):
        indent = " " * (2 * abs(row[0] // 32 - (side - 1)))
        marks = [".XO"[state.owner(code)] if state.owner(code) else cell_name(code) for code in row]
        lines.append(indent + " ".join(mark.rjust(3) for mark in marks))
    return textwrap.dedent("\n".join(lines))


def picture(text: str) -> str:
    """A picture written in a test, without the common indentation and the first newline."""
    return "\n".join(line.rstrip() for line in textwrap.dedent(text).strip("\n").splitlines())


def stones_in(text: str, side: int) -> tuple[list[str], list[str]]:
    """The cells of X and of O in a picture, read token by token (words after a row ignored)."""
    first: list[str] = []
    second: list[str] = []
    lines = [line for line in text.strip("\n").splitlines() if line.strip()]
    rows = _rows(side)
    assert len(lines) == len(rows), "one picture line per board row"
    for line, row in zip(lines, rows, strict=True):
        for token, code in zip(line.split(), row, strict=False):
            name = cell_name(code)
            assert token in ("X", "O", name), f"{token!r} where {name} should be"
            if token == "X":
                first.append(name)
            elif token == "O":
                second.append(name)
    return sorted(first, key=cell_code), sorted(second, key=cell_code)


def names(codes: tuple[int, ...] | list[int]) -> list[str]:
    return [cell_name(code) for code in codes]


def codes(text: str) -> list[int]:
    return [cell_code(name) for name in text.split()]


# ---------------------------------------------------------------------------------------------
# §2.1 cells and names

SIDE_7_DIAGRAM = """
            a13 b13 c13 d13 e13 f13 g13
          a12 b12 c12 d12 e12 f12 g12 h12
        a11 b11 c11 d11 e11 f11 g11 h11 i11
      a10 b10 c10 d10 e10 f10 g10 h10 i10 j10
     a9  b9  c9  d9  e9  f9  g9  h9  i9  j9  k9
   a8  b8  c8  d8  e8  f8  g8  h8  i8  j8  k8  l8
 a7  b7  c7  d7  e7  f7  g7  h7  i7  j7  k7  l7  m7
   b6  c6  d6  e6  f6  g6  h6  i6  j6  k6  l6  m6
     c5  d5  e5  f5  g5  h5  i5  j5  k5  l5  m5
       d4  e4  f4  g4  h4  i4  j4  k4  l4  m4
         e3  f3  g3  h3  i3  j3  k3  l3  m3
           f2  g2  h2  i2  j2  k2  l2  m2
             g1  h1  i1  j1  k1  l1  m1
"""

SIDE_3_DIAGRAM = """
     a5  b5  c5
   a4  b4  c4  d4
 a3  b3  c3  d3  e3
   b2  c2  d2  e2
     c1  d1  e1
"""


@pytest.mark.parametrize(("side", "diagram"), [(7, SIDE_7_DIAGRAM), (3, SIDE_3_DIAGRAM)])
def test_the_empty_board_is_drawn_exactly_as_the_rules_draw_it(side: int, diagram: str) -> None:
    assert draw(OustState(OustVariant(side=side))) == picture(diagram)


@pytest.mark.parametrize(("side", "count"), [(2, 7), (3, 19), (6, 91), (7, 127), (8, 169)])
def test_a_board_of_side_n_has_3n_n_minus_1_plus_1_cells(side: int, count: int) -> None:
    assert len(hex_board(side).cells) == count == 3 * side * (side - 1) + 1


@pytest.mark.parametrize("side", range(MIN_SIDE, MAX_SIDE + 1))
def test_cells_are_the_axial_coordinates_within_the_side(side: int) -> None:
    n = side - 1
    expected = {
        cell_name(32 * (r + n) + (q + n))
        for q in range(-n, n + 1)
        for r in range(-n, n + 1)
        if abs(q + r) <= n
    }
    assert set(names(hex_board(side).cells)) == expected


def test_side_7_rows_centre_and_edges_are_named_as_the_rules_say() -> None:
    cells = names(hex_board(7).cells)
    assert cells[:7] == ["g1", "h1", "i1", "j1", "k1", "l1", "m1"]
    assert cells[-7:] == ["a13", "b13", "c13", "d13", "e13", "f13", "g13"]
    assert [name for name in cells if name.endswith("7") and len(name) == 2] == (
        ["a7", "b7", "c7", "d7", "e7", "f7", "g7", "h7", "i7", "j7", "k7", "l7", "m7"]
    )
    assert cells[len(cells) // 2] == "g7"


def test_cell_code_is_32_per_row_plus_the_letter() -> None:
    assert cell_code("g7") == 32 * 6 + 6
    assert cell_code("a1") == 0
    assert cell_name(cell_code("m13")) == "m13"


@pytest.mark.parametrize(
    ("cell", "expected"),
    [("g7", "f7 h7 g8 f8 g6 h6"), ("a7", "b7 a8 b6"), ("g1", "h1 f2 g2"), ("d4", "e4 c5 d5 e3")],
)
def test_neighbours_follow_the_six_directions(cell: str, expected: str) -> None:
    found = hex_board(7).neighbours(cell_code(cell))
    assert sorted(names(found)) == sorted(expected.split())


@pytest.mark.parametrize("side", [2, 3, 7, 13])
def test_inner_cells_touch_6_edge_cells_4_and_the_six_corners_3(side: int) -> None:
    board = hex_board(side)
    degrees = [len(board.neighbours(code)) for code in board.cells]
    assert degrees.count(3) == 6
    assert degrees.count(4) == 6 * (side - 2)
    assert degrees.count(6) == len(board.cells) - 6 * (side - 1)


@pytest.mark.parametrize("side", [2, 7, 13])
def test_neighbourhood_is_symmetric(side: int) -> None:
    board = hex_board(side)
    for code in board.cells:
        for other in board.neighbours(code):
            assert code in board.neighbours(other)


def test_a_name_that_is_not_a_cell_has_no_neighbours() -> None:
    assert hex_board(7).neighbours(cell_code("a1")) == ()


# ---------------------------------------------------------------------------------------------
# Notation


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("g7", (cell_code("g7"),)),
        ("e5,f5,k9", (cell_code("e5"), cell_code("f5"), cell_code("k9"))),
        ("  G7 ", (cell_code("g7"),)),
        ("E5,F5,K9", (cell_code("e5"), cell_code("f5"), cell_code("k9"))),
        ("g07,e005", (cell_code("g7"), cell_code("e5"))),
        ("pass", PASS),
        (" SWAP ", SWAP),
        ("Resign", RESIGN),
        ("z99", (cell_code("z99"),)),
        ("a1", (cell_code("a1"),)),
    ],
)
def test_parse_reads_turn_tokens_case_insensitively(text: str, expected: object) -> None:
    assert ENGINE.parse_move(OustVariant(), text) == expected


@pytest.mark.parametrize(
    "text",
    ["", "g", "7", "g7,", ",g7", "g7;h7", "gg7", "g-7", "banana", "pass,g7", "g7 h7", "e5, f5"],
)
def test_text_that_is_not_a_turn_token_is_a_syntax_error(text: str) -> None:
    with pytest.raises(MoveSyntaxError):
        ENGINE.parse_move(OustVariant(), text)


def test_format_writes_the_canonical_lower_case_token() -> None:
    variant = OustVariant()
    assert ENGINE.format_move(variant, ENGINE.parse_move(variant, " E5,F5,K9 ")) == "e5,f5,k9"
    assert ENGINE.format_move(variant, SWAP) == "swap"


_CELL_NAMES = st.builds(
    lambda letter, number: f"{letter}{number}",
    st.sampled_from("abcdefghijklmnopqrstuvwxyz"),
    st.integers(1, 99),
)
_TOKENS = st.one_of(
    st.sampled_from(["pass", "swap", "resign"]),
    st.lists(_CELL_NAMES, min_size=1, max_size=5).map(",".join),
)


@given(_TOKENS)
def test_format_of_parse_gives_back_the_canonical_token(token: str) -> None:
    variant = OustVariant()
    move = ENGINE.parse_move(variant, token.upper())
    assert ENGINE.format_move(variant, move) == token
    assert ENGINE.parse_move(variant, ENGINE.format_move(variant, move)) == move


# ---------------------------------------------------------------------------------------------
# §8.1 variant


def test_variant_defaults_are_side_7_with_the_pie_rule() -> None:
    assert ENGINE.variant() == OustVariant(side=7, pie=True, players=2)
    assert ENGINE.variant_from_tags({}) == OustVariant()


def test_variant_tags_round_trip() -> None:
    variant = ENGINE.variant(side=3, pie=False)
    tags = ENGINE.variant_tags(variant)
    assert tags == {"Board": "3", "Pie": "off"}
    assert ENGINE.variant_from_tags(tags) == variant
    assert ENGINE.variant_from_tags({"Board": " 8 ", "Pie": "ON", "Players": "2"}) == OustVariant(
        side=8
    )


@pytest.mark.parametrize(
    "tags",
    [{"Board": "1"}, {"Board": "14"}, {"Board": "seven"}, {"Pie": "yes"}, {"Players": "3"}],
)
def test_impossible_variant_tags_are_variant_errors(tags: dict[str, str]) -> None:
    with pytest.raises(VariantError):
        ENGINE.variant_from_tags(tags)


@pytest.mark.parametrize(
    "options", [{"side": 1}, {"side": 14}, {"side": True}, {"pie": "on"}, {"players": 3}, {"x": 1}]
)
def test_impossible_variant_options_are_variant_errors(options: dict[str, object]) -> None:
    with pytest.raises(VariantError):
        ENGINE.variant(**options)


def test_the_registry_finds_the_oust_engine() -> None:
    assert engine("oust") is ENGINE
    assert ENGINE.name == "Oust"


def test_the_engine_and_its_state_have_the_protocol_types() -> None:
    typed: Engine[OustVariant, Move] = ENGINE  # mypy checks the structural match
    state: GameState[Move] = typed.new_game(OustVariant())
    assert state.seats == 2 and state.to_move == 1


def test_pictures_read_back_what_they_draw() -> None:
    state = OustState.with_stones(OustVariant(side=3), codes("c1 b4"), codes("e3"))
    drawn = draw(state)
    assert drawn == picture(
        """
             a5  b5  c5
           a4   X  c4  d4
         a3  b3  c3  d3   O
           b2  c2  d2  e2
              X  d1  e1
        """
    )
    assert stones_in(drawn, 3) == (["c1", "b4"], ["e3"])
