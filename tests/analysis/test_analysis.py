"""analyse and annotate --engine: a reproducible analysis, marks on a game with a known blunder."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gamerec.recorder.codecs import Encoding, encode_record, read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.analysis.marks import (
    ThresholdError,
    engine_annotate,
    thresholds_of,
)
from gamerec.validator.analysis.plies import EXACT, SEARCHED, analyse_record
from gamerec.validator.analysis.searcher import SearchSettings, evaluation_of
from gamerec.validator.games.protocol import GameState
from gamerec.validator.identity import identify
from gamerec.validator.judge import validate
from gamerec.validator.search.alphabeta import alphabeta
from gamerec.validator.search.core import Limits
from tests.validator.examples import grn, owr_e1

# ONE on the small board: after ply 4 seat 1 wins by force (solved below), and ply 5 (a2)
# throws that away: after it seat 2 wins by force. The rest is perfect play.
TOKENS = ["a1", "a3", "a4", "b3", "a2", "a3xa5", "a3", "a4", "a6", "b4", "b1", "b2"]
BLUNDER = grn(
    '[Game "ONE"]\n[Players "2"]\n[Board "6,6"]\n\n'
    + " ".join(f"{ply}. {token}" for ply, token in enumerate(TOKENS, start=1))
)
GAMES = Path(__file__).resolve().parents[2] / "fixtures" / "games"
SETTINGS = SearchSettings(Limits(playouts=300), seed=1)


def _solved(state: GameState[Any]) -> int | None:
    """Alpha-beta to the end of the game: the mover's forced win (> 0) or loss."""
    entry = identify(BLUNDER).entry
    return alphabeta(state, Limits(depth=30), evaluation_of(entry)).proven


def _before_ply(record: pb.GameRecord, ply: int) -> GameState[Any]:
    identity = identify(record)
    state = identity.engine.new_game(identity.variant)
    for token in TOKENS[: ply - 1]:
        state.play(identity.engine.parse_move(identity.variant, token))
    return state


def test_the_blunder_is_one() -> None:
    before = _before_ply(BLUNDER, 5)
    after = _before_ply(BLUNDER, 6)
    assert before.to_move == 1 and (_solved(before) or 0) > 0
    assert after.to_move == 2 and (_solved(after) or 0) > 0


def test_annotate_marks_the_blunder_with_the_winning_line() -> None:
    done = engine_annotate(BLUNDER, SETTINGS)
    marks = {mark.ply: mark for mark in done.marks}
    blunder = marks[5]
    assert (blunder.seat, blunder.kind) == (1, "blunder")
    assert blunder.drop >= 0.3 and blunder.lost > 0
    move = done.record.moves[4]
    assert move.glyph == pb.GLYPH_BLUNDER
    assert f"[%drop {blunder.drop:.2f} {blunder.lost:.1f}]" in move.comment
    [variation] = move.variations
    assert "[%engine" in variation.moves[0].comment
    better = _before_ply(BLUNDER, 5)
    identity = identify(BLUNDER)
    better.play(identity.engine.parse_move(identity.variant, blunder.best))
    assert better.to_move == 2 and (_solved(better) or 0) < 0  # the better ply keeps the win
    for ply, mark in marks.items():
        assert mark.drop >= 0.1 and done.record.moves[ply - 1].glyph in (
            pb.GLYPH_DUBIOUS,
            pb.GLYPH_MISTAKE,
            pb.GLYPH_BLUNDER,
        )
    assert all("[%win " in move.comment for move in done.record.moves)


def test_a_second_run_replaces_what_the_first_wrote() -> None:
    once = engine_annotate(BLUNDER, SETTINGS).record
    twice = engine_annotate(once, SETTINGS).record
    assert twice == once
    assert encode_record(twice, Encoding.GRN) == encode_record(once, Encoding.GRN)


def test_grn_keeps_the_marks_and_the_line() -> None:
    once = engine_annotate(BLUNDER, SETTINGS).record
    again = grn(encode_record(once, Encoding.GRN).decode())
    assert engine_annotate(again, SETTINGS).record.moves[4].variations == once.moves[4].variations


def test_higher_thresholds_mark_less() -> None:
    strict = engine_annotate(BLUNDER, SETTINGS, thresholds=(0.5, 0.8, 0.9))
    default = engine_annotate(BLUNDER, SETTINGS)
    assert len(strict.marks) < len(default.marks)
    assert thresholds_of("0.1,0.2,0.3") == (0.1, 0.2, 0.3)
    for wrong in ("0.3,0.2,0.1", "0.1,0.2", "a,b,c", "0,0.5,1", "0.1,0.2,1.5"):
        with pytest.raises(ThresholdError, match="three increasing chances"):
            thresholds_of(wrong)


def test_analysis_is_reproducible_with_a_seed() -> None:
    first = analyse_record(owr_e1(), SETTINGS)
    again = analyse_record(owr_e1(), SETTINGS)
    other = analyse_record(owr_e1(), SearchSettings(Limits(playouts=300), seed=2))
    assert first == again
    assert first != other
    assert [position.ply for position in first.positions] == [1, 2, 3, 4, 5, 6, 7]
    assert [position.played for position in first.positions] == ["1", "7", "2", "9", "3", "8", ""]
    for position in first.positions:
        assert position.value == SEARCHED and position.visits == 300
        assert sum(position.win) == pytest.approx(1.0)
        assert position.margin[0] == pytest.approx(-position.margin[1])
        assert position.line[0] == position.best


def test_a_finished_game_ends_with_its_exact_result() -> None:
    last = analyse_record(BLUNDER, SETTINGS).positions[-1]
    assert (last.ply, last.to_move, last.value, last.win) == (13, 0, EXACT, (0.0, 1.0))
    assert last.best == "" and last.visits == 0


def test_analysis_stops_at_an_illegal_ply() -> None:
    record = owr_e1(moves="1. 1 2. 7 3. 1")
    analysis = analyse_record(record, SETTINGS)
    assert [position.ply for position in analysis.positions] == [1, 2]
    assert analysis.stopped is not None and analysis.stopped.ply == 3


@pytest.mark.parametrize("name", ["oust-side5-pie-off.grn", "ohwahree-3p.grn", "aronda.grn"])
def test_every_better_line_is_legal_where_it_starts(name: str) -> None:
    (record,) = read_records(str(GAMES / name))
    done = engine_annotate(record, SearchSettings(Limits(playouts=20), seed=1))
    lines = 0
    for index, move in enumerate(done.record.moves):
        for variation in move.variations:
            line = pb.GameRecord(rules=record.rules, seats=record.seats)
            line.moves.extend([*record.moves[:index], *variation.moves])
            errors = [error for error in validate(line).errors if error.ply]
            assert errors == [], (index + 1, errors)
            lines += 1
    assert lines == len(done.marks) > 0
