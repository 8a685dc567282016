"""An engine for the tournament tests: the random policy, that misbehaves in chosen games.

``python misbehaving_engine.py crash|hang 'PLY1 PLY2 ...'``: it plays like ``gamerec engine
--policy random`` until it is asked to move in a game that starts with the given plies; then
``crash`` exits with status 3 and ``hang`` stops answering (it sleeps). ``slow`` thinks a
fifth of a second over every move, whatever the opening (a game that lasts long enough to
kill its server in the middle).
"""

from __future__ import annotations

import os
import sys
import time
from collections.abc import Iterator

from gamerec.validator.players.policy_engine import serve


def lines(fault: str, opening: list[str]) -> Iterator[str]:
    """The host's lines, with the fault done at the first ``go`` of a game of ``opening``."""
    triggered = False
    for line in sys.stdin:
        words = line.split()
        if words[:1] == ["position"]:
            triggered = words[1 : 1 + len(opening)] == opening
        if words[:1] == ["go"] and fault == "slow":
            time.sleep(0.2)
        elif words[:1] == ["go"] and triggered:
            if fault == "crash":
                sys.stderr.write("crashing on purpose\n")
                sys.stderr.flush()
                os._exit(3)
            time.sleep(3600)
        yield line


def write(text: str) -> None:
    """Answer the host."""
    sys.stdout.write(text)
    sys.stdout.flush()


if __name__ == "__main__":
    serve("random", 7, lines(sys.argv[1], sys.argv[2].split() if len(sys.argv) > 2 else []), write)
