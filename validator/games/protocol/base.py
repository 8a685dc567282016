"""What every engine object shares: :class:`BaseEngine`, built from its module's functions.

Each game's ``ENGINE`` is a :class:`BaseEngine` subclass (delegation to the module's functions,
variant options checked against the variant's fields, random games, perft). It may import the
standard library and ``protocol.contract``.
"""

from __future__ import annotations

import dataclasses
import random
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from gamerec.validator.games.protocol.contract import (
    GameState,
    MoveT,
    ReplayOutcome,
    VariantError,
    VariantValue,
)

if TYPE_CHECKING:
    from _typeshed import DataclassInstance


OptionsT = TypeVar("OptionsT", bound="DataclassInstance")
StateT = TypeVar("StateT", bound=GameState[Any])


def any_variant(format_move: Callable[[MoveT], str]) -> Callable[[object, MoveT], str]:
    """A game's ``format_move(move)`` as the ``(variant, move)`` form :class:`BaseEngine` takes.

    For the games whose move tokens read the same under every variant.
    """

    def format_in(variant: object, move: MoveT) -> str:
        return format_move(move)

    return format_in


class BaseEngine(Generic[OptionsT, MoveT, StateT]):
    """What every engine shares, built from its module's data and functions.

    A game's ``<Game>Engine`` subclasses this and keeps only what is its own: the GRN tags of
    its variant, and where it has them a faster perft, an unchecked way to play a listed move,
    its own random games or first decisions. Instances satisfy :class:`Engine`.

    The variant type is a frozen dataclass whose fields are the options :meth:`variant` takes;
    a field without a default is a required option.
    """

    def __init__(
        self,
        *,
        name: str,
        rules: str,
        reason_codes: Mapping[str, str],
        reason_sections: Mapping[str, tuple[str, ...]],
        variant_type: type[OptionsT],
        state_type: Callable[[OptionsT], StateT],
        parse_move: Callable[[str], MoveT],
        format_move: Callable[[OptionsT, MoveT], str],
        replay: Callable[[OptionsT, Sequence[MoveT], Sequence[int] | None], ReplayOutcome],
    ) -> None:
        """Tie the module's data and functions together.

        Args:
            name: the game's name as the GRN ``Game`` tag writes it.
            rules: the rules text every message cites (``docs/rules/one.md``).
            reason_codes: every reason code ``check`` returns, with a one-line description.
            reason_sections: the sections of ``rules`` each reason code's sentences cite.
            variant_type: the variant dataclass; its fields are the options.
            state_type: builds the start position of a variant.
            parse_move: the module's ``parse_move(text)``.
            format_move: the canonical token of a move under a variant (see
                :func:`any_variant`).
            replay: the module's fast checked ``replay(variant, moves, seats)``.
        """
        self._name = name
        self._rules = rules
        self._reason_codes = dict(reason_codes)
        self._reason_sections = dict(reason_sections)
        self._variant_type = variant_type
        fields = dataclasses.fields(variant_type)
        self._options = frozenset(field.name for field in fields)
        self._required = tuple(field.name for field in fields if _is_required(field))
        self._state_type = state_type
        self._parse_move = parse_move
        self._format_move = format_move
        self._replay = replay

    @property
    def name(self) -> str:
        """The game's name as the GRN ``Game`` tag writes it (``ONE``, ``Oh-Wah-Ree``)."""
        return self._name

    @property
    def reason_codes(self) -> dict[str, str]:
        """Every reason code ``check`` can return, with a one-line description of each."""
        return dict(self._reason_codes)

    @property
    def citations(self) -> dict[str, tuple[str, ...]]:
        """Every reason code with the rules sections its sentences cite (``file §4.2``)."""
        return {
            code: tuple(f"{self._rules} {section}" for section in sections)
            for code, sections in self._reason_sections.items()
        }

    def variant(self, **options: object) -> OptionsT:
        """Build and check a variant from keyword options (the variant dataclass's fields).

        Raises:
            VariantError: an unknown option, a missing required one, or an impossible value.
        """
        unknown = sorted(set(options) - self._options)
        if unknown:
            raise VariantError(f"unknown {self._name} option(s): {', '.join(unknown)}")
        missing = [option for option in self._required if option not in options]
        if missing:
            raise VariantError(f"{self._name} needs the option(s) {', '.join(missing)}")
        build: Callable[..., OptionsT] = self._variant_type
        return build(**options)

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> OptionsT:
        """Build a variant from its options by GRN tag name (see ``Engine``); each game's own."""
        raise NotImplementedError

    def variant_from_tags(self, tags: Mapping[str, str]) -> OptionsT:
        """Build a variant from GRN tag texts (:meth:`variant_from_values` reads text too)."""
        return self.variant_from_values(tags)

    def new_game(self, variant: OptionsT) -> StateT:
        """The start position of a game under ``variant``."""
        return self._state_type(variant)

    def parse_move(self, variant: OptionsT, text: str) -> MoveT:
        """Parse a move token of notation.md (the variant is not consulted).

        Raises:
            MoveSyntaxError: the text is not a token of this game.
        """
        return self._parse_move(text)

    def format_move(self, variant: OptionsT, move: MoveT) -> str:
        """The canonical lower-case token of ``move``."""
        return self._format_move(variant, move)

    def replay(
        self, variant: OptionsT, moves: Sequence[MoveT], seats: Sequence[int] | None = None
    ) -> ReplayOutcome:
        """Check and play ``moves`` from the start; stop at the first illegal one.

        The module's fast replay: the same verdicts as ``check`` / ``play`` ply by ply.
        ``seats[i]`` is the seat ply i+1 claims (0 or missing: unstated).
        """
        return self._replay(variant, moves, seats)

    def first_decision(self, move: MoveT) -> MoveT:
        """The first decision of ``move``: the whole ply, in every game that does not chain."""
        return move

    def play_chosen(
        self, state: GameState[MoveT], choose: Callable[[GameState[MoveT], list[MoveT]], MoveT]
    ) -> MoveT:
        """Play the ply ``choose(state, state.legal_moves())`` picks, checked; return it.

        Every listed decision is a whole ply in a game that does not chain decisions.
        """
        move = choose(state, state.legal_moves())
        state.play(move)
        return move

    def random_game(
        self,
        variant: OptionsT,
        rng: random.Random,
        choose: Callable[[GameState[MoveT], list[MoveT]], MoveT] | None = None,
    ) -> list[MoveT]:
        """Play one complete legal game and return its plies (never resigns).

        ``choose(state, legal)`` picks each ply (default ``rng.choice``); a seeded ``rng``
        always gives the same game. A ply ``choose`` returns is played with ``play`` (checked);
        one of ``rng.choice`` by :meth:`_play_listed`.
        """
        state = self.new_game(variant)
        moves: list[MoveT] = []
        while not state.is_over:
            legal = state.legal_moves()
            if choose is None:
                move = rng.choice(legal)
                self._play_listed(state, move)
            else:
                move = choose(state, legal)
                state.play(move)
            moves.append(move)
        return moves

    def perft(self, variant: OptionsT, depth: int) -> int:
        """perft.md's leaf count from the start position of ``variant`` to ``depth``."""
        return self.perft_from(self.new_game(variant), depth)

    def perft_from(self, state: StateT, depth: int) -> int:
        """perft.md's leaf count from ``state`` to ``depth``; a finished game is one leaf.

        The same answer as the generic :func:`perft`, faster: the last level is counted as
        ``len(legal_moves())`` (every listed move is one whole ply), and each child is played
        by :meth:`_play_listed`.
        """
        if depth == 0 or state.is_over:
            return 1
        moves = state.legal_moves()
        if depth == 1:
            return len(moves)
        total = 0
        for move in moves:
            child = state.copy()
            self._play_listed(child, move)
            total += self.perft_from(child, depth - 1)
        return total

    def _play_listed(self, state: StateT, move: MoveT) -> None:
        """Play ``move``, one of ``state.legal_moves()``; an engine may skip the check here."""
        state.play(move)


def _is_required(field: dataclasses.Field[Any]) -> bool:
    """Whether a variant field has no default: an option :meth:`BaseEngine.variant` requires."""
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING
