"""``gamerec engine --policy P``: a built-in policy as an engine on standard input and output.

It speaks the engine protocol of docs/engine-protocol.md, so any host (gamerec's own engine
games, a tournament, a bot on a server) can seat it like an engine written in another
language. Over :func:`gamerec.validator.players.policy_engine.serve`.
"""

from __future__ import annotations

import enum
import sys
from typing import Annotated

import typer

from gamerec.cli.edge import fail


class EnginePolicy(enum.StrEnum):
    """How ``gamerec engine`` chooses its moves."""

    RANDOM = "random"
    GREEDY = "greedy"
    SEARCH = "search"


class Algorithm(enum.StrEnum):
    """The search ``--policy search`` runs (``auto``: by seat count, docs/analysis.md)."""

    AUTO = "auto"
    MCTS = "mcts"
    ALPHABETA = "alphabeta"
    MAXN = "maxn"


def engine(
    policy: Annotated[
        EnginePolicy,
        typer.Option(
            "--policy",
            help="random: any legal move; greedy: the best lead; search: look ahead.",
        ),
    ] = EnginePolicy.RANDOM,
    *,
    seed: Annotated[
        int, typer.Option("--seed", help="The seed; the same seed, the same moves.")
    ] = 1,
    seconds: Annotated[
        float | None,
        typer.Option(
            "--time",
            min=0.001,
            help="search: seconds a ply (default 1, or less if the clocks say so).",
        ),
    ] = None,
    playouts: Annotated[
        int | None, typer.Option("--playouts", min=1, help="search: MCTS playouts a decision.")
    ] = None,
    nodes: Annotated[
        int | None, typer.Option("--nodes", min=1, help="search: positions a decision.")
    ] = None,
    algorithm: Annotated[
        Algorithm,
        typer.Option(
            "--algorithm", help="search: mcts, alphabeta (paranoid with 3+ seats), maxn, or auto."
        ),
    ] = Algorithm.AUTO,
) -> None:
    """Play as an engine on standard input and output with a built-in policy.

    It speaks the engine protocol (docs/engine-protocol.md): a host sends gep 1, newgame,
    position and go; the engine answers with its move. Every game and seat count gamerec
    knows is played; the same seed and position always give the same move. A line longer
    than 2 MiB (gamerec limits: host-line-bytes), or not UTF-8, is answered with error and
    skipped, read in pieces so that memory stays small. It exits after quit or at the end
    of its input.

    --policy search looks ahead (docs/analysis.md): within --time seconds a ply (capped by
    the clocks of each go), --playouts or --nodes a decision; with no time limit the same
    seed and position give the same move.
    """
    from gamerec.validator.analysis.searcher import SearchSettings
    from gamerec.validator.players.bounds import read_lines
    from gamerec.validator.players.policy_engine import serve
    from gamerec.validator.players.search_player import settings_limits

    searching = (seconds, playouts, nodes) != (None, None, None) or algorithm != Algorithm.AUTO
    if searching and policy != EnginePolicy.SEARCH:
        fail("--time, --playouts, --nodes and --algorithm are options of --policy search")
    settings = SearchSettings(settings_limits(seconds, playouts, nodes), algorithm.value)

    def write(line: str) -> None:
        sys.stdout.write(line)
        sys.stdout.flush()

    try:
        serve(policy.value, seed, read_lines(sys.stdin.buffer), write, settings)
    except BrokenPipeError:  # the host went away: nothing is left to answer
        sys.stderr.close()
