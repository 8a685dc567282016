"""``gamerec dedupe PATH... [-o OUT]``: games entered twice, and matches whose moves diverge.

Reads the collection twice (hashes first, then the records: see
``gamerec.validator.collection.dedupe``), reports every pair with its diff, and with ``-o``
writes every record but the extra copies of a game. Exit code 0 when there is no pair, 1
when there is one, 2 when an input cannot be read (OUT is then not written: it would lose
the records that could not be read).
"""

from __future__ import annotations

import enum
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, limits_of
from gamerec.cli.collected import (
    Counted,
    Failures,
    OutputOption,
    ToOption,
    WorkersOption,
    output_encoding,
    written_note,
)
from gamerec.cli.edge import EXIT_FAILED, EXIT_FINDINGS, EXIT_OK, reported_errors

if TYPE_CHECKING:
    from gamerec.v1 import collections_pb2 as cpb
    from gamerec.v1 import diff_pb2 as dpb
    from gamerec.validator.collection.dedupe import Dedupe


#: Annotation differences a pair shows in text (a re-entered game may differ on every ply).
MOST_ANNOTATIONS = 5


class Keep(enum.StrEnum):
    """Which copy of a game the output keeps."""

    FIRST = "first"
    MOST_COMPLETE = "most-complete"


def dedupe(
    paths: PathsArgument,
    *,
    output: OutputOption = None,
    to: ToOption = None,
    keep: Annotated[
        Keep,
        typer.Option("--keep", help="The copy of a game to keep: the first, or the most complete."),
    ] = Keep.FIRST,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the DedupeReport message as ProtoJSON.")
    ] = False,
    from_: FromOption = None,
    workers: WorkersOption = 0,
    limit: LimitOption = None,
) -> None:
    """Find games entered twice and matches with diverging moves; write one copy of each.

    The same game: the same rules, seat names and moves (metadata, annotations and encoding
    may differ). The same match with diverging moves: the same game identity (GameId, else
    game, event, site, round, date, start time and seats) and other moves; both are kept.
    Every pair is reported with its diff.
    """
    from gamerec.recorder.codecs import write_records
    from gamerec.validator.collection.dedupe import dedupe as first_pass

    failures = Failures()
    with reported_errors():
        found = first_pass(
            paths, keep=keep.value, encoding=from_, limits=limits_of(limit), workers=workers
        )
    failures.report_all(found.failures)
    if failures.count or output is None:
        report = _report_only(found)
    else:
        encoding = output_encoding(output, to)
        records = Counted(found.records())
        with reported_errors():
            write_records(records, output, encoding)
        written_note(records.count, output, encoding)
        report = found.report
    if as_json:
        from gamerec.cli.verdicts import message_json

        typer.echo(message_json(report))
    else:
        typer.echo("\n".join(report_lines(report, written=output is not None)))
    if failures.count:
        raise typer.Exit(EXIT_FAILED)
    raise typer.Exit(EXIT_FINDINGS if report.pairs else EXIT_OK)


def _report_only(found: Dedupe) -> cpb.DedupeReport:
    """The second pass, writing nothing."""
    with reported_errors():
        return found.finish()


def report_lines(report: cpb.DedupeReport, *, written: bool) -> list[str]:
    """Every pair with its diff, then one summary line."""
    from gamerec.v1 import collections_pb2 as cpb

    lines = []
    for pair in report.pairs:
        same = pair.kind == cpb.DUPLICATE_KIND_SAME_GAME
        word = "same game" if same else "same match, other moves"
        kept = f" (kept: {_place(pair.kept)})" if same else " (both kept)"
        lines.append(f"{word}: {_place(pair.first)} and {_place(pair.second)}{kept}")
        lines.append(f"  identity: {pair.identity}")
        lines += _diff_lines(pair.diff)
    copies = sum(1 for pair in report.pairs if pair.kind == cpb.DUPLICATE_KIND_SAME_GAME)
    versions = len(report.pairs) - copies
    summary = (
        f"{report.records:,} records: {copies:,} extra {_plural(copies, 'copy', 'copies')} of "
        f"a game, {versions:,} diverging {_plural(versions, 'version', 'versions')} of a match"
    )
    if written:
        summary += f"; {report.written:,} records written (keep {report.keep})"
    lines.append(summary)
    return lines


def _diff_lines(found: dpb.RecordDiff) -> list[str]:
    """A pair's diff as ``gamerec diff`` writes it, its annotations cut to a few lines.

    The shared position is left out (``gamerec diff`` of the two draws it; ``--json`` has it).
    """
    from gamerec.cli.diff import record_lines
    from gamerec.v1 import record_pb2 as pb

    diff = type(found)()
    diff.CopyFrom(found)
    if diff.HasField("divergence"):
        diff.divergence.ClearField("position")
    hidden = len(diff.annotations) - MOST_ANNOTATIONS
    if hidden > 0:
        del diff.annotations[MOST_ANNOTATIONS:]
    lines = record_lines(diff, pb.GameRecord(), indent="  ")
    if hidden > 0:
        lines.append(f"    ... and {hidden:,} more annotation differences (--json has them all)")
    return lines


def _plural(count: int, single: str, several: str) -> str:
    return single if count == 1 else several


def _place(place: cpb.RecordPlace) -> str:
    return f"{place.source} #{place.record_number}"
