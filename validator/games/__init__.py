"""The rules engines, one module per game, behind the protocol of ``protocol/``.

Use :func:`engine` to get a game's engine by its name in any spelling (``ONE``, ``one``,
``Oh-Wah-Ree``, ``ohwahree``)::

    from gamerec.validator.games import engine
    one = engine("ONE")
    state = one.new_game(one.variant(players=3))

The engines are pure (no I/O, no protobuf). What ties each to records, citations and
pictures is its entry in the registry (``registry.py``, one module per game in ``entries/``);
this package's functions reach the registry only when called.
"""

from __future__ import annotations

from typing import Any

from gamerec.validator.games.protocol import Engine


def game_names() -> tuple[str, ...]:
    """The canonical names of every registered game, in registry order."""
    from gamerec.validator.games.registry import entries  # noqa: PLC0415 (keeps engines pure)

    return tuple(entry.name for entry in entries())


def engine(name: str) -> Engine[Any, Any]:
    """Return the engine of the game called ``name`` (any spelling; see the module docstring).

    Raises:
        VariantError: no such game.
    """
    from gamerec.validator.games.registry import entry_named  # noqa: PLC0415 (keeps engines pure)

    return entry_named(name).engine
