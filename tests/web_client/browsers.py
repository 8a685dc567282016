"""Browser pages of the web client (validator/web/static), driven by Playwright like a player.

A :class:`Seat` clicks as a person does: a random site the page marks legal, or one of the
moves the page offers once the clicks complete a turn; it waits for the page to show the
answer before the next click (the page's ``data-shown`` says what it shows).
"""

from __future__ import annotations

import random
import socket
import time
from dataclasses import dataclass, field
from typing import Any

#: Plies after which a test match is ended by a resignation (random play can go on long).
MOST_PLIES = 400
#: Seconds a whole match may take in the browser on a busy 2-core machine.
MATCH_SECONDS = 900.0


def free_port() -> int:
    """A port free on 127.0.0.1 now (the web door's, fixed so a restarted server keeps it)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@dataclass
class Page:
    """A page in its own browser context, with its console errors collected."""

    browser: Any
    url: str
    errors: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.context = self.browser.new_context(
            viewport={"width": 1200, "height": 860}, accept_downloads=True
        )
        self.page = self.context.new_page()
        self.page.on("pageerror", lambda error: self.errors.append(f"pageerror: {error}"))
        self.page.on("console", self._console)
        self.page.goto(self.url)

    def _console(self, message: Any) -> None:
        if message.type == "error" and "Failed to load resource" not in message.text:
            self.errors.append(f"console: {message.text}")

    def data(self, name: str) -> str:
        """The page's ``document.body.dataset[name]`` (``""`` when unset)."""
        return str(self.page.evaluate(f"document.body.dataset.{name} || ''"))

    def close(self) -> None:
        self.context.close()


class Seat(Page):
    """A seat's page that plays by clicking."""

    def my_turn(self) -> bool:
        return self.data("turn") == "mine" and self.data("shown").split(":")[0] == self.data(
            "plies"
        )

    def act(self, rng: random.Random) -> None:
        """One click: a legal site, or a move the clicks made (or a special move now and then)."""
        before = self.data("shown")
        page = self.page
        sites = page.locator("#board .site.legal")
        moves = page.locator("#completions button")
        count, offered = sites.count(), moves.count()
        if int(self.data("plies") or 0) >= MOST_PLIES:
            page.click("#resign")
        elif offered and (not count or rng.random() < 0.1):
            moves.nth(rng.randrange(offered)).click()
        elif count:
            sites.nth(rng.randrange(count)).click(force=True)
        else:
            raise AssertionError(f"nothing to click at {before}: {page.inner_text('#status')}")
        self.wait_changed(before)

    def wait_changed(self, before: str) -> None:
        """Until the page shows something else than ``before`` (or it is no longer our turn)."""
        self.page.wait_for_function(
            "(before) => document.body.dataset.shown !== before"
            " || document.body.dataset.turn !== 'mine'",
            arg=before,
            timeout=60_000,
        )


def play_out(seats: list[Seat], rng: random.Random, *, until_plies: int = 0) -> None:
    """The seats take their turns until the match is over (or has ``until_plies`` plies)."""
    end = time.monotonic() + MATCH_SECONDS
    while time.monotonic() < end:
        if all(seat.data("finished") == "yes" for seat in seats):
            return
        if until_plies and int(seats[0].data("plies") or 0) >= until_plies:
            return
        moving = [seat for seat in seats if seat.my_turn()]
        for seat in moving:
            seat.act(rng)
        if not moving:
            time.sleep(0.05)
    raise AssertionError("the match did not end in time")
