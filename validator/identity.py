"""The rules identity of a record: which engine and which variant judge it.

The record states its game and variant in protobuf; the engines take their own variant
values. This module is the one bridge between the two, so every caller (validate, replay,
annotate, the service) resolves a record's rules the same way.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from gamerec.recorder.errors import EncodingError, GamerecError
from gamerec.recorder.syntax import known_games
from gamerec.recorder.words import plural
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.protocol import Engine, VariantError
from gamerec.validator.games.registry import GameEntry, entry_of


class RulesError(GamerecError):
    """A record's rules cannot be judged: an unknown game or an impossible variant.

    Attributes:
        code: ``UNKNOWN_GAME``, ``IMPOSSIBLE_VARIANT`` or ``SEAT_COUNT_MISMATCH``.
    """

    def __init__(self, code: str, message: str) -> None:
        """Build the error from its finding code and sentence."""
        self.code = code
        super().__init__(message)


class RulesIdentity(NamedTuple):
    """The engine and variant that judge a record.

    Attributes:
        entry: the game's registry entry (syntax, engine, citations, board model...).
        variant: the engine's variant value built from the record's options.
    """

    entry: GameEntry
    variant: Any

    @property
    def game(self) -> pb.Game.ValueType:
        """The record's game."""
        return self.entry.game

    @property
    def engine(self) -> Engine[Any, Any]:
        """The game's rules engine."""
        return self.entry.engine

    @property
    def action(self) -> str:
        """The name of the game's own move in ``Move.action`` (``"one"``, ...)."""
        return self.entry.action

    @property
    def name(self) -> str:
        """The game's canonical name (``ONE``, ``Oh-Wah-Ree``)."""
        return self.entry.name


#: Identities (or the errors) remembered, by the rules' bytes and the number of seats.
_KNOWN: dict[tuple[bytes, int], RulesIdentity | RulesError] = {}
#: At most this many are remembered (an archive holds a few variants; a hostile one, many).
MAX_KNOWN_RULES: Final = 256


def identify(record: pb.GameRecord) -> RulesIdentity:
    """Resolve the engine and variant of ``record``.

    The answer depends only on the record's rules and its number of seats, so it is
    remembered by those (building a variant from tags costs more than the rest of judging a
    short record).

    Raises:
        RulesError: the game is unknown, the variant is impossible or belongs to another game,
            or the record lists a number of seats that the variant does not have.
    """
    key = (record.rules.SerializeToString(), len(record.seats))
    known = _KNOWN.get(key)
    if known is None:
        try:
            known = _identify(record)
        except RulesError as error:
            known = error
        if len(_KNOWN) >= MAX_KNOWN_RULES:
            _KNOWN.clear()
        _KNOWN[key] = known
    if isinstance(known, RulesError):
        raise RulesError(known.code, str(known))
    return known


def _identify(record: pb.GameRecord) -> RulesIdentity:
    """Resolve the engine and variant of ``record`` the slow way (see :func:`identify`)."""
    game = record.rules.game
    entry = entry_of(game)
    if entry is None:
        raise RulesError(
            "UNKNOWN_GAME",
            f"the record names no game this version knows (Game {game}); "
            f"known games: {known_games()}",
        )
    name = entry.name
    try:
        variant = entry.variant_of(record.rules)
    except (VariantError, EncodingError) as error:
        raise RulesError("IMPOSSIBLE_VARIANT", f"impossible {name} variant: {error}") from None
    seats_at_table = entry.engine.new_game(variant).seats
    if record.seats and len(record.seats) != seats_at_table:
        raise RulesError(
            "SEAT_COUNT_MISMATCH",
            f"the record lists {plural(len(record.seats), 'seat')} but its {name} variant has "
            f"{plural(seats_at_table, 'player')}",
        )
    return RulesIdentity(entry=entry, variant=variant)
