"""The suite's own assumption: ``--dist loadgroup`` keeps an xdist group on one worker.

The cluster tests share one Dask cluster and rely on running in one worker, one after
another; a pytest that pytest-xdist cannot group under (pytest 9.2 with xdist 3.8) would
spread them silently. This runs a small suite of its own under ``-n 2 --dist loadgroup``.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

GROUPED = """
import os
import pytest

pytestmark = pytest.mark.xdist_group("together")


@pytest.mark.parametrize("index", range(6))
def test_grouped(index: int) -> None:
    with open(os.environ["WORKERS_FILE"], "a") as out:
        out.write(f"grouped {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""

LOOSE = """
import os
import time

import pytest


@pytest.mark.parametrize("index", range(6))
def test_loose(index: int) -> None:
    time.sleep(0.05)
    with open(os.environ["WORKERS_FILE"], "a") as out:
        out.write(f"loose {os.environ['PYTEST_XDIST_WORKER']}\\n")
"""


def test_a_group_runs_on_one_worker(tmp_path: Path) -> None:
    (tmp_path / "test_grouped.py").write_text(GROUPED)
    (tmp_path / "test_loose.py").write_text(LOOSE)
    workers = tmp_path / "workers.txt"
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-n",
            "2",
            "--dist",
            "loadgroup",
            "-p",
            "no:cacheprovider",
            "--rootdir",
            str(tmp_path),
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        env={**os.environ, "WORKERS_FILE": str(workers)},
        cwd=tmp_path,
        timeout=300,
        check=False,
    )
    assert run.returncode == 0, run.stdout + run.stderr
    lines = workers.read_text().split()
    grouped = {
        worker for kind, worker in zip(lines[::2], lines[1::2], strict=True) if kind == "grouped"
    }
    assert lines.count("grouped") == 6
    assert len(grouped) == 1, f"the group ran on {sorted(grouped)}"
