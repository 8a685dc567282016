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

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.render.model import BoardModel, board_model
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


def render_svg(record: pb.GameRecord, ply: int | None = None) -> str:
    """The SVG picture of ``record`` after ply ``ply`` (None: the last; 0: the start).

    Raises:
        RulesError, ReplayStoppedError, NoSuchPlyError: see :func:`scene_at`.
    """
    return draw_svg(scene_at(record, ply))


def render_text(record: pb.GameRecord, ply: int | None = None) -> str:
    """The text picture of ``record`` after ply ``ply``, as ``gamerec replay`` draws it.

    Raises:
        RulesError, ReplayStoppedError, NoSuchPlyError: see :func:`scene_at`.
    """
    scene = scene_at(record, ply)
    return draw_text(scene.model, scene.position, scene.placed)
