"""The viewer in a real browser: Debian's headless Chromium, driven by Playwright.

Every page is opened from disk with the network blocked (any request that is not the file
itself fails the test), and every test fails on a console error or an uncaught exception. The
board a page shows is compared element by element with what ``gamerec render`` draws for the
same ply (both parsed by the browser). Screenshots of each game's page, and the size and paint
time of a 100-ply page, are written to ``build/viewer/`` (``make test`` runs this; the
figures are printed, not asserted).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from gamerec.recorder.codecs import read_records
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.render import draw_svg, scene_at
from gamerec.validator.render.viewer import view_page
from tests.chromium import launched_chromium
from tests.viewer.records import (
    hundred_plies,
    legal_moves,
    legal_places,
    one_record,
    write_folder,
)

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "build" / "viewer"
#: One page per game for the screenshots (and the README's pictures).
SHOWN = {
    "one": "fixtures/valid/one-e2-two-jumps.grn",
    "aronda": "fixtures/games/aronda.grn",
    "oust": "fixtures/games/oust-side7.grn",
    "ohwahree": "fixtures/games/ohwahree-3p.grn",
    "invalid": "fixtures/invalid/one-landing-occupied.grn",
}

#: A picture's elements as comparable text: tag, sorted attributes, text.
SIGNATURES = """(root) => Array.from(root.children).map((element) =>
  [element.localName,
   Array.from(element.attributes).map((a) => a.name + '=' + a.value).sort().join(' '),
   element.textContent].join('|')).sort()"""


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


class Tab:
    """A page in its own context, network blocked, console errors collected."""

    def __init__(self, browser: Any, width: int = 1280, height: int = 900, scale: int = 1) -> None:
        self.context = browser.new_context(
            viewport={"width": width, "height": height}, device_scale_factor=scale
        )
        self.blocked: list[str] = []
        self.errors: list[str] = []
        self.context.route("**/*", self._route)
        self.page = self.context.new_page()
        self.page.on("console", self._console)
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))

    def _route(self, route: Any) -> None:
        if route.request.url.startswith(("file://", "data:")):
            route.continue_()
        else:
            self.blocked.append(route.request.url)
            route.abort()

    def _console(self, message: Any) -> None:
        if message.type in ("error", "warning"):
            self.errors.append(f"{message.type}: {message.text}")

    def open(self, path: Path, fragment: str = "", ready: str = "body[data-node]") -> Any:
        self.page.goto(path.as_uri() + fragment)
        self.page.wait_for_selector(ready, state="attached")
        return self.page

    def node(self) -> int:
        return tab_node(self.page)

    def board(self) -> list[str]:
        fixed = self.page.eval_on_selector("#board > g.sites", SIGNATURES)
        drawn = self.page.eval_on_selector("#position", SIGNATURES)
        return sorted(fixed + drawn)

    def expected(self, svg: str) -> list[str]:
        """The sites, contents and marks of an SVG picture, parsed by the browser."""
        script = f"""(svg) => {{
            const parsed = new DOMParser().parseFromString(svg, 'image/svg+xml');
            const signatures = {SIGNATURES};
            return ['sites', 'contents', 'marks'].flatMap((name) =>
                signatures(parsed.querySelector('g.' + name)));
        }}"""
        return sorted(self.page.evaluate(script, svg))

    def close(self) -> None:
        assert self.blocked == [], "the page asked the network"
        assert self.errors == [], "the page logged errors"
        self.context.close()


@pytest.fixture
def tab(browser: Any) -> Iterator[Tab]:
    opened = Tab(browser)
    yield opened
    opened.close()


def page_file(tmp_path: Path, fixture: str, name: str = "game.html") -> tuple[Path, pb.GameRecord]:
    record = one_record(ROOT / fixture)
    target = tmp_path / name
    target.write_text(view_page(record).html, encoding="utf-8")
    return target, record


def tab_node(page: Any) -> int:
    return int(page.get_attribute("body", "data-node"))


def current_move(tab: Tab) -> str:
    return str(tab.page.inner_text(".mv.current"))


def test_right_twelve_times_shows_ply_12(tab: Tab, tmp_path: Path) -> None:
    path, record = page_file(tmp_path, "fixtures/games/one-3p.grn")
    page = tab.open(path)
    assert "start position" in page.inner_text("#caption")
    page.focus("body")
    for _ in range(12):
        page.keyboard.press("ArrowRight")
    assert tab.board() == tab.expected(draw_svg(scene_at(record, 12)))
    twelfth = scene_at(record, 12)
    assert current_move(tab).split() == ["12.", str(twelfth.seat), twelfth.token]
    assert page.get_attribute(".mv.current", "aria-current") == "step"
    assert page.inner_text("#caption") == twelfth.title
    assert page.inner_text("#status").startswith(f"Ply 12: Seat {twelfth.seat}")
    assert page.evaluate("location.hash") == "#ply=12"
    scores = page.eval_on_selector_all(
        "#seats .score", "(cells) => cells.map((c) => c.textContent)"
    )
    assert scores == [str(score) for score in twelfth.scores]


def test_end_and_home(tab: Tab, tmp_path: Path) -> None:
    path, record = page_file(tmp_path, "fixtures/games/aronda.grn")
    page = tab.open(path)
    page.keyboard.press("End")
    last = scene_at(record)
    assert page.inner_text("#caption") == last.title
    assert tab.board() == tab.expected(draw_svg(last))
    assert page.is_disabled("button[data-go=next]") and page.is_enabled("button[data-go=prev]")
    page.keyboard.press("Home")
    assert tab.node() == 0 and "start position" in page.inner_text("#caption")


def test_a_fragment_link_opens_at_its_ply_and_a_click_goes_to_a_move(
    tab: Tab, tmp_path: Path
) -> None:
    path, record = page_file(tmp_path, "fixtures/games/oust-side7.grn")
    page = tab.open(path, "#ply=23")
    assert tab.board() == tab.expected(draw_svg(scene_at(record, 23)))
    assert current_move(tab).startswith("23.")
    page.click("#moves a[href='#ply=40']")
    page.wait_for_function("document.body.dataset.node === '40'")
    assert tab.board() == tab.expected(draw_svg(scene_at(record, 40)))
    assert current_move(tab).startswith("40.")


def test_an_invalid_record_opens_at_its_wrong_ply_with_the_finding(
    tab: Tab, tmp_path: Path
) -> None:
    path, record = page_file(tmp_path, "fixtures/invalid/one-landing-occupied.grn")
    page = tab.open(path)
    finding = page.inner_text("#finding")
    assert page.is_visible("#finding")
    assert "LANDING_OCCUPIED" in finding and "landing point a8 is occupied" in finding
    assert "Rule: docs/rules/one.md §4.2" in finding
    assert current_move(tab).split()[:3] == ["23.", "2", "c15xa8"]
    shown = page.evaluate(  # the move list has scrolled to it
        """() => { const list = document.getElementById('moves').getBoundingClientRect();
          const move = document.querySelector('.mv.current').getBoundingClientRect();
          return move.top >= list.top && move.bottom <= list.bottom; }"""
    )
    assert shown
    assert "ply 23 refused" in page.inner_text("#caption")
    assert page.inner_text("#verdict .word") == "INVALID"
    # The board: the position before ply 23, the refused move ringed, the legal places marked.
    before = tab.expected(draw_svg(scene_at(record, 22)))
    drawn = tab.board()
    assert set(before) <= set(drawn)
    assert page.locator("#position .wrong-move").count() == 2  # c15 and a8
    assert page.locator("#position .legal").count() == len(legal_places(record, 22))
    assert f"Legal here ({len(legal_moves(record, 22))}," in finding


def test_variations_are_entered_and_left_with_the_keys(tab: Tab, tmp_path: Path) -> None:
    path, record = page_file(tmp_path, "fixtures/valid/one-e2-two-jumps.grn")
    page = tab.open(path, "#ply=6")
    page.keyboard.press("ArrowDown")
    line = pb.GameRecord(rules=record.rules, seats=record.seats)
    line.moves.extend(record.moves[:6])
    line.moves.extend(record.moves[6].variations[0].moves)
    assert tab.board() == tab.expected(draw_svg(scene_at(line, 7)))
    assert page.evaluate("location.hash") == "#line=1&ply=7"
    assert "variation" in page.inner_text("#status")
    page.keyboard.press("ArrowUp")
    assert page.evaluate("location.hash") == "#ply=6"
    page.keyboard.press("ArrowRight")
    assert tab.board() == tab.expected(draw_svg(scene_at(record, 7)))


def test_buttons_take_focus_and_work_from_the_keyboard(tab: Tab, tmp_path: Path) -> None:
    path, _ = page_file(tmp_path, "fixtures/games/ohwahree-2p.grn")
    page = tab.open(path)
    page.focus("button[data-go=next]")
    page.keyboard.press("Enter")
    page.keyboard.press("Space")
    assert tab.node() == 2
    assert page.evaluate("document.activeElement.dataset.go") == "next"
    assert page.get_attribute("#status", "aria-live") == "polite"
    assert page.inner_text("#status").startswith("Ply 2:")


def test_the_index_links_every_page(tab: Tab, tmp_path: Path) -> None:
    folder, count = write_folder(ROOT / "fixtures" / "valid" / "collection.pbs", tmp_path / "out")
    page = tab.open(folder / "index.html", ready="table.index")
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / "index.png"))
    links = page.eval_on_selector_all("table.index a", "(links) => links.map((a) => a.href)")
    assert len(links) == count == len(list(read_records(ROOT / "fixtures/valid/collection.pbs")))
    for link in links:
        assert Path(link.removeprefix("file://")).is_file()
    page.click("table.index a >> nth=2")
    page.wait_for_selector("body[data-node]", state="attached")
    assert page.url.endswith("game-003.html")
    page.click("a.back")
    page.wait_for_selector("table.index")


def test_phone_width_has_no_sideways_scrolling(browser: Any, tmp_path: Path) -> None:
    path, _ = page_file(tmp_path, "fixtures/games/oust-side7.grn")
    phone = Tab(browser, width=390)
    page = phone.open(path, "#ply=30")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator("#board").bounding_box()
    assert box is not None and 300 <= box["width"] <= 390
    for _ in range(5):  # stepping keeps the board in view: the page itself does not scroll
        page.keyboard.press("ArrowRight")
    assert page.evaluate("window.scrollY") == 0 and tab_node(page) == 35
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / "oust-phone.png"), full_page=True)
    phone.close()


@pytest.mark.parametrize("name", sorted(SHOWN))
def test_a_screenshot_of_each_game(browser: Any, tmp_path: Path, name: str) -> None:
    path, record = page_file(tmp_path, SHOWN[name])
    fragment = "" if name == "invalid" else f"#ply={min(len(record.moves), 14)}"
    tall = Tab(browser, height=1240)
    page = tall.open(path, fragment)
    OUT.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(OUT / f"{name}.png"))
    tall.close()
    assert (OUT / f"{name}.png").stat().st_size > 10_000


def test_a_hundred_ply_page_size_and_paint_time(tab: Tab, tmp_path: Path) -> None:
    figures = {}
    for name, record in hundred_plies().items():
        path = tmp_path / f"{name}.html"
        html = view_page(record).html
        path.write_text(html, encoding="utf-8")
        page = tab.open(path)
        paint = page.evaluate(  # the first paint may come after the script has run
            """() => new Promise((done) => {
                new PerformanceObserver((list, observer) => {
                  if (list.getEntriesByName('first-contentful-paint').length) {
                    observer.disconnect();
                    done(performance.getEntriesByType('paint').map((e) => [e.name, e.startTime]));
                  }
                }).observe({type: 'paint', buffered: true});
            })"""
        )
        stepped = page.evaluate(
            """() => { const t = performance.now();
                for (let i = 0; i < 100; i += 1) {
                  document.dispatchEvent(new KeyboardEvent('keydown', {key: 'ArrowRight'}));
                }
                return (performance.now() - t) / 100; }"""
        )
        figures[name] = {
            "plies": len(record.moves),
            "bytes": len(html.encode()),
            **{entry: round(time, 1) for entry, time in paint},
            "ms per step": round(stepped, 2),
        }
        assert len(html.encode()) < 300_000
        assert tab.node() == 100
    OUT.mkdir(parents=True, exist_ok=True)
    (OUT / "hundred-plies.json").write_text(json.dumps(figures, indent=2) + "\n")
    print(json.dumps(figures, indent=2))
