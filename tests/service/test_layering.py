"""The service's layering: only validator/service speaks gRPC, and its workers never load it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.service.conftest import ROOT
from tests.test_layers import imported_modules

LIBRARY = [
    path
    for layer in ("recorder", "validator")
    for path in sorted((ROOT / layer).rglob("*.py"))
    if "service" not in path.relative_to(ROOT).parts
]


@pytest.mark.parametrize("path", LIBRARY, ids=[str(p.relative_to(ROOT)) for p in LIBRARY])
def test_the_library_never_imports_grpc(path: Path) -> None:
    assert not any(name.split(".")[0].startswith("grpc") for name in imported_modules(path))


def test_the_service_never_imports_the_cli() -> None:
    for path in sorted((ROOT / "validator" / "service").glob("*.py")):
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
