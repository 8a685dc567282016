"""``gamerec tables build|probe``: exact two-seat Oh-Wah-Ree endgames (docs/tables.md).

Thin: ``build`` is one call of ``gamerec.validator.tables.build.solve`` and one file write;
``probe`` reads a record or a typed position and prints what the table says of it. Exit codes:
0 answered (exact, or perfect play never ends), 1 not covered, 2 could not do the job.
"""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Annotated, Any

import typer

from gamerec.cli.edge import EXIT_FINDINGS, EXIT_OK, fail, reported_errors

#: The stones on the board a table covers when ``--stones`` is not given (docs/tables.md says
#: why: about 5 minutes on one busy core, 3.5 MB).
DEFAULT_STONES = 10

app = typer.Typer(
    name="tables",
    help="Exact endgame tables: build them, probe a record or a typed position (docs/tables.md)."
    "\n\nTwo-seat Oh-Wah-Ree positions with up to N stones on the board, solved by retrograde"
    " analysis: the exact final score margin under perfect play, or that perfect play never"
    " ends.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode="markdown",
    pretty_exceptions_show_locals=False,
)

#: The characters a typed position is made of (anything else is taken for a file name).
_POSITION_CHARACTERS = re.compile(r"[0-9,:\s]+")

TableOption = Annotated[
    Path | None,
    typer.Option(
        "--table", help="The table file (default: $GAMEREC_TABLES, else the data folder's)."
    ),
]


@app.command()
def build(
    stones: Annotated[
        int,
        typer.Option("--stones", min=0, max=24, help="The most stones on the board to cover."),
    ] = DEFAULT_STONES,
    out: Annotated[
        Path | None,
        typer.Option("--out", help="The file to write (default: the default table's place)."),
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", "-q", help="No progress lines.")] = False,
    workers: Annotated[
        int,
        typer.Option(
            "--workers", "-j", min=0, help="Processes expanding positions; 0 means all cores."
        ),
    ] = 0,
) -> None:
    """Solve every two-seat position with up to N stones on the board and write the table.

    The file is written whole under a temporary name and renamed, so a build that stops leaves
    no half-written table. Exit code 0, or 2 when the file cannot be written.
    """
    from gamerec.validator.batch import default_workers
    from gamerec.validator.tables import default_table_path
    from gamerec.validator.tables.build import solve
    from gamerec.validator.tables.tablefile import write

    target = out or default_table_path()
    started = time.perf_counter()

    def told(count: int, positions: int) -> None:
        if not quiet:
            spent = time.perf_counter() - started
            print(f"{count} stones: {positions} positions ({spent:.1f} s)", file=sys.stderr)

    solved = solve(stones, told, workers=workers or default_workers())
    with reported_errors():
        size = write(solved, target)
    spent = time.perf_counter() - started
    endless = sum(low != high for low, high in zip(solved.lower, solved.upper, strict=True))
    typer.echo(
        f"wrote {target}: {len(solved.lower)} positions of up to {stones} stones"
        f" ({endless} never end), {size} bytes, in {spent:.1f} s"
    )


@app.command()
def probe(
    target: Annotated[
        str,
        typer.Argument(
            metavar="RECORD|POSITION",
            help="A record file (- for standard input), or 12 pit counts and the seat to move:"
            " 0,0,0,0,0,1,1,3,2,0,0,0:1.",
        ),
    ],
    table: TableOption = None,
    ply: Annotated[
        int | None,
        typer.Option("--ply", min=0, help="A record's position after this ply (default: last)."),
    ] = None,
    number: Annotated[
        int, typer.Option("--record", min=1, help="Which record of the file (1-based).")
    ] = 1,
) -> None:
    """Say what the table knows of a position: its exact margin under perfect play, or not.

    Exit code 0 when the table answers (an exact margin, or perfect play never ends), 1 when it
    does not cover the position, 2 when the input or the table cannot be read.
    """
    from gamerec.validator.tables import default_table_path, open_table
    from gamerec.validator.tables.reading import parse_position, probe_sentence

    state: Any
    with reported_errors():
        opened = open_table(table or default_table_path())
        if target != "-" and not Path(target).exists():
            if not _POSITION_CHARACTERS.fullmatch(target):
                fail(f"{target}: no such record file, and not a position (12 pit counts, :seat)")
            state, with_stores = parse_position(target), False
        else:
            state, with_stores = _record_state(target, number, ply), True
        answer = opened.probe(state)
    typer.echo(probe_sentence(answer, state, with_stores=with_stores))
    raise typer.Exit(EXIT_OK if answer.covered else EXIT_FINDINGS)


def _record_state(path: str, number: int, ply: int | None) -> Any:
    """The position of the ``number``-th record of ``path`` after ``ply`` plies."""
    from gamerec.recorder.codecs import read_records
    from gamerec.validator.tables.reading import record_position

    for found, record in enumerate(read_records(path, None), start=1):
        if found == number:
            position = record_position(record, ply)
            if ply is not None and position.plies < ply:
                fail(f"{path} #{number}: the record has {position.plies} legal plies, not {ply}")
            return position.state
    fail(f"{path}: there is no record {number}")
