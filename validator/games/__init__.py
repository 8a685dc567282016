"""The rules engines, one module per game, behind the protocol of ``protocol.py``.

Use :func:`engine` to get a game's engine by its GRN name (case-insensitive)::

    from gamerec.validator.games import engine
    one = engine("ONE")
    state = one.new_game(one.variant(players=3))
"""

from __future__ import annotations

import importlib
from typing import Any

from gamerec.validator.games.protocol import Engine, VariantError

#: The GRN ``Game`` tag of each game and the module holding its ``ENGINE``.
ENGINE_MODULES: dict[str, str] = {
    "ONE": "gamerec.validator.games.one",
    "Aronda": "gamerec.validator.games.aronda",
    "Oust": "gamerec.validator.games.oust",
    "Oh-Wah-Ree": "gamerec.validator.games.ohwahree",
}

_BY_LOWER_NAME = {name.lower(): name for name in ENGINE_MODULES}


def game_names() -> tuple[str, ...]:
    """The canonical names of every registered game, in registry order."""
    return tuple(ENGINE_MODULES)


def engine(name: str) -> Engine[Any, Any]:
    """Return the engine of the game called ``name`` (case-insensitive).

    Raises:
        VariantError: no such game.
    """
    canonical = _BY_LOWER_NAME.get(name.strip().lower())
    if canonical is None:
        known = ", ".join(ENGINE_MODULES)
        raise VariantError(f"unknown game {name!r}; known games: {known}")
    module = importlib.import_module(ENGINE_MODULES[canonical])
    found: Engine[Any, Any] = module.ENGINE
    return found
