"""``gamerec score`` and ``gamerec adjudicate``: the rules' result and a ruling on the claim."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, each_record, limits_of
from gamerec.cli.edge import fail
from gamerec.cli.searching import PlayoutsOption, SeedOption, TimeOption, search_settings

if TYPE_CHECKING:
    from gamerec.recorder.inputs import ParsedRecord
    from gamerec.v1 import record_pb2 as pb
    from gamerec.v1 import verdict_pb2 as vpb


def score(
    paths: PathsArgument,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one ScoredRecord per record as a line of ProtoJSON; "
            "docs/validating.md#json-lines describes it.",
        ),
    ] = False,
    from_: FromOption = None,
    limit: LimitOption = None,
) -> None:
    """Print the rules' result of every record: scores, ranks and winners per seat.

    A game that did not reach its end gets the provisional scores of the position reached.
    Exit code 0 when every record is a legal game, 1 when any is not (its standing before
    the first illegal ply is shown), 2 when an input cannot be read.
    """
    from gamerec.cli.verdicts import message_json, result_text
    from gamerec.v1 import lines_pb2
    from gamerec.validator.judge import computed_result, judge

    limits = limits_of(limit)

    def show(item: ParsedRecord, echo: Callable[[str], None]) -> bool:
        record = item.record
        judgement = judge(record, limits=limits)
        result = computed_result(record, judgement)
        valid = not judgement.findings
        if as_json:
            scored = lines_pb2.ScoredRecord(
                source=item.source,
                record_number=item.number,
                game=record.rules.game,
                valid=valid,
                result=result,
            )
            echo(message_json(scored))
        else:
            shown = result_text(result) or "no result"
            echo(f"{item.source} #{item.number}: {_game(record)}  {shown}")
            echo(_seat_table(record, result))
        return valid

    raise typer.Exit(each_record(paths, from_, limits, show, label="score", as_json=as_json))


def adjudicate(
    paths: PathsArgument,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one Ruling per record as a line of ProtoJSON; "
            "docs/validating.md#json-lines describes it.",
        ),
    ] = False,
    from_: FromOption = None,
    limit: LimitOption = None,
    *,
    engine: Annotated[
        bool,
        typer.Option(
            "--engine",
            help="Also search an unfinished game's position; the engine decides when exact "
            "or confident enough (docs/analysis.md).",
        ),
    ] = False,
    confidence: Annotated[
        float,
        typer.Option(
            "--confidence",
            help="With --engine: the win chance at or above which the engine decides.",
        ),
    ] = 0.9,
    time: TimeOption = None,
    playouts: PlayoutsOption = None,
    seed: SeedOption = 1,
) -> None:
    """Rule on the result of every record, citing the rules.

    Finished games: the claim is confirmed or corrected. Timeout: the seat to move loses.
    Agreement: the claim stands. Abandoned or unfinished: the provisional standing; with
    --engine the position is also searched, and the engine decides the winner when its value
    is exact or its favourite's win chance reaches --confidence. A record that is not a legal
    game is void. Exit code 0 when every record is valid as claimed, 1 otherwise, 2 when an
    input cannot be read.
    """
    from gamerec.cli.verdicts import DECISIONS, finding_text, message_json
    from gamerec.validator.adjudication import adjudicate as adjudicate_record
    from gamerec.validator.analysis.assessment import EngineRequest

    limits = limits_of(limit)
    request = None
    if engine:
        try:
            request = EngineRequest(search_settings(time, playouts, seed), confidence)
        except ValueError as error:
            fail(f"--confidence: {error}")
    elif (time, playouts, confidence) != (None, None, 0.9):
        fail("--time, --playouts and --confidence are options of --engine")

    def show(item: ParsedRecord, echo: Callable[[str], None]) -> bool:
        ruling = adjudicate_record(item.record, limits=limits, engine=request)
        ruling.source = ruling.verdict.source = item.source
        ruling.record_number = ruling.verdict.record_number = item.number
        if as_json:
            echo(message_json(ruling))
            return ruling.verdict.valid
        decision = DECISIONS[ruling.decision].upper()
        echo(f"{item.source} #{item.number}: {_game(item.record)}  {decision}")
        echo(f"  {ruling.explanation}")
        for finding in ruling.verdict.errors:
            echo(f"  {finding_text(finding)}")
        echo(_seat_table(item.record, ruling.result))
        return ruling.verdict.valid

    raise typer.Exit(each_record(paths, from_, limits, show, label="adjudicate", as_json=as_json))


def _game(record: pb.GameRecord) -> str:
    """The record's game name."""
    from gamerec.recorder.notation import game_label

    return game_label(record.rules.game)


def _seat_table(record: pb.GameRecord, result: vpb.ComputedResult) -> str:
    """One line per seat: name, score, rank, and a mark for the winners."""
    lines = []
    for index, points in enumerate(result.scores):
        seat = index + 1
        name = record.seats[index].name if index < len(record.seats) else ""
        rank = f"rank {result.ranks[index]}" if index < len(result.ranks) else ""
        mark = "  winner" if seat in result.winners else ""
        lines.append(f"    seat {seat} {name or '':<12} {points:>4}  {rank}{mark}")
    return "\n".join(lines)
