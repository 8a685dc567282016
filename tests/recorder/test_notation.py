"""Move tokens (notation.md): one test per clause of the token syntax."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerec.recorder.errors import EncodingError, NotationError
from gamerec.recorder.notation import (
    GameValue,
    format_action,
    game_from_name,
    game_name,
    parse_action,
)
from gamerec.v1 import record_pb2 as pb
from tests.strategies import GAMES, actions

ONE, ARONDA, OUST, OWR = pb.GAME_ONE, pb.GAME_ARONDA, pb.GAME_OUST, pb.GAME_OH_WAH_REE


def one_path(move: pb.Move) -> list[tuple[int, int]]:
    return [(point.ring, point.index) for point in move.one.path]


def test_one_point_is_a_ring_letter_and_a_1_based_index() -> None:
    assert one_path(parse_action(ONE, "c7")) == [(3, 7)]
    assert one_path(parse_action(ONE, "a1")) == [(1, 1)]


def test_one_capture_joins_the_start_and_each_landing_point_with_x() -> None:
    assert one_path(parse_action(ONE, "c7xc9")) == [(3, 7), (3, 9)]
    assert one_path(parse_action(ONE, "c7xc9xa5")) == [(3, 7), (3, 9), (1, 5)]


def test_one_ring_x_is_a_ring_letter_after_the_separator() -> None:
    assert one_path(parse_action(ONE, "c7xx3")) == [(3, 7), (24, 3)]


def test_one_point_off_the_board_is_still_a_token() -> None:
    assert one_path(parse_action(ONE, "e1")) == [(5, 1)]
    assert one_path(parse_action(ONE, "z99")) == [(26, 99)]


def test_an_index_that_names_nothing_is_a_token_and_leading_zeros_spell_the_number() -> None:
    # notation.md, "Indices that name nothing, and leading zeros": a0 is an illegal move at
    # its ply (NO_SUCH_POINT), not a malformed record; a01 is a1.
    assert one_path(parse_action(ONE, "a0")) == [(1, 0)]
    assert one_path(parse_action(ONE, "c07xc09")) == [(3, 7), (3, 9)]
    assert format_action(parse_action(ONE, "c007"), ONE) == "c7"
    assert format_action(parse_action(ONE, "a0"), ONE) == "a0"
    (field,) = parse_action(ARONDA, "o0").aronda.placements
    assert (field.ring, field.index) == (pb.ARONDA_RING_OUTER, 0)
    assert format_action(parse_action(ARONDA, "o01,m2"), ARONDA) == "o1,m2"
    assert [(c.column, c.row) for c in parse_action(OUST, "g0,g07").oust.placements] == [
        (7, 0),
        (7, 7),
    ]
    assert parse_action(OWR, "04cw").oh_wah_ree.pit == 4
    assert format_action(parse_action(OWR, "0"), OWR) == "0"


@pytest.mark.parametrize(
    ("token", "expected"),
    [
        ("7c", "expected a ONE point"),
        ("c7x", "after 'c7x', found nothing"),
        ("c7y3", "expected 'x' between the points"),
        ("c", "expected a ONE point"),
        ("c99999999999", "too large"),
    ],
)
def test_one_token_that_is_not_points_joined_by_x_is_a_notation_error(
    token: str, expected: str
) -> None:
    with pytest.raises(NotationError, match=expected):
        parse_action(ONE, token)


def test_aronda_centre_is_c_with_index_0() -> None:
    (field,) = parse_action(ARONDA, "c").aronda.placements
    assert (field.ring, field.index) == (pb.ARONDA_RING_CENTRE, 0)


def test_aronda_turn_is_one_or_two_fields_joined_by_a_comma() -> None:
    turn = parse_action(ARONDA, "o1,o3").aronda.placements
    assert [(f.ring, f.index) for f in turn] == [(pb.ARONDA_RING_OUTER, 1), (4, 3)]
    same_field = parse_action(ARONDA, "m2,m2").aronda.placements
    assert [(f.ring, f.index) for f in same_field] == [(pb.ARONDA_RING_MIDDLE, 2)] * 2
    inner = parse_action(ARONDA, "i8").aronda.placements
    assert [(f.ring, f.index) for f in inner] == [(pb.ARONDA_RING_INNER, 8)]


def test_aronda_turn_length_is_a_rule_not_syntax() -> None:
    assert len(parse_action(ARONDA, "o1,o2,o3").aronda.placements) == 3


@pytest.mark.parametrize("token", ["x1", "o1,", ",o1", "c1", "o", "oo1", "o4294967296"])
def test_aronda_token_that_is_not_fields_is_a_notation_error(token: str) -> None:
    with pytest.raises(NotationError):
        parse_action(ARONDA, token)


def test_oust_turn_is_letter_number_cells_joined_by_commas() -> None:
    cells = parse_action(OUST, "e5,f5,k9").oust.placements
    assert [(c.column, c.row) for c in cells] == [(5, 5), (6, 5), (11, 9)]
    (centre,) = parse_action(OUST, "g7").oust.placements
    assert (centre.column, centre.row) == (7, 7)


@pytest.mark.parametrize("token", ["7g", "g7,", "g7;h7", "g", "g99999999999"])
def test_oust_token_that_is_not_cells_is_a_notation_error(token: str) -> None:
    with pytest.raises(NotationError):
        parse_action(OUST, token)


@pytest.mark.parametrize(
    ("token", "pit", "direction"),
    [
        ("4", 4, pb.SOW_DIRECTION_UNSPECIFIED),
        ("4ccw", 4, pb.SOW_DIRECTION_CCW),
        ("12cw", 12, pb.SOW_DIRECTION_CW),
        ("13", 13, pb.SOW_DIRECTION_UNSPECIFIED),
    ],
)
def test_oh_wah_ree_move_is_a_pit_with_an_optional_direction(
    token: str, pit: int, direction: int
) -> None:
    move = parse_action(OWR, token).oh_wah_ree
    assert (move.pit, move.direction) == (pit, direction)


@pytest.mark.parametrize("token", ["4left", "cw4", "4 cw", "99999999999"])
def test_oh_wah_ree_token_that_is_not_a_pit_is_a_notation_error(token: str) -> None:
    with pytest.raises(NotationError):
        parse_action(OWR, token)


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("special", ["resign", "pass", "swap"])
def test_special_actions_parse_for_every_game(game: GameValue, special: str) -> None:
    assert parse_action(game, special).WhichOneof("action") == special


def test_reading_is_case_insensitive_and_writing_is_lower_case() -> None:
    assert format_action(parse_action(ONE, "C7XC9"), ONE) == "c7xc9"
    assert format_action(parse_action(OWR, "4CCW"), OWR) == "4ccw"
    assert format_action(parse_action(OUST, "Resign"), OUST) == "resign"


@given(st.sampled_from(GAMES).flatmap(lambda game: st.tuples(st.just(game), actions(game))))
def test_a_written_token_reads_back_as_the_same_action(case: tuple[GameValue, pb.Move]) -> None:
    game, move = case
    assert parse_action(game, format_action(move, game)) == move


def test_writing_a_move_of_another_game_is_an_encoding_error() -> None:
    with pytest.raises(EncodingError, match="does not belong to game ONE"):
        format_action(parse_action(OUST, "g7"), ONE)


@pytest.mark.parametrize(
    "move",
    [
        pb.Move(),
        pb.Move(one=pb.OneMove()),
        pb.Move(one=pb.OneMove(path=[pb.OnePoint(ring=0, index=1)])),
        pb.Move(one=pb.OneMove(path=[pb.OnePoint(ring=27, index=1)])),
        pb.Move(
            aronda=pb.ArondaTurn(placements=[pb.ArondaField(ring=pb.ARONDA_RING_CENTRE, index=1)])
        ),
        pb.Move(
            aronda=pb.ArondaTurn(
                placements=[pb.ArondaField(ring=pb.ARONDA_RING_UNSPECIFIED, index=1)]
            )
        ),
        pb.Move(oust=pb.OustTurn()),
        pb.Move(oh_wah_ree=pb.OhWahReeMove(pit=3, direction=pb.SowDirection.ValueType(9))),
    ],
)
def test_a_move_without_a_token_cannot_be_written(move: pb.Move) -> None:
    with pytest.raises(EncodingError):
        format_action(move)


def test_game_names_are_case_insensitive() -> None:
    assert game_from_name("oh-wah-ree") == OWR
    assert game_from_name(" one ") == ONE
    assert game_from_name("Chess") is None
    assert game_name(ARONDA) == "Aronda"
    with pytest.raises(EncodingError):
        game_name(pb.GAME_UNSPECIFIED)
