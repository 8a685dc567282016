"""The installed ``gamerec`` console script, run as a real process."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAMEREC = Path(sys.executable).parent / "gamerec"


def gamerec(*args: str, stdin: bytes = b"") -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [str(GAMEREC), *args], input=stdin, capture_output=True, check=False, timeout=60
    )


def test_the_console_script_converts_a_pipe() -> None:
    grn = (ROOT / "fixtures" / "valid" / "oust-e1-pie.grn").read_bytes()
    converted = gamerec("convert", "-", "-", "--to", "pbs", stdin=grn)
    assert converted.returncode == 0, converted.stderr
    summary = gamerec("info", "-", stdin=converted.stdout)
    assert summary.returncode == 0
    assert summary.stdout.decode().startswith('<stdin> #1  Oust  [Board "7"] [Pie "on"]')


def test_the_console_script_fails_with_exit_2_and_one_line(tmp_path: Path) -> None:
    broken = ROOT / "fixtures" / "broken" / "truncated.pbs"
    failed = gamerec("convert", str(broken), str(tmp_path / "out.jsonl"))
    assert failed.returncode == 2
    assert failed.stderr.decode().count("\n") == 1
    assert b"Traceback" not in failed.stderr
    assert list(tmp_path.iterdir()) == []
