"""The win-probability graph in a real browser: one line per seat, a click goes to its ply.

A three-seat game annotated by ``gamerec annotate --engine`` (fixed seed, few playouts) is
opened from disk, network blocked and console errors failing the test (``Tab``). The pictures
of the graph and of the marked move list go to ``build/viewer/`` and, with
``GAMEREC_UPDATE_SCREENSHOTS=1``, to ``docs/images/`` (docs/analysis.md shows them).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamerec.validator.render import draw_svg, scene_at
from gamerec.validator.render.svg import SEAT_COLOURS
from tests.chromium import launched_chromium
from tests.viewer.test_browser import OUT, Tab, tab_node
from tests.viewer.test_graph import annotate_and_view
from tests.viewer.test_page import data_of

DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


def picture(element: Any, name: str) -> None:
    """A screenshot of an element in build/viewer/ (and docs/images/ when asked to)."""
    OUT.mkdir(parents=True, exist_ok=True)
    element.screenshot(path=str(OUT / name))
    if os.environ.get("GAMEREC_UPDATE_SCREENSHOTS"):
        element.screenshot(path=str(DOCS_IMAGES / name))


def graph_point(page: Any, ply: int) -> tuple[float, float]:
    """Where on the screen the graph shows ``ply`` (halfway up), scrolled into view."""
    page.locator("#win-graph").scroll_into_view_if_needed()
    box = page.locator("#win-graph").bounding_box()
    view = page.evaluate(
        "(() => { const v = document.getElementById('win-graph').viewBox.baseVal;"
        " return [v.width, v.height]; })()"
    )
    pad = float(page.get_attribute("#win-graph", "data-pad"))
    last = int(page.get_attribute("#win-graph", "data-last"))
    x = (pad + (view[0] - 2 * pad) * ply / last) * box["width"] / view[0]
    return box["x"] + x, box["y"] + box["height"] / 2


def test_the_graph_has_a_line_per_seat_and_a_click_goes_to_its_ply(
    browser: Any, tmp_path: Path
) -> None:
    shown = annotate_and_view("ohwahree-3p", tmp_path)
    path = tmp_path / "marked.html"
    graph = data_of(shown.html)["graph"]
    tab = Tab(browser, height=1400, scale=2)
    page = tab.open(path)
    lines = page.eval_on_selector_all(
        "#win-graph path.win-line",
        "(paths) => paths.map((p) => [p.dataset.seat, p.getAttribute('stroke')])",
    )
    assert lines == [[str(seat), SEAT_COLOURS[seat - 1]] for seat in (1, 2, 3)]
    page.mouse.click(*graph_point(page, 30))
    page.wait_for_function("document.body.dataset.node === '30'")
    assert tab.board() == tab.expected(draw_svg(scene_at(shown.record, 30)))
    assert page.inner_text(".mv.current").startswith("30.")
    chances = ", ".join(f"{chance:g}" for chance in graph["win"][graph["plies"].index(30)])
    assert f"Chances of winning {chances}." in page.inner_text("#status")
    assert page.evaluate("location.hash") == "#ply=30"
    cursor = float(page.get_attribute("#win-cursor", "x1"))
    assert cursor == pytest.approx(8 + 304 * 30 / graph["last"], abs=0.05)
    # A mark's dot is on the graph at its ply; the move list says it, with the better move.
    marks = graph["marks"]
    assert marks, "the run marks at least one ply"
    assert page.locator("#moves .mark").count() == len(marks)
    first = marks[0]
    page.click(f"#win-graph circle.win-mark[data-ply='{first['p']}']")
    page.wait_for_function(f"document.body.dataset.node === '{first['p']}'")
    said = page.inner_text(f"#node-{first['p']} ~ .mark")
    glyph = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}[first["k"]]
    assert said.startswith(f"{glyph} {first['k']}: chance -{first['d']:.2f}, score ")
    assert f"better {first['b']}" in said
    picture(page.locator("figure.win-chart"), "viewer-graph.png")
    page.click(f"#node-{first['p']} ~ .mark a.better")
    page.wait_for_function("location.hash.startsWith('#line=')")
    assert "(variation)" in page.inner_text("#status") and first["b"] in page.inner_text("#status")
    assert tab_node(page) > len(shown.record.moves)
    tab.close()
    # At phone width the graph shrinks with the page, and a click still finds its ply.
    phone = Tab(browser, width=390)
    page = phone.open(path)
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    page.mouse.click(*graph_point(page, 61))
    page.wait_for_function("document.body.dataset.node === '61'")
    phone.close()


def test_the_move_list_of_a_marked_game(browser: Any, tmp_path: Path) -> None:
    shown = annotate_and_view("one-2-seats-blunder", tmp_path)
    tab = Tab(browser, height=1400)
    page = tab.open(tmp_path / "marked.html", "#ply=5")
    assert page.inner_text(".mv.current").split() == ["5.", "1", "a2??"]
    blunder = page.locator("#node-5 ~ .mark")
    assert blunder.get_attribute("class") == "mark blunder"
    assert page.locator("#win-graph circle.win-mark.blunder[data-ply='5']").count() == 1
    assert len(shown.analysis.marks) == page.locator("#moves .mark").count()
    picture(page.locator("#moves"), "viewer-marks.png")
    tab.close()
