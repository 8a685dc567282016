"""The record builder: games written ply by ply validate; illegal plies fail as validate says."""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest

from gamerec.recorder.codecs import Encoding, decode_record, encode_record
from gamerec.recorder.errors import GamerecError, NotationError
from gamerec.recorder.notation import format_action, game_from_name, parse_action
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.builder import IllegalPlyError, RecordBuilder
from gamerec.validator.games import engine
from gamerec.validator.games.protocol import IllegalMoveError, VariantError
from gamerec.validator.judge import validate

#: One variant of every game and seat count, as GRN tags.
GAMES: list[tuple[str, dict[str, Any]]] = [
    ("ONE", {"Players": 2}),
    ("ONE", {"Players": 3, "Board": "6,6"}),
    ("Aronda", {}),
    ("Oust", {"Board": 5}),
    ("Oh-Wah-Ree", {"Players": 2}),
    ("ohwahree", {"Players": 4, "Direction": "ccw"}),
]


def tokens_of_a_random_game(game: str, tags: dict[str, Any], seed: int) -> list[str]:
    found = engine(game)
    variant = found.variant_from_tags({tag: str(value) for tag, value in tags.items()})
    moves = found.random_game(variant, random.Random(seed))
    return [found.format_move(variant, move) for move in moves]


@pytest.mark.parametrize(("game", "tags"), GAMES, ids=str)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_complete_game_played_through_the_builder_validates_with_the_rules_result(
    game: str, tags: dict[str, Any], seed: int
) -> None:
    tokens = tokens_of_a_random_game(game, tags, seed)
    players = int(tags.get("Players", 2))
    builder = RecordBuilder(game, tags, seats=[f"P{seat}" for seat in range(1, players + 1)])
    for number, token in enumerate(tokens, start=1):
        assert not builder.is_over
        builder.play(token.upper())  # tokens are read in any case
        assert builder.plies == number
    record = builder.record
    verdict = validate(record)
    assert verdict.valid, list(verdict.errors)
    if builder.is_over:
        assert verdict.status == vpb.GAME_STATUS_FINISHED
        assert list(record.result.scores.values) == list(verdict.result.scores)
        assert sorted(record.result.winners) == sorted(verdict.result.winners)
        assert record.result.termination == verdict.result.termination
    else:  # a four-seat ccw game may cycle for ever; the builder claims nothing then
        assert not record.HasField("result")
    for move, token in zip(record.moves, tokens, strict=True):
        assert move.seat >= 1 and format_action(move) == token


def test_a_resignation_ends_the_game_and_claims_it() -> None:
    builder = RecordBuilder("Oust", seats=["Kim", "Lou"])
    builder.play("g7")
    builder.resign(comment="no hope")
    record = builder.record
    assert builder.is_over and record.result.termination == pb.TERMINATION_RESIGNATION
    assert list(record.result.winners) == [1]
    assert record.moves[-1].comment == "no hope"
    assert validate(record).valid


def illegal_plies() -> list[tuple[str, dict[str, Any], list[str], str, str]]:
    """(game, variant, legal plies, the illegal ply, its code)."""
    return [
        ("ONE", {"Players": 2}, ["c7"], "c17", "MIRROR"),
        ("ONE", {"Players": 2}, ["c7", "c8"], "c7xc9xc11", "JUMP_OVER_EMPTY"),
        ("ONE", {"Players": 2}, ["c7"], "e1", "NO_SUCH_POINT"),
        ("ONE", {"Players": 2}, ["c7"], "pass", "MALFORMED_MOVE"),
        ("Aronda", {}, [], "o1,o2", "WRONG_PLACEMENT_COUNT"),
        ("Aronda", {}, ["o8"], "m7,o8", "NOT_CONNECTED"),
        ("Oust", {}, ["g7", "h7"], "f7,e5", "TURN_ALREADY_ENDED"),
        ("Oust", {"Pie": "off"}, ["g7"], "swap", "SWAP_NOT_ALLOWED"),
        ("Oh-Wah-Ree", {"Players": 3}, [], "1", "DIRECTION_REQUIRED"),
        ("Oh-Wah-Ree", {"Players": 2}, ["1"], "1", "NOT_YOUR_PIT"),
        ("Oust", {}, ["g7", "h7", "f7"], "e5", "GAME_ALREADY_OVER"),
    ]


@pytest.mark.parametrize(("game", "tags", "legal", "illegal", "code"), illegal_plies(), ids=str)
def test_an_illegal_ply_raises_the_finding_validate_gives_for_that_ply(
    game: str, tags: dict[str, Any], legal: list[str], illegal: str, code: str
) -> None:
    builder = RecordBuilder(game, tags)
    for token in legal:
        builder.play(token)
    before = builder.record
    with pytest.raises(IllegalPlyError) as raised:
        builder.play(illegal)
    finding = raised.value.finding
    assert finding.code == code == raised.value.code
    assert isinstance(raised.value, IllegalMoveError) and isinstance(raised.value, GamerecError)
    assert builder.record == before  # nothing was recorded
    # The record with that ply appended: validate gives the very same finding.
    with_it = builder.record
    bad = decode_record(encode_record(with_it, Encoding.PB), Encoding.PB)
    appended = bad.moves.add()
    appended.CopyFrom(_recorded(game, illegal, finding.seat))
    verdict = validate(bad)
    assert not verdict.valid
    assert verdict.errors[0] == finding
    assert "docs/rules/" in finding.message or finding.code == "MALFORMED_MOVE"
    assert f"at ply {len(legal) + 1} (seat {finding.seat})" in str(raised.value)


def _recorded(game: str, token: str, seat: int) -> pb.Move:
    """The move the builder would have recorded for ``token``."""
    code = game_from_name(game)
    assert code is not None
    move = parse_action(code, token)
    move.seat = seat
    return move


def test_a_token_that_is_no_move_raises_the_notation_error_of_grn() -> None:
    builder = RecordBuilder("ONE", {"Players": 2})
    with pytest.raises(NotationError, match="c7x"):
        builder.play("c7x")
    assert builder.plies == 0


def test_annotations_and_metadata_are_written_into_the_record() -> None:
    start = datetime(2026, 11, 29, 20, 0, tzinfo=UTC)
    builder = RecordBuilder(
        "Aronda", seats=["Ida", "Jon"], event="Club night", round="3", start_time=start
    )
    builder.play("o1", comment="first", glyph="!", clock=timedelta(minutes=9), timestamp=start)
    record = builder.record
    move = record.moves[0]
    assert (move.comment, move.glyph, move.clock.ToTimedelta()) == (
        "first",
        pb.GLYPH_GOOD,
        timedelta(minutes=9),
    )
    assert move.timestamp.ToDatetime(tzinfo=UTC) == start
    assert (record.metadata.event, record.metadata.round) == ("Club night", "3")
    assert [seat.name for seat in record.seats] == ["Ida", "Jon"]


def test_stop_records_an_end_outside_the_rules() -> None:
    builder = RecordBuilder("Oh-Wah-Ree", {"Players": 2})
    builder.play("1")
    record = builder.stop("agreement", scores=[24, 24])
    assert record.result.termination == pb.TERMINATION_AGREEMENT
    assert validate(record).valid
    with pytest.raises(GamerecError, match="stop with one of"):
        builder.stop("boredom")


def test_the_builder_refuses_an_impossible_variant_and_names_games_in_any_spelling() -> None:
    with pytest.raises(VariantError, match="unknown game 'Chess'"):
        RecordBuilder("Chess")
    with pytest.raises(GamerecError, match="Players"):
        RecordBuilder("ONE")
    assert RecordBuilder("oh-wah-ree", {"players": 3}).legal_moves()[:2] == ["1ccw", "1cw"]


def test_legal_moves_and_scores_follow_the_game() -> None:
    builder = RecordBuilder("ONE", {"Players": 2, "Board": "6,6"})
    assert len(builder.legal_moves()) == 12
    builder.play("a1")
    assert "a4" not in builder.legal_moves()  # the mirror point of a1
    assert builder.scores() == (1, 0) and builder.to_move == 2
