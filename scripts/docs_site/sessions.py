r"""Console sessions in the docs: every ``console`` block is run, and must print what it shows.

A page shows a command and its output in a fenced block whose language is ``console``::

    ```console
    $ gamerec validate fixtures/games/aronda.grn
    fixtures/games/aronda.grn #1: valid  Aronda  25 plies  finished  result 13-12  winner 1  normal
    1 record: 1 valid, 0 invalid, 0 unreadable; 25 plies in 0.19 s (5 records/s, 133 plies/s)
    ```

``tests/docs/test_sessions.py`` runs the commands of every such block of README.md and of
docs/ and fails when one prints something else than its block shows; ``make docs-update``
(``python -m scripts.docs_site.sessions --update``) writes what they print now into the
blocks. How a file's commands run:

- in one ``bash`` per file, in the order of the file, from the repository's root, with
  ``.venv/bin`` first on ``PATH``: ``cd``, variables and files made by one block are there
  for the next, as for a reader who types them in a terminal; standard input is empty;
- a line starting with ``$ `` is a command (a line ending in ``\\`` goes on with the next);
  the lines after it, up to the next command, are its output: standard output and standard
  error together, in the order written (Python runs unbuffered), as a terminal shows them;
- ``/tmp/tour`` is the page's scratch folder: in the commands it stands for a path of each
  run that does not exist yet (the page makes it, ``mkdir -p /tmp/tour``, as a reader on a
  fresh machine must), and that path is written back as ``/tmp/tour`` in the output;
- output that changes from run to run is compared through masks: ``timing`` (durations and
  rates) always, and those named in the block, `````console mask="keys ports"``; see
  :data:`MASKS`. The page keeps the output of the last ``make docs-update`` as printed;
- commands that a page needs but does not show (a server to start, its end) go in a hidden
  block, an HTML comment ``<!-- hidden console`` ... ``-->`` of ``$ `` lines; they run in
  their place, and their output is not compared.

Blocks of other languages (``shell``, ``text``) are shown as written and never run.
"""

from __future__ import annotations

import argparse
import contextlib
import difflib
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterable, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

from gamerec.recorder.atomic import atomic_output

ROOT: Final = Path(__file__).resolve().parents[2]
#: The folder a page's commands may write to; each run gets a new path in its place, which
#: does not exist until the page's own commands make it.
SCRATCH: Final = "/tmp/tour"
#: How long one file's commands may run, in seconds, before the run counts as failed.
TIMEOUT_SECONDS: Final = 300.0

#: Masks by name: what changes from run to run, and what it is compared as.
MASKS: Final[dict[str, tuple[tuple[re.Pattern[str], str], ...]]] = {
    "timing": (
        (re.compile(r"\b\d[\d,]*(?:\.\d+)? [A-Za-z]+/s\b"), "<rate>"),
        (re.compile(r"\b\d[\d,]*(?:\.\d+)? ?(?:ms|µs|s)\b"), "<time>"),
    ),
    "keys": (
        (re.compile(r"SHA256:[A-Za-z0-9+/]{43}"), "SHA256:<fingerprint>"),
        (re.compile(r"ssh-ed25519 [A-Za-z0-9+/=]+"), "ssh-ed25519 <key>"),
        (re.compile(r"[A-Za-z0-9+/]{24,}={0,2}"), "<base64>"),
    ),
    "ports": ((re.compile(r"\b127\.0\.0\.1:\d+"), "127.0.0.1:<port>"),),
    "ids": (
        (re.compile(r"\bseat_[A-Za-z0-9_-]{32}"), "seat_<token>"),
        (re.compile(r"\b[0-9a-f]{16}\b"), "<id>"),
        (re.compile(r"\b\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?Z"), "<time>"),
    ),
}
ALWAYS: Final = ("timing",)

_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,})console\b(?P<options>[^`\n]*)$")
_ANY_FENCE = re.compile(r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})")
_OPTION = re.compile(r'(?P<key>[A-Za-z_]+)="(?P<value>[^"]*)"')
_HIDDEN_START = "<!-- hidden console"
_HIDDEN_END = "-->"
_PROMPT = "$ "


@dataclass
class Command:
    """One ``$`` command of a page and the output its block shows.

    Attributes:
        path: the file it is in.
        line: the 1-based line of its ``$``.
        text: the command as bash runs it (continuation lines kept).
        shown: the output lines the page shows.
        masks: the masks its output is compared through.
        hidden: a command of a hidden block (its output is not compared).
        output_lines: where the shown output is in the file (0-based, end excluded).
        indent: the block's indentation, given back to output written into it.
    """

    path: Path
    line: int
    text: str
    shown: list[str] = field(default_factory=list)
    masks: tuple[str, ...] = ALWAYS
    hidden: bool = False
    output_lines: tuple[int, int] = (0, 0)
    indent: str = ""


@dataclass(frozen=True)
class Difference:
    """A command whose output is not what its page shows."""

    command: Command
    printed: list[str]

    def report(self, root: Path = ROOT) -> str:
        """Where, which command, and the difference as a unified diff (masks applied)."""
        where = _relative(self.command.path, root)
        diff = difflib.unified_diff(
            masked(self.command.shown, self.command.masks),
            masked(self.printed, self.command.masks),
            "what the page shows",
            "what the command prints now",
            lineterm="",
        )
        first = self.command.text.splitlines()[0]
        return (
            f"{where}:{self.command.line}: $ {first}\n"
            f"  masks: {', '.join(self.command.masks)}\n" + "\n".join(diff)
        )


def _relative(path: Path, root: Path) -> str:
    """``docs/x.md`` for a file of the repository, else the path as it is."""
    try:
        return str(path.resolve().relative_to(root))
    except ValueError:
        return str(path)


def block_options(text: str) -> dict[str, str]:
    """The ``key="value"`` options of a fence's info string."""
    return {match["key"]: match["value"] for match in _OPTION.finditer(text)}


def masks_of(options: dict[str, str]) -> tuple[str, ...]:
    """The masks a block's output is compared through (``timing`` always).

    Raises:
        ValueError: a mask that :data:`MASKS` does not have.
    """
    named = tuple(options.get("mask", "").split())
    unknown = [name for name in named if name not in MASKS]
    if unknown:
        raise ValueError(f"unknown mask {', '.join(unknown)}; masks: {', '.join(MASKS)}")
    return tuple(dict.fromkeys((*ALWAYS, *named)))


def commands_in(path: Path, text: str | None = None) -> list[Command]:
    """Every command of the console blocks and hidden blocks of a Markdown file, in order.

    Fenced blocks of other languages are skipped whole, so a page may show a console block
    as an example inside a longer fence.

    Raises:
        ValueError: a block that is never closed, or output before the block's first command.
    """
    lines = (path.read_text(encoding="utf-8") if text is None else text).splitlines()
    commands: list[Command] = []
    index = 0
    while index < len(lines):
        fence = _ANY_FENCE.match(lines[index])
        if fence is not None:
            end = _closing(lines, index, fence["fence"], path)
            session = _FENCE.match(lines[index])
            if session is not None:
                masks = masks_of(block_options(session["options"]))
                commands += _block_commands(
                    path, lines, index + 1, end, masks=masks, indent=fence["indent"]
                )
            index = end + 1
        elif lines[index].strip() == _HIDDEN_START:
            end = _closing(lines, index, _HIDDEN_END, path)
            hidden = _block_commands(path, lines, index + 1, end, masks=ALWAYS, indent="")
            commands += [_hidden(command) for command in hidden]
            index = end + 1
        else:
            index += 1
    return commands


def _hidden(command: Command) -> Command:
    command.hidden = True
    return command


def _closing(lines: list[str], start: int, closing: str, path: Path) -> int:
    """The line that closes the block opened at ``start`` (a fence: as long, or longer)."""
    for index in range(start + 1, len(lines)):
        line = lines[index].strip()
        if line == closing or (
            closing[0] in "`~" and line and set(line) == {closing[0]} and len(line) >= len(closing)
        ):
            return index
    raise ValueError(f"{path}:{start + 1}: the block opened here is never closed")


def _block_commands(
    path: Path, lines: list[str], start: int, end: int, *, masks: tuple[str, ...], indent: str
) -> list[Command]:
    """The commands of the block between lines ``start`` and ``end`` (excluded)."""
    commands: list[Command] = []
    index = start
    while index < end:
        line = lines[index].removeprefix(indent)
        if not line.startswith(_PROMPT):
            if not commands and line.strip():
                raise ValueError(f"{path}:{index + 1}: output before the block's first command")
            if commands:
                commands[-1].shown.append(line.rstrip())
            index += 1
            continue
        first = index
        parts = [line.removeprefix(_PROMPT)]
        while parts[-1].endswith("\\") and index + 1 < end:
            index += 1
            parts.append(lines[index].removeprefix(indent))
        index += 1
        commands.append(Command(path, first + 1, "\n".join(parts), masks=masks, indent=indent))
        commands[-1].output_lines = (index, index)
    for command in commands:
        start_of_output = command.output_lines[0]
        command.output_lines = (start_of_output, start_of_output + len(command.shown))
    return commands


def masked(lines: Sequence[str], masks: Iterable[str]) -> list[str]:
    """Output lines as compared: trailing blanks and blank lines at the end dropped, masked."""
    out = [line.rstrip() for line in lines]
    while out and not out[-1]:
        out.pop()
    for name in masks:
        for pattern, replacement in MASKS[name]:
            out = [pattern.sub(replacement, line) for line in out]
    return out


def session_environment() -> dict[str, str]:
    """The environment commands run in: the venv's commands first, plain fixed-width text."""
    env = {key: value for key, value in os.environ.items() if key not in ("FORCE_COLOR",)}
    bin_folder = str(Path(sys.executable).parent)
    env.update(
        PATH=f"{bin_folder}{os.pathsep}{env.get('PATH', '')}",
        COLUMNS="100",
        LINES="50",
        NO_COLOR="1",
        TERM="dumb",
        PYTHONUNBUFFERED="1",
        LC_ALL="C.UTF-8",
        TZ="UTC",
    )
    return env


def run_commands(commands: Sequence[Command], root: Path = ROOT) -> list[list[str]]:
    """Run a file's commands in one bash, in order; what each printed, as lines.

    Raises:
        TimeoutError: the commands did not finish within :data:`TIMEOUT_SECONDS`.
    """
    marker = f"@@gamerec-docs-{uuid.uuid4().hex}@@"
    parent = tempfile.mkdtemp(prefix="gamerec-docs-")
    scratch = os.path.join(parent, "tour")
    script = ["exec 2>&1 </dev/null", f"cd {_quoted(str(root))}"]
    for command in commands:
        script += [command.text.replace(SCRATCH, scratch), f"printf '\\n%s\\n' '{marker}'"]
    try:
        printed = _run_bash("\n".join(script), root)
    finally:
        shutil.rmtree(parent, ignore_errors=True)
    pieces = printed.replace(scratch, SCRATCH).split(marker)[: len(commands)]
    return [piece.removeprefix("\n").splitlines() for piece in pieces]


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "'\\''") + "'"


def _run_bash(script: str, root: Path) -> str:
    """Run a script in its own process group; everything it left running is ended after it.

    The output goes to a file, not a pipe: a server started in the background keeps its
    standard output open, and the script is done when bash exits, not when that closes.
    """
    with tempfile.TemporaryFile() as output:
        process = subprocess.Popen(
            ["bash", "-c", script],
            cwd=root,
            env=session_environment(),
            stdout=output,
            stdin=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            process.wait(timeout=TIMEOUT_SECONDS)
        except subprocess.TimeoutExpired:
            raise TimeoutError(f"the commands did not finish in {TIMEOUT_SECONDS:.0f} s") from None
        finally:
            _end_group(process.pid)
            process.wait()
        output.seek(0)
        return output.read().decode("utf-8", errors="replace")


def _end_group(pid: int) -> None:
    """End what the commands left running (a server started in the background)."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGTERM)


def differences(path: Path, root: Path = ROOT) -> tuple[list[Command], list[Difference]]:
    """Run a file's commands; those whose output differs from the page."""
    commands = commands_in(path)
    if not commands:
        return commands, []
    printed = run_commands(commands, root)
    found = [
        Difference(command, output)
        for command, output in zip(commands, printed, strict=True)
        if not command.hidden
        and masked(command.shown, command.masks) != masked(output, command.masks)
    ]
    return commands, found


def rewritten(path: Path, commands: Sequence[Command], printed: Sequence[list[str]]) -> str:
    """The file with each shown command's output replaced by what it printed."""
    lines = path.read_text(encoding="utf-8").splitlines()
    for command, output in sorted(
        zip(commands, printed, strict=True), key=lambda pair: -pair[0].line
    ):
        if command.hidden:
            continue
        start, end = command.output_lines
        lines[start:end] = [f"{command.indent}{line}".rstrip() for line in masked(output, ())]
    return "\n".join(lines) + "\n"


def update(path: Path, root: Path = ROOT) -> bool:
    """Write what a file's commands print now into its blocks; whether anything changed."""
    commands = commands_in(path)
    if not commands:
        return False
    printed = run_commands(commands, root)
    before = path.read_text(encoding="utf-8")
    after = rewritten(path, commands, printed)
    if after == before:
        return False
    with atomic_output(path) as stream:
        stream.write(after.encode("utf-8"))
    return True


def session_files(root: Path = ROOT) -> list[Path]:
    """README.md and every page of docs/ that has a command to run."""
    candidates = [root / "README.md", *sorted((root / "docs").rglob("*.md"))]
    return [path for path in candidates if commands_in(path)]


def without_session_options(markdown: str) -> str:
    """Markdown whose console blocks carry no session options (for the site's renderer)."""
    return "\n".join(
        _FENCE.sub(lambda match: f"{match['indent']}{match['fence']}console", line)
        for line in markdown.split("\n")
    )


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m scripts.docs_site.sessions [--update] [FILE...]``: check or rewrite."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("files", nargs="*", type=Path, help="default: README.md and docs/")
    parser.add_argument("--update", action="store_true", help="write the new output")
    args = parser.parse_args(argv)
    files = args.files or session_files()
    with ThreadPoolExecutor(max_workers=os.cpu_count() or 1) as pool:
        if args.update:
            for path, changed in zip(files, pool.map(update, files), strict=True):
                print(f"{_relative(path, ROOT)}: {'updated' if changed else 'unchanged'}")
            return 0
        found = [difference for _, diffs in pool.map(differences, files) for difference in diffs]
    for difference in found:
        print(difference.report(), end="\n\n")
    print(f"{len(found)} commands print something else than their page shows")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
