"""What gamerec play's screen shows, from a match's state (pure functions, no terminal)."""

from __future__ import annotations

from google.protobuf.duration_pb2 import Duration
from rich.style import Style
from rich.text import Text

from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.play.screen import (
    board_picture,
    clock_text,
    ply_lines,
    screen_text,
    seat_colour,
    seat_lines,
    shown_clocks,
    status_line,
)
from tests.live.matches import new_match


def _styles_at(text: Text, offset: int) -> list[Style | str]:
    return [span.style for span in text.spans if span.start <= offset < span.end]


def test_clock_text_shows_tenths_only_when_time_is_short() -> None:
    assert clock_text(300_000) == "5:00"
    assert clock_text(59_999) == "0:59"
    assert clock_text(20_000) == "0:20"
    assert clock_text(19_999) == "0:19.9"
    assert clock_text(450) == "0:00.4"
    assert clock_text(-5) == "0:00.0"
    assert clock_text(3_723_000) == "1:02:03"


def _state(clocks_ms: list[int], to_move: int) -> mpb.MatchState:
    state = mpb.MatchState(status=mpb.MATCH_STATUS_OPEN, to_move=to_move)
    for ms in clocks_ms:
        clock = Duration()
        clock.FromMilliseconds(ms)
        state.clocks.append(clock)
    return state


def test_only_the_running_clock_counts_down_and_never_below_zero() -> None:
    assert shown_clocks(_state([300_000, 200_000], 2), 1_500) == [300_000, 198_500]
    assert shown_clocks(_state([300_000, 1_000], 2), 5_000) == [300_000, 0]
    assert shown_clocks(_state([], 1), 5_000) == []
    over = _state([10_000, 20_000], 1)
    over.status = mpb.MATCH_STATUS_FINISHED
    assert shown_clocks(over, 5_000) == [10_000, 20_000]


def test_the_board_marks_the_last_ply_and_colours_each_seat() -> None:
    match, clock = new_match("ONE", 2, Board="5,5")
    match.play(1, 1, "b2", clock.now())
    match.play(2, 2, "a1", clock.now())
    picture = board_picture(match.record)
    plain = picture.plain
    assert "[2]" in plain  # seat 2's stone on a1, the last ply, bracketed
    last = plain.index("[2]")
    assert Style(color=seat_colour(2), bold=True) in _styles_at(picture, last + 1)
    first = plain.index(" 1 ", plain.index("\n  b"))
    assert Style(color=seat_colour(1), bold=True) in _styles_at(picture, first + 1)
    # Labels and empty points are not coloured.
    assert _styles_at(picture, plain.index("  a") + 2) == []


def test_flip_turns_the_rows_upside_down_and_keeps_the_rest() -> None:
    match, clock = new_match("Oust", 2)
    match.play(1, 1, "g1", clock.now())
    upright = board_picture(match.record).plain.split("\n")
    flipped = board_picture(match.record, flipped=True).plain.split("\n")
    rows = [line for line in upright if line.lstrip().split(" ")[0].isdigit()]
    assert rows[-1].lstrip().startswith("1 ")
    flipped_rows = [line for line in flipped if line.lstrip().split(" ")[0].isdigit()]
    assert flipped_rows == rows[::-1]
    # The letters turn over with the rows: a's line over the top row comes under it.
    assert upright[0].split()[:2] == ["a", "b"] and upright[1].rstrip().endswith(" h")
    assert flipped[-2].split()[:2] == ["a", "b"] and flipped[-3].rstrip().endswith(" h")
    assert upright[-1] == flipped[-1] == "to move  seat 2"


def test_flip_of_a_pit_table_reverses_the_ring() -> None:
    match, _ = new_match("Oh-Wah-Ree", 2)
    flipped = board_picture(match.record, flipped=True).plain.split("\n")
    assert flipped[0].split() == ["pit", *map(str, range(12, 0, -1))]
    assert flipped[1].split() == ["seat", *"222222111111"]


def test_seats_plies_and_status_as_the_match_goes() -> None:
    match, clock = new_match("ONE", 2, clock="300+3", Board="5,5")
    clock.advance(10)
    match.play(1, 1, "b2", clock.now())
    state = match.state(clock.now())
    lines = seat_lines(state, me=1, elapsed_ms=2_500)
    assert lines == ["  seat 1  Ana (you)  4:53", "> seat 2  Ben  4:57"]
    assert ply_lines(state.record) == ["  1. b2           seat 1 <"]
    assert status_line(state, me=1) == "seat 2 to move, ply 2"
    assert status_line(state, me=2) == "your move, ply 2"
    match.offer_draw(1, clock.now())
    offered = match.state(clock.now())
    assert status_line(offered, me=1) == "seat 2 to move, ply 2; you offered a draw"
    assert status_line(offered, me=2).endswith(
        "seat 1 offered a draw (draw: accept, decline: decline)"
    )
    match.resign(2, clock.now())
    over = match.state(clock.now())
    assert status_line(over, me=1).startswith("game over: ")


def test_screen_text_holds_every_part() -> None:
    match, clock = new_match("ONE", 2, clock="60", Board="5,5")
    match.play(1, 1, "b2", clock.now())
    text = screen_text(match.state(clock.now()), 2, notes=["seat 1 offered a draw"])
    assert text.startswith("ONE  match m1  clock 60\n")
    for part in ("[1]", "> seat 2  Ben (you)  1:00", "  1. b2", "your move, ply 2"):
        assert part in text
    assert text.endswith("seat 1 offered a draw")


def test_the_pie_swap_is_said_in_the_plies_and_the_end_in_the_status() -> None:
    """Issue 34: ``2. swap`` alone said nothing; the resignation's end is said in words."""
    match, clock = new_match("Oust", 2)
    match.play(1, 1, "g7", clock.now())
    match.play(2, 2, "swap", clock.now())
    assert ply_lines(match.record)[1] == (
        "  2. swap         seat 2 <  (the pie rule: seat 2 takes the stone of ply 1 as its own, "
        "and seat 1 places next)"
    )
    match.resign(1, clock.now())
    over = match.state(clock.now())
    assert (
        status_line(over, me=1) == "game over: Seat 1 (Ana) resigned at ply 3: seat 2 (Ben) wins."
    )
