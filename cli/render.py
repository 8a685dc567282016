"""``gamerec render IN -o pos.svg``: an SVG picture of a position of a record.

The picture is the position after ``--ply N`` (default: the last ply), or with ``--all`` one
picture per ply, the start position included: ``pos.svg`` becomes ``pos-000.svg``,
``pos-001.svg``, ... Exit code 1 when the record has an illegal ply at or before the one asked
for (the pictures before it are still written with ``--all``), 2 when it cannot be read.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from gamerec.cli.arguments import encoding_help
from gamerec.cli.edge import EXIT_FINDINGS, error_line, fail, reported_errors, write_text
from gamerec.cli.verdicts import finding_text
from gamerec.recorder.codecs import Encoding, read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.frames import ReplayStoppedError
from gamerec.validator.identity import RulesError, identify
from gamerec.validator.render import Scene, draw_svg, scenes


def render(
    path: Annotated[
        str, typer.Argument(metavar="IN", help="A record file, or - for standard input.")
    ],
    output: Annotated[
        str,
        typer.Option(
            "-o",
            "--output",
            metavar="OUT",
            help="The SVG file to write (- for standard output); with --all, the pattern "
            "of the files (pos.svg gives pos-000.svg, pos-001.svg, ...).",
        ),
    ],
    *,
    ply: Annotated[
        int | None,
        typer.Option("--ply", min=0, help="Draw the position after this ply (0: the start)."),
    ] = None,
    every: Annotated[
        bool, typer.Option("--all", help="Write one picture per ply, the start included.")
    ] = False,
    number: Annotated[
        int, typer.Option("--record", min=1, help="Which record of the file (1-based).")
    ] = 1,
    from_: Annotated[
        Encoding | None,
        typer.Option("--from", help=f"Encoding of the input ({encoding_help()})."),
    ] = None,
) -> None:
    """Draw a position of a record as an SVG picture (default: after the last ply).

    Every board site is one shape with a stable id (``site-c7``), seats have colour-blind-safe
    colours and their numbers, the last ply's places are ringed, captured or possessed places
    dashed, and the title names the game, the ply and the seat to move.
    """
    if every and ply is not None:
        fail("--all draws every ply; leave out --ply")
    if every and output == "-":
        fail("--all writes one file per ply; give -o a file name such as pos.svg")
    record = nth_record(path, number, from_)
    label = f"{path} #{number}"
    try:
        identity = identify(record)
    except RulesError as error:
        fail(f"{label}: {error.code}: {error}")
    drawn: list[Scene] = []
    try:
        for scene in scenes(record, identity):
            if every:
                write_text(_numbered(output, scene.ply, len(record.moves)), draw_svg(scene))
            drawn.append(scene)
            if ply is not None and scene.ply == ply:
                break
    except ReplayStoppedError as stopped:
        if every:
            _report_written(output, drawn, len(record.moves))
        typer.echo(error_line(f"{label}: {finding_text(stopped.finding)}"), err=True)
        raise typer.Exit(EXIT_FINDINGS) from None
    if every:
        _report_written(output, drawn, len(record.moves))
        return
    if ply is not None and drawn[-1].ply != ply:
        fail(f"{label}: the record has {drawn[-1].ply} plies; there is no ply {ply}")
    write_text(output, draw_svg(drawn[-1]))
    if output != "-":
        typer.echo(f"gamerec: {drawn[-1].title} written to {output}", err=True)


def nth_record(path: str, number: int, encoding: Encoding | None) -> pb.GameRecord:
    """The ``number``-th record of the input (exit 2 when it cannot be read or is missing)."""
    with reported_errors():
        for found, record in enumerate(read_records(path, encoding), start=1):
            if found == number:
                return record
    fail(f"{path}: there is no record {number}")


def _numbered(output: str, ply: int, plies: int) -> str:
    """``pos.svg`` -> ``pos-012.svg`` (at least three digits, more for long games)."""
    target = Path(output)
    digits = max(3, len(str(plies)))
    return str(target.with_name(f"{target.stem}-{ply:0{digits}d}{target.suffix or '.svg'}"))


def _report_written(output: str, drawn: list[Scene], plies: int) -> None:
    """Say on stderr which pictures ``--all`` wrote."""
    if drawn:
        first = _numbered(output, drawn[0].ply, plies)
        last = _numbered(output, drawn[-1].ply, plies)
        typer.echo(f"gamerec: {len(drawn)} pictures written, {first} to {last}", err=True)
