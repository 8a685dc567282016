"""Start-up: each command imports only what it uses (measured in make bench, checked here)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import typer.main

from gamerec.cli.main import COMMANDS, load_command

ROOT = Path(__file__).resolve().parents[2]
FIXTURE = ROOT / "fixtures" / "valid" / "one-e3-round-completion.pb"


def loaded_after(arguments: list[str]) -> set[str]:
    """The modules loaded by the ``gamerec`` command run with ``arguments``."""
    probe = (
        "import sys\n"
        "from gamerec.cli.main import app\n"
        f"try:\n    app({arguments!r}, prog_name='gamerec')\n"
        "except SystemExit:\n    pass\n"
        "print('\\n'.join(sorted(sys.modules)), file=sys.stderr)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, cwd=ROOT, check=True
    )
    return set(done.stderr.split())


def test_help_loads_no_codec_engine_renderer_or_grpc() -> None:
    loaded = loaded_after(["--help"])
    for heavy in ("google.protobuf", "grpc", "gamerec.validator", "gamerec.recorder.codecs"):
        assert not {name for name in loaded if name == heavy or name.startswith(heavy + ".")}


def test_validate_loads_neither_grpc_nor_the_renderer_nor_other_games() -> None:
    loaded = loaded_after(["validate", str(FIXTURE)])
    assert "gamerec.validator.judge" in loaded
    assert "gamerec.validator.games.one" in loaded
    for unused in (
        "grpc",
        "gamerec.validator.render.svg",
        "gamerec.validator.render.text",
        "gamerec.validator.render.scene",
        "gamerec.validator.annotation",
        "gamerec.validator.service",
        "google.protobuf.json_format",
        "gamerec.validator.games.oust",
        "gamerec.recorder.grn",
    ):
        assert unused not in loaded


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_the_listed_summary_is_the_command_s_own(name: str) -> None:
    command = load_command(name)
    assert (command.help or "").strip().splitlines()[0] == COMMANDS[name].summary


def test_every_command_of_the_table_is_reachable_and_no_other() -> None:
    group = typer.main.get_command(__import__("gamerec.cli.main", fromlist=["app"]).app)
    context = typer.Context(group)
    assert group.list_commands(context) == list(COMMANDS)  # type: ignore[attr-defined]
    assert group.get_command(context, "nonsense") is None  # type: ignore[attr-defined]
