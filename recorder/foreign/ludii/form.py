"""What Ludii's trials and gamerec's reading of them share: tags, a decision, plies.

The tags a record read from a trial keeps, what gamerec writes when a record has none, a Ludii
move's decision and how decisions make plies. May import the standard library and
``gamerec.recorder.syntax``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final, NamedTuple

from gamerec.recorder.syntax import GAMES

RNG_TAG: Final = "LudiiRNG"
VERSION_TAG: Final = "LudiiVersion"
MOVES_TAG: Final = "LudiiMoves"
PATCH_TAG: Final = "LudiiText"
#: What gamerec writes when a record holds no RNG state (Ludii's trials of a game without
#: chance replay the same from any state) and no version (the Ludii source the format was
#: read from declares LUDEME_VERSION 1.3.12).
DEFAULT_RNG: Final = "0,0,0,0,0,0,0,0"
DEFAULT_VERSION: Final = "1.3.12"
EMBEDDED_PREFIX: Final = "gamerec="
PASS_ACTION: Final = "[Pass:decision=true,forced=true]"

Warn = Callable[[str], None]


def game_names() -> str:
    """The games gamerec reads from Ludii, for messages."""
    return ", ".join(syntax.name for syntax in GAMES if syntax.ludii is not None)


class _Decision(NamedTuple):
    """A Ludii move's decision: the mover and the site placed on (-1 for a pass)."""

    mover: int
    site: int


def _plies(decisions: Sequence[_Decision], chains: bool) -> list[tuple[int, list[int]]]:
    """The plies of a trial's decisions: ``(seat, sites)``, no sites for a pass.

    With ``chains``, a run of placements by one mover is one ply, and a pass by the mover
    who placed just before closes that ply instead of being one.
    """
    plies: list[tuple[int, list[int]]] = []
    previous: _Decision | None = None
    for decision in decisions:
        joins = chains and previous is not None and previous.mover == decision.mover
        if decision.site < 0:
            if not (joins and previous is not None and previous.site >= 0):
                plies.append((decision.mover, []))
        elif joins and plies and plies[-1][1]:
            plies[-1][1].append(decision.site)
        else:
            plies.append((decision.mover, [decision.site]))
        previous = decision
    return plies


def _canonical(decision: _Decision) -> tuple[str, str]:
    """The move Ludii writes for a decision with no effects, around the decision action."""
    if decision.site < 0:
        return f"[Move:mover={decision.mover},actions=", "]"
    site = decision.site
    return f"[Move:mover={decision.mover},from={site},to={site},actions=", "]"


def _decision_text(decision: _Decision) -> str:
    if decision.site < 0:
        return PASS_ACTION
    return f"[Add:type=Cell,to={decision.site},what={decision.mover},decision=true]"
