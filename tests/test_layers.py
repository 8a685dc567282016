"""The layers of architecture.md: nothing imports upward, engines are pure."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# For each layer, the top-level modules it must never import.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "recorder": ("validator", "cli"),
    "validator": ("cli",),
    "validator/games": (
        "cli",
        "gamerec",
        "google",
        "grpc",
        "validator.service",
        "validator.verdict",
        "orjson",
        "json",
        "io",
        "os",
        "pathlib",
        "logging",
        "sys",
        "subprocess",
        "socket",
    ),
}


def imported_modules(path: Path) -> set[str]:
    """Every module name a Python file imports (absolute imports only)."""
    tree = ast.parse(path.read_text(), filename=str(path))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def layer_files(layer: str) -> list[Path]:
    """The Python files of a layer (a folder, recursively)."""
    return sorted((ROOT / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_does_not_import_upward(layer: str) -> None:
    offenders = []
    for path in layer_files(layer):
        for name in imported_modules(path):
            for forbidden in FORBIDDEN[layer]:
                if name == forbidden or name.startswith(forbidden + "."):
                    offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


def test_engines_import_only_the_shared_error_module_from_recorder() -> None:
    for path in layer_files("validator/games"):
        recorder_imports = {n for n in imported_modules(path) if n.startswith("recorder")}
        assert recorder_imports <= {"recorder.errors"}, path
