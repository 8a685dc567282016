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

#: Prints, as JSON, every module imported by the code it is given whose bytecode is missing or
#: does not match its source (the header's size and mtime, as the import system checks them).
_STALE = """
import importlib.util, json, os, sys
{imports}
stale = []
for module in list(sys.modules.values()):
    spec = getattr(module, "__spec__", None)
    origin, cached = getattr(spec, "origin", None), getattr(spec, "cached", None)
    if not origin or not origin.endswith(".py") or not cached:
        continue
    source = os.stat(origin)
    try:
        with open(cached, "rb") as file:
            header = file.read(16)
    except OSError:
        stale.append(origin)
        continue
    flags = int.from_bytes(header[4:8], "little")
    mtime = int.from_bytes(header[8:12], "little")
    size = int.from_bytes(header[12:16], "little")
    expected = (int(source.st_mtime) & 0xFFFFFFFF, source.st_size & 0xFFFFFFFF)
    if header[:4] != importlib.util.MAGIC_NUMBER or (flags == 0 and (mtime, size) != expected):
        stale.append(origin)
print(json.dumps(sorted(stale)))
"""


def _without_bytecode(imports: str) -> list[str]:
    """The dependencies' modules that ``imports`` loads with no fresh bytecode to load from."""
    env = {**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [sys.executable, "-c", _STALE.format(imports=imports)],
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
