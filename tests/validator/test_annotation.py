"""Annotations: facts the validator agrees with, the short search, edits that keep what is there."""

from __future__ import annotations

from pathlib import Path

import pytest

from gamerec.recorder.codecs import Encoding, decode_record, encode_record, read_records
from gamerec.recorder.encoding import OWN_ENCODINGS
from gamerec.recorder.notation import parse_action
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.annotation import (
    AnnotationError,
    auto_annotate,
    edit_ply,
    parse_glyph,
    read_facts,
    without_facts,
)
from gamerec.validator.frames import replay, steps
from gamerec.validator.games.registry import entry_named
from gamerec.validator.generation import generate
from gamerec.validator.identity import RulesError
from gamerec.validator.judge import validate

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"
VALID = ROOT / "fixtures" / "valid"
INVALID = ROOT / "fixtures" / "invalid"


def record_of(path: Path) -> pb.GameRecord:
    return next(read_records(path))


def with_move(record: pb.GameRecord, ply: int, token: str) -> pb.GameRecord:
    """A copy of ``record`` cut after ``ply`` with that ply replaced by ``token``."""
    changed = pb.GameRecord()
    changed.CopyFrom(record)
    del changed.moves[ply - 1 :]
    changed.moves.append(parse_action(record.rules.game, token))
    changed.result.Clear()
    return changed


@pytest.mark.parametrize("path", sorted(GAMES.glob("*.grn")), ids=lambda path: path.stem)
def test_auto_facts_agree_with_the_replay_frames(path: Path) -> None:
    record = record_of(path)
    done = auto_annotate(record)
    assert done.stopped is None and done.annotated == len(record.moves)
    frames = list(replay(record))
    legal_before = [len(step.state.legal_moves()) for step in steps(record, include_start=True)]
    for frame, move in zip(frames, done.record.moves, strict=True):
        facts = read_facts(move.comment)
        assert facts is not None, frame.ply
        assert facts.scores == tuple(frame.scores)
        assert facts.legal == legal_before[frame.ply - 1]
        captured = [p for e in frame.events if e.kind == "capture" for p in e.where]
        possessed = [p for e in frame.events if e.kind.startswith("possession") for p in e.where]
        assert list(facts.captures) == captured
        assert list(facts.possessions) == possessed
        assert (move.glyph == pb.GLYPH_MISTAKE) == (frame.ply in done.worse)


def test_the_input_record_is_left_unchanged() -> None:
    record = record_of(GAMES / "one-3p.grn")
    before = record.SerializeToString()
    auto_annotate(record)
    assert record.SerializeToString() == before


def test_a_missed_capture_is_marked_with_the_capture_as_best() -> None:
    # docs/rules/one.md E3: at ply 4 seat 1 captures a1xa3; b2 instead leaves the capture.
    record = with_move(record_of(VALID / "one-e3-round-completion.grn"), 4, "b2")
    done = auto_annotate(record)
    facts = read_facts(done.record.moves[3].comment)
    assert facts is not None
    assert facts.best == "a1xa3" and facts.loss >= entry_named("ONE").annotation.threshold
    assert done.worse == (4,) and done.marked == (4,)
    assert done.record.moves[3].glyph == pb.GLYPH_MISTAKE


def test_a_missed_win_in_oust_is_marked() -> None:
    # docs/rules/oust.md E1: ply 3 f7 removes h7 and wins; a7 instead does not.
    record = with_move(record_of(VALID / "oust-e1-pie.grn"), 3, "a7")
    facts = read_facts(auto_annotate(record).record.moves[2].comment)
    assert facts is not None and facts.loss >= 1000
    winning = validate(with_move(record, 3, facts.best))
    assert winning.status == vpb.GAME_STATUS_FINISHED and list(winning.result.winners) == [1]


def test_the_played_best_move_is_not_marked() -> None:
    done = auto_annotate(record_of(VALID / "one-e3-round-completion.grn"))
    facts = read_facts(done.record.moves[3].comment)
    assert facts is not None
    assert (facts.scores, facts.captures, facts.best) == ((3, 0, 1), ("a2",), "")
    assert 4 not in done.worse


def test_existing_comments_and_glyphs_are_kept() -> None:
    record = record_of(VALID / "oust-e1-pie.grn")  # ply 2 "h7?" and comments with text
    done = auto_annotate(record)
    for before, after in zip(record.moves, done.record.moves, strict=True):
        assert without_facts(after.comment) == before.comment
        if before.glyph:
            assert after.glyph == before.glyph
        assert list(after.variations) == list(before.variations)
    assert done.record.comment == record.comment


def test_an_existing_glyph_is_replaced_only_when_asked() -> None:
    record = with_move(record_of(VALID / "one-e3-round-completion.grn"), 4, "b2")
    record.moves[3].glyph = pb.GLYPH_GOOD
    kept = auto_annotate(record)
    assert kept.record.moves[3].glyph == pb.GLYPH_GOOD
    assert kept.worse == (4,) and kept.marked == ()
    replaced = auto_annotate(record, replace_glyphs=True)
    assert replaced.record.moves[3].glyph == pb.GLYPH_MISTAKE and replaced.marked == (4,)


def test_annotating_twice_gives_the_same_record() -> None:
    once = auto_annotate(record_of(GAMES / "aronda.grn")).record
    assert auto_annotate(once).record == once


def test_an_illegal_ply_stops_the_facts_and_leaves_the_rest() -> None:
    record = record_of(INVALID / "one-landing-occupied.grn")
    done = auto_annotate(record)
    assert done.stopped is not None and done.stopped.code == "LANDING_OCCUPIED"
    assert done.annotated == done.stopped.ply - 1
    for number, (before, after) in enumerate(
        zip(record.moves, done.record.moves, strict=True), start=1
    ):
        if number < done.stopped.ply:
            assert read_facts(after.comment) is not None
        else:
            assert after == before


def test_a_record_of_an_unknown_game_cannot_be_annotated() -> None:
    with pytest.raises(RulesError):
        auto_annotate(record_of(INVALID / "unknown-game.pb"))


@pytest.mark.parametrize("encoding", list(OWN_ENCODINGS), ids=lambda encoding: encoding.value)
def test_annotations_survive_every_encoding(encoding: Encoding) -> None:
    record = with_move(record_of(VALID / "one-e3-round-completion.grn"), 4, "b2")
    record = edit_ply(record, 2, comment="a quiet } {[%clk 0:01:00]} move", glyph=pb.GLYPH_GOOD)
    annotated = auto_annotate(record).record
    again = decode_record(encode_record(annotated, encoding), encoding)
    assert again == annotated
    facts = [read_facts(move.comment) for move in again.moves]
    assert facts == [read_facts(move.comment) for move in annotated.moves]
    assert again.moves[3].glyph == pb.GLYPH_MISTAKE


@pytest.mark.parametrize(
    ("game", "tags"),
    [
        ("ONE", {"Players": "3"}),
        ("Aronda", {}),
        ("Oust", {"Board": "4"}),
        ("Oh-Wah-Ree", {"Players": "4"}),
    ],
)
def test_random_play_has_clearly_worse_plies_and_each_names_a_better_move(
    game: str, tags: dict[str, str]
) -> None:
    record = next(generate(game, tags, 1, seed=11))
    done = auto_annotate(record)
    assert done.worse
    for ply in done.worse:
        facts = read_facts(done.record.moves[ply - 1].comment)
        assert (
            facts is not None
            and facts.best
            and facts.loss >= entry_named(game).annotation.threshold
        )


# -- by hand ---------------------------------------------------------------------------------


def test_a_comment_is_added_before_the_facts_and_a_glyph_set() -> None:
    annotated = auto_annotate(record_of(VALID / "one-e2-two-jumps.grn")).record
    edited = edit_ply(annotated, 2, comment="sharp", glyph=parse_glyph("!?"))
    move = edited.moves[1]
    assert move.comment.startswith("sharp [%score ")
    assert read_facts(move.comment) == read_facts(annotated.moves[1].comment)
    assert move.glyph == pb.GLYPH_INTERESTING


def test_a_comment_is_appended_to_the_text_already_there() -> None:
    record = record_of(VALID / "oust-e1-pie.grn")
    edited = edit_ply(record, 3, comment="and wins")
    assert edited.moves[2].comment == record.moves[2].comment + " and wins"
    assert record.moves[2].comment != edited.moves[2].comment  # the input is untouched


def test_another_glyph_needs_the_old_one_removed() -> None:
    record = record_of(VALID / "oust-e1-pie.grn")  # ply 2 has "?"
    with pytest.raises(AnnotationError, match="already has the glyph"):
        edit_ply(record, 2, glyph=pb.GLYPH_BLUNDER)
    assert edit_ply(record, 2, glyph=pb.GLYPH_MISTAKE).moves[1].glyph == pb.GLYPH_MISTAKE
    replaced = edit_ply(record, 2, glyph=pb.GLYPH_BLUNDER, remove_glyph=True)
    assert replaced.moves[1].glyph == pb.GLYPH_BLUNDER


def test_removing_a_comment_and_a_glyph() -> None:
    record = record_of(VALID / "oust-e1-pie.grn")
    edited = edit_ply(record, 2, remove_comment=True, remove_glyph=True)
    assert edited.moves[1].comment == "" and edited.moves[1].glyph == pb.GLYPH_UNSPECIFIED
    assert edited.moves[1].variations == record.moves[1].variations


def test_an_edit_names_a_ply_of_the_main_line() -> None:
    record = record_of(VALID / "oust-e1-pie.grn")
    for ply in (0, 4):
        with pytest.raises(AnnotationError, match="there is no ply"):
            edit_ply(record, ply, comment="x")


@pytest.mark.parametrize(
    ("text", "glyph"),
    [("!", pb.GLYPH_GOOD), ("??", pb.GLYPH_BLUNDER), ("$2", pb.GLYPH_MISTAKE), ("?!", 6)],
)
def test_glyphs_are_read_as_grn_writes_them(text: str, glyph: int) -> None:
    assert parse_glyph(text) == glyph


@pytest.mark.parametrize("text", ["", "!!!", "$7", "good"])
def test_other_glyph_texts_are_refused(text: str) -> None:
    with pytest.raises(AnnotationError):
        parse_glyph(text)
