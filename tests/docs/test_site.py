"""The documentation site: built strict, its reference pages complete, and whole in a browser.

The site is built once per run, by the first test process that asks (``mkdocs build
--strict`` into the run's temporary folder: any warning, broken link or missing anchor fails
it), then served on 127.0.0.1 and opened in
the headless Chromium of the viewer tests. Every page is visited from the home page by its
links; every internal link must resolve (the anchor too), external links are only checked to
be well-formed ``http(s)`` addresses (never fetched), no page may ask any host but the local
one, and the site's search must find ``seal``, ``standings`` and ``Verify``.
"""

from __future__ import annotations

import contextlib
import fcntl
import functools
import os
import re
import subprocess
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urldefrag, urlsplit

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError
from typer.testing import CliRunner

import gamerec
from gamerec.cli.limits import limit_tables
from gamerec.cli.main import COMMANDS, app
from gamerec.v1 import service_pb2
from gamerec.validator.finding_codes import RECORD_CODES, SEAL_CODES
from gamerec.validator.games.registry import entries
from scripts.docs_site.references import PAGES
from tests.chromium import launched_chromium

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The site, built strict from this tree, once for all the test processes of a run."""
    shared = tmp_path_factory.getbasetemp()
    if os.environ.get("PYTEST_XDIST_WORKER"):
        shared = shared.parent  # the run's folder, above each worker's own
    out = shared / "docs-site"
    with (shared / "docs-site.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not (out / "index.html").is_file():
            build_site(out)
    return out


def build_site(out: Path) -> None:
    """``mkdocs build --strict`` into ``out``; any warning fails it."""
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(out)],
        cwd=ROOT,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert built.returncode == 0, f"mkdocs build --strict failed:\n{built.stderr}"
    assert "WARNING" not in built.stderr, built.stderr


def page_text(site: Path, page: str) -> str:
    return (site / page / "index.html").read_text(encoding="utf-8")


def test_the_command_line_reference_has_every_command_and_option(site: Path) -> None:
    html = page_text(site, "reference/cli")
    for name in COMMANDS:
        assert f'id="gamerec-{name}"' in html, name
    for option in ("--limit", "--scheduler", "--trust", "--keep", "--points", "--auto"):
        assert f"<code>{option}</code>" in html, option


def test_the_grpc_reference_has_every_rpc_and_message(site: Path) -> None:
    html = page_text(site, "reference/grpc")
    service = service_pb2.DESCRIPTOR.services_by_name["RecordService"]
    for method in service.methods:
        assert f'id="rpc-{method.name.lower()}"' in html, method.name
        assert f'id="type-{method.input_type.name.lower()}"' in html, method.input_type.name
    assert "The referee service. Every call is stateless." in html


def test_the_python_reference_has_every_name_of_the_front_door(site: Path) -> None:
    html = page_text(site, "reference/python")
    for name in gamerec.__all__:
        if name != "__version__":
            assert f'id="gamerec.{name}"' in html, name
    assert "Read every record of a file, standard input or binary stream" in html


def test_the_findings_reference_has_every_code_with_a_real_sentence(site: Path) -> None:
    html = page_text(site, "reference/findings")
    codes = {*RECORD_CODES, *SEAL_CODES}
    for entry in entries():
        codes |= set(entry.engine.reason_codes)
    for code in codes:
        assert f"<code>{code}</code>" in html, code
    assert "landing point a8 is occupied (docs/rules/one.md §4.2)" in html
    assert 'href="../../rules/one/#42-capture' in html


def printed_limits() -> list[tuple[str, str]]:
    """Each (name, default) of every table ``gamerec limits`` prints, read from its output."""
    result = CliRunner().invoke(app, ["limits"])
    assert result.exit_code == 0, result.output
    rows = []
    for line in result.stdout.splitlines():
        words = line.split()
        if len(words) >= 3 and re.fullmatch(r"[a-z][a-z-]*", words[0]):
            rows.append((words[0], words[1]))
    return rows


def test_gamerec_limits_prints_every_table() -> None:
    names = {name for name, _ in printed_limits()}
    assert {"record-bytes", "open-matches", "token-rate", "admin-open-matches"} <= names
    for table in limit_tables():
        assert {name for name, _, _ in table.rows()} <= names, table.heading


def test_the_limits_page_lists_every_limit_gamerec_limits_prints() -> None:
    page = PAGES["reference/limits.md"]()
    for name, default in printed_limits():
        assert f"| `{name}` | {default} |" in page, name


def test_the_limits_reference_is_what_gamerec_limits_prints(site: Path) -> None:
    html = page_text(site, "reference/limits")
    for name, default in printed_limits():
        assert re.search(rf"<code>{name}</code></td>\s*<td[^>]*>{default}</td>", html), name


@dataclass
class Crawl:
    """What a walk over the site found."""

    pages: set[str] = field(default_factory=set)
    broken: list[str] = field(default_factory=list)
    external: set[str] = field(default_factory=set)
    asked_elsewhere: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    #: (page, anchor, the page linking to it) of every link with an anchor.
    fragments: list[tuple[str, str, str]] = field(default_factory=list)


class QuietHandler(SimpleHTTPRequestHandler):
    """The site's files, without a log line per request."""

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def served(site: Path) -> Iterator[str]:
    """The built site on 127.0.0.1 (a free port), stopped after the module."""
    server = ThreadingHTTPServer(
        ("127.0.0.1", 0), functools.partial(QuietHandler, directory=str(site))
    )
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=30)


# Module scope, never session: a live Playwright keeps its event loop in the process, which
# the asyncio tests that a worker runs after this module must not find there.
@pytest.fixture(scope="module")
def browser_page(served: str) -> Iterator[tuple[Any, Crawl]]:
    """A page of the browser that may ask only the local site; what it met is recorded."""
    crawl = Crawl()
    with launched_chromium() as browser:
        context = browser.new_context(viewport={"width": 1280, "height": 900})

        def route(request_route: Any) -> None:
            url = request_route.request.url
            if url.startswith((served, "data:", "blob:")):
                request_route.continue_()
            else:
                crawl.asked_elsewhere.append(url)
                request_route.abort()

        context.route("**/*", route)
        page = context.new_page()
        page.on("pageerror", lambda error: crawl.errors.append(f"pageerror: {error}"))
        page.on(
            "console",
            lambda message: (
                crawl.errors.append(f"{message.type}: {message.text}")
                if message.type == "error"
                else None
            ),
        )
        yield page, crawl
        context.close()


LINKS = """() => Array.from(document.querySelectorAll('a[href], img[src], link[href], script[src]'))
  .map((element) => [element.getAttribute('href') ?? element.getAttribute('src'),
                     element.href ?? element.src])"""


class SiteWalk:
    """A walk over the site from its home page, following every internal link."""

    def __init__(self, page: Any, served: str, crawl: Crawl) -> None:
        """Start at the home page."""
        self.page = page
        self.served = served
        self.crawl = crawl
        self.queue = [served]
        self.files: set[str] = set()
        self.anchors: dict[str, set[str]] = {}

    def run(self) -> None:
        """Visit every page, then check every anchor and file the pages link to."""
        while self.queue:
            self.visit(self.queue.pop())
        for target, fragment, source in self.crawl.fragments:
            if target in self.anchors and fragment not in self.anchors[target]:
                self.crawl.broken.append(f"{source}: no anchor #{fragment} in {target}")
        for file in sorted(self.files):
            answer = self.page.request.get(file)
            if answer.status != 200:
                self.crawl.broken.append(f"{file}: status {answer.status}")

    def visit(self, url: str) -> None:
        """Open a page, note its anchors, and check each of its links."""
        if url in self.crawl.pages:
            return
        response = self.page.goto(url)
        if response is None or response.status != 200:
            status = response.status if response is not None else None
            self.crawl.broken.append(f"{url}: status {status}")
            return
        self.crawl.pages.add(url)
        ids = self.page.eval_on_selector_all("[id]", "(els) => els.map((e) => e.id)")
        self.anchors[url] = set(ids)
        for written, resolved in self.page.evaluate(LINKS):
            self.check_link(url, written, resolved)

    def check_link(self, source: str, written: str, resolved: str) -> None:
        """Queue an internal page, note a file or an anchor, or check an external address."""
        if not resolved.startswith(self.served):
            parts = urlsplit(resolved)
            if parts.scheme in ("http", "https") and parts.netloc and " " not in resolved:
                self.crawl.external.add(resolved)
            elif parts.scheme != "mailto":
                self.crawl.broken.append(f"{source}: {written!r} is not a well-formed address")
            return
        target, fragment = urldefrag(resolved)
        if fragment:
            self.crawl.fragments.append((target, unquote(fragment), source))
        if target.endswith(("/", ".html")):
            self.queue.append(target)
        else:
            self.files.add(target)


def test_every_page_and_link_of_the_site_in_a_browser(
    browser_page: tuple[Any, Crawl], served: str, site: Path
) -> None:
    page, crawl = browser_page
    SiteWalk(page, served, crawl).run()
    assert crawl.broken == [], "links that do not resolve"
    built = {
        str(path.parent.relative_to(site))
        for path in site.rglob("index.html")
        if path.parent.relative_to(site).parts[:1] != ("assets",)
    }
    visited = {urlsplit(url).path.strip("/") or "." for url in crawl.pages}
    assert built <= visited, f"pages no link leads to: {sorted(built - visited)}"
    assert crawl.asked_elsewhere == [], "the site asked another host"
    assert crawl.errors == [], "the pages logged errors"
    assert all(urlsplit(url).scheme == "https" for url in crawl.external), crawl.external
    assert len(crawl.external) < 20, sorted(crawl.external)


@pytest.mark.parametrize(
    ("word", "expected_page"),
    [("seal", "signing/"), ("standings", "collections/"), ("Verify", "reference/grpc/")],
)
def test_search_finds(
    browser_page: tuple[Any, Crawl], served: str, word: str, expected_page: str
) -> None:
    page, _ = browser_page
    page.goto(served)
    # The search worker builds its index from a 0.9 MB file after the page loads; a word
    # typed before then can be lost on a busy machine, so wait for its "ready" placeholder.
    page.wait_for_function(
        "() => document.querySelector('.md-search-result__meta')?.textContent"
        " === 'Type to start searching'",
        timeout=120_000,
    )
    # Typed key by key as a reader does: a value set at once (fill) is missed by the search
    # box after a reload of the same page.
    page.locator("input.md-search__input").press_sequentially(word)
    results = page.locator(".md-search-result__item a")
    results.first.wait_for(timeout=60_000)
    # The list is filled as the worker answers: wait for the page among the results as they
    # come, rather than judge the first ones drawn (on a busy machine, a partial list).
    wanted = served + expected_page
    with contextlib.suppress(PlaywrightTimeoutError):  # the assertion names what was found
        page.wait_for_function(
            "(wanted) => [...document.querySelectorAll('.md-search-result__item a')]"
            ".some((link) => link.href.startsWith(wanted))",
            arg=wanted,
            timeout=60_000,
        )
    hrefs = results.evaluate_all("(links) => links.map((link) => link.href)")
    assert any(href.startswith(wanted) for href in hrefs), hrefs
    assert word.lower() in page.inner_text(".md-search-result__list").lower()
