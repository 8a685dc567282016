"""``gamerec info PATH...``: one line per record: game, variant, seats, plies, claimed result."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, limits_of, records_of
from gamerec.cli.edge import EXIT_FAILED, error_line

if TYPE_CHECKING:
    from gamerec.recorder.summary import RecordSummary


def info(
    paths: PathsArgument,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print JSON Lines: one object per record."),
    ] = False,
    from_: FromOption = None,
    limit: LimitOption = None,
) -> None:
    """Summarize every record: game, variant, seats, plies and the claimed result.

    An input that cannot be read is reported on stderr, the others are still summarized,
    and the exit code is 2.
    """
    from gamerec.recorder.inputs import InputFailure
    from gamerec.recorder.summary import summarize

    show = _json_line if as_json else _line
    failed = False
    for item in records_of(paths, from_, limits_of(limit)):
        if isinstance(item, InputFailure):
            typer.echo(error_line(item.message), err=True)
            failed = True
        else:
            typer.echo(show(item.source, item.number, summarize(item.record)))
    if failed:
        raise typer.Exit(EXIT_FAILED)


def _line(path: str, number: int, summary: RecordSummary) -> str:
    seats = ", ".join(name or "(unnamed)" for name in summary.seats) or "none"
    parts = [
        f"{path} #{number}",
        summary.game,
        summary.variant_text() or "(default variant)",
        f"seats: {seats}",
        f"plies: {summary.plies}",
        f"result: {_result(summary)}",
    ]
    return "  ".join(parts)


def _result(summary: RecordSummary) -> str:
    details = []
    if summary.winners:
        label = "winner" if len(summary.winners) == 1 else "winners"
        details.append(f"{label} " + ",".join(str(seat) for seat in summary.winners))
    if summary.termination:
        details.append(summary.termination)
    claim = summary.result or "none"
    return f"{claim} ({'; '.join(details)})" if details else claim


def _json_line(path: str, number: int, summary: RecordSummary) -> str:
    import orjson

    return orjson.dumps({"source": path, "record": number, **summary.as_mapping()}).decode()
