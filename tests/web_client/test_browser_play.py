"""The web client in real browsers: seats play whole matches by clicking, a third page watches.

``gamerec serve --matches DB --web PORT`` runs in its own process; Debian's Chromium, driven
by Playwright (tests/chromium.py), opens the pages it serves at ``/``: each seat's page from
its link (``#play=<match>&seat=<n>&token=<token>``), the spectator's from ``#watch=<match>``.
Every finished record validates and verifies, and the spectator saw every move once, in
order; one match is played by a browser against ``gamerec bot``. Screenshots go to
build/web/ (and to docs/images/ with GAMEREC_UPDATE_SCREENSHOTS=1).
"""

from __future__ import annotations

import json
import os
import random
import signal
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import grpc
import pytest

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.v1 import verification_pb2 as wpb
from gamerec.validator.judge import validate
from gamerec.validator.render.ending import ending_words
from gamerec.validator.verification import verify
from tests.chromium import launched_chromium
from tests.live.conftest import LiveServer, create
from tests.live.matches import request
from tests.players.engines import GAMEREC
from tests.web_client.browsers import Page, Seat, free_port, play_out

ROOT = Path(__file__).resolve().parents[2]
OUT = ROOT / "build" / "web"
DOCS_IMAGES = ROOT / "docs" / "images"

pytestmark = pytest.mark.xdist_group("web-client")


class WebServer(LiveServer):
    """A live server with the web door on a fixed port (kept across a restart)."""

    def __init__(self, folder: Path) -> None:
        self.web_port = free_port()
        super().__init__(folder, "--web", str(self.web_port), clock=False)

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.web_port}/"

    def match_state(self, match_id: str) -> mpb.MatchState:
        with grpc.insecure_channel(self.address) as channel:
            stub = mgrpc.MatchServiceStub(channel)
            return stub.GetMatch(mpb.GetMatchRequest(match_id=match_id), timeout=30)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    web = WebServer(tmp_path_factory.mktemp("web"))
    yield web
    web.stop()


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with launched_chromium() as launched:
        yield launched


def screenshot(page: Page, name: str) -> None:
    """Write a screenshot to build/web/ (and docs/images/ when asked to)."""
    OUT.mkdir(parents=True, exist_ok=True)
    page.page.screenshot(path=str(OUT / name))
    if os.environ.get("GAMEREC_UPDATE_SCREENSHOTS"):
        page.page.screenshot(path=str(DOCS_IMAGES / name))


def open_match(
    server: WebServer, browser: Any, game: str, seats: int, clock: str = "600+5"
) -> tuple[str, list[Seat], Page]:
    """Create a match; a page per seat from its link and a spectator's page."""
    created = create(server.address, request(game, seats, clock=clock, keyed=False))
    match_id = created.match_id
    players = [
        Seat(browser, f"{server.base}#play={match_id}&seat={seat}&token={token}")
        for seat, token in enumerate(created.seat_tokens, start=1)
    ]
    return match_id, players, Page(browser, f"{server.base}#watch={match_id}")


#: The public keys a page's seats registered, as the page keeps them (web/src/keys.js).
PAGE_PUBLIC_KEYS = """() => new Promise((resolve, reject) => {
  const opening = indexedDB.open("gamerec", 1);
  opening.onupgradeneeded = () => opening.result.createObjectStore("seat-keys");
  opening.onsuccess = () => {
    const all = opening.result.transaction("seat-keys").objectStore("seat-keys").getAll();
    all.onsuccess = () => resolve(all.result.map((kept) => Array.from(kept.publicKey)));
    all.onerror = () => reject(all.error);
  };
  opening.onerror = () => reject(opening.error);
})"""


def page_public_keys(page: Page) -> set[bytes]:
    """The public keys of the seats a page (its browser context) holds keys for."""
    return {bytes(key) for key in page.page.evaluate(PAGE_PUBLIC_KEYS)}


def check_finished(
    server: WebServer,
    match_id: str,
    pages: list[Page],
    *,
    trusted: frozenset[bytes] = frozenset(),
) -> mpb.MatchState:
    """Every page says the end; the record validates and verifies; the watcher saw each move.

    ``trusted``: the seats' public keys, as their pages made them (the seats came through the
    lobby, whose pages make a key for their seat and sign with it); the record is then proven
    at seat level with those keys trusted. Empty: the seats were opened from links of a match
    the director made without keys, and the pages hold none (they cannot add one later).
    """
    for page in pages:
        page.page.wait_for_selector("body[data-finished=yes]", timeout=60_000)
    state = server.match_state(match_id)
    assert state.status == mpb.MATCH_STATUS_FINISHED
    record = state.record
    assert validate(record).valid
    verified = verify(record, {server.host_public, *trusted})
    assert verified.seal == spb.SEAL_STATUS_HOLDS
    assert wpb.PROOF_LEVEL_HOST in verified.proven
    if trusted:
        assert set(record.seal.seat_keys) == trusted and len(trusted) == len(record.seats)
        assert [finding.code for finding in verified.findings] == []
        assert wpb.PROOF_LEVEL_SEATS in verified.proven
        for ply, (move, sealed) in enumerate(zip(record.moves, record.seal.plies, strict=True)):
            signers = {signature.signer for signature in sealed.signatures}
            assert move.seat in signers, ply + 1  # each seat signed the head after its plies
        final = {signature.signer for signature in record.seal.final_signatures}
        assert set(range(1, len(record.seats) + 1)) <= final
    else:
        assert {finding.code for finding in verified.findings} == {"NO_KEY"}
    said = ending_words(record, seat=state.ended.seat)
    for page in pages:
        page.page.wait_for_function(
            "(said) => document.getElementById('ending')?.textContent === said", arg=said
        )
        assert page.errors == []
    watcher = pages[-1]
    shown = watcher.page.locator("#moves li").all_inner_texts()
    tokens = [move.seat for move in record.moves]
    assert len(shown) == len(record.moves) == state.plies
    assert [int(text.split(":")[0].removeprefix("seat ")) for text in shown] == tokens
    return state


def clock_seconds(text: str) -> int:
    """The seconds a clock's line shows (``seat 1 (Ana) (you) 9:58`` -> 598)."""
    minutes, seconds = text.rsplit(" ", 1)[1].split(":")
    return int(minutes) * 60 + int(seconds)


GAMES = [
    ("ONE", 2),
    ("Aronda", 2),
    ("Oust", 2),
    ("Oh-Wah-Ree", 2),
    ("ONE", 3),
    ("ONE", 4),
    ("Oh-Wah-Ree", 3),
    ("Oh-Wah-Ree", 4),
]


@pytest.mark.parametrize(("game", "seats"), GAMES)
def test_seats_play_a_whole_match_by_clicking_and_a_spectator_sees_every_move(
    server: WebServer, browser: Any, game: str, seats: int
) -> None:
    match_id, players, watcher = open_match(server, browser, game, seats, clock="900+5")
    try:
        play_out(players, random.Random(f"{game}:{seats}"))
        check_finished(server, match_id, [*players, watcher])
    finally:
        for page in (*players, watcher):
            page.close()


def test_a_refused_click_a_typed_move_a_declined_draw_a_resignation_and_the_download(
    server: WebServer, browser: Any, tmp_path: Path
) -> None:
    match_id, (one, two), watcher = open_match(server, browser, "ONE", 2)
    try:
        rng = random.Random(7)
        one.page.wait_for_selector("body[data-turn=mine]")
        one.act(rng)
        two.page.wait_for_function("document.body.dataset.turn === 'mine'")
        taken = one.page.locator("#moves li").first.inner_text().split(": ")[1]
        # A click on the stone seat 1 placed: the engine's reason, and nothing is sent.
        two.page.locator(f'#board [data-name="{taken}"]').click(force=True)
        two.page.wait_for_function("document.getElementById('message').textContent !== ''")
        assert "docs/rules/one.md" in two.page.inner_text("#message")
        # The same move typed: Play's finding, in the engine's words.
        two.page.fill("#typed", taken)
        two.page.click("#type-move button")
        two.page.wait_for_function(
            "document.getElementById('message').textContent.startsWith('Refused: ')"
        )
        assert "docs/rules/one.md" in two.page.inner_text("#message")
        assert server.match_state(match_id).plies == 1
        # A legal move typed.
        legal = two.page.locator("#board .site.legal").first.get_attribute("data-name")
        two.page.fill("#typed", str(legal))
        two.page.click("#type-move button")
        watcher.page.wait_for_selector("#moves li[data-ply='2']")
        # Seat 1's clock runs down on the page from the times the server sent.
        one.page.wait_for_selector("#clocks li.moving[data-seat='1']")
        before = one.page.inner_text("#clocks li.moving")
        one.page.wait_for_function(
            "(before) => document.querySelector('#clocks li.moving').textContent !== before",
            arg=before,
        )
        assert clock_seconds(one.page.inner_text("#clocks li.moving")) < clock_seconds(before)
        # A draw offered and declined.
        one.page.click("#offer-draw")
        two.page.wait_for_selector("#draw-answer:not([hidden])")
        two.page.click("#decline-draw")
        one.page.wait_for_function("document.body.dataset.draw === '0'")
        # The token left the address bar; the tab keeps it: after a reload the page is seat
        # 2's still, and no line the server logged holds a token.
        assert "token" not in two.page.evaluate("location.hash")
        two.page.reload()
        two.page.wait_for_selector("#offer-draw")
        assert "seat 2" in two.page.inner_text("#where")
        tokens = [link.split("token=")[1] for link in (one.url, two.url)]
        logged = json.dumps(server.process.lines)
        assert not [token for token in tokens if token in logged]
        # Seat 2 resigns: every page says so; the record downloads and is the server's.
        two.page.click("#resign")
        state = check_finished(server, match_id, [one, two, watcher])
        assert "resigned" in one.page.inner_text("#ending")
        screenshot(one, "web-finished.png")
        with one.page.expect_download() as download:
            one.page.click("#download")
        saved = tmp_path / "match.pb"
        download.value.save_as(saved)
        assert saved.read_bytes() == state.record.SerializeToString()
        # The finished match opened by its link: the replay viewer.
        replay = Page(browser, f"{server.base}#watch={match_id}")
        replay.page.wait_for_selector("#viewer")
        viewer = replay.page.frame_locator("#viewer")
        assert "resigned" in viewer.locator(".ending").inner_text()
        assert replay.errors == []
        replay.close()
    finally:
        for page in (one, two, watcher):
            page.close()


def test_a_seat_aborts_before_the_first_move(server: WebServer, browser: Any) -> None:
    match_id, (one, two), watcher = open_match(server, browser, "Aronda", 2)
    try:
        one.page.wait_for_selector("body[data-turn=mine]")
        two.page.click("#abort")
        for page in (one, two, watcher):
            page.page.wait_for_selector("body[data-finished=yes]")
            assert "aborted" in page.page.inner_text("#end-reason")
            assert page.errors == []
        assert server.match_state(match_id).status == mpb.MATCH_STATUS_ABORTED
    finally:
        for page in (one, two, watcher):
            page.close()


def test_pages_reconnect_after_the_server_is_killed_and_finish_the_match(
    tmp_path: Path, browser: Any
) -> None:
    server = WebServer(tmp_path)
    try:
        match_id, players, watcher = open_match(server, browser, "Oust", 2)
        rng = random.Random(35)
        play_out(players, rng, until_plies=6)
        screenshot(players[0], "web-play.png")
        server.process.process.send_signal(signal.SIGKILL)
        server.process.process.wait(timeout=30)
        watcher.page.wait_for_function(
            "document.getElementById('connection').textContent.startsWith('connection lost')"
            " || document.getElementById('connection').textContent.startsWith('reconnecting')"
        )
        server.restart()
        watcher.page.wait_for_function(
            "document.getElementById('connection').textContent === 'connected'", timeout=60_000
        )
        play_out(players, rng)
        check_finished(server, match_id, [*players, watcher])
        for page in (*players, watcher):
            page.close()
    finally:
        server.stop()


def test_a_challenge_opened_in_one_browser_is_taken_in_another_and_played(
    server: WebServer, browser: Any
) -> None:
    host = Seat(browser, server.base)
    guest = Seat(browser, server.base)
    try:
        host.page.fill("#name", "Ana")
        host.page.select_option("#game", "Oh-Wah-Ree")
        host.page.select_option("#seats", "2")
        host.page.fill("#clock", "300+2")
        host.page.click("#challenge-form button")
        guest.page.fill("#name", "Ben")
        row = guest.page.locator("#challenges tr", has_text="Ana")
        row.wait_for()
        assert "Oh-Wah-Ree" in row.inner_text() and "free" in row.inner_text()
        row.locator("button.take").click()
        for seat in (host, guest):
            seat.page.wait_for_function("location.hash.startsWith('#play=')")
            seat.page.wait_for_selector("body[data-turn]")
            assert "token" not in seat.page.evaluate("location.hash")
        match_id = host.page.evaluate("location.hash").split("=", 1)[1]
        watcher = Page(browser, f"{server.base}#watch={match_id}")
        names = [seat.name for seat in server.match_state(match_id).record.seats]
        assert names == ["Ana", "Ben"]
        # A third player's lobby: the match is live, with its players; a challenge of its own.
        third = Page(browser, server.base)
        third.page.wait_for_selector(f"#live tr[data-match='{match_id}']")
        assert "Ana – Ben" in third.page.inner_text("#live")
        third.page.fill("#name", "Chi")
        third.page.select_option("#seats", "3")
        third.page.click("#challenge-form button")
        third.page.wait_for_selector("#challenges button.cancel")
        assert "your seat 1, waiting" in third.page.inner_text("#challenges")
        screenshot(third, "web-lobby.png")
        third.page.click("#challenges button.cancel")
        third.page.wait_for_function("!document.querySelector('#challenges tr')")
        assert third.errors == []
        third.close()
        rng = random.Random(3)
        play_out([host, guest], rng, until_plies=6)
        host.page.reload()  # the token (sessionStorage) and the key (IndexedDB) are found again
        host.page.wait_for_selector("body[data-turn]")
        play_out([host, guest], rng)
        trusted = frozenset(page_public_keys(host) | page_public_keys(guest))
        check_finished(server, match_id, [host, guest, watcher], trusted=trusted)
        watcher.close()
    finally:
        host.close()
        guest.close()


def test_a_draw_offered_and_accepted_ends_the_match_by_agreement(
    server: WebServer, browser: Any
) -> None:
    match_id, (one, two), watcher = open_match(server, browser, "Oust", 2)
    try:
        one.page.wait_for_selector("body[data-turn=mine]")
        one.act(random.Random(5))
        one.page.click("#offer-draw")
        two.page.wait_for_selector("#draw-answer:not([hidden])")
        two.page.click("#accept-draw")
        state = check_finished(server, match_id, [one, two, watcher])
        assert state.record.result.termination == pb.TERMINATION_AGREEMENT
        assert one.page.is_hidden("#play")
    finally:
        for page in (one, two, watcher):
            page.close()


def test_a_browser_plays_a_whole_match_against_gamerec_bot(server: WebServer, browser: Any) -> None:
    """One seat in the browser, the other ``gamerec bot`` given only its token (WhoAmI)."""
    created = create(server.address, request("Aronda", 2, clock="900+5", keyed=False))
    match_id = created.match_id
    person = Seat(browser, f"{server.base}#play={match_id}&seat=1&token={created.seat_tokens[0]}")
    watcher = Page(browser, f"{server.base}#watch={match_id}")
    arguments = ["--server", server.address, "--token", created.seat_tokens[1]]
    bot = subprocess.Popen(
        [str(GAMEREC), "bot", *arguments, "--policy", "greedy"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        play_out([person], random.Random("browser against bot"))
        state = check_finished(server, match_id, [person, watcher])
        _, err = bot.communicate(timeout=120)
        assert bot.returncode == (0 if 2 in state.record.result.winners else 1), err
        assert {move.seat for move in state.record.moves} == {1, 2}
    finally:
        if bot.poll() is None:
            bot.kill()
            bot.communicate()
        for page in (person, watcher):
            page.close()
