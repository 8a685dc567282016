"""``gamerec generate``: complete legal games, the same bytes for the same seed."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner, Result

from gamerec.cli.main import app
from gamerec.recorder.codecs import read_records
from gamerec.validator.judge import validate

#: Games and variants as a person would ask for them on the command line.
REQUESTS = [
    ["--game", "ONE", "--players", "3"],
    ["--game", "one", "--players", "2", "--variant", "Board=6,6", "--variant", "mirror=every"],
    ["--game", "Aronda", "--variant", "Supply=pass"],
    ["--game", "oust", "--variant", "Board=5", "--variant", "Pie=off"],
    ["--game", "Oh-Wah-Ree", "--players", "4", "--variant", "Direction=ccw"],
    ["--game", "oh-wah-ree", "--players", "3", "--policy", "greedy"],
]


def run(*args: str) -> Result:
    return CliRunner().invoke(app, list(args))


@pytest.mark.parametrize("request_args", REQUESTS, ids=lambda args: " ".join(args[1:4]))
def test_every_generated_game_is_complete_and_validates(
    tmp_path: Path, request_args: list[str]
) -> None:
    out = tmp_path / "games.pbs"
    result = run("generate", *request_args, "--count", "4", "--seed", "5", "-o", str(out))
    assert result.exit_code == 0, result.output
    games = list(read_records(out))
    assert len(games) == 4
    for record in games:
        verdict = validate(record)
        assert verdict.valid, [finding.message for finding in verdict.errors]
        assert record.moves
    check = run("validate", str(out))
    assert check.exit_code == 0 and check.stderr.startswith("4 records: 4 valid")
    assert "4 games written" in result.stderr and "seed 5" in result.stderr


@pytest.mark.parametrize("extension", ["pbs", "grn", "jsonl"])
def test_the_same_seed_gives_the_same_bytes_and_another_seed_other_games(
    tmp_path: Path, extension: str
) -> None:
    def make(name: str, seed: str) -> bytes:
        path = tmp_path / f"{name}.{extension}"
        args = ["--game", "ONE", "--players", "4", "--count", "3", "--seed", seed]
        assert run("generate", *args, "-o", str(path)).exit_code == 0
        return path.read_bytes()

    first, again, other = make("a", "42"), make("b", "42"), make("c", "43")
    assert first == again
    assert first != other


def test_the_same_seed_gives_the_same_bytes_in_processes_with_other_hash_seeds() -> None:
    args = [sys.executable, "-m", "gamerec", "generate", "--game", "Aronda", "--count", "2"]
    outputs = []
    for hash_seed in ("1", "2"):
        env = {**os.environ, "PYTHONHASHSEED": hash_seed}
        done = subprocess.run(
            [*args, "--seed", "9", "--policy", "greedy", "-o", "-", "--to", "pbs"],
            capture_output=True,
            check=False,
            env=env,
        )
        assert done.returncode == 0, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and outputs[0]


def test_standard_output_gets_grn() -> None:
    result = run("generate", "--game", "Oust", "--variant", "Board=3", "--seed", "1", "-o", "-")
    assert result.exit_code == 0
    assert result.stdout.startswith('[Game "Oust"]\n')
    assert '[Board "3"]' in result.stdout and '[Termination "normal"]' in result.stdout


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--game", "Chess"], "unknown game 'Chess'"),
        (["--game", "Oust", "--variant", "Borad=5"], "Oust has no variant option 'Borad'"),
        (["--game", "ONE", "--players", "7"], "ONE is for 2 to 6 players"),
        (["--game", "ONE", "--players", "2", "--variant", "Board"], "write it as TAG=VALUE"),
    ],
)
def test_impossible_requests_exit_2_and_write_nothing(
    tmp_path: Path, args: list[str], message: str
) -> None:
    out = tmp_path / "games.pbs"
    result = run("generate", *args, "-o", str(out))
    assert result.exit_code == 2
    assert message in result.stderr and len(result.stderr.splitlines()) == 1
    assert not out.exists() and not list(tmp_path.iterdir())
