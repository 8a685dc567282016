"""The one protocol every rules engine follows, and the values they share.

One module per game (``one``, ``aronda``, ``oust``, ``ohwahree``) exposes an ``ENGINE`` object
that satisfies :class:`Engine`. The validator, the service, the CLI and the conformance tests
reach every game through the registry in ``gamerec.validator.games`` and this protocol only.
Each ``ENGINE`` is a :class:`BaseEngine`, which holds what the four share (delegation to the
module's functions, variant options, random games, perft); :class:`Engine` stays the contract.

Engines are pure: no I/O, no protobuf, no logging. They take and give moves in their own
compact types (each module documents its ``Move``), and text in the syntax of notation.md.

State model: states are **mutable**. ``play`` changes the state in place (a replay of a
thousand plies then allocates no new position per ply); ``copy`` gives an independent state
for search, perft and what-if questions. Seats are 1-based everywhere.

The package holds three modules: ``contract`` (the protocol itself, its errors and the values
engines give), ``shared`` (the functions engines share: variant options, digests, ranks, perft)
and ``base`` (:class:`BaseEngine`). Every name is re-exported here, so engines and their users
import ``gamerec.validator.games.protocol`` alone. Like the engines, it may import only the
standard library and ``gamerec.recorder.errors``.
"""

from __future__ import annotations

from gamerec.validator.games.protocol.base import BaseEngine, OptionsT, StateT, any_variant
from gamerec.validator.games.protocol.contract import (
    Engine,
    GameEvent,
    GameState,
    Illegal,
    IllegalMoveError,
    MoveSyntaxError,
    MoveT,
    Position,
    ReplayOutcome,
    Site,
    VariantError,
    VariantT,
    VariantValue,
)
from gamerec.validator.games.protocol.shared import (
    MAX_NUMBER,
    digest_of,
    option_number,
    option_numbers,
    option_word,
    perft,
    rank_seats,
    seats_of_bits,
    tag_number,
)

__all__ = [
    "MAX_NUMBER",
    "BaseEngine",
    "Engine",
    "GameEvent",
    "GameState",
    "Illegal",
    "IllegalMoveError",
    "MoveSyntaxError",
    "MoveT",
    "OptionsT",
    "Position",
    "ReplayOutcome",
    "Site",
    "StateT",
    "VariantError",
    "VariantT",
    "VariantValue",
    "any_variant",
    "digest_of",
    "option_number",
    "option_numbers",
    "option_word",
    "perft",
    "rank_seats",
    "seats_of_bits",
    "tag_number",
]
