"""A GRN ply's bytes (``grn_plies``): the bytes of the move's message, built from kept parts.

A turn of several parts (``e5,f5,k9`` in Oust, ``o1,o3`` in Aronda) seen for the first time
is put together from its parts' bytes; it must give exactly the bytes of the token's own
message (``parse_action``), or its exact error, for any token. The tables that keep what was
built stay bounded in entries and in the length of what they keep.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder import grn_plies
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.notation import GameValue, parse_action
from gamerec.v1 import record_pb2 as pb

#: Parts that are places, places of the other game, other actions, and things that are none.
PARTS = [
    *(f"{letter}{number}" for letter in "abgkzABZ" for number in ("1", "7", "11", "0", "07")),
    *("c", "C", "i1", "m8", "o8", "O3", "i", "m", "o", "x1"),
    *("pass", "Resign", "swap", "", "1", "a", "1a", "a-1", "a1b", "é1", "a²", " a1", "a1 "),
    *("a4294967295", "a4294967296", "o" + "9" * 40, "c" + "0" * 70),
]
GAMES = [pb.GAME_OUST, pb.GAME_ARONDA, pb.GAME_ONE, pb.GAME_OH_WAH_REE]


def answer(read: object, game: GameValue, token: str) -> tuple[str, bytes | str]:
    """What a reader makes of a token: its bytes, or its error's type and message."""
    try:
        if read is parse_action:
            return "bytes", parse_action(game, token).SerializeToString()
        return "bytes", grn_plies.action_bytes(game, token)
    except RecordMalformedError as error:
        return type(error).__name__, str(error)


@settings(max_examples=600, deadline=None)
@given(st.sampled_from(GAMES), st.lists(st.sampled_from(PARTS), min_size=1, max_size=8))
def test_a_token_of_parts_gives_the_bytes_or_the_error_of_its_own_message(
    game: GameValue, parts: list[str]
) -> None:
    token = ",".join(parts)
    assert answer(grn_plies.action_bytes, game, token) == answer(parse_action, game, token)


@pytest.mark.parametrize(
    ("game", "token"),
    [
        (pb.GAME_OUST, "e5,f5,k9"),
        (pb.GAME_OUST, "E5,f5"),
        (pb.GAME_OUST, "a1," * 40 + "b2"),
        (pb.GAME_ARONDA, "o1,o3"),
        (pb.GAME_ARONDA, "c,m2,m2"),
    ],
)
def test_a_turn_of_several_parts_is_put_together_from_its_parts(
    game: GameValue, token: str
) -> None:
    grn_plies._part_body.cache_clear()
    grn_plies._kept_action_bytes.cache_clear()
    assert grn_plies.action_bytes(game, token) == parse_action(game, token).SerializeToString()
    assert grn_plies._part_body.cache_info().currsize == len(set(token.lower().split(",")))


def test_what_is_kept_stays_within_its_bounds() -> None:
    # 40,000 distinct short turns and a few long ones: at most the tables' entries are kept,
    # and neither a token nor a part longer than the longest kept.
    cells = [f"{letter}{number}" for letter in "abcdefghijk" for number in range(1, 200)]
    turns = [f"{a},{b}" for a in cells[:200] for b in cells[:200]]
    long_turns = ["a1," * 40 + f"b{index}" for index in range(1, 51)]
    for turn in [*turns, *long_turns]:
        assert grn_plies.action_bytes(pb.GAME_OUST, turn)
    tokens = grn_plies._kept_action_bytes.cache_info()
    parts = grn_plies._part_body.cache_info()
    assert tokens.maxsize == 32768 and tokens.currsize <= 32768
    assert parts.maxsize == 4096 and parts.currsize <= 4096
    assert len(turns) > 32768
    assert grn_plies._kept_action_bytes(pb.GAME_OUST, long_turns[0])  # a new entry: not kept
    assert grn_plies._kept_action_bytes.cache_info().misses == tokens.misses + 1


def test_the_games_whose_turns_are_lists_joined_by_commas_are_found_from_their_syntax() -> None:
    grn_plies._JOINED_ACTIONS.clear()
    assert grn_plies._joined_action(pb.GAME_OUST, "E5") == ("oust", b"\x22")
    assert grn_plies._joined_action(pb.GAME_ARONDA, "c") == ("aronda", b"\x1a")
    assert grn_plies._joined_action(pb.GAME_ONE, "c7") is None  # a list, joined by x
    assert grn_plies._joined_action(pb.GAME_OH_WAH_REE, "4") is None  # no list
    with pytest.raises(RecordMalformedError, match="c7,c9"):  # not read as a list of parts
        grn_plies.action_bytes(pb.GAME_ONE, "c7,c9")
