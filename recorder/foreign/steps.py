"""The rules' part of writing a Ludii trial: each move's effects, registered per game.

Ludii replays a trial's moves as written, effects and all, so writing one needs what only a
game's rules engine knows: the stones each placement removes and when the mover moves again.
A game's registry entry (``gamerec.validator.games.entries``) registers a function here; the
codec (``gamerec.recorder.foreign.ludii``) calls it. This module is light on purpose: an
entry imports it when its game loads, and nothing of the codec comes with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

if TYPE_CHECKING:
    from gamerec.recorder.syntax import GameValue
    from gamerec.v1 import record_pb2 as pb


class LudiiStep(NamedTuple):
    """One Ludii move of a game, as its rules engine plays it.

    Attributes:
        mover: the seat that moves (Ludii's mover, from 1).
        cell: the placement's GRN cell name, or None for a pass.
        removed: the GRN cells whose stones the move removed.
        again: whether the mover moves again (Ludii's ``moveAgain``).
    """

    mover: int
    cell: str | None
    removed: tuple[str, ...] = ()
    again: bool = False


#: A game's engine: a record's main line as Ludii moves (raises EncodingError for a ply the
#: rules refuse or Ludii cannot hold).
StepsOf = Callable[["pb.GameRecord"], list[LudiiStep]]
#: The registered games' functions, by ``Game`` value.
STEPS: dict[GameValue, StepsOf] = {}


def register_steps(game: GameValue, steps: StepsOf) -> None:
    """Tell the writer how a game's rules play a record as Ludii moves."""
    STEPS[game] = steps
