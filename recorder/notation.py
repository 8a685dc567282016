"""Move tokens of notation.md: text to the typed per-game moves of the record, and back.

This is syntax only. Nothing here knows a board: ``e1`` parses on a four-ring ONE board and
``o9`` parses for Aronda; whether such a place exists is the validator's question. What is
checked is the shape of a token, by the game's own syntax (``gamerec.recorder.syntax``): a ONE
point is a ring letter and a 1-based index (``c7``, never ``c0`` or ``7c``), a capture joins
points with ``x``, Aronda and Oust turns join places with ``,``, an Oh-Wah-Ree move is a pit
number with an optional ``ccw`` / ``cw``. The special actions ``resign``, ``pass`` and
``swap`` parse for every game; whether a game allows them is again the validator's question.
Reading is case-insensitive; writing gives the canonical lower-case token.
"""

from __future__ import annotations

from typing import Any, Final

from gamerec.recorder.errors import EncodingError, NotationError, excerpt
from gamerec.recorder.syntax import GameSyntax, GameValue, syntax_named, syntax_of
from gamerec.v1 import record_pb2 as pb

__all__ = [
    "SPECIAL_ACTIONS",
    "GameValue",
    "format_action",
    "game_from_name",
    "game_label",
    "game_name",
    "parse_action",
]

#: The actions that are spelled the same in every game.
SPECIAL_ACTIONS: Final = ("resign", "pass", "swap")


def game_from_name(name: str) -> GameValue | None:
    """The game called ``name`` in any spelling (``Oh-Wah-Ree``, ``ohwahree``), or None."""
    syntax = syntax_named(name)
    return None if syntax is None else syntax.game


def game_name(game: GameValue) -> str:
    """The canonical name of a game (``ONE``, ``Oh-Wah-Ree``).

    Raises:
        EncodingError: the game is unspecified or unknown to this version.
    """
    return _syntax(game).name


def game_label(game: GameValue, unknown: str = "unknown game") -> str:
    """The canonical name of a game, or ``unknown`` for one this version does not know."""
    syntax = syntax_of(game)
    return unknown if syntax is None else syntax.name


def _syntax(game: GameValue) -> GameSyntax:
    syntax = syntax_of(game)
    if syntax is None:
        raise EncodingError(f"the record names no game this version knows (Game {game})")
    return syntax


def parse_action(game: GameValue, text: str) -> pb.Move:
    """Parse one move token into a ``Move`` that has only its action set.

    Args:
        game: the game whose token syntax applies.
        text: the token, e.g. ``c7xc9``, ``o1,o3``, ``e5,f5,k9``, ``4cw`` or ``resign``.

    Raises:
        NotationError: the text is not a token of the game (the reason says what was expected).
    """
    token = text.strip().lower()
    if token in SPECIAL_ACTIONS:
        move = pb.Move()
        getattr(move, token).SetInParent()
        return move
    syntax = syntax_of(game)
    if syntax is None:
        raise NotationError(f"cannot read move {excerpt(text)} without a known game")
    action: dict[str, Any] = {syntax.action: syntax.message_of(syntax.parse_move(token))}
    return pb.Move(**action)


def format_action(move: pb.Move, game: GameValue | None = None) -> str:
    """The canonical lower-case token of a move's action.

    Args:
        move: the move; only its action is used.
        game: when given, the action must be one of this game's moves or a special action,
            so that :func:`parse_action` reads the token back as the same action.

    Raises:
        EncodingError: the move has no action, an action of another game, or a place that
            has no token (ring 0, index 0, a letter beyond ``z``, an unknown enum value).
    """
    action = move.WhichOneof("action")
    if action is None:
        raise EncodingError("a move has no action, so it has no token")
    if action in SPECIAL_ACTIONS:
        return action
    if game is not None and _syntax(game).action != action:
        raise EncodingError(
            f"a move of kind {action!r} does not belong to game {game_name(game)}, "
            "so GRN cannot hold it"
        )
    return _ACTION_SYNTAX[action].format_move(getattr(move, action))


_ACTION_SYNTAX: Final = {
    syntax.action: syntax for syntax in (syntax_of(game) for game in pb.Game.values()) if syntax
}
