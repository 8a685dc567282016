"""``gamerec replay FILE``: step through a record and draw the position as text."""

from __future__ import annotations

from typing import Annotated

import typer

from gamerec.cli.arguments import LimitOption, encoding_help, limits_of
from gamerec.cli.edge import EXIT_FAILED, EXIT_FINDINGS, error_line, fail, reported_errors
from gamerec.cli.verdicts import finding_text, message_json
from gamerec.recorder.codecs import Encoding, read_records
from gamerec.recorder.limits import Limits
from gamerec.recorder.notation import SPECIAL_ACTIONS
from gamerec.recorder.syntax import GameValue
from gamerec.recorder.words import plural
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.frames import ReplayStoppedError, Step, frame_of, steps
from gamerec.validator.identity import RulesError, RulesIdentity, identify
from gamerec.validator.render import board_model, draw_text, step_places
from gamerec.validator.render.ending import ending_words, special_words


def replay(
    path: Annotated[
        str, typer.Argument(metavar="FILE", help="A record file, or - for standard input.")
    ],
    ply: Annotated[
        int | None,
        typer.Option(
            "--ply", min=0, help="Draw the position after this ply (0: the start position)."
        ),
    ] = None,
    number: Annotated[
        int, typer.Option("--record", min=1, help="Which record of the file (1-based).")
    ] = 1,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print ReplayFrame messages as ProtoJSON, one per line."),
    ] = False,
    from_: Annotated[
        Encoding | None,
        typer.Option("--from", help=f"Encoding of the input ({encoding_help()})."),
    ] = None,
    *,
    limit: LimitOption = None,
) -> None:
    """Replay a record ply by ply: every move with what it did, then the position drawn.

    With ``--ply N`` only the position after ply N is drawn. Exit code 1 when the record has an
    illegal ply (the plies before it are shown), 2 when it cannot be read.
    """
    record = nth_record(path, number, from_, limits_of(limit))
    try:
        identity = identify(record)
    except RulesError as error:
        fail(f"{path} #{number}: {error.code}: {error}")
    shown: list[Step] = []
    try:
        for step in steps(record, identity, include_start=True):
            shown.append(step)
            if ply is None or step.ply == ply:
                _show(step, identity, as_json, drawn=ply is not None)
            if ply is not None and step.ply >= ply:
                return
    except ReplayStoppedError as stopped:
        typer.echo(error_line(f"{path} #{number}: {finding_text(stopped.finding)}"), err=True)
        raise typer.Exit(EXIT_FINDINGS) from None
    if ply is not None:
        has = plural(shown[-1].ply, "ply")
        fail(f"{path} #{number}: the record has {has}; there is no ply {ply}")
    if not as_json:
        typer.echo()
        typer.echo(_drawing(shown[-1], identity))
        said = ending_words(record, shown[-1].state)
        if said:
            typer.echo(said)


def nth_record(path: str, number: int, encoding: Encoding | None, limits: Limits) -> pb.GameRecord:
    """The ``number``-th record of the input (exit 2 when there is none; analyse reads so too)."""
    with reported_errors():
        for found, record in enumerate(read_records(path, encoding, limits=limits), start=1):
            if found == number:
                return record
    typer.echo(error_line(f"{path}: there is no record {number}"), err=True)
    raise typer.Exit(EXIT_FAILED)


def _show(step: Step, identity: RulesIdentity, as_json: bool, *, drawn: bool) -> None:
    """Print one step: a JSON frame, a move line, or (``--ply``) the drawn position."""
    if as_json:
        if step.ply:
            typer.echo(message_json(frame_of(step)))
        return
    if drawn:
        title = (
            "start position"
            if not step.ply
            else f"after {_move_line(step, identity.entry.game).strip()}"
        )
        typer.echo(title)
        typer.echo(_drawing(step, identity))
    elif step.ply:
        typer.echo(_move_line(step, identity.entry.game))


def _move_line(step: Step, game: GameValue) -> str:
    """``12. (seat 3) b6  [end]`` with the events of the ply (a special ply: what it did)."""
    said = [special_words(game, step.token)] if step.token in SPECIAL_ACTIONS else []
    events = "; ".join(
        [
            *filter(None, said),
            *(
                event.kind + (" " + " ".join(event.where) if event.where else "")
                for event in step.events
            ),
        ]
    )
    line = f"{step.ply:>3}. (seat {step.seat}) {step.token}"
    return f"{line}  [{events}]" if events else line


def _drawing(step: Step, identity: RulesIdentity) -> str:
    """The position after ``step`` as text, the places of its ply bracketed."""
    model = board_model(identity.name, identity.variant)
    return draw_text(model, step.state.position(), step_places(step))
