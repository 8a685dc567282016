"""The service's layering: only the doors and the named clients speak gRPC; workers never load it.

gRPC is spoken by validator/service (the gRPC door), validator/web (the web door, which
bridges onto the same handlers) and by the few modules that are a servicer or a client of a
match server: the lobby's servicer and the bot's challenge taker, and an event's rounds on a
server (started in one call, results collected). No other module of the library imports it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.service.conftest import ROOT
from tests.test_layers import imported_modules

#: The doors: every module of these packages may speak gRPC.
DOORS = ("service", "web")
#: Servicers and clients of a match server outside the doors.
GRPC_CLIENTS = {
    "validator/lobby/servicer.py",
    "validator/lobby/acceptor.py",
    "validator/events/on_server.py",
    "validator/events/collect.py",
}
LIBRARY = [
    path
    for layer in ("recorder", "validator")
    for path in sorted((ROOT / layer).rglob("*.py"))
    if not set(DOORS) & set(path.relative_to(ROOT).parts)
    and str(path.relative_to(ROOT)) not in GRPC_CLIENTS
]


@pytest.mark.parametrize("path", LIBRARY, ids=[str(p.relative_to(ROOT)) for p in LIBRARY])
def test_the_library_never_imports_grpc(path: Path) -> None:
    assert not any(name.split(".")[0].startswith("grpc") for name in imported_modules(path))


def test_the_service_never_imports_the_cli() -> None:
    for path in sorted((ROOT / "validator" / "service").rglob("*.py")):
        assert not any(name.startswith("gamerec.cli") for name in imported_modules(path)), path


def test_the_worker_jobs_load_no_grpc() -> None:
    probe = (
        "import sys, gamerec.validator.service.work\n"
        "print(sorted(name for name in sys.modules if 'grpc' in name))"
    )
    found = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, check=True, cwd=ROOT
    )
    assert found.stdout.strip() == "[]"
