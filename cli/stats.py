"""``gamerec stats PATH...``: figures per game and variant of a collection."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import FromOption, LimitOption, PathsArgument, limits_of
from gamerec.cli.collected import Failures, WorkersOption
from gamerec.cli.edge import EXIT_OK, reported_errors

if TYPE_CHECKING:
    from collections.abc import Iterable

    from gamerec.v1 import collections_pb2 as cpb


def stats(
    paths: PathsArgument,
    *,
    as_json: Annotated[
        bool, typer.Option("--json", help="Print the CollectionStats message as ProtoJSON.")
    ] = False,
    from_: FromOption = None,
    workers: WorkersOption = 0,
    limit: LimitOption = None,
) -> None:
    """Figures per game and variant: validity, lengths, results by seat, endings, players.

    Every record is judged by the rules; results by seat count the games that reached their
    end (a win share above one over the number of seats is an advantage). Exit code 0, or 2
    when an input cannot be read (the rest is still counted).
    """
    from gamerec.recorder.inputs import InputFailure
    from gamerec.validator.collection.stats import collection_stats

    failures = Failures()
    unread: list[InputFailure] = []
    with reported_errors():
        figures = collection_stats(
            paths, encoding=from_, limits=limits_of(limit), workers=workers, failures=unread
        )
    failures.report_all(unread)
    if as_json:
        from gamerec.cli.verdicts import message_json

        typer.echo(message_json(figures))
    else:
        typer.echo("\n".join(stats_lines(figures)))
    raise typer.Exit(failures.exit_code(EXIT_OK))


def stats_lines(figures: cpb.CollectionStats) -> list[str]:
    """The figures as text: a block per game and variant, then the totals."""
    lines = []
    for group in figures.groups:
        lines += _group_lines(group)
    noun = "record" if figures.records == 1 else "records"
    lines.append(
        f"{figures.records:,} {noun} in {len(figures.groups)} games and variants; "
        f"{figures.unreadable:,} unreadable"
    )
    return lines


def _group_lines(group: cpb.GroupStats) -> list[str]:
    plies = group.plies
    lines = [
        f"{group.game} {group.variant}: {group.records:,} record{'s' * (group.records != 1)}, "
        f"{group.valid:,} valid "
        f"({group.valid_share:.1%}), {group.finished:,} finished by the rules",
        f"  plies     mean {plies.mean:.1f}, median {plies.median:g}, longest {plies.longest}, "
        f"shortest {plies.shortest}",
    ]
    for seat in group.seats:
        lines.append(
            f"  seat {seat.seat}    {seat.wins:,} wins, {seat.shared_wins:,} shared, "
            f"{seat.losses:,} losses; win share {seat.win_share:.1%}, "
            f"mean score {seat.mean_score:.1f}"
        )
    lines.append(f"  endings   {_counts(group.terminations)}")
    lines.append(f"  findings  {_counts(group.findings)}")
    lines.append(f"  players   {_counts(group.players)}")
    return lines


def _counts(counts: Iterable[cpb.Count]) -> str:
    texts = [f"{count.name} {count.count:,}" for count in counts]
    return ", ".join(texts) or "(none)"
