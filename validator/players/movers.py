"""How a seat chooses its plies: an engine process, or a built-in policy in process.

A :class:`Mover` is what a referee or a seat's client asks for the next ply of its seat:
``start`` when the game begins (the engine's ``newgame``), ``choose`` with every ply so far and
the clocks (``position`` and ``go``), ``refused`` when the referee refused its answer, and
``finish`` at the end (``gameover``). :class:`EngineMover` speaks the engine protocol to a
process (docs/engine-protocol.md); :class:`PolicyMover` plays the random or greedy policy in
this process, with no pipe. ``gamerec play --against``, ``gamerec bot`` and the engine games
of a tournament take either.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.identity import identify
from gamerec.validator.judge import TERMINATION_WORDS
from gamerec.validator.live.players import PolicyPlayer
from gamerec.validator.players.clocks import ClockState
from gamerec.validator.players.faults import EngineFailedError, EngineFault
from gamerec.validator.players.host import EngineProcess


@dataclass(frozen=True, slots=True)
class Choice:
    """A seat's chosen ply.

    Attributes:
        token: the ply as a notation.md token.
        comment: the move comment its search information makes (``[%eval 35,12] ...``).
        warnings: what the host ignored on the way (malformed ``info`` lines).
    """

    token: str
    comment: str = ""
    warnings: tuple[str, ...] = ()


class Mover(Protocol):
    """A chooser of one seat's plies (see the module docstring)."""

    @property
    def name(self) -> str:
        """The player's name (an engine's ``id name``)."""
        ...

    async def start(self, record: pb.GameRecord, seat: int) -> None:
        """A new game: the record's rules, variant and time control; the seat it plays."""
        ...

    async def choose(self, tokens: Sequence[str], clock: ClockState) -> Choice:
        """The next ply after ``tokens`` (every ply so far), with the clocks now."""
        ...

    async def refused(self, reason: str) -> None:
        """The referee refused the last answer, for ``reason`` (before it asks again)."""
        ...

    async def finish(self, record: pb.GameRecord) -> None:
        """The game is over; ``record`` holds its result."""
        ...


def game_tags(record: pb.GameRecord) -> dict[str, str]:
    """The record's game as the protocol's ``newgame`` tags: ``Players`` and every variant tag.

    Raises:
        RulesError: the record's game or variant cannot be judged.
    """
    identity = identify(record)
    seats = identity.engine.new_game(identity.variant).seats
    return {"Players": str(seats), **identity.engine.variant_tags(identity.variant)}


def result_words(result: pb.ClaimedResult) -> tuple[str, list[int], str]:
    """A record's result as ``gameover`` gives it: scores (or ``*``), winners, termination."""
    scores = "-".join(map(str, result.scores.values)) if result.HasField("scores") else "*"
    return scores, list(result.winners), TERMINATION_WORDS[result.termination]


class EngineMover:
    """A seat played by an engine process through the engine protocol."""

    def __init__(self, engine: EngineProcess, name: str = "") -> None:
        """Play with ``engine`` (started and shaken hands with), named ``name`` if given."""
        self.engine = engine
        self._name = name

    @property
    def name(self) -> str:
        """The name it was given (a tournament's ``--engine NAME=...``), else its ``id name``."""
        return self._name or self.engine.identity.name

    async def start(self, record: pb.GameRecord, seat: int) -> None:
        """``newgame`` with the record's game, tags and time control; wait for ``ready``.

        Raises:
            EngineFailedError: the engine refused the game or failed the exchange.
        """
        identity = identify(record)
        control = record.metadata.time_control
        await self.engine.new_game(
            identity.name, game_tags(record), seat, time_control="" if control == "-" else control
        )

    async def choose(self, tokens: Sequence[str], clock: ClockState) -> Choice:
        """``position`` and ``go``; the engine's move with its ``info`` as a comment.

        Raises:
            EngineFailedError: any fault of the exchange (a timeout, a crash, garbage).
        """
        answer = await self.engine.go(tokens, clock)
        return Choice(answer.token, answer.info.comment(), answer.warnings)

    async def refused(self, reason: str) -> None:
        """Tell the engine why (``error``)."""
        await self.engine.refuse(reason)

    async def finish(self, record: pb.GameRecord) -> None:
        """``gameover`` with the record's result."""
        await self.engine.game_over(*result_words(record.result))


class PolicyMover:
    """A seat played by a built-in policy (``random``, ``greedy``) in this process.

    Args:
        policy: the policy's name.
        seed: the seed of its choices.
    """

    def __init__(self, policy: str = "random", seed: int | str = 1) -> None:
        """Play by ``policy`` (checked when the game starts)."""
        self.policy = policy
        self.seed = seed
        self._player: PolicyPlayer | None = None
        self._seen = 0

    @property
    def name(self) -> str:
        """``gamerec greedy (seed 1)``, as ``gamerec engine`` names itself."""
        return f"gamerec {self.policy} (seed {self.seed})"

    async def start(self, record: pb.GameRecord, seat: int) -> None:
        """Start at the game's start position.

        Raises:
            ValueError: an unknown policy.
            RulesError: the record's rules cannot be judged.
        """
        self._player = PolicyPlayer(record, self.policy, self.seed)
        self._seen = 0

    async def choose(self, tokens: Sequence[str], clock: ClockState) -> Choice:
        """Follow the new plies, then choose (in a thread: greedy weighs every decision)."""
        player = self._player
        if player is None:
            raise RuntimeError("choose before start: start a game first")
        for token in tokens[self._seen :]:
            player.played(token)
        self._seen = len(tokens)
        return Choice(await asyncio.to_thread(player.next_ply))

    async def refused(self, reason: str) -> None:
        """Nothing to do: a policy chooses legal plies only."""

    async def finish(self, record: pb.GameRecord) -> None:
        """Nothing to do."""


class UnstartedEngine:
    """The seat of an engine that could not be started: it fails at ``start``.

    Args:
        name: the seat's player.
        fault: why the engine did not start (``ENGINE_NOT_STARTED``, a failed handshake).
    """

    def __init__(self, name: str, fault: EngineFault) -> None:
        """A seat whose engine failed with ``fault``."""
        self._name = name
        self.fault = fault

    @property
    def name(self) -> str:
        """The entrant's name."""
        return self._name

    async def start(self, record: pb.GameRecord, seat: int) -> None:
        """Fail: the process did not start."""
        raise EngineFailedError(self.fault)

    async def choose(self, tokens: Sequence[str], clock: ClockState) -> Choice:
        """Never asked (the game ends at ``start``)."""
        raise EngineFailedError(self.fault)

    async def refused(self, reason: str) -> None:
        """Nothing to tell."""

    async def finish(self, record: pb.GameRecord) -> None:
        """Nothing to tell."""


#: The built-in policies ``--against`` and ``--policy`` name.
POLICY_NAMES: tuple[str, ...] = ("random", "greedy")
