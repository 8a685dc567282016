"""Pictures of positions: one board model per game, drawn as SVG or as text.

- :mod:`validator.render.model`: the board model of each game and variant (geometry of every
  site, the board's lines, the text grid), computed once per variant;
- :mod:`validator.render.scene`: what one picture shows (a position from the replay, the last
  ply's places, the captions);
- :mod:`validator.render.svg`: the SVG renderer (``gamerec render``);
- :mod:`validator.render.text`: the text renderer (``gamerec replay``).

::

    from validator.render import board_model, draw_svg, scenes
    for scene in scenes(record):
        svg = draw_svg(scene)
"""

from __future__ import annotations

from validator.render.model import BoardModel, board_model
from validator.render.scene import Scene, move_places, scene_of, scenes, step_places
from validator.render.svg import SEAT_COLOURS, draw_svg
from validator.render.text import draw_text

__all__ = [
    "SEAT_COLOURS",
    "BoardModel",
    "Scene",
    "board_model",
    "draw_svg",
    "draw_text",
    "move_places",
    "scene_of",
    "scenes",
    "step_places",
]
