"""``gamerec score`` and ``gamerec adjudicate``: the rules' result and a ruling on the claim."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, limits_of, records_of
from gamerec.cli.edge import EXIT_FAILED, EXIT_FINDINGS, EXIT_OK, error_line
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.limits import Limits

if TYPE_CHECKING:
    from gamerec.v1 import record_pb2 as pb
    from gamerec.v1 import verdict_pb2 as vpb

JsonOption = Annotated[
    bool, typer.Option("--json", help="Print ProtoJSON, one object per record per line.")
]


def score(
    paths: PathsArgument,
    as_json: JsonOption = False,
    from_: FromOption = None,
    limit: LimitOption = None,
) -> None:
    """Print the rules' result of every record: scores, ranks and winners per seat.

    A game that did not reach its end gets the provisional scores of the position reached.
    Exit code 0 when every record is a legal game, 1 when any is not (its standing before
    the first illegal ply is shown), 2 when an input cannot be read.
    """
    from gamerec.cli.verdicts import message_json, result_text
    from gamerec.validator.judge import computed_result, judge

    limits = limits_of(limit)

    def show(source: str, number: int, record: pb.GameRecord) -> bool:
        judgement = judge(record, limits=limits)
        result = computed_result(record, judgement)
        if as_json:
            typer.echo(message_json(result))
        else:
            typer.echo(f"{source} #{number}: {_game(record)}  {result_text(result) or 'no result'}")
            typer.echo(_seat_table(record, result))
        return not judgement.findings

    _run(paths, from_, limits, show)


def adjudicate(
    paths: PathsArgument,
    as_json: JsonOption = False,
    from_: FromOption = None,
    limit: LimitOption = None,
) -> None:
    """Rule on the result of every record, citing the rules.

    Finished games: the claim is confirmed or corrected. Timeout: the seat to move loses.
    Agreement: the claim stands. Abandoned or unfinished: the provisional standing. A record
    that is not a legal game is void. Exit code 0 when every record is valid as claimed, 1
    otherwise, 2 when an input cannot be read.
    """
    from gamerec.cli.verdicts import DECISIONS, finding_text, message_json
    from gamerec.validator.adjudication import adjudicate as adjudicate_record

    limits = limits_of(limit)

    def show(source: str, number: int, record: pb.GameRecord) -> bool:
        ruling = adjudicate_record(record, limits=limits)
        if as_json:
            typer.echo(message_json(ruling))
        else:
            decision = DECISIONS[ruling.decision].upper()
            typer.echo(f"{source} #{number}: {_game(record)}  {decision}")
            typer.echo(f"  {ruling.explanation}")
            for finding in ruling.verdict.errors:
                typer.echo(f"  {finding_text(finding)}")
            typer.echo(_seat_table(record, ruling.result))
        return ruling.verdict.valid

    _run(paths, from_, limits, show)


def _run(
    paths: list[str],
    encoding: Encoding | None,
    limits: Limits,
    show: Callable[[str, int, pb.GameRecord], bool],
) -> None:
    """Show every record; exit 0 / 1 (some record not valid) / 2 (some input unreadable)."""
    from gamerec.recorder.inputs import InputFailure

    failed = invalid = False
    for item in records_of(paths, encoding, limits):
        if isinstance(item, InputFailure):
            typer.echo(error_line(item.message), err=True)
            failed = True
        elif not show(item.source, item.number, item.record):
            invalid = True
    raise typer.Exit(EXIT_FAILED if failed else EXIT_FINDINGS if invalid else EXIT_OK)


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
