"""Every console session of README.md and docs/ prints what its page shows.

One test per file runs its commands (scripts/docs_site/sessions.py says how) and fails with a
diff per command whose output changed; `make docs-update` writes the new output into the page.
The other tests hold the mechanism itself to what docs/contributing.md promises.
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from scripts.docs_site.sessions import (
    MASKS,
    commands_in,
    differences,
    masked,
    session_files,
    update,
    without_session_options,
)

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("path", session_files(ROOT), ids=lambda path: str(path.relative_to(ROOT)))
def test_every_command_prints_what_its_page_shows(path: Path) -> None:
    commands, found = differences(path)
    assert commands, f"{path} has no command"
    reports = "\n\n".join(difference.report() for difference in found)
    assert not found, (
        f"{len(found)} commands print something else than {path.name} shows "
        f"(if the change is meant, run `make docs-update` and review the diff):\n\n{reports}"
    )


def test_the_readme_and_the_guides_have_sessions() -> None:
    names = {str(path.relative_to(ROOT)) for path in session_files(ROOT)}
    assert {"README.md", "docs/validating.md", "docs/service.md", "docs/signing.md"} <= names


PAGE = """# A page

```console
$ echo one; echo two >&2
one
two
$ printf 'took 0.52 s (1,234 plies/s)\\n'
took 0.19 s (5,678 plies/s)
$ mkdir -p /tmp/tour && echo "/tmp/tour" && ls /tmp/tour && touch /tmp/tour/made && ls /tmp/tour
/tmp/tour
made
```

````markdown
```console
$ echo never run
```
````

<!-- hidden console
$ export WORD=kept
-->

```console mask="keys"
$ echo "$WORD SHA256:0123456789abcdefghijABCDEFGHIJ0123456789abc"
kept SHA256:zyxwvutsrqponmlkjihgfedcbaZYXWVUTSRQPONMLKJ
$ cd /tmp && pwd
/tmp
$ pwd; echo "exit $?"
/tmp
exit 0
```
"""


def test_a_page_whose_output_holds_has_no_difference(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE, encoding="utf-8")
    commands, found = differences(page, ROOT)
    assert [command.text for command in commands if command.hidden] == ["export WORD=kept"]
    assert "echo never run" not in [command.text for command in commands]
    assert found == []


def test_a_changed_output_is_found_and_reported_with_its_line(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(PAGE.replace("one\ntwo\n", "one\nthree\n"), encoding="utf-8")
    _, found = differences(page, ROOT)
    assert len(found) == 1
    report = found[0].report()
    assert report.startswith(f"{page}:4: $ echo one; echo two >&2")
    assert "-three" in report and "+two" in report


def test_the_scratch_folder_is_not_made_for_the_page(tmp_path: Path) -> None:
    """A reader on a fresh machine has no /tmp/tour: the page must make it, as the tour does."""
    page = tmp_path / "page.md"
    page.write_text(
        '```console\n$ ls -d /tmp/tour; echo "exit $?"\n'
        "ls: cannot access '/tmp/tour': No such file or directory\nexit 2\n"
        "$ mkdir -p /tmp/tour && ls -d /tmp/tour\n/tmp/tour\n```\n",
        encoding="utf-8",
    )
    _, found = differences(page, ROOT)
    assert found == []


def test_every_page_that_writes_to_the_scratch_folder_makes_it_first() -> None:
    """The first command of a page that names /tmp/tour makes it (mkdir -p), so a reader can
    run the page's commands in order from a fresh shell."""
    for path in session_files(ROOT):
        uses = [command.text for command in commands_in(path) if "/tmp/tour" in command.text]
        if uses:
            assert uses[0].startswith("mkdir -p /tmp/tour"), (path, uses[0])


def test_masks_hide_only_what_changes() -> None:
    assert masked(["took 0.52 s (1,234 plies/s)"], ["timing"]) == ["took <time> (<rate>)"]
    assert masked(["2 seats, 12 plies"], ["timing"]) == ["2 seats, 12 plies"]
    assert masked(["listening on 127.0.0.1:40771"], ["ports"]) == ["listening on 127.0.0.1:<port>"]
    assert set(MASKS) >= {"timing", "keys", "ports"}


def test_an_unknown_mask_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text('```console mask="colours"\n$ true\n```\n', encoding="utf-8")
    with pytest.raises(ValueError, match="unknown mask colours"):
        commands_in(page)


def test_an_unclosed_block_is_an_error(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text("```console\n$ true\n", encoding="utf-8")
    with pytest.raises(ValueError, match=r"page\.md:1: the block opened here is never closed"):
        commands_in(page)


def test_update_writes_the_output_and_keeps_the_rest(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    page.write_text(
        'Before.\n\n- a list\n\n  ```console mask="keys"\n  $ echo new\n  old\n  ```\n\nAfter.\n',
        encoding="utf-8",
    )
    assert update(page, ROOT) is True
    assert page.read_text(encoding="utf-8") == (
        'Before.\n\n- a list\n\n  ```console mask="keys"\n  $ echo new\n  new\n  ```\n\nAfter.\n'
    )
    assert update(page, ROOT) is False


def test_the_site_sees_plain_console_blocks() -> None:
    shown = without_session_options('Text\n```console mask="keys ports"\n$ true\n```\n')
    assert shown == "Text\n```console\n$ true\n```\n"


def test_what_a_session_leaves_running_is_ended(tmp_path: Path) -> None:
    page = tmp_path / "page.md"
    pid_file = tmp_path / "pid"
    page.write_text(
        f"```console\n$ sleep 600 & echo $! > {pid_file}\n$ echo started\nstarted\n```\n",
        encoding="utf-8",
    )
    _, found = differences(page, ROOT)
    assert found == []
    assert gone(int(pid_file.read_text()), within_seconds=60)


def gone(pid: int, within_seconds: float) -> bool:
    """Whether the process ends (or is only a zombie left to reap) within the time given."""
    deadline = time.monotonic() + within_seconds
    while time.monotonic() < deadline:
        try:
            state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
        except FileNotFoundError:
            return True
        if state in ("Z", "X"):
            return True
        time.sleep(0.05)
    return False
