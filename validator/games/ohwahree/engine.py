"""The Oh-Wah-Ree engine object: random games, :class:`OhWahReeEngine` and :data:`ENGINE`.

It may import the modules of ``ohwahree`` and ``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import Final

from gamerec.validator.games.ohwahree.notation import Move, format_move, parse_move
from gamerec.validator.games.ohwahree.pits import NAME, RULES
from gamerec.validator.games.ohwahree.replay import replay
from gamerec.validator.games.ohwahree.state import REASON_CODES, REASON_SECTIONS, OhWahReeState
from gamerec.validator.games.ohwahree.variant import OhWahReeVariant
from gamerec.validator.games.protocol import (
    BaseEngine,
    GameState,
    VariantError,
    VariantValue,
    option_number,
    option_word,
)


def random_game(
    variant: OhWahReeVariant,
    rng: random.Random,
    choose: Callable[[GameState[Move], list[Move]], Move] | None = None,
) -> list[Move]:
    """A legal game to its end; ``choose`` picks each ply (default ``rng.choice``); no resigning.

    The one exception to "to its end": when every seat's move is forced and the position comes
    back, the game can never end (the rules have no repetition rule, §8.2; random games show it
    with 4 seats and ``Direction`` ``ccw``). The game is then returned unfinished, at the first
    repetition.
    """
    state = OhWahReeState(variant)
    plies: list[Move] = []
    forced_since_last_choice: set[str] = set()
    while not state.is_over:
        legal = state.legal_moves()
        if len(legal) > 1:
            forced_since_last_choice.clear()
        else:
            digest = state.digest()
            if digest in forced_since_last_choice:
                break
            forced_since_last_choice.add(digest)
        move = rng.choice(legal) if choose is None else choose(state, legal)
        state.play(move)
        plies.append(move)
    return plies


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------


class OhWahReeEngine(BaseEngine[OhWahReeVariant, Move, OhWahReeState]):
    """Oh-Wah-Ree behind the engine protocol of ``protocol``.

    Its own: the GRN tags of the variant, move tokens that depend on the variant, and random
    games that stop at a forced cycle.
    """

    def __init__(self) -> None:
        """The Oh-Wah-Ree engine (there is one, :data:`ENGINE`)."""
        super().__init__(
            name=NAME,
            rules=RULES,
            reason_codes=REASON_CODES,
            reason_sections=REASON_SECTIONS,
            variant_type=OhWahReeVariant,
            state_type=OhWahReeState,
            parse_move=parse_move,
            format_move=format_move,
            replay=replay,
        )

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> OhWahReeVariant:
        """A variant from the options ``Players`` (required), ``StonesPerPit``, ``Direction``.

        Raises:
            VariantError: ``Players`` missing, or a value that is not possible.
        """
        if "Players" not in values:
            raise VariantError("an Oh-Wah-Ree record needs the Players tag")
        stones = values.get("StonesPerPit")
        return OhWahReeVariant(
            players=option_number("Players", values["Players"]),
            stones_per_pit=0 if stones is None else option_number("StonesPerPit", stones, least=1),
            direction=option_word(values.get("Direction", "")),
        )

    def variant_tags(self, variant: OhWahReeVariant) -> dict[str, str]:
        """The GRN tags of ``variant``, every option written out."""
        return {
            "Players": str(variant.players),
            "StonesPerPit": str(variant.stones_per_pit),
            "Direction": variant.direction,
        }

    def random_game(
        self,
        variant: OhWahReeVariant,
        rng: random.Random,
        choose: Callable[[GameState[Move], list[Move]], Move] | None = None,
    ) -> list[Move]:
        """A legal game, the same for the same seed (see :func:`random_game` for forced cycles)."""
        return random_game(variant, rng, choose)


#: The Oh-Wah-Ree engine, reached through ``gamerec.validator.games.engine("Oh-Wah-Ree")``.
ENGINE: Final = OhWahReeEngine()
