"""The offline HTML replay viewer: one self-contained page per record (``gamerec view``).

- :mod:`.tree`: every position of the main line and its variations, drawn by the SVG
  renderer from the board model;
- :mod:`.page`: the page (board, moves, verdict, seats, chart) and the index of many pages;
- ``viewer.js`` and ``viewer.css``: the page's script and style, inlined into every page.

::

    from gamerec.validator.render.viewer import render_html
    Path("game.html").write_text(render_html(record))
"""

from gamerec.validator.render.viewer.page import (
    IndexEntry,
    ViewerPage,
    index_page,
    render_html,
    view_page,
)

__all__ = ["IndexEntry", "ViewerPage", "index_page", "render_html", "view_page"]
