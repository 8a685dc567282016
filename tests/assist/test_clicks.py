"""Clicks into moves (gamerec.validator.assist): every legal ply of real games, click by click."""

from __future__ import annotations

import pytest

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.assist.clicks import (
    MAX_CLICKS,
    NO_SUCH_CLICK,
    ClicksError,
    answer_clicks,
)
from gamerec.validator.frames import steps
from gamerec.validator.generation import generate
from gamerec.validator.identity import identify
from gamerec.validator.render.scene import move_places

GAMES = [
    ("ONE", {"Players": "2"}),
    ("ONE", {"Players": "3"}),
    ("Aronda", {}),
    ("Oust", {}),
    ("Oh-Wah-Ree", {"Players": "2"}),
    ("Oh-Wah-Ree", {"Players": "4"}),
]


def _prefix(record: pb.GameRecord, plies: int) -> pb.GameRecord:
    cut = pb.GameRecord()
    cut.CopyFrom(record)
    del cut.moves[plies:]
    cut.ClearField("result")
    return cut


@pytest.mark.parametrize(("game", "tags"), GAMES, ids=str)
def test_every_ply_is_clicked_site_by_site(game: str, tags: dict[str, str]) -> None:
    """Each next ply of a random game: every click is offered, and the last completes it."""
    record = next(generate(game, tags, 1, seed=35))
    identity = identify(record)
    walked = list(steps(record, identity, include_start=True))
    for ply, step in enumerate(walked[1:]):
        if step.token == "resign":
            continue
        before = _prefix(record, ply)
        places = move_places(step.token)
        for at, place in enumerate(places):
            answer = answer_clicks(before, places[:at])
            assert place in answer.next_sites, (ply + 1, step.token, at)
            assert answer.refused is None
        done = answer_clicks(before, places)
        assert step.token in done.complete, (ply + 1, step.token, done.complete)
        assert done.refused is None
        assert done.scene.position.to_move == step.seat
        state = walked[ply].state
        for whole in done.complete:
            assert state.check(identity.engine.parse_move(identity.variant, whole)) is None


def test_a_finished_game_offers_nothing() -> None:
    """After the last ply: the board, no site, no ply."""
    record = next(generate("Oust", {}, 1, seed=7))
    answer = answer_clicks(record, [])
    assert answer.scene.finished
    assert (answer.next_sites, answer.complete, answer.refused) == ([], [], None)


def test_an_occupied_point_is_refused_in_the_engines_words() -> None:
    """A click on a stone: the engine's reason code and sentence, the clicks as the move."""
    record = next(generate("ONE", {"Players": "2"}, 1, seed=3))
    before = _prefix(record, 1)
    first = move_places(next(iter(steps(record, identify(record)))).token)[0]
    answer = answer_clicks(before, [first])
    assert answer.refused is not None
    assert answer.refused.code != NO_SUCH_CLICK
    assert answer.refused.move == first and answer.refused.ply == 2
    assert "docs/rules/one.md" in answer.refused.message
    assert first not in answer_clicks(before, []).next_sites


def test_a_click_that_reads_as_no_move_is_refused_plainly() -> None:
    record = next(generate("Aronda", {}, 1, seed=3))
    answer = answer_clicks(_prefix(record, 0), ["zz99"])
    assert answer.refused is not None
    assert answer.refused.code == NO_SUCH_CLICK
    assert answer.refused.message == "no legal move of seat 1 starts with zz99"


def test_too_many_clicks_and_an_illegal_record_name_their_field() -> None:
    record = next(generate("ONE", {"Players": "2"}, 1, seed=3))
    with pytest.raises(ClicksError) as many:
        answer_clicks(record, ["a1"] * (MAX_CLICKS + 1))
    assert many.value.field == "clicks"
    broken = _prefix(record, 2)
    broken.moves[1].CopyFrom(broken.moves[0])
    with pytest.raises(ClicksError) as illegal:
        answer_clicks(broken, [])
    assert illegal.value.field == "record"
    assert "ply 2" in str(illegal.value)
