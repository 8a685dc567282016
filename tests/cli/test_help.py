"""Help texts: a word where a type would show (no ``<str>``, ``<int range>``), limits said once."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from gamerec.cli.limits import MEANINGS
from gamerec.cli.main import COMMANDS, app
from gamerec.recorder.limits import DEFAULT_LIMITS, limit_name

GAMEREC = Path(sys.executable).parent / "gamerec"
#: The commands that read records, so take --limit.
READERS = ("validate", "replay", "score", "adjudicate", "convert", "info")
#: A type where a word should be (a list of the words an option takes, ``<new|show>``, is fine).
PLACEHOLDER = re.compile(r"<(?:str|int|int range|float|float range|bool|boolean|text|path)>")


def help_of(*arguments: str) -> str:
    result = CliRunner().invoke(app, [*arguments, "--help"], env={"COLUMNS": "120"})
    assert result.exit_code == 0, result.output
    return result.stdout


@pytest.mark.parametrize("name", sorted(COMMANDS))
def test_no_type_placeholder_in_any_help(name: str) -> None:
    text = help_of(name)
    assert not PLACEHOLDER.search(text), PLACEHOLDER.findall(text)
    assert "--install-completion" not in text  # the group's option, not every command's
    for line in text.splitlines():
        if "--json " in line:
            assert re.search(r"--json\s{2,}[A-Z]", line), line  # its help, no placeholder


@pytest.mark.parametrize("name", ["validate", "generate", "serve", "annotate"])
def test_no_type_placeholder_in_plain_help_either(name: str) -> None:
    env = {**os.environ, "TYPER_USE_RICH": "0", "COLUMNS": "120"}
    done = subprocess.run(
        [str(GAMEREC), name, "--help"], capture_output=True, text=True, env=env, check=True
    )
    assert "Options:" in done.stdout
    assert not PLACEHOLDER.search(done.stdout), PLACEHOLDER.findall(done.stdout)


def test_options_show_what_they_take() -> None:
    text = help_of("validate")
    assert re.search(r"--workers\s+-j\s+N\b", text)
    assert re.search(r"--from\s+pb\|pbs\|json\|jsonl\|grn\b", text)
    assert re.search(r"--comment\s+TEXT\b", help_of("annotate"))


@pytest.mark.parametrize("name", READERS)
def test_the_limits_are_not_repeated_in_each_command(name: str) -> None:
    text = help_of(name)
    assert "Defaults:" not in text
    assert "67_108_864" not in text and "67,108,864" not in text
    assert "gamerec limits" in " ".join(text.split())


def test_gamerec_limits_lists_every_limit_with_its_default() -> None:
    assert set(MEANINGS) == set(DEFAULT_LIMITS.__slots__)
    result = CliRunner().invoke(app, ["limits"])
    assert result.exit_code == 0
    lines = result.stdout.split("\n\n")[0].splitlines()
    assert lines[0].split() == ["NAME", "DEFAULT", "WHAT", "IT", "BOUNDS"]
    for field, line in zip(DEFAULT_LIMITS.__slots__, lines[1:], strict=True):
        name, default, *_ = line.split()
        assert (name, default) == (limit_name(field), f"{getattr(DEFAULT_LIMITS, field):,}")
    assert "limits" in help_of()
