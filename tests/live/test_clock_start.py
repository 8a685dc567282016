"""When the clocks start (issue 35): with each seat's first move, or at a scheduled start.

A server's match no longer loses a seat on time before anyone connected: each seat's first
ply is untimed up to the abort limit (after which the match is aborted with no result), or
the clocks start at the time the creator scheduled. A match whose creation says neither
keeps its clocks running from the creation (a referee that runs the players itself).
"""

from __future__ import annotations

import pytest
from google.protobuf.timestamp_pb2 import Timestamp

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.judge import validate
from gamerec.validator.live.clocks import NS_PER_SECOND, ManualClock
from gamerec.validator.live.match import CommandRefusedError, Match
from tests.live.matches import HOST, moves_of, play_out, request

ABORT_MS = 60_000


def first_move_match(
    game: str = "ONE", clock: str = "300+3", seats: int = 2
) -> tuple[Match, ManualClock]:
    """A match as a server creates it: each seat's clock starts with its first move."""
    manual = ManualClock()
    made = request(game, seats, clock=clock, keyed=False)
    match = Match.create("m1", made, manual.now(), host_key=HOST, abort_after_ms=ABORT_MS)
    return match, manual


def scheduled_match(
    after: float, clock: str = "60", abort_after_ms: int | None = ABORT_MS
) -> tuple[Match, ManualClock]:
    """A match whose clocks start ``after`` seconds after its creation."""
    manual = ManualClock()
    made = request("ONE", 2, clock=clock, keyed=False)
    made.start_at.CopyFrom(at_seconds(manual, after))
    match = Match.create("m1", made, manual.now(), host_key=HOST, abort_after_ms=abort_after_ms)
    return match, manual


def at_seconds(manual: ManualClock, seconds: float) -> Timestamp:
    stamp = Timestamp()
    stamp.FromNanoseconds(manual.now().wall_ns + round(seconds * NS_PER_SECOND))
    return stamp


def play(match: Match, manual: ManualClock, text: str) -> mpb.MoveAccepted:
    outcome = match.play(match.to_move, match.plies + 1, text, manual.now())
    assert outcome.finding is None and outcome.refusal is None, outcome
    return moves_of(outcome)[0]


def test_each_seats_first_ply_is_untimed_and_its_clock_starts_with_its_next_turn() -> None:
    match, manual = first_move_match()
    created = match.events[0].event.created
    assert created.abort_after.ToMilliseconds() == ABORT_MS
    assert not created.HasField("clocks_start")
    manual.advance(50)
    state = match.state(manual.now())
    assert [c.ToMilliseconds() for c in state.clocks] == [300_000, 300_000]
    assert not state.clock_running
    assert state.abort_at.ToNanoseconds() == match.events[0].at.wall_ns + ABORT_MS * 10**6
    first = play(match, manual, "c7")
    assert [c.ToMilliseconds() for c in first.clocks] == [300_000, 300_000]
    assert first.time_used.ToMilliseconds() == 0
    assert first.move.comment == "Seat 1's first ply, untimed: its clock starts with its next turn."
    manual.advance(59.999)
    second = play(match, manual, "d9")
    assert [c.ToMilliseconds() for c in second.clocks] == [300_000, 300_000]
    assert second.move.comment.startswith("Seat 2's first ply, untimed")
    assert match.state(manual.now()).clock_running
    assert not match.state(manual.now()).HasField("abort_at")
    manual.advance(10)
    third = play(match, manual, "c9")
    assert [c.ToMilliseconds() for c in third.clocks] == [293_000, 300_000]
    assert third.time_used.ToMilliseconds() == 10_000 and third.move.comment == ""
    assert match.flag_falls_at() == manual.now().later(300 * NS_PER_SECOND)
    manual.advance(4)
    assert match.clocks_ms(manual.now()) == [293_000, 296_000]
    rebuilt = Match.from_log(match.events, host_key=HOST)
    assert rebuilt.record == match.record
    assert rebuilt.flag_falls_at() == match.flag_falls_at()
    assert rebuilt.clocks_ms(manual.now()) == match.clocks_ms(manual.now())


def test_a_seat_that_does_not_make_its_first_move_in_time_aborts_the_match() -> None:
    match, manual = first_move_match("Aronda", clock="10")
    manual.advance(5)
    play(match, manual, "o1")
    assert match.flag_falls_at() == manual.now().later(ABORT_MS * 10**6)
    manual.advance(59.999)
    assert match.flag(manual.now()).events == []
    manual.advance(0.001)
    (end,) = match.flag(manual.now()).events
    ended = end.event.ended
    assert ended.status == mpb.MATCH_STATUS_ABORTED and ended.seat == 2
    assert ended.reason == (
        "seat 2 did not make its first move within 60 s of its turn (the abort limit), so "
        "the match is aborted with no result"
    )
    assert ended.result.termination == pb.TERMINATION_ABANDONED and not ended.result.winners
    record = match.record
    assert record.comment == (
        "Seat 2 did not make its first move within 60 s of its turn (the abort limit), so the "
        "match is aborted with no result. Each seat's clock started with its first move; its "
        "first ply was untimed (abort limit 60 s)."
    )
    assert record.result.HasField("unfinished") and validate(record).valid


def test_a_first_move_that_comes_after_the_abort_limit_aborts_instead() -> None:
    match, manual = first_move_match()
    manual.advance(60)
    outcome = match.play(1, 1, "c7", manual.now())
    assert outcome.refusal is not None and outcome.refusal.reason == "NO_FIRST_MOVE"
    assert match.plies == 0 and match.ended is not None and match.ended.seat == 1
    with pytest.raises(CommandRefusedError, match="the match is over"):
        match.play(1, 1, "c7", manual.now())


def test_an_outage_during_an_untimed_first_ply_moves_the_abort_moment_on() -> None:
    match, manual = first_move_match()
    manual.advance(30)
    down_since = manual.now()
    manual.advance(100)
    match.outage(manual.now(), down_since)
    assert match.flag_falls_at() == manual.now().later(30 * NS_PER_SECOND)
    assert Match.from_log(match.events, host_key=HOST).flag_falls_at() == match.flag_falls_at()
    manual.advance(29)
    first = play(match, manual, "c7")
    assert first.time_used.ToMilliseconds() == 0
    assert first.move.comment.startswith("The server was down during this ply")
    assert first.move.comment.endswith(
        "Seat 1's first ply, untimed: its clock starts with its next turn."
    )


def test_a_match_without_a_clock_has_no_abort_limit() -> None:
    match, manual = first_move_match(clock="-")
    assert not match.events[0].event.created.HasField("abort_after")
    assert match.flag_falls_at() is None
    manual.advance(10**5)
    assert match.flag(manual.now()).events == []
    assert play(match, manual, "c7").move.comment == ""


def test_every_ply_of_a_played_out_match_is_in_its_record_and_it_validates() -> None:
    for game, seats in (("ONE", 3), ("Oh-Wah-Ree", 4), ("Oust", 2)):
        match, manual = first_move_match(game, clock="600+2", seats=seats)
        play_out(match, manual, seed=seats, sign=False)
        record = match.record
        untimed = [move.seat for move in record.moves if "first ply, untimed" in move.comment]
        assert untimed == list(range(1, seats + 1)), game
        assert validate(record).valid, game
        assert Match.from_log(match.events, host_key=HOST).record == record


def test_scheduled_clocks_start_at_their_time_and_plies_before_it_are_untimed() -> None:
    match, manual = scheduled_match(120)
    created = match.events[0].event.created
    assert created.clocks_start.ToJsonString() == "2026-01-01T00:02:00Z"
    assert not created.HasField("abort_after")
    assert match.flag_falls_at() == match.events[0].at.later(180 * NS_PER_SECOND)
    manual.advance(100)
    first = play(match, manual, "c7")
    assert first.move.comment == (
        "Played before the clocks' scheduled start, 2026-01-01T00:02:00Z: untimed."
    )
    assert [c.ToMilliseconds() for c in first.clocks] == [60_000, 60_000]
    manual.advance(10)
    assert not match.state(manual.now()).clock_running
    assert match.clocks_ms(manual.now()) == [60_000, 60_000]
    manual.advance(20)
    assert match.state(manual.now()).clock_running
    assert match.clocks_ms(manual.now()) == [60_000, 50_000]
    assert match.flag_falls_at() == match.events[0].at.later(180 * NS_PER_SECOND)
    manual.advance(50)
    (end,) = match.flag(manual.now()).events
    assert end.event.ended.reason == "seat 2's time ran out on ply 2; seat 1 wins"
    assert match.record.comment.endswith(
        "The clocks started at their scheduled start, 2026-01-01T00:02:00Z."
    )
    assert validate(match.record).valid


def test_a_scheduled_start_runs_the_clock_of_a_seat_that_never_comes() -> None:
    match, manual = scheduled_match(30, clock="10")
    manual.advance(39.999)
    assert match.flag(manual.now()).events == []
    manual.advance(0.001)
    (end,) = match.flag(manual.now()).events
    assert end.event.ended.result.termination == pb.TERMINATION_TIMEOUT
    assert end.event.ended.seat == 1


def test_a_ply_that_spans_the_scheduled_start_is_charged_from_the_start() -> None:
    match, manual = scheduled_match(5, clock="60+1")
    manual.advance(8)
    first = play(match, manual, "c7")
    assert first.time_used.ToMilliseconds() == 3_000 and first.move.comment == ""
    assert [c.ToMilliseconds() for c in first.clocks] == [58_000, 60_000]


@pytest.mark.parametrize(
    ("after", "clock", "reason"),
    [
        (0, "60", "START_PASSED"),
        (-5, "60", "START_PASSED"),
        (30 * 86400 + 1, "60", "START_TOO_FAR"),
        (60, "-", "NO_CLOCK"),
    ],
)
def test_a_scheduled_start_that_cannot_be_is_refused(after: float, clock: str, reason: str) -> None:
    manual = ManualClock()
    made = request("ONE", 2, clock=clock, keyed=False)
    made.start_at.CopyFrom(at_seconds(manual, after))
    with pytest.raises(CommandRefusedError) as refused:
        Match.create("m1", made, manual.now(), host_key=HOST)
    assert refused.value.field == "start_at" and refused.value.reason == reason


def test_a_match_created_without_either_keeps_its_clocks_from_the_creation() -> None:
    manual = ManualClock()
    match = Match.create(
        "m1", request("ONE", 2, clock="10", keyed=False), manual.now(), host_key=HOST
    )
    created = match.events[0].event.created
    assert not created.HasField("abort_after") and not created.HasField("clocks_start")
    assert match.flag_falls_at() == manual.now().later(10 * NS_PER_SECOND)
    manual.advance(2)
    assert match.state(manual.now()).clock_running
    assert play(match, manual, "c7").clocks[0].ToMilliseconds() == 8_000
