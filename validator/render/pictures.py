"""One picture of a record after a ply, in one call: SVG or text."""

from __future__ import annotations

from gamerec.recorder.arguments import require_record
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.render.scene import scene_at
from gamerec.validator.render.svg import draw_svg
from gamerec.validator.render.text import draw_text


def render_svg(record: pb.GameRecord, ply: int | None = None) -> str:
    """The SVG picture of ``record`` after ply ``ply`` (None: the last; 0: the start).

    Raises:
        RulesError, ReplayStoppedError, NoSuchPlyError: see :func:`scene_at`.
    """
    require_record(record, "render_svg")
    return draw_svg(scene_at(record, ply))


def render_text(record: pb.GameRecord, ply: int | None = None) -> str:
    """The text picture of ``record`` after ply ``ply``, as ``gamerec replay`` draws it.

    Raises:
        RulesError, ReplayStoppedError, NoSuchPlyError: see :func:`scene_at`.
    """
    require_record(record, "render_text")
    scene = scene_at(record, ply)
    return draw_text(scene.model, scene.position, scene.placed)
