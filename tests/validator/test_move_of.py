"""Record moves map straight to engine moves exactly as their tokens would (no text between).

The registry's ``move_of`` reads a plain move's fields; anything else is left to the token
path (``None``). Wherever ``move_of`` answers, its answer is the engine move the token path
gives; and the reader's verdicts on odd moves (another game's, a place with no name, a
special the game lacks) are the token path's.
"""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import example, given
from hypothesis import strategies as st

from gamerec.recorder.errors import EncodingError, NotationError
from gamerec.recorder.notation import GameValue, format_action, parse_action
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.protocol import MoveSyntaxError
from gamerec.validator.games.registry import GameEntry, entries, entry_of
from gamerec.validator.generation import generate
from gamerec.validator.identity import RulesIdentity
from gamerec.validator.moves import MoveReader, UnreadableMoveError
from tests.strategies import GAMES, actions

ENTRIES = entries()


def some_variant(entry: GameEntry) -> Any:
    """A variant of the entry's game (moves do not depend on it)."""
    needs_players = entry.name in ("ONE", "Oh-Wah-Ree")
    return entry.engine.variant_from_tags({"Players": "3"} if needs_players else {})


def token_path(entry: GameEntry, move: pb.Move) -> Any:
    """The engine move of ``move`` through its token, or None when it has none."""
    variant = some_variant(entry)
    try:
        return entry.engine.parse_move(variant, format_action(move))
    except (EncodingError, MoveSyntaxError):
        return None


odd_moves = st.one_of(
    st.builds(
        lambda ring, index: pb.Move(one=pb.OneMove(path=[pb.OnePoint(ring=ring, index=index)])),
        st.integers(0, 40),
        st.integers(0, 2**32 - 1),
    ),
    st.builds(
        lambda ring, index: pb.Move(
            aronda=pb.ArondaTurn(placements=[pb.ArondaField(ring=ring, index=index)])
        ),
        st.integers(0, 6),
        st.integers(0, 12),
    ),
    st.builds(
        lambda column, row: pb.Move(
            oust=pb.OustTurn(placements=[pb.OustCell(column=column, row=row)])
        ),
        st.integers(0, 30),
        st.integers(0, 20),
    ),
    st.builds(
        lambda pit, direction: pb.Move(oh_wah_ree=pb.OhWahReeMove(pit=pit, direction=direction)),
        st.integers(0, 20),
        st.integers(0, 4),
    ),
    st.sampled_from([pb.Move(resign=pb.Resign()), pb.Move(swap=pb.Swap())]),
    st.just(pb.Move(one=pb.OneMove())),
)


@given(st.sampled_from(GAMES).flatmap(lambda game: st.tuples(st.just(game), actions(game))))
def test_a_plain_move_maps_to_what_its_token_gives(case: tuple[GameValue, pb.Move]) -> None:
    game, move = case
    entry = entry_of(game)
    assert entry is not None
    direct = entry.move_of(move)
    if direct is not None:
        assert direct == token_path(entry, move)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
@given(move=odd_moves)
def test_any_move_maps_as_its_token_or_is_left_to_it(entry: GameEntry, move: pb.Move) -> None:
    direct = entry.move_of(move)
    if direct is not None:
        assert direct == token_path(entry, move)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
@given(move=odd_moves)
def test_the_reader_s_verdict_on_any_move_is_the_token_path_s(
    entry: GameEntry, move: pb.Move
) -> None:
    variant = some_variant(entry)
    reader = MoveReader(RulesIdentity(entry=entry, variant=variant))
    try:
        found: Any = reader.engine_move(move)
    except UnreadableMoveError as problem:
        found = (problem.code, str(problem))
    try:
        expected: Any = reader._by_token(move)
    except UnreadableMoveError as problem:
        expected = (problem.code, str(problem))
    assert found == expected


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
def test_every_move_of_generated_games_maps_straight(entry: GameEntry) -> None:
    tags = {"Players": "3"} if entry.name in ("ONE", "Oh-Wah-Ree") else {}
    for record in generate(entry.name, tags, 3, seed=5):
        for move in record.moves:
            direct = entry.move_of(move)
            assert direct is not None
            assert direct == token_path(entry, move)


#: Text made of the characters move tokens are made of, and a few that are not.
token_texts = st.text(alphabet="abcgimoxz0123456789,; -ACGIMOWX", max_size=12)


@pytest.mark.parametrize("entry", ENTRIES, ids=lambda entry: entry.name)
@given(text=token_texts)
@example(text="c7")
@example(text=" C07xC9 ")
@example(text="o1,o3")
@example(text="e5,f5")
@example(text="4cw")
@example(text="04")
@example(text="resign")
@example(text="pass")
def test_the_engine_reads_a_token_exactly_as_the_record_does(entry: GameEntry, text: str) -> None:
    # One grammar per game: the GRN reader's (parse_action) and the engine's parse_move agree
    # on which texts are moves, and on the move they stand for.
    variant = some_variant(entry)
    try:
        recorded = parse_action(entry.game, text)
    except NotationError:
        recorded = None
    try:
        engine_move = entry.engine.parse_move(variant, text)
    except MoveSyntaxError:
        engine_move = None
    if recorded is None or recorded.WhichOneof("action") not in (entry.action, "resign"):
        special = text.strip().lower() in ("pass", "swap")
        assert engine_move is None or special
        return
    assert engine_move is not None
    assert engine_move == token_path(entry, recorded)
