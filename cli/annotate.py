"""``gamerec annotate IN -o OUT``: comments and glyphs at a ply, or engine facts on every ply.

By hand: ``--ply 12 --comment "..." --glyph "?"`` (``--remove-comment``, ``--remove-glyph``).
Automatically: ``--auto`` writes the engine's facts on every main-line ply and marks clearly
worse plies with ``?`` (see ``validator/annotation.py`` for the facts and the search);
``--engine`` searches every position and marks inaccuracies, mistakes and blunders by the drop
in the mover's chance of winning, the better line as a variation
(``validator/analysis/marks.py``).
OUT is written only when every record could be handled (atomically, as ``convert`` does).
Exit code 1 when some record could not be annotated to its end (an illegal ply, an unknown
game: it is written as far as it could be annotated, and named on stderr), 2 when the job
could not be done.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Annotated

import typer

from gamerec.cli.collected import InArgument, InFromOption, OutOption, ToOption, output_encoding
from gamerec.cli.edge import EXIT_FINDINGS, error_line, fail, reported_errors
from gamerec.cli.progress import Meter, parsed_frames
from gamerec.cli.searching import PlayoutsOption, SeedOption, TimeOption, search_settings
from gamerec.cli.verdicts import finding_text
from gamerec.recorder.codecs import write_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.analysis.marks import engine_annotate, thresholds_of
from gamerec.validator.analysis.searcher import SearchSettings
from gamerec.validator.annotation import AnnotationError, auto_annotate, edit_ply, parse_glyph
from gamerec.validator.identity import RulesError


@dataclass(frozen=True, slots=True)
class Edit:
    """What to change at one ply by hand."""

    ply: int
    comment: str | None
    glyph: pb.Glyph.ValueType | None
    remove_comment: bool
    remove_glyph: bool


@dataclass
class Annotator:
    """Annotates a stream of records, counting what it did and what it could not do."""

    source: str
    edit: Edit | None
    auto: bool
    replace_glyphs: bool
    only: int | None
    engine: EngineMarks | None = None
    records: int = 0
    annotated: int = 0
    marked: int = 0
    engine_marks: int = 0
    problems: list[str] = field(default_factory=list)

    def run(self, records: Iterable[pb.GameRecord]) -> Iterator[pb.GameRecord]:
        """Every record, annotated when it is one to annotate.

        Raises:
            AnnotationError: a hand edit cannot be made, names no single record, or the
                record asked for is not there.
        """
        for number, record in enumerate(records, start=1):
            self.records = number
            if self.edit is not None and self.only is None and number > 1:
                raise AnnotationError(
                    f"{self.source} holds several records; say which to edit with --record"
                )
            chosen = self.only is None or number == self.only
            yield self._annotated(record, number) if chosen else record
        if self.only is not None and self.only > self.records:
            raise AnnotationError(f"{self.source}: there is no record {self.only}")

    def _annotated(self, record: pb.GameRecord, number: int) -> pb.GameRecord:
        label = f"{self.source} #{number}"
        if self.edit is not None:
            edit = self.edit
            try:
                record = edit_ply(
                    record,
                    edit.ply,
                    comment=edit.comment,
                    glyph=edit.glyph,
                    remove_comment=edit.remove_comment,
                    remove_glyph=edit.remove_glyph,
                )
            except AnnotationError as error:
                raise AnnotationError(f"{label}: {error}") from None
        if self.engine is not None:
            record = self._engine_marked(record, label)
        if not self.auto:
            return record
        try:
            done = auto_annotate(record, replace_glyphs=self.replace_glyphs)
        except RulesError as error:
            self.problems.append(f"{label}: not annotated: {error.code}: {error}")
            return record
        self.annotated += done.annotated
        self.marked += len(done.marked)
        if done.stopped is not None:
            self.problems.append(
                f"{label}: annotated up to ply {done.annotated}: {finding_text(done.stopped)}"
            )
        return done.record

    def _engine_marked(self, record: pb.GameRecord, label: str) -> pb.GameRecord:
        assert self.engine is not None
        try:
            done = engine_annotate(
                record,
                self.engine.settings,
                thresholds=self.engine.thresholds,
                replace_glyphs=self.replace_glyphs,
            )
        except RulesError as error:
            self.problems.append(f"{label}: not annotated: {error.code}: {error}")
            return record
        self.annotated += len(done.positions) - 1
        self.marked += len(done.glyphs)
        self.engine_marks += len(done.marks)
        if done.stopped is not None:
            plies = len(done.positions) - 1
            self.problems.append(
                f"{label}: analysed up to ply {plies}: {finding_text(done.stopped)}"
            )
        return done.record


@dataclass(frozen=True, slots=True)
class EngineMarks:
    """``--engine``: the search's settings and the marks' thresholds."""

    settings: SearchSettings
    thresholds: tuple[float, float, float]


def annotate(
    source: InArgument,
    dest: OutOption,
    *,
    ply: Annotated[
        int | None, typer.Option("--ply", min=1, help="The main-line ply to edit (1-based).")
    ] = None,
    comment: Annotated[
        str | None, typer.Option("--comment", help="Text to add to the ply's comment.")
    ] = None,
    glyph: Annotated[
        str | None,
        typer.Option("--glyph", help="The ply's glyph: ! ? !! ?? !? ?! or $1 to $6."),
    ] = None,
    remove_comment: Annotated[
        bool, typer.Option("--remove-comment", help="Clear the ply's comment (facts too).")
    ] = False,
    remove_glyph: Annotated[
        bool, typer.Option("--remove-glyph", help="Clear the ply's glyph.")
    ] = False,
    auto: Annotated[
        bool,
        typer.Option(
            "--auto", help="Write the engine's facts on every ply; mark clearly worse plies ?."
        ),
    ] = False,
    replace_glyphs: Annotated[
        bool,
        typer.Option(
            "--replace-glyphs", help="With --auto: put ? even where a ply has another glyph."
        ),
    ] = False,
    number: Annotated[
        int | None,
        typer.Option("--record", min=1, help="Annotate only this record (1-based)."),
    ] = None,
    from_: InFromOption = None,
    to: ToOption = None,
    engine: Annotated[
        bool,
        typer.Option(
            "--engine",
            help="Search every position; mark inaccuracies ?!, mistakes ? and blunders ?? "
            "by the drop in the mover's win chance, with the better line as a variation.",
        ),
    ] = False,
    thresholds: Annotated[
        str,
        typer.Option(
            "--thresholds", help="With --engine: the drops that mark ?!, ? and ?? (lichess's)."
        ),
    ] = "0.1,0.2,0.3",
    time: TimeOption = None,
    playouts: PlayoutsOption = None,
    seed: SeedOption = 1,
) -> None:
    """Annotate records: a comment or glyph at a ply, or engine facts on every ply (--auto).

    Existing comments and glyphs are kept: a comment is added to the text already there, a
    different glyph needs --remove-glyph, and --auto leaves other glyphs alone unless
    --replace-glyphs. Facts are comment commands ([%score 5-1-1] [%legal 42] [%captures a2]
    [%possessions o4] [%best c7xc9 4]) that every encoding keeps.
    """
    hand = (comment, glyph) != (None, None) or remove_comment or remove_glyph
    if hand and ply is None:
        fail("--comment, --glyph, --remove-comment and --remove-glyph need --ply")
    if ply is not None and not hand:
        fail("--ply needs something to do: --comment, --glyph, --remove-comment or --remove-glyph")
    if not hand and not auto and not engine:
        fail("nothing to do: give --ply with a change, --auto or --engine")
    marks = None
    if engine:
        with reported_errors():
            marks = EngineMarks(search_settings(time, playouts, seed), thresholds_of(thresholds))
    encoding = output_encoding(dest, to)
    edit = None
    if ply is not None:
        with reported_errors():
            chosen = parse_glyph(glyph) if glyph is not None else None
        edit = Edit(ply, comment, chosen, remove_comment, remove_glyph)
    label = "<stdin>" if source == "-" else source
    annotator = Annotator(label, edit, auto, replace_glyphs, number, marks)
    with reported_errors(), Meter("annotate", None, output=dest) as meter:
        records = parsed_frames(source, from_, None, meter)
        count = write_records(annotator.run(records), dest, encoding)
    for problem in annotator.problems:
        typer.echo(error_line(problem), err=True)
    if dest != "-":
        noun = "record" if count == 1 else "records"
        plies = "ply" if annotator.annotated == 1 else "plies"
        facts = f"; facts on {annotator.annotated:,} {plies}, {annotator.marked:,} marked ?"
        facts = facts if auto else ""
        if engine:
            marked = f"{annotator.engine_marks:,} marked by the engine"
            facts = f"; {annotator.annotated:,} {plies} analysed, {marked}"
        typer.echo(f"gamerec: {count} {noun} written to {dest} ({encoding.value}){facts}", err=True)
    if annotator.problems:
        raise typer.Exit(EXIT_FINDINGS)
