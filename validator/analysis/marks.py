"""Inaccuracies, mistakes and blunders, by the drop in the mover's chance of winning.

``gamerec annotate --engine`` analyses every main-line position (:mod:`.plies`) and compares,
for each ply, the mover's chance of winning before it (with the best play the search found)
and after it (lichess's way): a drop of at least the first threshold is an inaccuracy
(glyph ``?!``), of the second a mistake (``?``), of the third a blunder (``??``); lichess's
0.1, 0.2 and 0.3 by default. A ply that is the search's own best is never marked (its drop
is the search's noise). Every ply gets the seats' chances after it, a marked ply the drop
and the score lost (the mover's expected margin before, minus after), and the better ply
and its line as a variation of the ply::

    12. c7xc9?? {[%win 0.81,0.19] [%drop 0.34 6.5]} (12. d14 {[%engine 0.55 +2.0]} d2 ...)

Commands and variations an earlier run wrote are replaced, never duplicated; the engine's
variations are those whose first move's comment holds ``[%engine``. The commands' grammar,
written here and read by the viewer, is :mod:`.commands`.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Final

from gamerec.recorder.arguments import require_record
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.notation import parse_action
from gamerec.recorder.syntax import GameValue
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.analysis.commands import (
    drop_command,
    engine_command,
    is_engine_line,
    win_command,
    with_engine_commands,
)
from gamerec.validator.analysis.plies import PositionAnalysis, analyse_record
from gamerec.validator.analysis.searcher import SearchSettings
from gamerec.validator.identity import identify

#: lichess's thresholds: inaccuracy, mistake, blunder.
DEFAULT_THRESHOLDS: Final = (0.1, 0.2, 0.3)
#: The glyph and word of each mark, in threshold order.
MARKS: Final = (
    (pb.GLYPH_DUBIOUS, "inaccuracy"),
    (pb.GLYPH_MISTAKE, "mistake"),
    (pb.GLYPH_BLUNDER, "blunder"),
)


class ThresholdError(GamerecError):
    """Thresholds that are not three increasing chances between 0 and 1."""


def thresholds_of(text: str) -> tuple[float, float, float]:
    """Three increasing chances from ``0.1,0.2,0.3``.

    Raises:
        ThresholdError: not three numbers, not increasing, or not within (0, 1].
    """
    try:
        values = tuple(float(part) for part in text.split(","))
    except ValueError:
        values = ()
    if len(values) != 3 or not 0 < values[0] < values[1] < values[2] <= 1:
        raise ThresholdError(
            f"thresholds {text!r}: give three increasing chances in (0, 1], e.g. 0.1,0.2,0.3"
        )
    return values[0], values[1], values[2]


@dataclass(frozen=True, slots=True)
class Mark:
    """One marked ply.

    Attributes:
        ply: the ply (1-based).
        seat: its mover.
        kind: ``inaccuracy``, ``mistake`` or ``blunder``.
        drop: how much the mover's chance of winning fell.
        lost: the score points the mover's expected margin fell by.
        best: the better ply's token.
        line: the better line's tokens (``best`` first).
    """

    ply: int
    seat: int
    kind: str
    drop: float
    lost: float
    best: str
    line: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class EngineAnnotation:
    """What :func:`engine_annotate` did.

    Attributes:
        record: the annotated record (a new message).
        marks: every marked ply.
        glyphs: the plies whose glyph this run set.
        positions: the analysis it rests on.
        stopped: the finding about the first ply that could not be played, or None.
    """

    record: pb.GameRecord
    marks: tuple[Mark, ...]
    glyphs: tuple[int, ...]
    positions: tuple[PositionAnalysis, ...]
    stopped: vpb.Finding | None


def mark_of(
    before: PositionAnalysis, after: PositionAnalysis, thresholds: tuple[float, float, float]
) -> Mark | None:
    """The mark of the ply between two analysed positions, or None."""
    seat = before.to_move
    if not seat or not before.best or before.played == before.best:
        return None
    drop = before.win[seat - 1] - after.win[seat - 1]
    kinds = [word for limit, (_, word) in zip(thresholds, MARKS, strict=True) if drop >= limit]
    if not kinds:
        return None
    lost = before.margin[seat - 1] - after.margin[seat - 1]
    return Mark(before.ply, seat, kinds[-1], drop, lost, before.best, before.line)


def engine_annotate(
    record: pb.GameRecord,
    settings: SearchSettings,
    *,
    thresholds: tuple[float, float, float] = DEFAULT_THRESHOLDS,
    replace_glyphs: bool = False,
) -> EngineAnnotation:
    """A copy of ``record`` with the engine's chances, marks and better lines (see above).

    Raises:
        RulesError: the record's game or variant cannot be judged.
    """
    require_record(record, "engine_annotate")
    identity = identify(record)
    analysis = analyse_record(record, settings)
    annotated = pb.GameRecord()
    annotated.CopyFrom(record)
    positions = analysis.positions
    marks: list[Mark] = []
    glyphs: list[int] = []
    for before, after in itertools.pairwise(positions):
        move = annotated.moves[before.ply - 1]
        commands = [win_command(after.win)]
        _drop_engine_lines(move)
        mark = mark_of(before, after, thresholds)
        if mark is not None:
            marks.append(mark)
            commands.append(drop_command(mark.drop, mark.lost))
            glyph = MARKS[[word for _, word in MARKS].index(mark.kind)][0]
            if move.glyph != glyph and (replace_glyphs or not move.glyph):
                move.glyph = glyph
                glyphs.append(mark.ply)
            move.variations.append(_variation(identity.entry.game, before, mark))
        move.comment = with_engine_commands(move.comment, " ".join(commands))
    return EngineAnnotation(annotated, tuple(marks), tuple(glyphs), positions, analysis.stopped)


def _variation(game: GameValue, before: PositionAnalysis, mark: Mark) -> pb.Variation:
    """The better line, from the marked ply on; its first move says the search's view."""
    seat = before.to_move
    variation = pb.Variation()
    for token in mark.line:
        variation.moves.append(parse_action(game, token))
    first = variation.moves[0]
    first.seat = seat
    first.comment = engine_command(before.win[seat - 1], before.margin[seat - 1])
    return variation


def _drop_engine_lines(move: pb.Move) -> None:
    """Remove the variations an earlier run wrote."""
    kept = [
        variation
        for variation in move.variations
        if not (variation.moves and is_engine_line(variation.moves[0].comment))
    ]
    del move.variations[:]
    move.variations.extend(kept)
