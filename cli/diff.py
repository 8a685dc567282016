"""``gamerec diff A B``: how two records of a match, or two collections, differ.

Two single records are compared with each other; when either input holds several records,
the two collections are matched by game identity (``validator/comparison.py``) and every
matched pair is compared. Exit code 0 when they are the same, 1 when they differ, 2 when an
input cannot be read.
"""

from __future__ import annotations

from typing import Annotated

import orjson
import typer

from gamerec.cli.arguments import encoding_help
from gamerec.cli.edge import EXIT_FINDINGS, reported_errors
from gamerec.cli.verdicts import STATUS_WORDS, finding_text, message_json, result_text
from gamerec.recorder.codecs import Encoding, read_records
from gamerec.recorder.words import plural
from gamerec.v1 import diff_pb2 as dpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.comparison import compare_collections, compare_records
from gamerec.validator.games.protocol import Position, Site
from gamerec.validator.identity import RulesError, identify
from gamerec.validator.render import board_model, draw_text


def diff(
    left: Annotated[str, typer.Argument(metavar="A", help="A record file, or - for stdin.")],
    right: Annotated[str, typer.Argument(metavar="B", help="Another record file.")],
    *,
    as_json: Annotated[
        bool,
        typer.Option("--json", help="Print the RecordDiff or CollectionDiff as ProtoJSON."),
    ] = False,
    from_: Annotated[
        Encoding | None,
        typer.Option("--from", help=f"Encoding of both inputs ({encoding_help()})."),
    ] = None,
) -> None:
    """Compare two records (or collections): metadata, seats, variant, result and moves.

    For the moves: the first ply where the main lines part, both moves there, the position
    both lines share before it, and each line's own verdict and result. Annotation
    differences (comments, glyphs, clocks) of the shared plies are listed too.
    """
    with reported_errors():
        left_records = list(read_records(left, from_))
        right_records = list(read_records(right, from_))
    if len(left_records) == 1 and len(right_records) == 1:
        record_diff = compare_records(left_records[0], right_records[0])
        same = record_diff.same
        if as_json:
            typer.echo(message_json(record_diff))
        else:
            typer.echo(f"A {left}\nB {right}")
            typer.echo("\n".join(record_lines(record_diff, left_records[0])))
    else:
        collection_diff = compare_collections(left_records, right_records)
        same = collection_diff.same
        if as_json:
            typer.echo(message_json(collection_diff))
        else:
            typer.echo(f"A {left}\nB {right}")
            typer.echo("\n".join(_collection_lines(collection_diff, left_records)))
    if not same:
        raise typer.Exit(EXIT_FINDINGS)


def record_lines(found: dpb.RecordDiff, left: pb.GameRecord, indent: str = "") -> list[str]:
    """A record diff as text lines: fields, annotations, then the divergence."""
    if found.same:
        return [f"{indent}the same record"]
    lines = [f"{indent}different:"]
    lines += [f"{indent}  {_field_line(change)}" for change in found.fields]
    if found.annotations:
        lines.append(f"{indent}  annotations of the plies both records share:")
        lines += [f"{indent}    {_field_line(change)}" for change in found.annotations]
    if found.HasField("divergence"):
        lines += [indent + "  " + line for line in _divergence_lines(found.divergence, left)]
    return lines


def _field_line(change: dpb.FieldDifference) -> str:
    """``metadata.event: A "Club night", B "Club nite"``."""
    return f"{change.field}: A {_shown(change.left)}, B {_shown(change.right)}"


def _shown(value: str) -> str:
    """A value in double quotes with JSON's escapes, so it stays on one line."""
    return orjson.dumps(value).decode() if value else "(none)"


def _divergence_lines(divergence: dpb.MoveDivergence, left: pb.GameRecord) -> list[str]:
    """Where the lines part, both moves, each line's verdict, the shared position."""
    to_move = f" (seat {divergence.seat} to move)" if divergence.seat else ""
    lines = [
        f"moves differ from ply {divergence.ply}{to_move}: "
        f"A {divergence.left_move or '(ends)'}, B {divergence.right_move or '(ends)'}",
        f"  A: {plural(divergence.left_plies, 'ply')}, {_verdict_text(divergence.left_verdict)}",
        f"  B: {plural(divergence.right_plies, 'ply')}, {_verdict_text(divergence.right_verdict)}",
    ]
    if divergence.HasField("position"):
        lines.append(f"the position both share before ply {divergence.ply}:")
        lines += ["  " + line for line in _drawing(divergence.position, left).splitlines()]
    return lines


def _verdict_text(verdict: vpb.Verdict) -> str:
    """``valid, finished, result 4-2-4  winners 1,3  normal`` and the first finding."""
    word = "valid" if verdict.valid else "INVALID"
    parts = [word, STATUS_WORDS.get(verdict.status, "?"), result_text(verdict.result)]
    text = ", ".join(part for part in parts if part)
    if verdict.errors:
        text += f"; {finding_text(verdict.errors[0])}"
    return text


def _drawing(position: vpb.Position, record: pb.GameRecord) -> str:
    """The shared position drawn as ``replay`` draws it (under the left record's rules)."""
    try:
        identity = identify(record)
    except RulesError:
        return "(no picture: the record's rules cannot be judged)"
    snapshot = Position(
        to_move=position.to_move,
        sites=tuple(Site(site.name, site.owner, tuple(site.pieces)) for site in position.sites),
        supplies=tuple(position.supplies),
        captured=tuple(position.captured),
        resigned=tuple(position.resigned),
    )
    return draw_text(board_model(identity.name, identity.variant), snapshot)


def _collection_lines(found: dpb.CollectionDiff, left: list[pb.GameRecord]) -> list[str]:
    """A summary line, each differing pair, and the records found on one side only."""
    different = [pair for pair in found.pairs if not pair.diff.same]
    lines = [
        f"{len(found.pairs)} matched records: {len(found.pairs) - len(different)} the same, "
        f"{len(different)} different; {len(found.only_left)} only in A, "
        f"{len(found.only_right)} only in B"
    ]
    for pair in different:
        lines.append(f"A #{pair.left_number} / B #{pair.right_number}: {pair.identity}")
        lines += record_lines(pair.diff, left[pair.left_number - 1], indent="  ")
    lines += [f"only in A: {identity}" for identity in found.only_left]
    lines += [f"only in B: {identity}" for identity in found.only_right]
    return lines
