"""``gamerec standings PATH... [--event NAME]``: the crosstable of an event from its records."""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, limits_of
from gamerec.cli.collected import Failures, WorkersOption
from gamerec.cli.edge import EXIT_FINDINGS, EXIT_OK, fail, reported_errors

if TYPE_CHECKING:
    from fractions import Fraction

    from gamerec.v1 import collections_pb2 as cpb


class Use(enum.StrEnum):
    """Where the results come from."""

    COMPUTED = "computed"
    CLAIMED = "claimed"


class Form(enum.StrEnum):
    """How the table is written."""

    TEXT = "text"
    CSV = "csv"
    JSON = "json"


def standings(
    paths: PathsArgument,
    *,
    event: Annotated[
        str | None, typer.Option("--event", help="Only this event (default: a table per event).")
    ] = None,
    use: Annotated[
        Use,
        typer.Option("--use", help="computed: the rules' results, as adjudicate rules; claimed."),
    ] = Use.COMPUTED,
    points: Annotated[
        str | None,
        typer.Option(
            "--points",
            metavar="P1,P2,...",
            help="Points by place, first place first (default: n-r for the r-th of n seats; "
            "two seats: 1,0, a draw 1/2 each).",
        ),
    ] = None,
    form: Annotated[Form, typer.Option("--format", help="text, csv or json.")] = Form.TEXT,
    as_json: Annotated[bool, typer.Option("--json", help="The same as --format json.")] = False,
    as_csv: Annotated[bool, typer.Option("--csv", help="The same as --format csv.")] = False,
    from_: FromOption = None,
    workers: WorkersOption = 0,
    limit: LimitOption = None,
) -> None:
    """The crosstable of an event: points, tie-breaks and results against each opponent.

    Results come from the rules by default (a game whose record claims otherwise counts as
    the rules say, and is marked with its finding); --use claimed takes the claims. Ties are
    broken by Buchholz, then Sonneborn-Berger. Exit code 0; 1 when a game is marked or not
    counted; 2 when an input cannot be read.
    """
    from gamerec.recorder.inputs import InputFailure
    from gamerec.validator.collection.standings import standings as make_standings

    table = _points(points)
    chosen = Form.JSON if as_json else (Form.CSV if as_csv else form)
    failures = Failures()
    unread: list[InputFailure] = []
    with reported_errors():
        found = make_standings(
            paths,
            event=event,
            use=use.value,
            points_table=table,
            encoding=from_,
            limits=limits_of(limit),
            workers=workers,
            failures=unread,
        )
    failures.report_all(unread)
    if event is not None and not found.events:
        fail(f"no record of event {event!r}")
    typer.echo(_written(found, chosen))
    marked = any(not g.scored or g.mark for e in found.events for g in e.games)
    raise typer.Exit(failures.exit_code(EXIT_FINDINGS if marked else EXIT_OK))


def _points(text: str | None) -> list[Fraction] | None:
    """``--points 3,1,0,0`` (fractions such as 1/2 allowed); exit 2 when it does not read."""
    from fractions import Fraction

    if text is None:
        return None
    try:
        return [Fraction(part.strip()) for part in text.split(",")]
    except (ValueError, ZeroDivisionError):
        fail(f"--points: {text!r} is not numbers separated by commas, e.g. 3,1,0,0")


def _written(found: cpb.Standings, form: Form) -> str:
    from gamerec.cli.crosstable import csv_text, table_lines

    if form is Form.JSON:
        from gamerec.cli.verdicts import message_json

        return message_json(found)
    if form is Form.CSV:
        return csv_text(found)
    return "\n\n".join("\n".join(table_lines(event)) for event in found.events)
