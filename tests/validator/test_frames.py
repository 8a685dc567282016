"""Replay frames agree with validation, ply for ply, for every game."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder.notation import format_action, game_from_name, parse_action
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.frames import ReplayStoppedError, replay, steps
from gamerec.validator.games import engine
from gamerec.validator.generation import generate
from gamerec.validator.identity import identify
from gamerec.validator.judge import validate
from tests.validator.examples import grn, one_e3

VARIANTS = [
    ("ONE", {"Players": "2"}),
    ("ONE", {"Players": "5", "Board": "10,10,20"}),
    ("Aronda", {}),
    ("Oust", {"Board": "5"}),
    ("Oh-Wah-Ree", {"Players": "2"}),
    ("Oh-Wah-Ree", {"Players": "3"}),
    ("Oh-Wah-Ree", {"Players": "4"}),
]


@pytest.mark.parametrize(("game", "tags"), VARIANTS)
def test_one_frame_per_ply_and_the_last_digest_is_the_verdicts(
    game: str, tags: dict[str, str]
) -> None:
    for record in generate(game, tags, 3, seed=1):
        frames = list(replay(record))
        verdict = validate(record)
        assert len(frames) == len(record.moves) == verdict.plies_replayed
        assert [frame.ply for frame in frames] == list(range(1, len(frames) + 1))
        assert frames[-1].digest == verdict.final_digest
        assert list(frames[-1].scores) == list(verdict.result.scores)
        assert [frame.seat for frame in frames] == [move.seat for move in record.moves]
        assert frames[-1].position.to_move == 0
        assert any(event.kind == "end" for event in frames[-1].events)


def test_a_frame_shows_the_position_and_the_events_of_its_ply() -> None:
    # ONE E2: ply 7 captures c8 (seat 2) and b5 (seat 3) with the stone from c7.
    record = grn('[Game "ONE"]\n[Players "3"]\n\n1. c7 2. c8 3. b5 4. d1 5. d2 6. d3 7. c7xc9xa5\n')
    last = list(replay(record))[-1]
    assert last.move == "c7xc9xa5"
    owners = {site.name: site.owner for site in last.position.sites}
    assert owners["a5"] == 1 and owners["c7"] == 0 and owners["c8"] == 0 and owners["b5"] == 0
    assert list(last.position.supplies) == [18, 18, 18]
    assert list(last.position.captured) == [2, 0, 0]
    captures = [event for event in last.events if event.kind == "capture"]
    assert captures and sorted(captures[0].where) == ["b5", "c8"]
    assert list(last.scores) == [5, 1, 1]


def test_replay_stops_at_the_first_illegal_ply_with_the_verdicts_finding() -> None:
    record = one_e3("", "1. a1 2. a2 3. b1 4. a1xa4 5. b3")
    seen: list[vpb.ReplayFrame] = []
    with pytest.raises(ReplayStoppedError) as stopped:
        seen.extend(replay(record))
    assert len(seen) == 3
    assert stopped.value.finding == validate(record).errors[0]


def test_steps_can_include_the_start_position() -> None:
    record = one_e3("", "1. a1")
    first = next(steps(record, include_start=True))
    assert first.ply == 0 and first.token == ""
    assert first.state.ply == 0


@pytest.mark.parametrize(("game", "tags"), VARIANTS)
@settings(max_examples=15, deadline=None)
@given(data=st.data())
def test_mutating_one_ply_fails_there_or_was_a_legal_alternative(
    game: str, tags: dict[str, str], data: st.DataObject
) -> None:
    """Replace one ply of a valid game by another token; the verdict must explain it."""
    seed = data.draw(st.integers(0, 10_000), label="seed")
    record = next(generate(game, tags, 1, seed=seed))
    ply = data.draw(st.integers(1, len(record.moves)), label="ply")
    identity = identify(record)
    found = engine(game)
    state = found.new_game(identity.variant)
    for move in record.moves[: ply - 1]:
        state.play(found.parse_move(identity.variant, format_action(move)))
    token = data.draw(st.sampled_from(_tokens(record)), label="token")
    mutated = pb.GameRecord()
    mutated.CopyFrom(record)
    number = game_from_name(game)
    assert number is not None
    mutated.moves[ply - 1].CopyFrom(parse_action(number, token))
    illegal = state.check(found.parse_move(identity.variant, token))
    verdict = validate(mutated)
    if illegal is not None:
        assert verdict.errors[0].ply == ply
        assert verdict.errors[0].code == illegal.code
    else:
        # A legal alternative: the record may still be valid, or fail later (a later ply, or
        # a claim that no longer matches), never at or before the mutated ply.
        assert all(error.ply == 0 or error.ply > ply for error in verdict.errors)


def _tokens(record: pb.GameRecord) -> list[str]:
    """Candidate replacement tokens: every ply of the game plus some off-board ones."""
    tokens = sorted({format_action(move) for move in record.moves})
    rng = random.Random(len(tokens))
    extra = {"ONE": ["e1", "a1xa3"], "Aronda": ["i9", "o1,o1,o1"], "Oust": ["z9", "a1,b1"]}
    game = record.rules.game
    names = {pb.GAME_ONE: "ONE", pb.GAME_ARONDA: "Aronda", pb.GAME_OUST: "Oust"}
    tokens += extra.get(names.get(game, ""), ["13", "5cw"])
    rng.shuffle(tokens)
    return tokens
