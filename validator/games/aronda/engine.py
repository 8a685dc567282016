"""Aronda's engine behind the protocol: ``ArondaEngine`` and the one ``ENGINE``.

Its own: the GRN tags of the variant; random games and perft are ``BaseEngine``'s.

May import: ``protocol`` and the other modules of ``aronda``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from gamerec.validator.games.aronda.board import (
    NAME,
    RULES,
    SEATS,
)
from gamerec.validator.games.aronda.notation import (
    Move,
    format_move,
    parse_move,
)
from gamerec.validator.games.aronda.reasons import (
    REASON_CODES,
    REASON_SECTIONS,
)
from gamerec.validator.games.aronda.replay import _replay
from gamerec.validator.games.aronda.state import ArondaState
from gamerec.validator.games.aronda.variant import (
    ArondaVariant,
)
from gamerec.validator.games.protocol import (
    BaseEngine,
    VariantError,
    VariantValue,
    any_variant,
    option_word,
)

_TAG_OPTIONS = {"Supply": "supply", "SecondPiece": "second_piece"}


class ArondaEngine(BaseEngine[ArondaVariant, Move, ArondaState]):
    """The Aronda engine of the registry (``gamerec.validator.games.engine("Aronda")``).

    Its own: the GRN tags of the variant. Random games and perft are ``BaseEngine``'s.
    """

    def __init__(self) -> None:
        """The Aronda engine (there is one, :data:`ENGINE`)."""
        super().__init__(
            name=NAME,
            rules=RULES,
            reason_codes=REASON_CODES,
            reason_sections=REASON_SECTIONS,
            variant_type=ArondaVariant,
            state_type=ArondaState,
            parse_move=parse_move,
            format_move=any_variant(format_move),
            replay=_replay,
        )

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> ArondaVariant:
        """A variant from the options ``Supply``, ``SecondPiece`` (and ``Players``).

        Words are case-insensitive; a missing option takes the default; other names are ignored.

        Raises:
            VariantError: an unknown value, or ``Players`` other than 2.
        """
        options: dict[str, Any] = {}
        for tag, option in _TAG_OPTIONS.items():
            if tag in values:
                options[option] = option_word(values[tag])
        players = values.get("Players")
        if players is not None and option_word(players) != str(SEATS):
            written = players if isinstance(players, str) else str(players)
            raise VariantError(f"Aronda is played by 2 players, not {written!r}")
        return ArondaVariant(**options)

    def variant_tags(self, variant: ArondaVariant) -> dict[str, str]:
        """The ``Supply`` and ``SecondPiece`` tags of ``variant`` (always both)."""
        return {"Supply": variant.supply, "SecondPiece": variant.second_piece}


ENGINE = ArondaEngine()
