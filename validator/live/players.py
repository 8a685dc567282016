"""Players that choose a whole ply for their seat: the random and greedy policies, for bots.

A decision is what :meth:`GameState.decide` takes (in Oust, one placement of a turn that
chains them); a :class:`PolicyPlayer` plays a whole ply on a copy of the position
(``Engine.play_chosen``, its policy choosing each decision) and answers the ply's notation.md
token, which a seat sends to the referee.
It follows the match by :meth:`PolicyPlayer.played` (every accepted ply's token, its own
included), so it needs nothing but the tokens a match's watchers see.
"""

from __future__ import annotations

import random
from typing import Any

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.protocol import GameState
from gamerec.validator.generation import Choose, policy_chooser
from gamerec.validator.identity import identify


class PolicyPlayer:
    """A player of one seat's plies by a policy, from the start of a game.

    Args:
        record: a record of the game (its rules and seats; its moves are not read).
        policy: ``random`` or ``greedy`` (``gamerec.validator.generation``).
        seed: the seed of its choices (the same seed plays the same plies).

    Raises:
        ValueError: an unknown policy.
        RulesError: the record's rules cannot be judged.
    """

    def __init__(self, record: pb.GameRecord, policy: str = "random", seed: int | str = 0) -> None:
        """Start at the game's start position (see the class docstring)."""
        self._rng = random.Random(seed)
        self._choose: Choose = policy_chooser(policy, self._rng)
        identity = identify(record)
        self._engine = identity.engine
        self._variant = identity.variant
        self._state: GameState[Any] = self._engine.new_game(self._variant)

    @property
    def state(self) -> GameState[Any]:
        """The position now (the player's own; do not change it)."""
        return self._state

    def played(self, token: str) -> None:
        """Follow a ply of the game (anyone's), given as its token.

        Raises:
            MoveSyntaxError: not a token of the game.
            IllegalMoveError: not a legal ply here.
        """
        self._state.play(self._engine.parse_move(self._variant, token))

    def next_ply(self) -> str:
        """The token of the ply this player chooses for the seat to move now.

        Raises:
            ValueError: the game is over.
        """
        if self._state.is_over:
            raise ValueError("the game is over: there is no ply to choose")
        move = self._engine.play_chosen(self._state.copy(), self._choose)
        return self._engine.format_move(self._variant, move)
