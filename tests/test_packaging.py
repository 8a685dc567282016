"""The wheel holds one import package, gamerec, and works installed on its own.

The wheel is built from a copy of the repository (``pip wheel . --no-deps``, no network) and
installed into a new virtual environment. The dependencies come from the development
environment through a path entry, so nothing is downloaded; gamerec itself comes only from
the wheel (the development environment's editable gamerec is not activated there).
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from email.message import Message
from email.parser import Parser
from pathlib import Path
from typing import NamedTuple

import pytest

ROOT = Path(__file__).resolve().parent.parent
SKIPPED = {
    ".venv", ".tools", ".git", "node_modules", "build", "dist", ".mypy_cache", ".ruff_cache",
    "__pycache__",
}  # fmt: skip


def _copy_of_the_repository(target: Path) -> Path:
    def ignored(folder: str, names: list[str]) -> set[str]:
        return {name for name in names if name in SKIPPED or name.endswith(".egg-info")}

    shutil.copytree(ROOT, target, symlinks=True, ignore=ignored)
    return target


class Build(NamedTuple):
    """A wheel built by pip and everything the build printed (stdout and stderr)."""

    wheel: Path
    output: str


def _build_wheel(source: Path, dist: Path) -> Build:
    """``pip wheel`` of ``source`` into ``dist``, offline, as quiet as a user's install."""
    done = subprocess.run(
        [sys.executable, "-m", "pip", "wheel", str(source), "--no-deps", "--no-build-isolation",
         "--no-index", "-q", "-w", str(dist)],
        check=True,
        capture_output=True,
        text=True,
        timeout=600,
    )  # fmt: skip
    (built,) = dist.glob("*.whl")
    return Build(built, done.stdout + done.stderr)


@pytest.fixture(scope="module")
def build(tmp_path_factory: pytest.TempPathFactory) -> Build:
    """The wheel, built from a copy of the repository, with the build's output."""
    work = tmp_path_factory.mktemp("wheel")
    return _build_wheel(_copy_of_the_repository(work / "source"), work / "dist")


@pytest.fixture(scope="module")
def wheel(build: Build) -> Path:
    """The wheel, built from a copy of the repository."""
    assert build.wheel.name.startswith("gamerec_toolkit-")
    return build.wheel


@pytest.fixture(scope="module")
def fresh(wheel: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A new virtual environment with the wheel installed; its ``bin`` folder."""
    venv = tmp_path_factory.mktemp("venv") / "fresh"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    subprocess.run(
        [str(python), "-m", "pip", "install", "--no-deps", "--no-index", "-q", str(wheel)],
        check=True,
        capture_output=True,
        timeout=300,
    )
    site = subprocess.run(
        [str(python), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
        check=True,
        capture_output=True,
        text=True,
    ).stdout.strip()
    dependencies = sysconfig.get_paths()["purelib"]
    (Path(site) / "_dependencies.pth").write_text(dependencies + "\n")
    return venv / "bin"


def test_the_wheel_holds_only_the_gamerec_package(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        tops = {name.split("/")[0] for name in archive.namelist()}
        names = set(archive.namelist())
    assert tops == {"gamerec", "-".join(wheel.name.split("-")[:2]) + ".dist-info"}
    for module in (
        "recorder/codecs/__init__.py",
        "validator/judge.py",
        "cli/main.py",
        "v1/record_pb2.py",
    ):
        assert f"gamerec/{module}" in names
    assert "gamerec/validator/games/entries/one.py" in names
    assert "gamerec/py.typed" in names
    for asset in ("viewer.js", "viewer.css"):  # the viewer's script and style, inlined on use
        assert f"gamerec/validator/render/viewer/{asset}" in names
    # The web door's static files (the web client, built by make web) and its stubs.
    for built in ("index.html", "app.js", "app.css"):
        assert f"gamerec/validator/web/static/{built}" in names
    assert "gamerec/v1/match_connect.py" in names


def _run(bin_dir: Path, *arguments: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(bin_dir / arguments[0]), *arguments[1:]],
        check=False,
        capture_output=True,
        text=True,
        cwd=cwd,
        timeout=300,
    )


def test_the_installed_command_validates_the_fixtures(fresh: Path, tmp_path: Path) -> None:
    games = sorted(str(path) for path in (ROOT / "fixtures" / "games").glob("*.grn"))
    done = _run(fresh, "gamerec", "validate", *games, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.count(": valid ") == len(games)
    version = _run(fresh, "gamerec", "--version", cwd=tmp_path)
    assert version.returncode == 0 and version.stdout.startswith("gamerec 0.")


def test_the_front_door_validates_a_record(fresh: Path, tmp_path: Path) -> None:
    fixture = ROOT / "fixtures" / "invalid" / "one-landing-occupied.grn"
    probe = (
        "import gamerec, pathlib\n"
        f"(record,) = gamerec.read_records({str(fixture)!r})\n"
        "verdict = gamerec.validate(record)\n"
        "import sys\n"
        "assert pathlib.Path(gamerec.__file__).is_relative_to(sys.prefix), gamerec.__file__\n"
        "print(verdict.valid, verdict.errors[0].code, gamerec.__version__)\n"
    )  # fmt: skip
    done = _run(fresh, "python", "-c", probe, cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    valid, code, version = done.stdout.split()
    assert (valid, code) == ("False", "LANDING_OCCUPIED")
    assert version[0].isdigit()


def test_the_installed_command_writes_a_viewer_page(fresh: Path, tmp_path: Path) -> None:
    fixture = ROOT / "fixtures" / "games" / "aronda.grn"
    done = _run(fresh, "gamerec", "view", str(fixture), "-o", "game.html", cwd=tmp_path)
    assert done.returncode == 0, done.stderr
    page = (tmp_path / "game.html").read_text(encoding="utf-8")
    assert 'id="game-data"' in page and "function go(name)" in page and ".mv.current" in page


@pytest.mark.parametrize("bare", ["recorder", "validator", "cli"])
def test_the_folder_names_are_not_importable_beside_the_wheel(
    fresh: Path, tmp_path: Path, bare: str
) -> None:
    done = _run(fresh, "python", "-c", f"import {bare}", cwd=tmp_path)
    assert done.returncode != 0
    assert "ModuleNotFoundError" in done.stderr


def test_python_m_gamerec_runs_the_command(fresh: Path, tmp_path: Path) -> None:
    done = _run(fresh, "python", "-m", "gamerec", "--help", cwd=tmp_path)
    assert done.returncode == 0 and "Usage: gamerec" in done.stdout


def _metadata(wheel: Path) -> tuple[Message, set[str]]:
    """The wheel's METADATA, parsed, and the names in the archive."""
    with zipfile.ZipFile(wheel) as archive:
        names = set(archive.namelist())
        (metadata,) = (name for name in names if name.endswith(".dist-info/METADATA"))
        return Parser().parsestr(archive.read(metadata).decode("utf-8")), names


#: What setuptools prints for a deprecated setting (``BuildBackendWarning: `project.license`
#: as a TOML table is deprecated``, ``SetuptoolsDeprecationWarning``).
DEPRECATION = re.compile(r"deprecat", re.IGNORECASE)


def test_the_licence_is_an_spdx_expression_with_its_text_in_the_wheel(wheel: Path) -> None:
    metadata, names = _metadata(wheel)
    major, minor = (int(part) for part in metadata["Metadata-Version"].split("."))
    assert (major, minor) >= (2, 4)  # PEP 639's License-Expression and License-File
    assert metadata["License-Expression"] == "MIT"
    assert metadata["License"] is None  # the deprecated free-text field is gone
    assert metadata.get_all("License-File") == ["LICENSE"]
    (licence,) = (name for name in names if name.endswith(".dist-info/licenses/LICENSE"))
    with zipfile.ZipFile(wheel) as archive:
        assert archive.read(licence) == (ROOT / "LICENSE").read_bytes()
    assert (ROOT / "LICENSE").read_text().startswith("MIT License")


def test_the_build_prints_no_deprecation_warning(build: Build) -> None:
    assert not DEPRECATION.search(build.output), build.output


def test_a_licence_table_would_be_caught(tmp_path: Path) -> None:
    """The check above can fail: the old ``license = { text = ... }`` form makes the warning."""
    source = tmp_path / "old"
    (source / "old_licence").mkdir(parents=True)
    (source / "old_licence" / "__init__.py").write_text("")
    pyproject = (ROOT / "pyproject.toml").read_text()
    build_system = pyproject[: pyproject.index("[project]")]
    (source / "pyproject.toml").write_text(
        build_system + '[project]\nname = "old-licence"\nversion = "1"\n'
        'license = { text = "MIT" }\n'
    )
    built = _build_wheel(source, tmp_path / "dist")
    assert DEPRECATION.search(built.output)
    assert _metadata(built.wheel)[0]["License-Expression"] is None
