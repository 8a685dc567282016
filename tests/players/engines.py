"""Engines for the tests: the built-in policies, the Node example, and scripted misbehaviour.

Scripted engines are POSIX shell scripts (``sh -c``): they start in a few milliseconds, shake
hands properly, and then do whatever a test needs at ``newgame`` or ``go``.
"""

from __future__ import annotations

import asyncio
import gc
import os
import sys
import time
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any, TypeVar

ROOT = Path(__file__).resolve().parents[2]
GAMEREC = Path(sys.executable).parent / "gamerec"
NODE_ENGINE = ROOT / "examples" / "node-engine" / "ohwahree-engine.mjs"

T = TypeVar("T")

#: A proper handshake for ONE and Oh-Wah-Ree.
HELLO = (
    'read -r line; printf "id name scripted\\nid author tests\\n'
    'game ONE\\ngame Oh-Wah-Ree\\ngepok 1\\n"'
)


def policy(name: str = "random", seed: int = 1) -> list[str]:
    """``gamerec engine --policy NAME --seed SEED``."""
    return [str(GAMEREC), "engine", "--policy", name, "--seed", str(seed)]


def scripted(
    on_go: str = 'printf "move a1\\n"',
    *,
    on_newgame: str = 'printf "ready\\n"',
    hello: str = HELLO,
) -> list[str]:
    """A shell engine: ``hello`` for the handshake, then these actions for each command."""
    script = f"""{hello}
while read -r line; do
  case "$line" in
    newgame*) {on_newgame} ;;
    go*) {on_go} ;;
    ping*) printf "pong %s\\n" "${{line#ping }}" ;;
    quit) exit 0 ;;
  esac
done
"""
    return ["sh", "-c", script]


def open_pipes() -> set[str]:
    """The pipes this process holds open, each as ``fd -> pipe:[inode]``.

    Only pipes: an engine's stdin, stdout and stderr are pipes, while other tests' leftover
    threads in the same worker (a gRPC server, a log handler) may open and close sockets or
    files at any moment, which a count of every descriptor would take for a leak.
    """
    pipes: set[str] = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            target = os.readlink(f"/proc/self/fd/{fd}")
        except OSError:
            continue
        if target.startswith("pipe:"):
            pipes.add(f"{fd}->{target}")
    return pipes


def pipes_left_open(before: set[str], within_s: float = 10.0) -> set[str]:
    """The pipes opened since ``before`` that are still open after ``within_s`` seconds."""
    comes_true(lambda: not open_pipes() - before, within_s)
    return open_pipes() - before


def is_running(pid: int) -> bool:
    """Whether a process exists and is not a zombie (a reaped child leaves no trace)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except (FileNotFoundError, ProcessLookupError):
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


def stops_running(pid: int, within_s: float = 30.0) -> bool:
    """Whether a process that was sent SIGKILL (not our child) is gone or a zombie in time.

    The signal is delivered when the kernel next runs the process, which on a busy machine
    can be a while after ``kill`` returned; only a process still alive after ``within_s``
    seconds escaped the signal.
    """
    return comes_true(lambda: not is_running(pid), within_s)


def comes_true(condition: Callable[[], bool], within_s: float) -> bool:
    """Whether ``condition`` holds, asked every 10 ms, before ``within_s`` seconds pass."""
    deadline = time.monotonic() + within_s
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.01)
    return True


def is_reaped(pid: int) -> bool:
    """Whether a child of ours is gone for good: no process, no zombie."""
    return not Path(f"/proc/{pid}").exists()


def run_clean(scenario: Callable[[], Coroutine[Any, Any, T]]) -> T:
    """Run an async scenario in a fresh event loop; no pipe it opened may stay open after it."""
    gc.collect()  # descriptors of other tests' garbage (channels, pipes) close now, not midway
    before = open_pipes()
    result = asyncio.run(scenario())
    left = pipes_left_open(before)
    assert not left, f"pipes left open: {sorted(left)}"
    return result
