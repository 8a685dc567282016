"""validator/search holds no rule: it imports the engines' protocol and the standard library."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from tests.test_layers import ROOT, imported_modules

ALLOWED = ("gamerec.validator.games.protocol", "gamerec.validator.search")


@pytest.mark.parametrize(
    "path", sorted((ROOT / "validator" / "search").glob("*.py")), ids=lambda path: path.name
)
def test_search_imports_only_the_protocol(path: Path) -> None:
    outside = [
        name
        for name in imported_modules(path)
        if name.split(".")[0] not in sys.stdlib_module_names
        and name != "__future__"
        and not any(name == allowed or name.startswith(allowed + ".") for allowed in ALLOWED)
    ]
    assert outside == []
