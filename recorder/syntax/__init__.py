"""The record syntax of every game, and the one place ``recorder`` learns which games exist.

Each game's module holds its :class:`~gamerec.recorder.syntax.base.GameSyntax`: names and
aliases, the ``Game`` enum value, the fields of its moves and variant, its move tokens and its
variant tags. Generic code (GRN, summaries, the codecs) finds a game only through
:func:`syntax_of` and :func:`syntax_named`; the referee's registry
(``gamerec.validator.games``) adds the rules engine and the rest to the same entries.

Loading this package imports no protobuf (the engines read their tokens with these
grammars); enum numbers are looked up on first use.
"""

from __future__ import annotations

import importlib
from typing import Final

from gamerec.recorder.syntax.base import GameSyntax, GameValue, VariantOption, name_key
from gamerec.recorder.syntax.registered import REGISTERED, known_games


def _load() -> tuple[GameSyntax, ...]:
    """Every registered game's syntax, checked against the registered name."""
    loaded = []
    for module, name in REGISTERED:
        syntax: GameSyntax = importlib.import_module(f"{__name__}.{module}").SYNTAX
        if syntax.name != name:  # pragma: no cover - a registration mistake
            raise ImportError(f"{module}: the syntax names {syntax.name!r}, registered {name!r}")
        loaded.append(syntax)
    return tuple(loaded)


#: Every game, in registry order.
GAMES: Final[tuple[GameSyntax, ...]] = _load()

_BY_NAME: Final = {name_key(name): syntax for syntax in GAMES for name in syntax.spellings}
_BY_GAME: dict[GameValue, GameSyntax] = {}

__all__ = [
    "GAMES",
    "GameSyntax",
    "GameValue",
    "VariantOption",
    "game_names",
    "known_games",
    "syntax_named",
    "syntax_of",
]


def syntax_of(game: GameValue) -> GameSyntax | None:
    """The syntax of a ``Game`` enum value, or None for an unspecified or unknown game."""
    if not _BY_GAME:
        _BY_GAME.update((syntax.game, syntax) for syntax in GAMES)
    return _BY_GAME.get(game)


def syntax_named(name: str) -> GameSyntax | None:
    """The game called ``name`` in any of its spellings (``Oh-Wah-Ree``, ``ohwahree``), or None.

    Case, ``-``, ``_`` and white space do not matter.
    """
    return _BY_NAME.get(name_key(name))


def game_names() -> tuple[str, ...]:
    """The canonical names of every game, in registry order."""
    return tuple(syntax.name for syntax in GAMES)
