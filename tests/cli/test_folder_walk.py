"""Folder walks: hidden and tools' folders are not entered, and what was skipped is said."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamerec.cli.main import app
from gamerec.recorder.inputs import TOOL_FOLDERS, looks_like_json_record, walk_inputs

ROOT = Path(__file__).resolve().parents[2]
VALID = ROOT / "fixtures" / "valid"


def tree(root: Path) -> Path:
    """Records at the top and in a sub-folder, beside a Node.js project, a git folder, caches."""
    (root / "games" / "more").mkdir(parents=True)
    (root / "games" / "a.grn").write_bytes((VALID / "oust-e1-pie.grn").read_bytes())
    (root / "games" / "more" / "b.json").write_bytes((VALID / "aronda-e3-inside.json").read_bytes())
    client = root / "games" / "client"
    (client / "node_modules" / "pkg").mkdir(parents=True)
    (client / "node_modules" / "pkg" / "package.json").write_text('{"name": "pkg"}')
    (client / "package.json").write_text('{\n  "name": "client",\n  "version": "1.0.0"\n}\n')
    (client / "list.json").write_text("[1, 2, 3]")
    for hidden in (".git", ".venv", "__pycache__"):
        (root / "games" / hidden).mkdir()
        (root / "games" / hidden / "c.grn").write_text("not a record")
    return root / "games"


def test_a_walk_skips_hidden_and_tool_folders_and_json_that_is_no_record(tmp_path: Path) -> None:
    games = tree(tmp_path)
    walk = walk_inputs([str(games)])
    assert walk.files == [str(games / "a.grn"), str(games / "more" / "b.json")]
    assert walk.skipped_folders == [
        str(games / name) for name in (".git", ".venv", "__pycache__", "client/node_modules")
    ]
    assert walk.skipped_files == [
        str(games / "client" / name) for name in ("list.json", "package.json")
    ]
    assert {"node_modules", "__pycache__", "venv", "build", "dist"} <= TOOL_FOLDERS


def test_a_folder_named_on_the_command_line_is_walked_even_if_hidden(tmp_path: Path) -> None:
    hidden = tmp_path / ".records"
    hidden.mkdir()
    (hidden / "a.grn").write_bytes((VALID / "oust-e1-pie.grn").read_bytes())
    assert walk_inputs([str(hidden)]).files == [str(hidden / "a.grn")]


def test_a_link_to_a_folder_is_not_followed(tmp_path: Path) -> None:
    games = tree(tmp_path)
    os.symlink(games, games / "more" / "loop")
    walk = walk_inputs([str(games)])
    assert str(games / "more" / "loop") in walk.skipped_folders
    assert len(walk.files) == 2


def test_json_that_may_be_a_record_is_read_so_its_fault_is_reported(tmp_path: Path) -> None:
    cases = {
        "record.json": (VALID / "aronda-e3-inside.json").read_text(),
        "broken.json": '{"rules": {"game": "GAME_ONE"}, "moves": [',
        "misspelt-later.json": '{"rules": {}, "seets": []}',
        "empty-object.json": "{}",
        "empty.json": "",
        "not-json.json": "garbage",
        "package.json": '{"name": "x"}',
        "array.json": "[]",
        "number.json": "12",
        "proto-name.json": '{"format_version": 1}',
    }
    kept = set()
    for name, text in cases.items():
        (tmp_path / name).write_text(text)
        if looks_like_json_record(str(tmp_path / name)):
            kept.add(name)
    assert kept == set(cases) - {"package.json", "array.json", "number.json"}


def test_the_cli_says_what_it_skipped_on_one_stderr_line(tmp_path: Path) -> None:
    games = tree(tmp_path)
    result = CliRunner().invoke(app, ["validate", str(games)])
    assert result.exit_code == 0, result.output
    skipped = [line for line in result.stderr.splitlines() if "skipped" in line]
    assert skipped == [
        f"gamerec: skipped 4 folders: {games / '.git'}, {games / '.venv'}, "
        f"{games / '__pycache__'} and 1 more; 2 .json files that are not game records: "
        f"{games / 'client' / 'list.json'}, {games / 'client' / 'package.json'}"
    ]
    assert len(result.stdout.splitlines()) == 2


def test_a_json_file_named_on_the_command_line_is_always_read(tmp_path: Path) -> None:
    package = tmp_path / "package.json"
    package.write_text(json.dumps({"name": "x", "version": "1.0.0"}))
    result = CliRunner().invoke(app, ["info", str(package)])
    assert result.exit_code == 2
    assert "skipped" not in result.stderr
    assert str(package) in result.stderr


def gamerec(*arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """``gamerec ...`` in a process of its own, killed after two minutes (a hang fails)."""
    return subprocess.run(
        [sys.executable, "-m", "gamerec", *arguments],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_a_walk_skips_named_pipes_and_other_entries_that_are_no_regular_file(
    tmp_path: Path,
) -> None:
    (tmp_path / "a.grn").write_bytes((VALID / "oust-e1-pie.grn").read_bytes())
    for name in ("pipe.grn", "pipe.json", "pipe.pbs", "pipe.pb", "z.jsonl"):
        os.mkfifo(tmp_path / name)
    os.symlink(tmp_path / "pipe.grn", tmp_path / "link.grn")  # a link to a pipe: still a pipe
    os.symlink(tmp_path / "gone.grn", tmp_path / "dangling.grn")  # read, so its fault shows
    walk = walk_inputs([str(tmp_path)])
    assert walk.files == [str(tmp_path / "a.grn"), str(tmp_path / "dangling.grn")]
    pipes = ("link.grn", "pipe.grn", "pipe.json", "pipe.pb", "pipe.pbs", "z.jsonl")
    assert walk.skipped_special == [f"{tmp_path / name} (a named pipe)" for name in pipes]
    assert walk.skipped_note() == (
        f"skipped 6 entries that are not regular files: {tmp_path / 'link.grn'} (a named pipe), "
        f"{tmp_path / 'pipe.grn'} (a named pipe), {tmp_path / 'pipe.json'} (a named pipe) and "
        "3 more"
    )


@pytest.mark.parametrize("command", ["validate", "info"])
def test_validate_and_info_on_a_folder_with_a_named_pipe_finish_and_say_so(
    tmp_path: Path, command: str
) -> None:
    folder = tmp_path / "d"
    folder.mkdir()
    (folder / "a.grn").write_bytes((VALID / "oust-e1-pie.grn").read_bytes())
    os.mkfifo(folder / "pipe.grn")
    done = gamerec(command, "d", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stderr.splitlines()[0] == (
        "gamerec: skipped 1 entry that is not a regular file: d/pipe.grn (a named pipe)"
    )
    assert done.stdout.startswith("d/a.grn #1")


def test_a_named_pipe_on_the_command_line_is_read_as_a_stream(tmp_path: Path) -> None:
    pipe = tmp_path / "live.grn"
    os.mkfifo(pipe)
    records = (VALID / "oust-e1-pie.grn").read_bytes() * 2

    def feed() -> None:
        with pipe.open("wb") as stream:  # waits for the reader, then writes in pieces
            for start in range(0, len(records), 7):
                stream.write(records[start : start + 7])

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    done = gamerec("validate", "live.grn", cwd=tmp_path)
    writer.join(timeout=60)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "live.grn #1: valid  Oust  3 plies  finished  result 1-0  winner 1  normal",
        "live.grn #2: valid  Oust  3 plies  finished  result 1-0  winner 1  normal",
    ]
    assert "skipped" not in done.stderr
