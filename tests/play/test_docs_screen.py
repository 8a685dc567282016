"""The picture of gamerec play's screen in docs/playing.md is what screen_text draws."""

from __future__ import annotations

import re
from pathlib import Path

from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.match import Match
from gamerec.validator.live.players import PolicyPlayer
from gamerec.validator.play.screen import screen_text
from tests.live.matches import rules

ROOT = Path(__file__).resolve().parents[2]
PAGE = ROOT / "docs" / "playing.md"


def shown_screen() -> str:
    """A game of ONE on the 5x5 board, Ana (the person) against the random bot, at ply 7."""
    clock = ManualClock()
    request = mpb.CreateMatchRequest(
        rules=rules("ONE", 2, Board="5,5"),
        seats=[mpb.MatchSeat(name="Ana"), mpb.MatchSeat(name="random 2")],
        time_control="300+3",
    )
    match = Match.create("d0206ec60eef9c55", request, clock.now())
    player = PolicyPlayer(match.record, "random", 3)
    for seconds in (4.2, 1.0, 12.9, 0.8, 7.5, 1.1):
        clock.advance(seconds)
        token = player.next_ply()
        match.play(match.to_move, match.plies + 1, token, clock.now())
        player.played(token)
    clock.advance(3.4)
    notes = ["you offered a draw", "seat 2 declined the draw"]
    return screen_text(match.state(clock.now()), 1, notes=notes)


def test_the_page_shows_the_screen_as_drawn() -> None:
    page = PAGE.read_text(encoding="utf-8")
    found = re.search(r"<!-- screen -->\n```text\n(.*?)\n```", page, re.DOTALL)
    assert found, "docs/playing.md has no ```text block after <!-- screen -->"
    assert found.group(1) == shown_screen()
