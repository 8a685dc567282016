"""``gamerec info PATH...``: one line per record: game, variant, seats, plies, claimed result."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, each_record, limits_of

if TYPE_CHECKING:
    from gamerec.recorder.inputs import ParsedRecord
    from gamerec.recorder.summary import RecordSummary


def info(
    paths: PathsArgument,
    as_json: Annotated[
        bool,
        typer.Option(
            "--json",
            help="Print one RecordInfo per record as a line of ProtoJSON; "
            "docs/validating.md#json-lines describes it.",
        ),
    ] = False,
    from_: FromOption = None,
    limit: LimitOption = None,
) -> None:
    """Summarize every record: game, variant, seats, plies and the claimed result.

    An input that cannot be read is reported on stderr, the others are still summarized,
    and the exit code is 2.
    """

    def show(item: ParsedRecord, echo: Callable[[str], None]) -> bool:
        echo(_json_line(item) if as_json else _line(item))
        return True

    limits = limits_of(limit)
    raise typer.Exit(each_record(paths, from_, limits, show, label="info", as_json=as_json))


def _line(item: ParsedRecord) -> str:
    from gamerec.recorder.summary import summarize

    summary = summarize(item.record)
    seats = ", ".join(name or "(unnamed)" for name in summary.seats) or "none"
    parts = [
        f"{item.source} #{item.number}",
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


def _json_line(item: ParsedRecord) -> str:
    """The record as a RecordInfo message (protos/gamerec/v1/lines.proto), one JSON line."""
    from gamerec.cli.verdicts import message_json
    from gamerec.v1 import lines_pb2

    record = item.record
    line = lines_pb2.RecordInfo(
        source=item.source,
        record_number=item.number,
        game=record.rules.game,
        rules=record.rules,
        seat_names=[seat.name for seat in record.seats],
        plies=len(record.moves),
        result=record.result if record.HasField("result") else None,
    )
    return message_json(line)
