"""The plain ``gamerec validate PATH...`` runs without Typer, and answers as the Typer command.

:mod:`gamerec.cli.entry` takes the plain form (paths, ``-q``/``--quiet``, ``--json``, one
``--workers N``) and calls the function the Typer command calls; everything else goes to the
Typer application. Each test runs real processes: the script's entry point, and the Typer
application itself.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gamerec.cli.entry import PlainValidate, plain_validate

ROOT = Path(__file__).resolve().parents[2]
GAMES = ROOT / "fixtures" / "games"
INVALID = ROOT / "fixtures" / "invalid" / "one-landing-occupied.grn"
VALID_PB = ROOT / "fixtures" / "valid" / "one-e3-round-completion.pb"
#: The summary line's timing and rates, which differ between any two runs.
TIMING = re.compile(r"in [0-9.]+ s \([0-9,]+ records/s, [0-9,]+ plies/s\)")


@pytest.mark.parametrize(
    ("arguments", "expected"),
    [
        (["validate", "a.pb"], PlainValidate(["a.pb"], quiet=False, as_json=False)),
        (["validate", "-q", "a", "b"], PlainValidate(["a", "b"], quiet=True, as_json=False)),
        (["validate", "a", "--json", "--quiet"], PlainValidate(["a"], quiet=True, as_json=True)),
        (["validate", "-"], PlainValidate(["-"], quiet=False, as_json=False)),
        (["validate"], None),
        (["validate", "-q"], None),
        (["validate", "--help"], None),
        (["validate", "-j", "1", "a"], PlainValidate(["a"], False, False, workers=1)),
        (["validate", "a", "--workers=2"], PlainValidate(["a"], False, False, workers=2)),
        (["validate", "--workers", "0", "-q", "a"], PlainValidate(["a"], True, False, workers=0)),
        (["validate", "-j12", "a", "b"], PlainValidate(["a", "b"], False, False, workers=12)),
        (["validate", "--workers", "2", "3"], PlainValidate(["3"], False, False, workers=2)),
        (["validate", "--workers", "1", "-j", "2", "a"], None),  # given twice: Typer decides
        (["validate", "a", "--workers"], None),
        (["validate", "--workers", "-1", "a"], None),
        (["validate", "--workers", "+1", "a"], None),
        (["validate", "--workers", "\uff12", "a"], None),  # a digit, but not ASCII
        (["validate", "--workers=", "a"], None),
        (["validate", "-j=1", "a"], None),
        (["validate", "--workersx", "a"], None),
        (["validate", "--", "a"], None),
        (["validate", "-qj1", "a"], None),
        (["convert", "a", "b"], None),
        ([], None),
    ],
)
def test_only_paths_and_the_plain_flags_take_the_plain_path(
    arguments: list[str], expected: PlainValidate | None
) -> None:
    assert plain_validate(arguments) == expected


def _run(door: str, arguments: list[str], stdin: bytes = b"") -> tuple[int, str, str]:
    """Exit code, stdout and stderr (timing masked) of ``gamerec`` through one door."""
    if door == "plain":
        program = "from gamerec.cli.entry import main\nmain()\n"
    else:
        program = "from gamerec.cli.main import app\napp(prog_name='gamerec')\n"
    done = subprocess.run(
        [sys.executable, "-c", program, *arguments],
        input=stdin,
        capture_output=True,
        cwd=ROOT,
        timeout=300,
        check=False,
    )
    stderr = TIMING.sub("in T", done.stderr.decode())
    return done.returncode, done.stdout.decode(), stderr


CASES = {
    "folder": ["validate", str(GAMES)],
    "quiet with an invalid record": ["validate", "-q", str(GAMES), str(INVALID)],
    "json": ["validate", "--json", str(VALID_PB), str(INVALID)],
    "missing file": ["validate", "no-such-file.pb", str(VALID_PB)],
    "empty folder": ["validate", "tests/cli"],
    "standard input": ["validate", "-"],
    "one worker": ["validate", "-q", "--workers", "1", str(GAMES), str(INVALID)],
    # 144 records and one more: three chunks, so the worker pool runs (batch.CHUNK_RECORDS).
    "two workers": ["validate", "-j2", *[str(GAMES)] * 8, str(INVALID)],
    "workers given twice": ["validate", "-j", "1", "--workers=2", str(VALID_PB)],
    "a negative worker count": ["validate", "--workers", "-1", str(VALID_PB)],
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_the_plain_path_answers_as_the_typer_command(case: str) -> None:
    arguments = CASES[case]
    stdin = INVALID.read_bytes() if "-" in arguments else b""
    plain = _run("plain", arguments, stdin)
    typer_ = _run("typer", arguments, stdin)
    assert plain == typer_
    assert plain[0] in {0, 1, 2} and (plain[1] or plain[2])


@pytest.mark.parametrize("options", [[], ["--workers", "2"], ["-j1", "-q"]])
def test_the_plain_path_imports_no_typer(options: list[str]) -> None:
    program = (
        "import sys\nfrom gamerec.cli.entry import main\n"
        "try:\n    main()\nexcept SystemExit as stop:\n    code = stop.code\n"
        "print(code, 'typer' in sys.modules, 'typer' in str(sorted(sys.modules)))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", program, "validate", *options, str(VALID_PB)],
        capture_output=True,
        text=True,
        cwd=ROOT,
        timeout=300,
        check=True,
    )
    assert done.stdout.splitlines()[-1] == "0 False False"


def test_anything_else_goes_to_typer_which_answers_usage_errors() -> None:
    code, _, stderr = _run("plain", ["validate", "--workers", "x", str(VALID_PB)])
    assert code == 2 and "--workers" in stderr


def test_a_closed_pipe_ends_the_plain_path_quietly() -> None:
    command = (
        f"{sys.executable} -c 'from gamerec.cli.entry import main; main()' "
        f"validate {GAMES} {GAMES} {GAMES} | head -c 10"
    )
    done = subprocess.run(
        command, shell=True, capture_output=True, cwd=ROOT, timeout=300, check=False
    )
    assert b"Traceback" not in done.stderr
