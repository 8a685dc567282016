"""The viewer's pages: size and build time of a 100-ply record's page (``gamerec view``).

Each page is set beside what ``gamerec render --all`` makes of the same record: the SVG
pictures of every ply, drawn from the same board model. The issue bounds a 100-ply page at
about 300 KB; its paint time in Chromium is measured by the browser tests
(``tests/viewer/test_browser.py`` writes ``build/viewer/hundred-plies.json``).
"""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from functools import partial
from typing import NamedTuple

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from gamerec.validator.render import draw_svg, scenes
from gamerec.validator.render.viewer import view_page

#: Games that run past 100 plies (generate's variant and seed), cut to 100 plies: Oust on its
#: largest board (217 cells, the most elements per picture) and Oh-Wah-Ree.
LONG_GAMES = {
    "Oust": ({"Board": "9"}, 7),
    "Oh-Wah-Ree": ({"Players": "2"}, 7),
}
PLIES = 100


class PageFigures(NamedTuple):
    """One record's page beside its pictures.

    Attributes:
        game: the game.
        page_bytes: the page's size.
        pictures_bytes: the size of the SVG pictures of every ply, added up.
        page_seconds: the median time to build the page (replay, verdict, page).
        pictures_seconds: the median time to draw the pictures of every ply.
    """

    game: str
    page_bytes: int
    pictures_bytes: int
    page_seconds: float
    pictures_seconds: float


def hundred_plies() -> dict[str, pb.GameRecord]:
    """Per game, the first generated game of at least 100 plies, cut to 100 (no claim)."""
    found = {}
    for game, (tags, seed) in LONG_GAMES.items():
        for record in generate(game, tags, count=5, seed=seed):
            if len(record.moves) >= PLIES:
                del record.moves[PLIES:]
                record.ClearField("result")
                found[game] = record
                break
    assert list(found) == list(LONG_GAMES)
    return found


def _pictures(record: pb.GameRecord) -> list[str]:
    """What ``gamerec render --all`` draws: the SVG picture of every ply."""
    return [draw_svg(scene) for scene in scenes(record)]


def _median(run: Callable[[], object], repetitions: int) -> float:
    times = []
    for _ in range(repetitions):
        started = time.perf_counter()
        run()
        times.append(time.perf_counter() - started)
    return statistics.median(times)


def measure(repetitions: int) -> list[PageFigures]:
    """Every long game's page and pictures: sizes and median times."""
    figures = []
    for game, record in hundred_plies().items():
        page = view_page(record).html
        pictures = _pictures(record)
        figures.append(
            PageFigures(
                game,
                len(page.encode()),
                sum(len(picture.encode()) for picture in pictures),
                _median(partial(view_page, record), repetitions),
                _median(partial(_pictures, record), repetitions),
            )
        )
    return figures
