"""What an import loads, seen from a fresh interpreter (start-up and layering tests)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def loaded_after(modules: list[str], prefixes: tuple[str, ...]) -> list[str]:
    """The modules whose names start with one of ``prefixes`` once ``modules`` are imported.

    Runs a fresh Python (nothing this test process imported counts), sorted.
    """
    code = (
        "import sys\n"
        + "".join(f"import {module}\n" for module in modules)
        + f"print(sorted(m for m in sys.modules if m.startswith({prefixes!r})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT
    )
    found: list[str] = ast.literal_eval(done.stdout)
    return found
