"""A match's log is bounded: one draw offer per seat per ply, and a limit of events (issue 38).

10,001 draw offer/decline events were once accepted in one match (about 1.1 KiB of server
memory each). A seat now offers at most once after each ply; and a match whose log nears
``gamerec limits``' ``events`` is abandoned, as at the plies limit.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.match import EVENTS_ROOM, CommandRefusedError, Match
from tests.live.matches import HOST, new_match, request


def refused(call: object) -> CommandRefusedError:
    assert callable(call)
    with pytest.raises(CommandRefusedError) as caught:
        call()
    return caught.value


def test_a_seat_offers_a_draw_at_most_once_after_each_ply() -> None:
    match, clock = new_match("ONE")
    match.play(1, 1, "c7", clock.now())
    match.offer_draw(1, clock.now())
    match.answer_draw(2, False, clock.now())
    again = refused(lambda: match.offer_draw(1, clock.now()))
    assert (again.reason, again.field) == ("DRAW_OFFERED_ALREADY", "token")
    assert str(again) == (
        "seat 1 offered a draw after ply 1 already; it may offer again once another ply is played"
    )
    match.offer_draw(2, clock.now())  # the other seat's one offer of this ply
    match.answer_draw(1, False, clock.now())
    assert refused(lambda: match.offer_draw(2, clock.now())).reason == "DRAW_OFFERED_ALREADY"
    match.play(2, 2, "d9", clock.now())
    (offered,) = match.offer_draw(1, clock.now()).events
    assert offered.event.draw_offered.after_ply == 2
    match.answer_draw(2, False, clock.now())
    rebuilt = Match.from_log(match.events, host_key=HOST)
    assert refused(lambda: rebuilt.offer_draw(1, clock.now())).reason == "DRAW_OFFERED_ALREADY"


def test_ten_thousand_offers_and_declines_add_four_events() -> None:
    match, clock = new_match("ONE")
    before = match.last_event
    for _ in range(10_001):
        for seat, other in ((1, 2), (2, 1)):
            try:
                match.offer_draw(seat, clock.now())
                match.answer_draw(other, False, clock.now())
            except CommandRefusedError as error:
                assert error.reason == "DRAW_OFFERED_ALREADY"
    assert match.last_event - before == 4


def test_a_match_whose_log_is_full_is_abandoned_and_rebuilds_the_same() -> None:
    most = EVENTS_ROOM + 10
    clock = ManualClock()
    match = Match.create("m1", request("ONE", 2), clock.now(), host_key=HOST, max_events=most)
    tokens = iter(["c7", "d9", "a1", "a2", "b1", "b2", "c1", "c2", "d1", "d2", "e1", "e2"])
    outcome = None
    while match.is_open:
        outcome = match.play(match.to_move, match.plies + 1, next(tokens), clock.now())
        assert outcome.finding is None
    assert outcome is not None and outcome.refusal is not None
    assert outcome.refusal.reason == "TOO_MANY_EVENTS"
    assert str(outcome.refusal).startswith(
        f"the match is over: the match reached {most - EVENTS_ROOM + 1} events: the limit "
        f"(events {most}) less {EVENTS_ROOM}"
    )
    assert refused(lambda: match.offer_draw(1, clock.now())).reason == "MATCH_OVER"
    ended = match.ended
    assert ended is not None and ended.status == mpb.MATCH_STATUS_ABORTED
    assert ended.reason.endswith("kept for a command's own; it is abandoned with no result")
    assert match.last_event <= most
    rebuilt = Match.from_log(match.events, host_key=HOST, max_events=most)
    assert rebuilt.record == match.record and not rebuilt.is_open


def test_gamerec_limits_lists_the_events_limit() -> None:
    gamerec = str(Path(sys.executable).with_name("gamerec"))
    listed = subprocess.run(
        [gamerec, "limits"], capture_output=True, text=True, timeout=60, check=True
    ).stdout
    (line,) = [row for row in listed.splitlines() if row.startswith("events ")]
    assert "250,000" in line and "abandoned" in line
