"""The games this version knows: the one list every registry of gamerec is built from.

Each game has a module of the same name in ``gamerec.recorder.syntax`` (its record syntax),
in ``gamerec.validator.games`` (its rules engine) and in ``gamerec.validator.games.entries``
(its registry entry). This module imports nothing, so the command line can name the games
in its help without loading a codec.
"""

from __future__ import annotations

from typing import Final

#: ``(module, canonical name)`` of every game, in registry order.
REGISTERED: Final = (
    ("one", "ONE"),
    ("aronda", "Aronda"),
    ("oust", "Oust"),
    ("ohwahree", "Oh-Wah-Ree"),
)


def known_games(last: str = ", ") -> str:
    """``ONE, Aronda, Oust, Oh-Wah-Ree`` (``last`` joins the last two: ``" or "``)."""
    names = [name for _, name in REGISTERED]
    return ", ".join(names[:-1]) + last + names[-1]
