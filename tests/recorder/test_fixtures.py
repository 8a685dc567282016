"""The derived fixtures are what scripts/make_fixtures.py makes from the hand-written ones."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_derived_fixtures_are_fresh() -> None:
    check = subprocess.run(
        [sys.executable, str(ROOT / "scripts" / "make_fixtures.py"), "--check"],
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert check.returncode == 0, check.stdout + check.stderr
