"""Oust's engine behind the protocol: random games, perft, ``OustEngine`` and ``ENGINE``.

Because a turn chains placements, random games are played placement by placement and perft
counts whole turns (the protocol's generic ones would count placements).

May import: ``protocol`` and the other modules of ``oust``.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping
from typing import cast

from gamerec.validator.games.oust.board import (
    DEFAULT_SIDE,
    NAME,
    RULES,
)
from gamerec.validator.games.oust.notation import (
    Move,
    Turn,
    format_move,
    parse_move,
)
from gamerec.validator.games.oust.reasons import (
    REASON_CODES,
    REASON_SECTIONS,
)
from gamerec.validator.games.oust.replay import replay
from gamerec.validator.games.oust.state import OustState
from gamerec.validator.games.oust.variant import OustVariant
from gamerec.validator.games.protocol import (
    BaseEngine,
    GameState,
    VariantError,
    VariantValue,
    any_variant,
    option_number,
    option_word,
)

# ---------------------------------------------------------------------------------------------
# Random games and perft
# ---------------------------------------------------------------------------------------------


#: A random game longer than this is taken for a loop (side-7 games run 3 to ~200 plies).
MAX_RANDOM_PLIES = 100_000


def random_game(
    variant: OustVariant,
    rng: random.Random,
    choose: Callable[[GameState[Move], list[Move]], Move] | None = None,
) -> list[Move]:
    """Play a complete legal game, placement by placement; return its whole turns.

    ``choose`` picks one of the moves it is given from :meth:`OustState.legal_moves`
    (placements, swap, pass), also for each placement after a capture; the default is
    ``rng.choice``. Never resigns.

    Raises:
        RuntimeError: the game is still going after :data:`MAX_RANDOM_PLIES` plies.
        IllegalMoveError, ValueError: ``choose`` returned a move it was not given.
    """
    state = OustState(variant)
    plies: list[Move] = []
    pick = choose if choose is not None else _random_choice(rng)
    while not state.is_over:
        if len(plies) >= MAX_RANDOM_PLIES:
            raise RuntimeError(f"random Oust game not over after {len(plies)} plies")
        plies.append(play_chosen_turn(state, pick))
    return plies


def _random_choice(rng: random.Random) -> Callable[[GameState[Move], list[Move]], Move]:
    """A chooser that takes any listed move, equally likely."""

    def choose(state: GameState[Move], options: list[Move]) -> Move:
        return rng.choice(options)

    return choose


def play_chosen_turn(
    state: OustState, choose: Callable[[GameState[Move], list[Move]], Move]
) -> Move:
    """Play one whole turn on ``state``, placement by placement; return the turn.

    ``choose`` picks one of the moves of :meth:`OustState.legal_moves` (placements, ``swap``,
    ``pass``), and again after each capturing placement, until the turn ends.

    Raises:
        IllegalMoveError, ValueError: ``choose`` returned a move it was not given.
    """
    choice = choose(state, state.legal_moves())
    if isinstance(choice, str):
        state.play(choice)
        return choice
    turn: list[int] = []
    while True:
        (code,) = choice  # a placement in legal_moves() is a one-placement move
        state.place(code)
        turn.append(code)
        if not state.in_turn:
            return tuple(turn)
        choice = cast(Turn, choose(state, state.legal_moves()))


def perft(state: OustState, depth: int) -> int:
    """Count the leaves of the tree of whole turns to ``depth`` (perft.md conventions).

    A game that ends before ``depth`` is one leaf. Faster than the protocol's generic perft,
    which would count placements rather than turns.
    """
    if depth == 0 or state.is_over:
        return 1
    if depth == 1:
        return state.count_turns()
    return sum(perft(child, depth - 1) for _, child in state.turn_children())


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------


class OustEngine(BaseEngine[OustVariant, Move, OustState]):
    """The Oust engine behind the protocol's ``Engine`` (see ``protocol``).

    Its own: the GRN tags of the variant, and because a turn chains placements, its first
    decision, random games played placement by placement and a perft that counts whole turns.
    """

    def __init__(self) -> None:
        """The Oust engine (there is one, :data:`ENGINE`)."""
        super().__init__(
            name=NAME,
            rules=RULES,
            reason_codes=REASON_CODES,
            reason_sections=REASON_SECTIONS,
            variant_type=OustVariant,
            state_type=OustState,
            parse_move=parse_move,
            format_move=any_variant(format_move),
            replay=replay,
        )

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> OustVariant:
        """A variant from the options ``Board``, ``Pie`` (and ``Players``, which must be 2).

        Raises:
            VariantError: a value that is not a number, not ``on``/``off``, or out of range.
        """
        side = option_number("Board", values.get("Board", DEFAULT_SIDE))
        players = option_number("Players", values.get("Players", 2))
        pie_text = option_word(values.get("Pie", "on"))
        if pie_text not in ("on", "off"):
            raise VariantError(f"Oust Pie tag must be on or off, not {values['Pie']!r}")
        return OustVariant(side=side, pie=pie_text == "on", players=players)

    def variant_tags(self, variant: OustVariant) -> dict[str, str]:
        """The tags ``Board`` and ``Pie`` of ``variant``."""
        return {"Board": str(variant.side), "Pie": "on" if variant.pie else "off"}

    def first_decision(self, move: Move) -> Move:
        """The first decision of ``move``: a turn's first placement, else the move itself."""
        return move[:1] if isinstance(move, tuple) else move

    def random_game(
        self,
        variant: OustVariant,
        rng: random.Random,
        choose: Callable[[GameState[Move], list[Move]], Move] | None = None,
    ) -> list[Move]:
        """A complete random legal game, placement by placement (see :func:`random_game`)."""
        return random_game(variant, rng, choose)

    def play_chosen(
        self, state: GameState[Move], choose: Callable[[GameState[Move], list[Move]], Move]
    ) -> Move:
        """One whole turn, placement by placement (see :func:`play_chosen_turn`).

        Raises:
            TypeError: ``state`` is not an Oust position.
        """
        if not isinstance(state, OustState):
            raise TypeError(f"an Oust turn needs an Oust position, not {type(state).__name__}")
        return play_chosen_turn(state, choose)

    def perft_from(self, state: OustState, depth: int) -> int:
        """perft.md's count of whole turns from ``state`` to ``depth`` (see :func:`perft`)."""
        return perft(state, depth)


ENGINE = OustEngine()
