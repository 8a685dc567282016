"""``gamerec analyse RECORD``: each position searched, one line per ply (docs/analysis.md).

Over :func:`gamerec.validator.analysis.plies.each_position`. Plain output is a table; with
``--json`` one JSON object per line. Exit code 1 when the record has an illegal ply (the
plies before it are analysed), 2 when it cannot be read or judged.
"""

from __future__ import annotations

import json
from typing import Annotated

import typer

from gamerec.cli.edge import EXIT_FINDINGS, error_line, fail
from gamerec.cli.replay import nth_record
from gamerec.cli.searching import PlayoutsOption, SeedOption, TimeOption, search_settings
from gamerec.cli.verdicts import finding_text
from gamerec.recorder.codecs import Encoding
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.limits import Limits
from gamerec.validator.analysis.plies import PositionAnalysis, each_position
from gamerec.validator.frames import ReplayStoppedError
from gamerec.validator.identity import RulesError


def analyse(
    path: Annotated[
        str, typer.Argument(metavar="RECORD", help="A record file, or - for standard input.")
    ],
    *,
    time: TimeOption = None,
    playouts: PlayoutsOption = None,
    seed: SeedOption = 1,
    as_json: Annotated[
        bool, typer.Option("--json", help="One JSON object per position, per line.")
    ] = False,
    number: Annotated[
        int, typer.Option("--record", min=1, help="Which record of the file (1-based).")
    ] = 1,
    from_: Annotated[Encoding | None, typer.Option("--from", help="Encoding of the input.")] = None,
) -> None:
    """Analyse a record: each seat's win chance, expected margin and best line, per ply.

    Before every ply, and after the last, the position is searched by MCTS for --time (1s by
    default) or --playouts; with --playouts and --seed two runs print the same numbers. The
    value is exact where the game is over or endgame tables cover the position, searched
    otherwise. What the numbers mean, and do not: docs/analysis.md.
    """
    settings = search_settings(time, playouts, seed)
    record = nth_record(path, number, from_, Limits())
    try:
        for analysis in each_position(record, settings):
            if as_json:
                typer.echo(json.dumps(analysis.json()))
                continue
            if analysis.ply == 1:
                typer.echo(_header(len(analysis.win)))
            typer.echo(_row(analysis))
    except RulesError as error:
        fail(f"{path} #{number}: {error.code}: {error}")
    except GamerecError as error:  # the endgame tables' file (TableError)
        fail(f"{path} #{number}: {error}")
    except ReplayStoppedError as error:
        typer.echo(error_line(f"{path} #{number}: {finding_text(error.finding)}"), err=True)
        raise typer.Exit(EXIT_FINDINGS) from None


def _header(seats: int) -> str:
    """The table's head: a win column per seat."""
    wins = " ".join(f"win{seat:<2}" for seat in range(1, seats + 1))
    return (
        f"{'ply':>4}  {'seat':>4}  {'played':<10} {wins}  {'margin':>7}  {'best':<10} "
        f"{'visits':>6} {'depth':>5}  {'value':<8}  line"
    )


def _row(analysis: PositionAnalysis) -> str:
    """One position: the mover's margin (after the last ply: the leader's), six plies of line."""
    wins = " ".join(f"{value:5.2f}" for value in analysis.win)
    mover = analysis.to_move
    margin = analysis.margin[mover - 1] if mover else max(analysis.margin)
    return (
        f"{analysis.ply:>4}  {mover or '-':>4}  {analysis.played or '-':<10} {wins}  "
        f"{margin:>+7.1f}  {analysis.best or '-':<10} {analysis.visits:>6} {analysis.depth:>5}  "
        f"{analysis.value:<8}  {' '.join(analysis.line[:6])}"
    )
