"""The progress display: drawn on stderr when it is a terminal, never on stdout, never elsewhere.

Each command runs as a real process with stderr on a pseudo-terminal (and stdout redirected to
a file, or on the terminal too); ``GAMEREC_PROGRESS_AFTER=0`` draws from the first record.
"""

from __future__ import annotations

import fcntl
import os
import pty
import re
import struct
import subprocess
import sys
import termios
from pathlib import Path

import pytest

from gamerec.cli.progress import DELAY_VARIABLE

ROOT = Path(__file__).resolve().parents[2]
GAMEREC = Path(sys.executable).parent / "gamerec"
ANSI = re.compile(rb"\x1b\[[0-9;?]*[A-Za-z]")


@pytest.fixture(scope="module")
def collection(tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("progress") / "games.pbs"
    made = subprocess.run(
        [
            str(GAMEREC),
            "generate",
            "--game",
            "oust",
            "--count",
            "200",
            "--seed",
            "4",
            "-o",
            str(path),
        ],
        capture_output=True,
        check=False,
    )
    assert made.returncode == 0, made.stderr
    return path


def on_a_terminal(
    arguments: list[str], stdout: Path | None, *, delay: str = "0"
) -> tuple[int, bytes]:
    """Run ``gamerec`` with stderr (and stdout, when ``stdout`` is None) on a pseudo-terminal;
    the exit code and every byte the terminal got."""
    leader, follower = pty.openpty()
    fcntl.ioctl(follower, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 120, 0, 0))
    env = {**os.environ, DELAY_VARIABLE: delay, "TERM": "xterm", "COLUMNS": "120"}
    with open(stdout or os.devnull, "wb") as out:
        process = subprocess.Popen(
            [str(GAMEREC), *arguments],
            stdin=subprocess.DEVNULL,
            stdout=follower if stdout is None else out,
            stderr=follower,
            env=env,
        )
        os.close(follower)
        seen = b""
        while True:
            try:
                chunk = os.read(leader, 1 << 16)
            except OSError:  # the terminal closed: the process is gone
                break
            if not chunk:
                break
            seen += chunk
        code = process.wait(timeout=120)
    os.close(leader)
    return code, seen


def plain(arguments: list[str]) -> subprocess.CompletedProcess[bytes]:
    env = {**os.environ, DELAY_VARIABLE: "0"}
    return subprocess.run([str(GAMEREC), *arguments], capture_output=True, env=env, check=False)


def test_validate_draws_a_total_and_a_percentage_and_stdout_holds_only_verdicts(
    collection: Path, tmp_path: Path
) -> None:
    out = tmp_path / "out.txt"
    code, terminal = on_a_terminal(["validate", "-j", "1", str(collection)], out)
    assert code == 0
    expected = plain(["validate", "-j", "1", str(collection)])
    assert out.read_bytes() == expected.stdout
    assert len(out.read_bytes().splitlines()) == 200
    shown = ANSI.sub(b"", terminal).decode()
    size_kb = collection.stat().st_size / 1000
    assert f"/{size_kb:.1f} kB" in shown
    assert "100%" in shown
    assert re.search(r"\b\d{1,2}%", shown), shown  # and the way there
    assert "validate" in shown and "records" in shown
    *_, summary, by_game = shown.rstrip().splitlines()
    assert summary.startswith("200 records: 200 valid")
    assert by_game == "by game: Oust 200 (200 valid, 0 invalid)"


def test_nothing_is_drawn_when_stderr_is_no_terminal(collection: Path) -> None:
    done = plain(["validate", str(collection)])
    assert done.returncode == 0
    summary, by_game = done.stderr.decode().splitlines()
    assert summary.startswith("200 records: 200 valid, 0 invalid, 0 unreadable; ")
    assert by_game.startswith("by game: ")
    assert b"\x1b" not in done.stderr + done.stdout
    assert b"%" not in done.stdout


def test_with_stdout_on_the_terminal_too_every_line_shows_above_the_bar(collection: Path) -> None:
    code, terminal = on_a_terminal(["validate", "-j", "1", str(collection)], None)
    assert code == 0
    shown = ANSI.sub(b"", terminal).decode()
    for number in range(1, 201):
        assert f"{collection} #{number}: valid  Oust" in shown
    assert "100%" in shown


def test_generate_counts_games_of_the_count_asked(tmp_path: Path) -> None:
    out = tmp_path / "g.grn"
    code, terminal = on_a_terminal(
        ["generate", "--game", "aronda", "--count", "40", "-o", str(out)], tmp_path / "stdout"
    )
    assert code == 0
    shown = ANSI.sub(b"", terminal).decode()
    assert "40/40" in shown and "100%" in shown
    assert (tmp_path / "stdout").read_bytes() == b""
    assert "gamerec: 40 games written to" in shown


@pytest.mark.parametrize("command", ["convert", "info", "score", "adjudicate"])
def test_the_other_long_commands_show_bytes_of_the_total(
    command: str, collection: Path, tmp_path: Path
) -> None:
    arguments = [command, str(collection)]
    if command == "convert":
        arguments.append(str(tmp_path / "out.jsonl"))
    out = tmp_path / "stdout"
    code, terminal = on_a_terminal(arguments, out)
    assert code == 0
    shown = ANSI.sub(b"", terminal).decode()
    assert f"/{collection.stat().st_size / 1000:.1f} kB" in shown and "100%" in shown
    if command != "convert":
        assert out.read_bytes() == plain(arguments).stdout


def test_a_short_job_on_a_terminal_draws_nothing_and_loads_no_rich(tmp_path: Path) -> None:
    record = str(ROOT / "fixtures" / "valid" / "oust-e1-pie.grn")
    probe = (
        "import sys\n"
        "from gamerec.cli.main import app\n"
        "try:\n"
        f"    app(['validate', {record!r}], prog_name='gamerec')\n"
        "except SystemExit:\n    pass\n"
        "print('rich.progress' in sys.modules, 'rich.live' in sys.modules)\n"
    )
    leader, follower = pty.openpty()
    # "Short" is shorter than the delay; a loaded machine can take the default 0.5 s to validate
    # one record, so the delay is an hour here and the test is about what a short job loads.
    env = {**os.environ, DELAY_VARIABLE: "3600"}
    done = subprocess.run(
        [sys.executable, "-c", probe], stdout=subprocess.PIPE, stderr=follower, env=env, check=False
    )
    os.close(follower)
    os.close(leader)
    assert done.stdout.decode().splitlines()[-1] == "False False"


def test_records_written_to_a_terminal_get_no_bar_beside_them(collection: Path) -> None:
    code, terminal = on_a_terminal(["convert", str(collection), "-", "--to", "jsonl"], None)
    assert code == 0
    shown = ANSI.sub(b"", terminal).decode()
    assert "%" not in shown and "kB" not in shown
    assert shown.count('{"formatVersion":1,"rules":') == 200
