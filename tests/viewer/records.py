"""Records and folders the viewer's tests share."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from bench.bench_viewer import hundred_plies
from gamerec.cli.main import app
from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.identity import identify
from gamerec.validator.render.scene import move_places
from gamerec.validator.replay import replay_to

__all__ = [
    "engine_annotated",
    "hundred_plies",
    "legal_moves",
    "legal_places",
    "one_record",
    "write_folder",
]


def one_record(path: Path) -> pb.GameRecord:
    """The first record of a file."""
    return next(iter(read_records(path)))


def legal_moves(record: pb.GameRecord, plies: int) -> list[str]:
    """The legal moves after the first ``plies`` plies, as tokens."""
    identity = identify(record)
    state = replay_to(record, identity, plies).state
    assert state is not None
    return [identity.engine.format_move(identity.variant, move) for move in state.legal_moves()]


def legal_places(record: pb.GameRecord, plies: int) -> set[str]:
    """The places the legal moves after ``plies`` plies name."""
    return {place for token in legal_moves(record, plies) for place in move_places(token)}


def write_folder(path: Path, folder: Path) -> tuple[Path, int]:
    """``gamerec view PATH -o FOLDER/``: the folder and how many pages it holds."""
    shown = path.relative_to(Path.cwd()) if path.is_relative_to(Path.cwd()) else path
    result = CliRunner().invoke(app, ["view", str(shown), "-o", f"{folder}/"])
    assert result.exit_code in (0, 1), result.output
    return folder, len(list(folder.glob("game-*.html")))


def engine_annotated(
    source: Path, target: Path, *, playouts: int = 40, seed: int = 2
) -> pb.GameRecord:
    """``gamerec annotate SOURCE -o TARGET --engine --playouts N --seed S``: the record written."""
    result = CliRunner().invoke(
        app,
        [
            "annotate",
            str(source),
            "-o",
            str(target),
            "--engine",
            "--playouts",
            str(playouts),
            "--seed",
            str(seed),
        ],
    )
    assert result.exit_code == 0, result.output
    return one_record(target)
