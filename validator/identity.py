"""The rules identity of a record: which engine and which variant judge it.

The record states its game and variant in protobuf; the engines take their own variant
values. This module is the one bridge between the two, so every caller (validate, replay,
annotate, the service) resolves a record's rules the same way.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from gamerec.v1 import record_pb2 as pb
from recorder.errors import EncodingError, GamerecError
from recorder.grn_tags import variant_tags
from recorder.notation import GAME_ACTIONS, GAME_NAMES
from validator.games import engine
from validator.games.protocol import Engine, VariantError


class RulesError(GamerecError):
    """A record's rules cannot be judged: an unknown game or an impossible variant.

    Attributes:
        code: ``UNKNOWN_GAME``, ``IMPOSSIBLE_VARIANT`` or ``SEAT_COUNT_MISMATCH``.
    """

    def __init__(self, code: str, message: str) -> None:
        """Build the error from its finding code and sentence."""
        self.code = code
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class RulesIdentity:
    """The engine and variant that judge a record.

    Attributes:
        game: the record's game.
        engine: the game's rules engine.
        variant: the engine's variant value built from the record's options.
        action: the name of the game's own move in ``Move.action`` (``"one"``, ...).
    """

    game: pb.Game.ValueType
    engine: Engine[Any, Any]
    variant: Any
    action: str

    @property
    def name(self) -> str:
        """The game's GRN name (``ONE``, ``Oh-Wah-Ree``)."""
        return self.engine.name


def identify(record: pb.GameRecord) -> RulesIdentity:
    """Resolve the engine and variant of ``record``.

    Raises:
        RulesError: the game is unknown, the variant is impossible or belongs to another game,
            or the record lists a number of seats that the variant does not have.
    """
    game = record.rules.game
    name = GAME_NAMES.get(game)
    if name is None:
        raise RulesError(
            "UNKNOWN_GAME",
            f"the record names no game this version knows (Game {game}); "
            f"known games: {', '.join(GAME_NAMES.values())}",
        )
    found = engine(name)
    try:
        tags = {tag: value for tag, value in variant_tags(record.rules) if value != "0"}
        variant = found.variant_from_tags(tags)
    except (VariantError, EncodingError) as error:
        raise RulesError("IMPOSSIBLE_VARIANT", f"impossible {name} variant: {error}") from None
    seats_at_table = found.new_game(variant).seats
    if record.seats and len(record.seats) != seats_at_table:
        raise RulesError(
            "SEAT_COUNT_MISMATCH",
            f"the record lists {len(record.seats)} seats but its {name} variant has "
            f"{seats_at_table} players",
        )
    return RulesIdentity(game=game, engine=found, variant=variant, action=GAME_ACTIONS[game])
