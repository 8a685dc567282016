"""Time controls: the notation, and each kind's clock arithmetic to the millisecond."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerec.validator.live.timecontrol import (
    MAX_SECONDS,
    NO_CLOCK,
    ClockKind,
    TimeControl,
    TimeControlError,
    parse_time_control,
)


@pytest.mark.parametrize(
    ("text", "kind", "base", "extra", "canonical"),
    [
        ("-", ClockKind.NONE, 0, 0, "-"),
        ("", ClockKind.NONE, 0, 0, "-"),
        ("300", ClockKind.SUDDEN_DEATH, 300_000, 0, "300"),
        ("300+3", ClockKind.FISCHER, 300_000, 3_000, "300+3"),
        (" 60+0.5 ", ClockKind.FISCHER, 60_000, 500, "60+0.5"),
        ("300D5", ClockKind.SIMPLE_DELAY, 300_000, 5_000, "300d5"),
        ("300b5", ClockKind.BRONSTEIN, 300_000, 5_000, "300b5"),
        ("30/move", ClockKind.PER_MOVE, 30_000, 0, "30/move"),
        ("0.125/MOVE", ClockKind.PER_MOVE, 125, 0, "0.125/move"),
        ("300.000+03", ClockKind.FISCHER, 300_000, 3_000, "300+3"),
    ],
)
def test_the_notation_reads_each_kind_and_writes_it_canonical(
    text: str, kind: ClockKind, base: int, extra: int, canonical: str
) -> None:
    control = parse_time_control(text)
    assert (control.kind, control.base_ms, control.extra_ms) == (kind, base, extra)
    assert control.notation == canonical
    assert parse_time_control(canonical) == control


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("300x3", "is not one of - (no clock), 300 (sudden death)"),
        ("5 min", "is not one of"),
        ("0", "the main time must be more than 0 seconds"),
        ("0+5", "the main time must be more than 0 seconds"),
        ("1.2345", "is not one of"),
        ("-300", "is not one of"),
        (f"{MAX_SECONDS + 1}", f"more than the most a control may give ({MAX_SECONDS:,} s)"),
        ("40/9000", "is not one of"),
    ],
)
def test_a_malformed_control_is_refused_with_the_forms_it_may_take(text: str, words: str) -> None:
    with pytest.raises(TimeControlError) as refused:
        parse_time_control(text)
    assert words in str(refused.value)
    assert repr(text) in str(refused.value)


def test_a_huge_control_text_gives_a_short_message() -> None:
    with pytest.raises(TimeControlError) as refused:
        parse_time_control("9" * 1_000_000)
    assert len(str(refused.value)) < 400


def test_sudden_death_leaves_what_was_not_used_and_falls_at_the_whole_clock() -> None:
    control = parse_time_control("300")
    assert control.budget_ms(12_000) == 12_000
    assert control.after_move_ms(12_000, 11_999) == 1
    assert control.next_turn_ms(1) == 1


def test_fischer_adds_the_increment_after_the_move() -> None:
    control = parse_time_control("300+3")
    assert control.budget_ms(10_000) == 10_000
    assert control.after_move_ms(10_000, 4_500) == 8_500


def test_simple_delay_charges_only_time_past_the_delay() -> None:
    control = parse_time_control("300d5")
    assert control.budget_ms(10_000) == 15_000
    assert control.after_move_ms(10_000, 4_999) == 10_000
    assert control.after_move_ms(10_000, 7_000) == 8_000
    assert control.after_move_ms(10_000, 14_999) == 1


def test_bronstein_gives_back_what_was_used_up_to_the_delay() -> None:
    control = parse_time_control("300b5")
    assert control.budget_ms(10_000) == 10_000
    assert control.after_move_ms(10_000, 2_000) == 10_000
    assert control.after_move_ms(10_000, 8_000) == 7_000


def test_a_limit_per_move_starts_anew_each_turn() -> None:
    control = parse_time_control("30/move")
    assert control.budget_ms(1) == 30_000
    assert control.after_move_ms(30_000, 29_000) == 1_000
    assert control.next_turn_ms(1_000) == 30_000


def test_no_clock_has_no_budget() -> None:
    assert NO_CLOCK.budget_ms(0) is None
    assert not NO_CLOCK.timed and NO_CLOCK.start_ms() is None


controls = st.builds(
    TimeControl,
    st.sampled_from([kind for kind in ClockKind if kind is not ClockKind.NONE]),
    st.integers(1, 10_000_000),
    st.integers(0, 100_000),
).map(
    lambda c: (
        c
        if c.kind in (ClockKind.FISCHER, ClockKind.SIMPLE_DELAY, ClockKind.BRONSTEIN)
        else TimeControl(c.kind, c.base_ms)
    )
)


@given(controls)
def test_the_notation_round_trips(control: TimeControl) -> None:
    assert parse_time_control(control.notation) == control


@given(controls, st.integers(0, 10_000_000), st.data())
def test_a_move_within_its_budget_leaves_a_positive_clock(
    control: TimeControl, remaining: int, data: st.DataObject
) -> None:
    remaining = max(1, remaining)
    budget = control.budget_ms(remaining)
    assert budget is not None and budget >= 1
    used = data.draw(st.integers(0, budget - 1))
    after = control.after_move_ms(remaining, used)
    assert after >= 1
    if control.kind is not ClockKind.PER_MOVE:
        # No kind ever gives more than the increment back.
        assert after <= remaining + control.extra_ms
