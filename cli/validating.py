"""The main job's run: judge every record of some paths, print the verdicts, say the tally.

Both doors of ``gamerec validate`` call :func:`run_validate`: the Typer command
(:mod:`gamerec.cli.validate`) and the plain path that starts without Typer
(:mod:`gamerec.cli.entry`), so the two cannot print differently. Typer-free.

Imports: ``gamerec.cli`` modules that are Typer-free (plain, edge, reading, progress,
verdicts, on_cluster when a cluster is asked for), ``gamerec.recorder``, ``gamerec.validator``.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from gamerec.cli.edge import EXIT_FAILED, EXIT_FINDINGS, EXIT_OK, error_line
from gamerec.cli.plain import echo
from gamerec.cli.verdicts import render_verdict_json, render_verdict_text
from gamerec.recorder.words import plural

if TYPE_CHECKING:
    from collections.abc import Iterator

    from gamerec.cli.progress import Meter
    from gamerec.recorder.encoding import Encoding
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


def run_validate(
    paths: list[str],
    *,
    as_json: bool = False,
    quiet: bool = False,
    workers: int = 0,
    from_: Encoding | None = None,
    limits: Limits | None = None,
    on_cluster: tuple[str | None, str | None, str | None] = (None, None, None),
    allow_empty: bool = False,
) -> int:
    """Judge every record of ``paths``, print each verdict and the tally; the exit code.

    The options are ``gamerec validate``'s (``on_cluster``: its ``--scheduler``,
    ``--cluster`` and ``--out``, already checked to go together).
    """
    from gamerec.cli.progress import Meter
    from gamerec.cli.reading import input_paths, unreadable_json
    from gamerec.recorder.inputs import InputFailure
    from gamerec.recorder.limits import DEFAULT_LIMITS
    from gamerec.validator.breakdown import Breakdown

    render = render_verdict_json if as_json else render_verdict_text
    if quiet:  # valid records are not printed, so the workers need not render them
        from gamerec.validator.batch import OnlyInvalid

        render = OnlyInvalid(render)
    files = input_paths(paths)
    empty = [] if allow_empty else folders_without_records(paths, files)
    for folder in empty:
        echo(error_line(f"{folder}: {NO_RECORD_FILE}; --allow-empty accepts it"), err=True)
    tally = Tally()
    breakdown = Breakdown()
    with Meter("validate", None) as meter:
        outcomes = _outcomes(
            files, render, from_, workers, limits or DEFAULT_LIMITS, on_cluster, meter
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
    echo(tally.summary(), err=True)
    _echo_breakdown(breakdown, tally, as_json)
    return EXIT_FAILED if empty else tally.exit_code()


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
        from gamerec.cli.reading import metered_inputs
        from gamerec.validator.batch import judge_items

        items = metered_inputs(paths, encoding, limits, meter)
        return judge_items(items, render, workers=workers)
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
            echo(line, err=True)
        return
    import orjson

    totals = {"records": tally.records, "valid": tally.valid, "invalid": tally.invalid}
    summary = {**totals, "unreadable": tally.unreadable, "plies": tally.plies}
    echo(orjson.dumps({"summary": {**summary, **breakdown.as_dict()}}).decode(), err=True)
