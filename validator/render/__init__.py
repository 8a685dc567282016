"""Pictures of positions: one board model per game, drawn as SVG or as text.

- :mod:`.model`: the board model of each game and variant (geometry of every
  site, the board's lines, the text grid), computed once per variant;
- :mod:`.scene`: what one picture shows (a position from the replay, the last
  ply's places, the captions);
- :mod:`.svg`: the SVG renderer (``gamerec render``);
- :mod:`.text`: the text renderer (``gamerec replay``).

- :mod:`.pictures`: one picture of a record after a ply in one call (``render_svg``).

::

    from gamerec.validator.render import board_model, draw_svg, scenes
    for scene in scenes(record):
        svg = draw_svg(scene)

The names below load their module on first use, so the registry's board models (which need
only :mod:`.model`) do not load the renderers.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from gamerec.validator.render.model import BoardModel, board_model
    from gamerec.validator.render.pictures import render_svg, render_text
    from gamerec.validator.render.scene import (
        NoSuchPlyError,
        Scene,
        move_places,
        scene_at,
        scene_of,
        scenes,
        step_places,
    )
    from gamerec.validator.render.svg import SEAT_COLOURS, draw_svg
    from gamerec.validator.render.text import draw_text

_EXPORTS = {
    "BoardModel": "model",
    "board_model": "model",
    "render_svg": "pictures",
    "render_text": "pictures",
    "NoSuchPlyError": "scene",
    "Scene": "scene",
    "move_places": "scene",
    "scene_at": "scene",
    "scene_of": "scene",
    "scenes": "scene",
    "step_places": "scene",
    "SEAT_COLOURS": "svg",
    "draw_svg": "svg",
    "draw_text": "text",
}

__all__ = [
    "SEAT_COLOURS",
    "BoardModel",
    "NoSuchPlyError",
    "Scene",
    "board_model",
    "draw_svg",
    "draw_text",
    "move_places",
    "render_svg",
    "render_text",
    "scene_at",
    "scene_of",
    "scenes",
    "step_places",
]


def __getattr__(name: str) -> Any:
    """Import a name's module on first use (PEP 562)."""
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f"{__name__}.{module}"), name)
    globals()[name] = value
    return value
