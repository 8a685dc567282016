"""The build is the lock: what make installs is uv.lock exactly, and only `make lock` moves it.

These tests run the lock's own tool (uv, at the version ``[tool.uv]`` requires, which the dev
extra installs beside pytest) against the project's ``pyproject.toml`` and ``uv.lock``:

- the environment the tests run in holds every package of the lock's dev set at its locked
  version (what ``make install`` made);
- a newer grpcio-tools in the registry (a wheel built here, offered through ``--find-links``)
  changes nothing that ``make install`` does, while ``make lock``'s resolution picks it up;
- a ``pyproject.toml`` that the lock no longer satisfies makes ``uv lock --check`` (the first
  step of ``make test``) fail;
- the ranges ``pyproject.toml`` gives the gRPC/protobuf family admit no release older than the
  one the committed generated code checks for at import.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import shutil
import subprocess
import sys
import tomllib
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
UV = Path(sys.executable).parent / "uv"
GENERATED = ROOT / "gamerec" / "v1"


def _uv(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    """Run the lock's uv in ``cwd`` with this machine's Python, returning what it printed."""
    env = {**os.environ, "UV_PYTHON_DOWNLOADS": "never", "UV_NO_PROGRESS": "1"}
    env["UV_PROJECT_ENVIRONMENT"] = str(Path(sys.prefix))
    return subprocess.run(
        [str(UV), *args, "--python", sys.executable],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )


# A dry run of make install's sync, for the dependencies only (the project itself is
# rebuilt whenever pyproject.toml is newer than its last build, which says nothing of the lock).
SYNC_DRY_RUN = ("sync", "--extra", "dev", "--inexact", "--no-install-project", "--dry-run")


def _locked_versions() -> dict[str, str]:
    """Every package of uv.lock with its version (one version each in this project's lock)."""
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    return {package["name"]: package["version"] for package in lock["package"]}


def _fake_wheel(folder: Path, name: str, version: str, requires: list[str]) -> Path:
    """Write a minimal, valid pure-Python wheel of ``name`` ``version`` into ``folder``."""
    module = name.replace("-", "_")
    info = f"{module}-{version}.dist-info"
    files = {
        f"{module}/__init__.py": "",
        f"{info}/METADATA": "".join(
            [f"Metadata-Version: 2.1\nName: {name}\nVersion: {version}\n"]
            + [f"Requires-Dist: {requirement}\n" for requirement in requires]
        ),
        f"{info}/WHEEL": "Wheel-Version: 1.0\nGenerator: tests\nRoot-Is-Purelib: true\n"
        "Tag: py3-none-any\n",
    }
    record = []
    wheel = folder / f"{module}-{version}-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        for path, text in files.items():
            archive.writestr(path, text)
            digest = hashlib.sha256(text.encode()).digest()
            encoded = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
            record.append(f"{path},sha256={encoded},{len(text)}")
        record.append(f"{info}/RECORD,,")
        archive.writestr(f"{info}/RECORD", "\n".join(record) + "\n")
    return wheel


@pytest.fixture(scope="module")
def newer_grpcio_tools(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder of wheels holding a grpcio-tools newer than the lock's, inside its range."""
    folder = tmp_path_factory.mktemp("registry")
    major, minor, _ = _locked_versions()["grpcio-tools"].split(".")
    _fake_wheel(
        folder,
        "grpcio-tools",
        f"{major}.{minor}.999",
        [f"grpcio>={major}.{minor}", "protobuf>=7", "setuptools"],
    )
    return folder


def test_the_environment_is_the_lock() -> None:
    done = _uv(*SYNC_DRY_RUN, "--locked")
    assert done.returncode == 0, done.stderr
    assert "Would make no changes" in done.stderr, done.stderr
    locked = _locked_versions()
    for name in ("grpcio", "grpcio-tools", "protobuf", "mypy", "ruff", "pytest", "uv"):
        assert metadata.version(name) == locked[name], name


def test_a_newer_grpcio_tools_changes_nothing_that_make_installs(
    newer_grpcio_tools: Path,
) -> None:
    offered = f"--find-links={newer_grpcio_tools}"
    for mode in ("--locked", "--frozen"):
        done = _uv(*SYNC_DRY_RUN, mode, offered)
        assert done.returncode == 0, done.stderr
        assert "Would make no changes" in done.stderr, done.stderr
        assert "999" not in done.stderr
    assert _uv("lock", "--check", offered).returncode == 0


def test_make_lock_is_what_takes_the_newer_grpcio_tools(newer_grpcio_tools: Path) -> None:
    locked = _locked_versions()["grpcio-tools"]
    done = _uv("lock", "--upgrade", "--dry-run", f"--find-links={newer_grpcio_tools}")
    assert done.returncode == 0, done.stderr
    newer = locked.rsplit(".", 1)[0] + ".999"
    assert f"Update grpcio-tools v{locked} -> v{newer}" in done.stderr, done.stderr


def test_a_pyproject_the_lock_does_not_satisfy_fails_the_check(tmp_path: Path) -> None:
    for name in ("pyproject.toml", "uv.lock", "README.md", "LICENSE"):
        shutil.copy(ROOT / name, tmp_path / name)
    project = (tmp_path / "pyproject.toml").read_text()
    assert '"orjson>=3.10,<4",' in project
    (tmp_path / "pyproject.toml").write_text(
        project.replace('"orjson>=3.10,<4",', '"orjson>=3.10,<4", "six==1.17.0",')
    )
    done = _uv("lock", "--check", cwd=tmp_path)
    assert done.returncode != 0
    assert "needs to be updated" in done.stderr, done.stderr


def _version(text: str) -> tuple[int, ...]:
    return tuple(int(part) for part in text.split("."))


def _lower_bound(requirement: str) -> tuple[int, ...]:
    found = re.search(r">=\s*([0-9.]+)", requirement)
    assert found, f"{requirement}: the runtime dependency has no lower bound"
    return _version(found.group(1))


def _runtime_requirement(name: str) -> str:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    (requirement,) = (
        spec for spec in project["dependencies"] if re.match(rf"{name}\s*[<>=!~]", spec)
    )
    return str(requirement)


def test_the_ranges_admit_no_grpcio_older_than_the_generated_code() -> None:
    stubs = sorted(GENERATED.glob("*_pb2_grpc.py"))
    assert stubs
    for stub in stubs:
        generated = re.search(r"GRPC_GENERATED_VERSION = '([0-9.]+)'", stub.read_text())
        assert generated, stub
        assert _lower_bound(_runtime_requirement("grpcio")) >= _version(generated.group(1))


def test_the_ranges_admit_no_protobuf_older_than_the_generated_code() -> None:
    for module in sorted(GENERATED.glob("*_pb2.py")):
        checked = re.search(
            r"ValidateProtobufRuntimeVersion\(\s*_runtime_version\.Domain\.PUBLIC,\s*"
            r"(\d+),\s*(\d+),\s*(\d+),",
            module.read_text(),
        )
        assert checked, module
        needed = tuple(int(part) for part in checked.groups())
        bound = _lower_bound(_runtime_requirement("protobuf"))
        assert bound + (0,) * (3 - len(bound)) >= needed, module
