"""The ONE engine object behind the protocol's ``Engine`` shape: :class:`OneEngine`, :data:`ENGINE`.

It may import the modules of ``one`` and ``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Final

from gamerec.validator.games.one.board import NAME, RULES
from gamerec.validator.games.one.legality import REASON_CODES, REASON_SECTIONS
from gamerec.validator.games.one.notation import Move, format_move, parse_move
from gamerec.validator.games.one.replay import replay
from gamerec.validator.games.one.state import OneState
from gamerec.validator.games.one.variant import OneVariant
from gamerec.validator.games.protocol import (
    BaseEngine,
    VariantError,
    VariantValue,
    any_variant,
    option_number,
    option_numbers,
    option_word,
)


class OneEngine(BaseEngine[OneVariant, Move, OneState]):
    """The ONE engine behind the protocol's ``Engine`` shape; use the module's ``ENGINE``.

    Its own: the GRN tags of the variant, and perft and random games that play listed moves
    unchecked (:meth:`OneState._apply`).
    """

    def __init__(self) -> None:
        """The ONE engine (there is one, :data:`ENGINE`)."""
        super().__init__(
            name=NAME,
            rules=RULES,
            reason_codes=REASON_CODES,
            reason_sections=REASON_SECTIONS,
            variant_type=OneVariant,
            state_type=OneState,
            parse_move=parse_move,
            format_move=any_variant(format_move),
            replay=replay,
        )

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> OneVariant:
        """A variant from the options ``Players``, ``Board``, ``Mirror``, ``Tiebreak``.

        ``Players`` is required; words are read case-insensitively; other names are ignored.

        Raises:
            VariantError: ``Players`` is missing, or a value is unknown or impossible.
        """
        if "Players" not in values:
            raise VariantError("a ONE record needs the Players tag")
        options: dict[str, object] = {"players": option_number("Players", values["Players"])}
        if "Board" in values:
            options["rings"] = option_numbers("Board", values["Board"])
        if "Mirror" in values:
            options["mirror"] = option_word(values["Mirror"])
        if "Tiebreak" in values:
            options["tiebreak"] = option_word(values["Tiebreak"])
        return self.variant(**options)

    def variant_tags(self, variant: OneVariant) -> dict[str, str]:
        """The GRN tags of ``variant``, every option written out."""
        return {
            "Players": str(variant.players),
            "Board": variant.board.text(),
            "Mirror": variant.mirror,
            "Tiebreak": variant.tiebreak,
        }

    def _play_listed(self, state: OneState, move: Move) -> None:
        """Play a move of ``state.legal_moves()`` without checking it again."""
        state._apply(move)


#: The ONE engine (registered as ``ONE`` in ``gamerec.validator.games``).
ENGINE: Final = OneEngine()
