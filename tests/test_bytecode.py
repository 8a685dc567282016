"""What ``make`` installs starts from bytecode: a command compiles none of its dependencies.

These machines and their CI set ``PYTHONDONTWRITEBYTECODE``, so a module with no cached
bytecode is compiled from its source again by every process that imports it: a ``gamerec``
command then starts in about 0.2 s instead of 0.08 s, and the test suite starts hundreds of
them. The Makefile has uv compile what it installs (``--compile-bytecode``) and compiles
gamerec's own modules before the demo, the tests and the bench (``make bytecode``). Only the
dependencies are checked here: a source file just edited has no fresh bytecode until the
next ``make test``, and that must not fail a test run started by hand.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import sysconfig

import pytest

#: Prints, as JSON, the source file of every module that the code it is given imports and the
#: import system compiles from source, because no fresh bytecode was there to load: its own
#: decision (``SourceLoader.get_code`` calls ``source_to_code`` only then), noted as it is made.
_COMPILED = """
import importlib.machinery, json
compiled = []
compile_source = importlib.machinery.SourceFileLoader.source_to_code
def noted(self, data, path, *, _optimize=-1):
    compiled.append(path)
    return compile_source(self, data, path, _optimize=_optimize)
importlib.machinery.SourceFileLoader.source_to_code = noted
{imports}
print(json.dumps(sorted(compiled)))
"""


def _without_bytecode(imports: str) -> list[str]:
    """The dependencies' modules that ``imports`` loads with no fresh bytecode to load from."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _COMPILED.format(imports=imports)],
        capture_output=True,
        text=True,
        check=True,
        env=env,
        timeout=120,
    )
    places = {sysconfig.get_paths()[key] for key in ("purelib", "platlib")}
    return [
        path
        for path in json.loads(done.stdout)
        if any(path.startswith(place + os.sep) for place in places)
    ]


@pytest.mark.parametrize(
    "imports",
    [
        "import gamerec.cli.main",  # every Typer command's start
        "import gamerec.validator.service.server",  # gamerec serve
        "import gamerec.validator.web.serving",  # the web door
    ],
)
def test_the_dependencies_of_a_command_load_from_bytecode(imports: str) -> None:
    missing = _without_bytecode(imports)
    assert not missing, (
        f"{len(missing)} modules of the dependencies have no fresh bytecode (uv sync "
        f"--compile-bytecode makes it): {missing[:5]}"
    )
