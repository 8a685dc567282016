"""The front door: ``import gamerec`` gives every verb by name, cheaply, with its tour."""

from __future__ import annotations

import ast
import os
import pydoc
from pathlib import Path

import pytest

import gamerec
from tests.imports import loaded_after

ROOT = Path(__file__).resolve().parent.parent
FRONT_DOOR = ROOT / "gamerec" / "__init__.py"


def test_every_name_of_all_resolves_and_is_documented() -> None:
    for name in gamerec.__all__:
        value = getattr(gamerec, name)
        if name not in {"__version__", "DEFAULT_LIMITS", "GameRecord"}:  # data, generated
            assert (value.__doc__ or "").strip(), name
    assert len(set(gamerec.__all__)) == len(gamerec.__all__)


def test_the_typing_imports_are_the_lazy_table() -> None:
    tree = ast.parse(FRONT_DOOR.read_text())
    typed: dict[str, tuple[str, str]] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and getattr(node.test, "id", "") == "TYPE_CHECKING":
            for statement in node.body:
                assert isinstance(statement, ast.ImportFrom) and statement.module
                for alias in statement.names:
                    typed[alias.asname or alias.name] = (statement.module, alias.name)
    table = {
        name: (where, name) if isinstance(where, str) else where
        for name, where in gamerec._EXPORTS.items()
    }
    assert typed == table
    assert set(gamerec.__all__) == {"__version__", *table}


def test_the_verbs_a_platform_needs_are_there() -> None:
    for name in (
        "read_records", "write_records", "validate", "score", "adjudicate", "replay",
        "compare_records", "auto_annotate", "render_svg", "generate", "engine",
        "game_names", "RecordBuilder", "GamerecError", "__version__",
    ):  # fmt: skip
        assert name in gamerec.__all__


def test_importing_the_front_door_loads_no_codec_engine_or_grpc() -> None:
    assert loaded_after(["gamerec"], ("google", "grpc", "gamerec.")) == []


def test_help_shows_the_tour_and_the_names() -> None:
    plain: pydoc.TextDoc = vars(pydoc)["plaintext"]  # undocumented: text without bold
    text = pydoc.render_doc(gamerec, renderer=plain)
    assert "A five-minute tour" in text
    for name in ("RecordBuilder", "validate", "read_records", "render_svg"):
        assert name in text


def test_an_unknown_name_is_an_attribute_error() -> None:
    with pytest.raises(AttributeError, match="no attribute 'valdiate'"):
        _ = gamerec.valdiate


def test_the_tour_s_builder_example_runs(tmp_path: Path) -> None:
    doc = gamerec.__doc__ or ""
    start = doc.index("    game = gamerec.RecordBuilder")
    block = doc[start : doc.index("Once the game is over")]
    code = "\n".join(line.removeprefix("    ") for line in block.splitlines())
    here = Path.cwd()
    os.chdir(tmp_path)
    try:
        exec(compile(code, "tour", "exec"), {"gamerec": gamerec})
    finally:
        os.chdir(here)
    (record,) = gamerec.read_records(tmp_path / "club.grn")
    assert [gamerec.validate(record).valid, len(record.moves)] == [True, 2]
