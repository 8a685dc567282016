"""Pictures of positions: one board model per game, drawn as SVG or as text.

- :mod:`.model`: the board model of each game and variant (geometry of every
  site, the board's lines, the text grid), computed once per variant;
- :mod:`.scene`: what one picture shows (a position from the replay, the last
  ply's places, the captions);
- :mod:`.svg`: the SVG renderer (``gamerec render``);
- :mod:`.text`: the text renderer (``gamerec replay``).

::

    from gamerec.validator.render import board_model, draw_svg, scenes
    for scene in scenes(record):
        svg = draw_svg(scene)
"""

from __future__ import annotations

from gamerec.validator.render.model import BoardModel, board_model
from gamerec.validator.render.scene import Scene, move_places, scene_of, scenes, step_places
from gamerec.validator.render.svg import SEAT_COLOURS, draw_svg
from gamerec.validator.render.text import draw_text

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
