"""``gamerec validate PATH...``: is every record a legal game, and is its claimed result right?"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import LimitOption, encoding_help, limits_of
from gamerec.cli.edge import EXIT_FAILED, EXIT_FINDINGS, EXIT_OK, error_line
from gamerec.cli.verdicts import render_verdict_json, render_verdict_text
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.words import plural

if TYPE_CHECKING:
    from collections.abc import Iterator

    from gamerec.cli.progress import Meter
    from gamerec.recorder.limits import Limits
    from gamerec.validator.batch import Outcome, Render
    from gamerec.validator.breakdown import Breakdown


@dataclass
class Tally:
    """Counts for the summary line."""

    started: float = field(default_factory=time.perf_counter)
    valid: int = 0
    invalid: int = 0
    unreadable: int = 0
    plies: int = 0

    @property
    def records(self) -> int:
        """Records judged (unreadable ones included)."""
        return self.valid + self.invalid + self.unreadable

    def add(self, outcome: Outcome) -> None:
        """Count one outcome."""
        self.plies += outcome.plies
        if outcome.status == "valid":
            self.valid += 1
        elif outcome.status == "invalid":
            self.invalid += 1
        else:
            self.unreadable += 1

    def summary(self) -> str:
        """``12 records: 10 valid, 1 invalid, 1 unreadable; 1,234 plies in 0.52 s (...)``."""
        seconds = max(time.perf_counter() - self.started, 1e-9)
        return (
            f"{plural(self.records, 'record')}: {self.valid:,} valid, {self.invalid:,} invalid, "
            f"{self.unreadable:,} unreadable; {plural(self.plies, 'ply')} in {seconds:.2f} s "
            f"({self.records / seconds:,.0f} records/s, {self.plies / seconds:,.0f} plies/s)"
        )

    def progress_note(self) -> str:
        """``1,234 records, 2 invalid, 1 unreadable`` (the counts that are not 0)."""
        note = plural(self.records, "record")
        for count, word in ((self.invalid, "invalid"), (self.unreadable, "unreadable")):
            note += f", {count:,} {word}" if count else ""
        return note

    def exit_code(self) -> int:
        """2 when something could not be read, else 1 when something is invalid, else 0."""
        if self.unreadable:
            return EXIT_FAILED
        return EXIT_FINDINGS if self.invalid else EXIT_OK


def validate(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH",
            help="Record files, folders of them (searched recursively), .pbs collections, "
            "or - for standard input.",
        ),
    ],
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print each Verdict as one line of ProtoJSON (every field present)."
        ),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only invalid and unreadable records.")
    ] = False,
    workers: Annotated[
        int,
        typer.Option("--workers", "-j", min=0, help="Worker processes; 0 means all cores."),
    ] = 0,
    from_: Annotated[
        Encoding | None,
        typer.Option(
            "--from",
            help=f"Encoding of every input ({encoding_help()}); default: extension, else sniffed.",
        ),
    ] = None,
    *,
    limit: LimitOption = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Judge on the Dask cluster of this scheduler (tcp://HOST:8786); the inputs "
            "must be on storage every worker sees.",
        ),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="local[:N]",
            help="Judge on an embedded local Dask cluster of N workers (default: all cores).",
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="FOLDER",
            help="With --scheduler or --cluster: keep each finished shard's verdicts here, "
            "so that the same command resumes where an interrupted run stopped.",
        ),
    ] = None,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty",
            help="Accept a folder that holds no record file (without it: exit code 2).",
        ),
    ] = False,
) -> None:
    """Replay every record under its rules and judge it.

    A record is valid when every ply is legal and its claimed result is the rules' result
    (a record that claims no end is valid and reported unfinished). Exit code 0 when every
    record is valid, 1 when any is invalid, 2 when any input could not be read (the others
    are still validated) or when a folder holds no record file (a wrong path must not pass a
    check; --allow-empty accepts it). A one-line summary goes to stderr.
    """
    from gamerec.cli.arguments import input_paths, unreadable_json
    from gamerec.cli.progress import Meter
    from gamerec.recorder.inputs import InputFailure
    from gamerec.validator.breakdown import Breakdown

    render = render_verdict_json if as_json else render_verdict_text
    if quiet:  # valid records are not printed, so the workers need not render them
        from gamerec.validator.batch import OnlyInvalid

        render = OnlyInvalid(render)
    limits = limits_of(limit)
    files = input_paths(paths)
    empty = [] if allow_empty else folders_without_records(paths, files)
    for folder in empty:
        typer.echo(error_line(f"{folder}: {NO_RECORD_FILE}; --allow-empty accepts it"), err=True)
    tally = Tally()
    breakdown = Breakdown()
    with Meter("validate", None) as meter:
        outcomes = _outcomes(
            files, render, from_, workers, limits, (scheduler, cluster, out), meter
        )
        for outcome in outcomes:
            tally.add(outcome)
            breakdown.add(outcome)
            meter.update(note=tally.progress_note())
            if outcome.status == "unreadable":
                meter.echo(error_line(outcome.text), err=True)
                if as_json:
                    failure = InputFailure(outcome.source, outcome.number, outcome.text)
                    meter.echo(unreadable_json(failure))
            elif not (quiet and outcome.status == "valid"):
                meter.echo(outcome.text)
    typer.echo(tally.summary(), err=True)
    _echo_breakdown(breakdown, tally, as_json)
    raise typer.Exit(EXIT_FAILED if empty else tally.exit_code())


#: What a folder given to validate lacks, when its walk finds no file to read.
NO_RECORD_FILE = "no record file in this folder (.pb, .pbs, .json, .jsonl, .grn or .trl)"


def folders_without_records(paths: list[str], files: list[str]) -> list[str]:
    """The folders among ``paths`` under which the walk found none of ``files``."""
    folders = [path for path in paths if path != "-" and os.path.isdir(path)]
    return [
        folder
        for folder in folders
        if not any(file.startswith(os.path.join(folder, "")) for file in files)
    ]


def _outcomes(  # noqa: PLR0917 - the command's own options, passed on
    paths: list[str],
    render: Render,
    encoding: Encoding | None,
    workers: int,
    limits: Limits,
    on_cluster: tuple[str | None, str | None, str | None],
    meter: Meter,
) -> Iterator[Outcome]:
    """The outcomes of the local run (``--workers``) or of the run on a Dask cluster.

    ``on_cluster``: the ``--scheduler``, ``--cluster`` and ``--out`` options.
    """
    scheduler, cluster, out = on_cluster
    if scheduler is None and cluster is None:
        if out is not None:
            raise typer.BadParameter("--out needs --scheduler or --cluster", param_hint="--out")
        from gamerec.cli.arguments import metered_inputs
        from gamerec.validator.batch import judge_items

        items = metered_inputs(paths, encoding, limits, meter)
        return judge_items(items, render, workers=workers)
    if scheduler is not None and cluster is not None:
        raise typer.BadParameter("give --scheduler or --cluster, not both", param_hint="--cluster")
    from gamerec.cli.on_cluster import cluster_outcomes

    return cluster_outcomes(
        paths,
        render,
        encoding=encoding,
        limits=limits,
        scheduler=scheduler,
        cluster=cluster,
        out=out,
    )


def _echo_breakdown(breakdown: Breakdown, tally: Tally, as_json: bool) -> None:
    """Verdicts per game and findings per code on stderr (``--json``: the whole summary)."""
    if not as_json:
        for line in breakdown.lines():
            typer.echo(line, err=True)
        return
    import orjson

    totals = {"records": tally.records, "valid": tally.valid, "invalid": tally.invalid}
    summary = {**totals, "unreadable": tally.unreadable, "plies": tally.plies}
    typer.echo(orjson.dumps({"summary": {**summary, **breakdown.as_dict()}}).decode(), err=True)
