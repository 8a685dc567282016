"""``gamerec engine --policy P``: a built-in policy as an engine on standard input and output.

It speaks the engine protocol of docs/engine-protocol.md, so any host (gamerec's own engine
games, a tournament, a bot on a server) can seat it like an engine written in another
language. Over :func:`gamerec.validator.players.policy_engine.serve`.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from gamerec.cli.arguments import Policy, PolicyOption


def engine(
    policy: PolicyOption = Policy.RANDOM,
    seed: Annotated[
        int, typer.Option("--seed", help="The seed; the same seed, the same moves.")
    ] = 1,
) -> None:
    """Play as an engine on standard input and output with a built-in policy.

    It speaks the engine protocol (docs/engine-protocol.md): a host sends gep 1, newgame,
    position and go; the engine answers with its move. Every game and seat count gamerec
    knows is played; the same seed and position always give the same move. A line longer
    than 2 MiB (gamerec limits: host-line-bytes), or not UTF-8, is answered with error and
    skipped, read in pieces so that memory stays small. It exits after quit or at the end
    of its input.
    """
    from gamerec.validator.players.bounds import read_lines
    from gamerec.validator.players.policy_engine import serve

    def write(line: str) -> None:
        sys.stdout.write(line)
        sys.stdout.flush()

    try:
        serve(policy.value, seed, read_lines(sys.stdin.buffer), write)
    except BrokenPipeError:  # the host went away: nothing is left to answer
        sys.stderr.close()
