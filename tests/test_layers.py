"""The layers of architecture.md: nothing imports upward, engines are pure, one import package."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from tests.imports import loaded_after

ROOT = Path(__file__).resolve().parent.parent

#: The folders that install as ``gamerec.<folder>``; nothing imports them by their bare name.
PACKAGED_FOLDERS = ("recorder", "validator", "cli")

#: The rules engines: pure Python, no I/O, no protobuf (architecture.md, "Layers").
#: Every module under validator/games/ except the registry and its entries (which read records),
#: so that an engine split into a package of its own is covered file by file.
ENGINE_FILES = tuple(
    path
    for path in sorted((ROOT / "validator" / "games").rglob("*.py"))
    if path.name != "registry.py" and "entries" not in path.relative_to(ROOT).parts
)

# For each layer, the modules it must never import.
FORBIDDEN: dict[str, tuple[str, ...]] = {
    "recorder": ("gamerec.validator", "gamerec.cli"),
    "validator": ("gamerec.cli",),
}
ENGINE_FORBIDDEN = (
    "gamerec.cli",
    "gamerec.v1",
    "google",
    "grpc",
    "gamerec.validator",
    "orjson",
    "json",
    "io",
    "os",
    "pathlib",
    "logging",
    "sys",
    "subprocess",
    "socket",
)
#: What an engine may take from the rest of gamerec: the shared errors, the games' record
#: grammar (pure Python: one grammar serves the GRN reader and the engine), and the games' own.
ENGINE_ALLOWED = ("gamerec.recorder.errors", "gamerec.recorder.syntax", "gamerec.validator.games")


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


def _within(name: str, module: str) -> bool:
    return name == module or name.startswith(module + ".")


@pytest.mark.parametrize("layer", sorted(FORBIDDEN))
def test_layer_does_not_import_upward(layer: str) -> None:
    offenders = []
    for path in layer_files(layer):
        for name in imported_modules(path):
            for forbidden in FORBIDDEN[layer]:
                if _within(name, forbidden):
                    offenders.append(f"{path.relative_to(ROOT)} imports {name}")
    assert offenders == []


@pytest.mark.parametrize("path", ENGINE_FILES, ids=lambda path: str(path.relative_to(ROOT)))
def test_engines_are_pure(path: Path) -> None:
    offenders = [
        name
        for name in imported_modules(path)
        if any(_within(name, forbidden) for forbidden in ENGINE_FORBIDDEN)
        and not any(_within(name, allowed) for allowed in ENGINE_ALLOWED)
    ]
    assert offenders == []


def test_engines_import_only_the_errors_and_the_grammar_from_recorder() -> None:
    for path in ENGINE_FILES:
        recorder_imports = {n for n in imported_modules(path) if _within(n, "gamerec.recorder")}
        allowed = {"gamerec.recorder.errors", "gamerec.recorder.syntax"}
        assert recorder_imports <= allowed, path


def test_the_grammar_engines_use_is_pure_python() -> None:
    # Engines read tokens with the record's grammar; importing it must bring no protobuf.
    grammars = [f"gamerec.recorder.syntax.{game}" for game in ("one", "aronda", "oust", "ohwahree")]
    assert loaded_after(grammars, ("google", "gamerec.v1")) == []


def _python_files() -> list[Path]:
    """Every Python file of the repository that is not generated or installed."""
    skipped = {".venv", "node_modules", "build", ".git"}
    return sorted(
        path
        for path in ROOT.rglob("*.py")
        if not skipped & set(path.relative_to(ROOT).parts)
        and path.relative_to(ROOT).parts[0] != "gamerec"
    )


def test_nothing_imports_the_bare_folder_names() -> None:
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for path in _python_files()
        for name in imported_modules(path)
        if name.split(".")[0] in PACKAGED_FOLDERS
    ]
    assert offenders == []


def test_the_packaged_folders_are_linked_into_the_gamerec_package() -> None:
    for folder in PACKAGED_FOLDERS:
        link = ROOT / "gamerec" / folder
        assert link.is_symlink(), link
        assert link.resolve() == (ROOT / folder).resolve()


# -- one game, one place ----------------------------------------------------------------------

#: The files that are one game's own (its syntax, engine, entry) or the one list of games.
GAME_MODULES = ("one", "aronda", "oust", "ohwahree")
GAME_FILES = {
    *(f"recorder/syntax/{game}.py" for game in GAME_MODULES),
    *(f"validator/games/{game}.py" for game in GAME_MODULES),
    # An engine split into a package: every module of validator/games/<game>/.
    *(
        str(path.relative_to(ROOT))
        for game in GAME_MODULES
        for path in (ROOT / "validator" / "games" / game).glob("*.py")
    ),
    *(f"validator/games/entries/{game}.py" for game in GAME_MODULES),
    "recorder/syntax/registered.py",
    # Oh-Wah-Ree's endgame tables and their command are that game's own (architecture.md).
    *(f"validator/tables/{path.name}" for path in (ROOT / "validator" / "tables").glob("*.py")),
    "cli/tables.py",
}
#: A game's name in text (error messages, help, dictionary keys).
GAME_WORDS = re.compile(r"\b(ONE|Aronda|Oust|Oh-Wah-Ree|oh-wah-ree|ohwahree|oh_wah_ree)\b")
#: A game's enum values, message types, state and variant classes, modules and proto fields.
GAME_IDENTIFIERS = re.compile(
    r"^(GAME_(ONE|ARONDA|OUST|OH_WAH_REE)|(One|Aronda|Oust|OhWahRee)[A-Z]\w*"
    r"|(ONE|ARONDA|OUST|OH_WAH_REE)_\w+|one|aronda|oust|ohwahree|oh_wah_ree)$"
)


def generic_files() -> list[Path]:
    """Every module of recorder, validator and cli that is not one game's own."""
    return [
        path
        for layer in PACKAGED_FOLDERS
        for path in layer_files(layer)
        if str(path.relative_to(ROOT)) not in GAME_FILES
    ]


def _docstring_ids(tree: ast.AST) -> set[int]:
    found = set()
    for node in ast.walk(tree):
        holders = (ast.Module, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
        if isinstance(node, holders) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant):
                found.add(id(first.value))
    return found


def game_names_in_code(path: Path) -> list[str]:
    """Every game name, enum, type, module or field a file's code (not its docs) names."""
    tree = ast.parse(path.read_text(), filename=str(path))
    docstrings = _docstring_ids(tree)
    found: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if id(node) not in docstrings:
                found += GAME_WORDS.findall(node.value)
            continue
        names: list[str] = []
        if isinstance(node, ast.Name):
            names = [node.id]
        elif isinstance(node, ast.Attribute):
            names = [node.attr]
        elif isinstance(node, ast.alias):
            names = node.name.split(".") + ([node.asname] if node.asname else [])
        elif isinstance(node, ast.ImportFrom) and node.module:
            names = node.module.split(".")
        line = getattr(node, "lineno", 0)
        found += [f"line {line}: {name}" for name in names if GAME_IDENTIFIERS.match(name)]
    return found


@pytest.mark.parametrize("path", generic_files(), ids=lambda path: str(path.relative_to(ROOT)))
def test_generic_modules_name_no_game(path: Path) -> None:
    assert game_names_in_code(path) == []


def test_the_check_finds_a_game_named_in_code(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        '"""Docs may say ONE and Oust."""\n'
        "from gamerec.validator.games import oust\n"
        "LIMITS = {'Aronda': 2}\n"
        "kind = pb.GAME_OH_WAH_REE\n"
        "state: OustState\n"
    )
    found = game_names_in_code(sample)
    assert [name for name in found if not name.startswith("line")] == ["Aronda"]
    assert {name.split(": ")[1] for name in found if name.startswith("line")} == {
        "oust",
        "GAME_OH_WAH_REE",
        "OustState",
    }


def test_only_the_server_and_the_cli_import_the_web_door() -> None:
    """validator/web/ is a door onto the service: nothing below it leans on it (web.md)."""
    allowed = {ROOT / "validator/service/server.py", ROOT / "validator/service/processes.py"}
    offenders = [
        f"{path.relative_to(ROOT)} imports {name}"
        for layer in ("recorder", "validator")
        for path in layer_files(layer)
        if path not in allowed and (ROOT / "validator" / "web") not in path.parents
        for name in imported_modules(path)
        if _within(name, "gamerec.validator.web")
    ]
    assert offenders == []
