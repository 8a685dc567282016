"""The game registry: one entry per game, the one place generic code learns about a game.

An entry ties a game's pure rules engine (``gamerec.validator.games.<game>``) to everything
around it: the record syntax (names and aliases, the ``Game`` enum, the fields of its moves
and variant, tokens and GRN tags: ``gamerec.recorder.syntax.<game>``), the mapping between the
record's variant and the engine's, where its rules text says what the referee cites, the value
the annotator's search maximises, and the board model the pictures are drawn from. Each game's
entry lives in its own module, ``gamerec.validator.games.entries.<game>``; generic code
(judge, frames, annotation, comparison, render, service, CLI) asks :func:`entry_of`,
:func:`entry_named` or :func:`entries` and holds no per-game branch.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, Final, NamedTuple

from gamerec.recorder.errors import EncodingError
from gamerec.recorder.syntax import GAMES, GameSyntax, GameValue, syntax_named, syntax_of
from gamerec.recorder.syntax.registered import REGISTERED
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games.protocol import Engine, GameState, VariantError

if TYPE_CHECKING:
    from gamerec.validator.render.model import BoardModel

#: The modules of the entries, in registry order (``recorder.syntax.registered``).
ENTRY_MODULES: Final = tuple(
    f"gamerec.validator.games.entries.{module}" for module, _ in REGISTERED
)


class Citation(NamedTuple):
    """Where a game's rules text says what the referee relies on beyond single moves.

    Attributes:
        file: the rules file, from the repository root (``docs/rules/one.md``).
        end: the section(s) on how the game ends.
        score: the section on scores.
        ranking: the section on ranking and winners.
        terminations: the section on resignation and the other terminations.
    """

    file: str
    end: str
    score: str
    ranking: str
    terminations: str

    def cite(self, section: str) -> str:
        """A citation such as ``docs/rules/one.md §6.3``."""
        return f"{self.file} {section}"


class Annotation(NamedTuple):
    """What the annotator's one-decision search maximises in a game (validator.annotation).

    Attributes:
        value: the value of a position for a seat (higher is better for that seat).
        threshold: how much better the best decision must be for a ply to be clearly worse.
    """

    value: Callable[[GameState[Any], int], int]
    threshold: int


#: How a seat is named in a sentence (``seat 2 (Ben)``), given its number.
Who = Callable[[int], str]


class Wording(NamedTuple):
    """How a game's ends, scores, special plies and moves are said in words (``render.ending``).

    Attributes:
        rules_end: why the rules ended a finished game, from its final state, as a clause
            (``seat 2 (Ben) captured the last stone of seat 1 (Ana)``); ``who`` names a seat.
        scores: what the scores count, or ``""`` when they say only who won (Oust's 1-0).
        specials: what a special ply does, by its token (Oust's ``swap``: the pie rule).
        moves: how a move is typed, with examples of the game's own tokens (``gamerec play``'s
            help).
    """

    rules_end: Callable[[GameState[Any], Who], str]
    scores: str
    specials: dict[str, str]
    moves: str


class GameEntry(NamedTuple):
    """Everything generic code needs to know about one game.

    Attributes:
        syntax: the game's record syntax (names, enum, fields, tokens, GRN tags).
        engine: the game's rules engine.
        citation: where its rules text says how games end, score and rank.
        annotation: what the annotator's search values.
        board_model: builds the board model of a variant, for pictures (validator.render).
        move_of: the engine move of a record move, read straight from its fields; None when
            the move is not a plain move of the game (another game's, a special the game
            does not have, a place with no name), which only the token path can name.
        wording: how its ends, scores and special plies are said in words.
        evaluation: what the search (validator.search) values a position at its horizon for
            a seat, in hundredths of a score point (higher is better for that seat); None:
            the annotation value, in hundredths. Each one is kept only where a tournament
            against the search without it measured a gain (docs/analysis.md).
    """

    syntax: GameSyntax
    engine: Engine[Any, Any]
    citation: Citation
    annotation: Annotation
    board_model: Callable[[Any], BoardModel]
    move_of: Callable[[pb.Move], Any]
    wording: Wording
    evaluation: Callable[[GameState[Any], int], int] | None = None

    @property
    def name(self) -> str:
        """The canonical name (``Oh-Wah-Ree``), as the GRN ``Game`` tag writes it."""
        return self.syntax.name

    @property
    def game(self) -> GameValue:
        """The ``Game`` enum value."""
        return self.syntax.game

    @property
    def action(self) -> str:
        """The field of ``Move.action`` that holds the game's own moves."""
        return self.syntax.action

    def variant_of(self, rules: pb.Rules) -> Any:
        """The engine variant of a record's rules (a missing option takes its default).

        Raises:
            VariantError: the variant is impossible, or an option is missing.
            EncodingError: the variant belongs to another game, or a value is unknown.
        """
        return self.engine.variant_from_values(self.variant_values(rules))

    def variant_values(self, rules: pb.Rules) -> dict[str, int | tuple[int, ...] | str]:
        """The options a record's rules set, by GRN tag name, as the engine takes them.

        Straight from the fields, no text between. An option the record does not set takes
        its default; a number set to 0 is kept (the schema gives numbers presence), so the
        engine refuses it as the impossible variant it is.

        Raises:
            EncodingError: the variant belongs to another game, or a value is unknown.
        """
        which = rules.WhichOneof("variant")
        if which is None:
            return {}
        syntax = self.syntax
        if which != syntax.variant:
            raise EncodingError(
                f"the record is a game of {syntax.name} but has a {which} variant, "
                "so GRN cannot hold it"
            )
        message = getattr(rules, which)
        values = {}
        for option in syntax.options:
            if option.is_set(message):
                values[option.tag] = option.value_of(getattr(message, option.field))
        return values


def seats_text(seats: Sequence[int], who: Who) -> str:
    """``seat 1 (Ana)``, ``seats 1 (Ana) and 3 (Cy)``: seats named in a sentence."""
    named = [who(seat) for seat in seats]
    if len(named) < 2:
        return "".join(named)
    plain = [name.removeprefix("seat ") for name in named]
    return "seats " + ", ".join(plain[:-1]) + " and " + plain[-1]


def lead(values: Sequence[int], seat: int) -> int:
    """``seat``'s value minus the best value among the other seats."""
    others = [value for other, value in enumerate(values, start=1) if other != seat]
    return values[seat - 1] - max(others, default=0)


def score_lead(state: GameState[Any], seat: int) -> int:
    """The mover's lead in the rules' own score (an annotation value)."""
    return lead(state.scores(), seat)


_LOADED: dict[str, GameEntry] = {}


def _load(module: str) -> GameEntry:
    """One game's entry; its module is imported on first use, so a job loads only its games."""
    entry = _LOADED.get(module)
    if entry is None:
        entry = _LOADED[module] = importlib.import_module(module).ENTRY
    return entry


def entries() -> tuple[GameEntry, ...]:
    """Every game's entry, in registry order."""
    return tuple(_load(module) for module in ENTRY_MODULES)


def entry_of(game: GameValue) -> GameEntry | None:
    """The entry of a ``Game`` enum value, or None for an unspecified or unknown game."""
    syntax = syntax_of(game)
    return None if syntax is None else _entry_of_syntax(syntax)


def entry_named(name: str) -> GameEntry:
    """The game called ``name`` in any of its spellings (case, ``-`` and ``_`` do not matter).

    Raises:
        VariantError: no game is called so.
    """
    syntax = syntax_named(name)
    if syntax is None:
        known = ", ".join(name for _, name in REGISTERED)
        raise VariantError(f"unknown game {name!r}; known games: {known}")
    return _entry_of_syntax(syntax)


def _entry_of_syntax(syntax: GameSyntax) -> GameEntry:
    return _load(ENTRY_MODULES[GAMES.index(syntax)])
