"""``gamerec engine``: a built-in policy as an engine process on standard input and output."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

GAMEREC = Path(sys.executable).parent / "gamerec"


def test_the_engine_command_answers_a_session_and_exits_at_the_end_of_its_input() -> None:
    session = (
        "gep 1\n"
        "newgame Game=oust Players=2 Board=5 Pie=off Seat=1\n"
        "position\n"
        "go movetime 1000\n"
        "ping 3\n"
        "position c3 zz\n"
        "go\n"
    )
    finished = subprocess.run(
        [str(GAMEREC), "engine", "--policy", "greedy", "--seed", "4"],
        input=session,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert finished.returncode == 0, finished.stderr
    lines = finished.stdout.splitlines()
    assert lines[0] == "id name gamerec greedy (seed 4)"
    assert lines[lines.index("gepok 1") + 1] == "ready"
    assert lines[-5].startswith("info depth 1 score ")
    assert lines[-4].startswith("move ")
    assert lines[-3] == "pong 3"
    assert lines[-2].startswith("error position: ply 2 'zz': ")
    assert lines[-1].startswith("error go without a valid position")
    assert finished.stderr == ""
