"""Help texts: a word where a type would show (no ``<str>``, ``<int range>``), limits said once."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest
from typer.core import TyperGroup, TyperOption
from typer.testing import CliRunner

from gamerec.cli.limits import MEANINGS
from gamerec.cli.main import COMMANDS, app, load_command
from gamerec.recorder.limits import DEFAULT_LIMITS, limit_name

GAMEREC = Path(sys.executable).parent / "gamerec"
ROOT = Path(__file__).resolve().parents[2]
#: The commands that read records, so take --limit.
READERS = ("validate", "replay", "score", "adjudicate", "convert", "info")
#: A type where a word should be (a list of the words an option takes, ``<new|show>``, is fine).
PLACEHOLDER = re.compile(r"<(?:str|int|int range|float|float range|bool|boolean|text|path)>")


def help_of(*arguments: str, columns: int = 120) -> str:
    result = CliRunner().invoke(app, [*arguments, "--help"], env={"COLUMNS": str(columns)})
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
    assert re.search(
        r"--from\s+ENCODING\s+Encoding of every input \(pb, pbs, json, jsonl, grn,", text
    )
    assert re.search(r"--keep\s+first\|most-complete\b", help_of("dedupe"))
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


def commands_and_subcommands() -> list[tuple[str, ...]]:
    """Every command, and ``match new`` and the rest for the group."""
    names: list[tuple[str, ...]] = []
    for name in COMMANDS:
        command = load_command(name)
        if isinstance(command, TyperGroup):
            names += [(name, sub) for sub in command.commands]
        else:
            names.append((name,))
    return names


@pytest.mark.parametrize(
    ("command", "usage"),
    [
        (("validate",), "gamerec validate [OPTIONS] PATH..."),
        (("convert",), "gamerec convert [OPTIONS] IN OUT"),
        (("find",), "gamerec find [OPTIONS] PATH..."),
        (("diff",), "gamerec diff [OPTIONS] A B"),
        (("keys",), "gamerec keys [OPTIONS] ACTION PATH..."),
        (("view",), "gamerec view [OPTIONS] IN"),
        (("sign",), "gamerec sign [OPTIONS] IN [N]"),
    ],
)
def test_usage_lines_name_arguments_as_the_docs_do(command: tuple[str, ...], usage: str) -> None:
    text = help_of(*command, columns=80)
    assert f"Usage: {usage}" in " ".join(text.split()), text.splitlines()[:3]


@pytest.mark.parametrize("command", commands_and_subcommands(), ids=" ".join)
def test_at_80_columns_no_usage_has_braces_and_no_option_word_breaks(
    command: tuple[str, ...],
) -> None:
    text = help_of(*command, columns=80)
    usage = next(line for line in text.splitlines() if "Usage:" in line)
    assert "{" not in usage and "}" not in usage, usage
    group = load_command(command[0])
    click_command = group.commands[command[1]] if isinstance(group, TyperGroup) else group
    for param in click_command.params:
        if isinstance(param, TyperOption) and param.metavar and not param.hidden:
            assert param.metavar in text, (param.opts, param.metavar)


def test_json_help_points_to_the_page_that_describes_the_lines() -> None:
    page = (ROOT / "docs" / "validating.md").read_text(encoding="utf-8")
    assert "\n## JSON lines\n" in page
    for command, message in (
        ("adjudicate", "Ruling"),
        ("score", "ScoredRecord"),
        ("info", "RecordInfo"),
    ):
        text = " ".join(help_of(command).split())
        assert "README" not in text
        assert (
            f"Print one {message} per record as a line of ProtoJSON; docs/validating.md#json-lines"
            in text
        )
        assert f"`{message}`" in page
    assert "`adjudicate --json` prints one `Ruling` per record: `decision`" in page


def test_a_mistyped_command_gets_the_nearest_one() -> None:
    result = CliRunner().invoke(app, ["validat", "x.grn"], env={"COLUMNS": "120"})
    assert result.exit_code == 2
    assert "No such command 'validat'. Did you mean 'validate'?" in result.stderr
    far = CliRunner().invoke(app, ["xyzzy"], env={"COLUMNS": "120"})
    assert far.exit_code == 2
    assert "No such command 'xyzzy'." in far.stderr and "Did you mean" not in far.stderr
    sub = CliRunner().invoke(app, ["match", "shwo"], env={"COLUMNS": "120"})
    assert sub.exit_code == 2 and "Did you mean 'show'?" in sub.stderr
