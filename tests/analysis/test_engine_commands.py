"""The engine's comment commands: what annotate --engine writes, the viewer reads back exactly."""

from __future__ import annotations

import pytest

from gamerec.validator.analysis.commands import (
    EngineCommandError,
    EngineNotes,
    drop_command,
    engine_command,
    is_engine_line,
    read_engine_commands,
    win_command,
    with_engine_commands,
    without_engine_commands,
)


def test_what_is_written_is_read_back_as_written() -> None:
    commands = f"{win_command((0.8123, 0.0, 0.1877))} {drop_command(0.3412, -6.54)}"
    comment = with_engine_commands("a bold sacrifice", commands)
    assert comment == "a bold sacrifice [%win 0.81,0.00,0.19] [%drop 0.34 -6.5]"
    assert read_engine_commands(comment, 3) == EngineNotes((0.81, 0.0, 0.19), 0.34, -6.5)
    line = engine_command(0.5512, 2.04)
    assert line == "[%engine 0.55 +2.0]" and is_engine_line(line)
    assert read_engine_commands(line, 2) == EngineNotes(engine=(0.55, 2.0))


def test_a_second_run_replaces_the_commands_and_keeps_the_words() -> None:
    once = with_engine_commands("sharp", "[%win 0.40,0.60]")
    twice = with_engine_commands(once, "[%win 0.45,0.55] [%drop 0.12 1.0]")
    assert twice == "sharp [%win 0.45,0.55] [%drop 0.12 1.0]"
    assert without_engine_commands(twice) == "sharp"
    assert with_engine_commands("", "[%win 0.50,0.50]") == "[%win 0.50,0.50]"
    # Other commands and look-alikes are a person's text, not the engine's.
    assert without_engine_commands("[%window 3] [%winner] x") == "[%window 3] [%winner] x"
    assert read_engine_commands("[%window 3] [%eval 12]", 2) == EngineNotes()


@pytest.mark.parametrize(
    ("comment", "reason"),
    [
        ("[%win 0.50,0.50] [%win 0.40,0.60]", "[%win] is given twice"),
        ("[%win 0.50]", "[%win 0.50] gives 1 chances for 2 seats"),
        ("[%win 0.5,0.5,0.0]", "gives 3 chances for 2 seats"),
        ("[%win nan,0.50]", "'nan' is not a decimal number"),
        ("[%win 1e-1,0.9]", "'1e-1' is not a decimal number"),
        ("[%win 1.50,0.10]", "the chance 1.50 is not between 0 and 1"),
        ("[%win]", "'' is not a decimal number"),
        ("[%drop 0.30]", "[%drop 0.30] needs two numbers"),
        ("[%drop -0.10 2.0]", "the chance -0.10 is not between 0 and 1"),
        ("[%drop 0.30 a]", "'a' is not a decimal number"),
        ("[%engine 0.50 +2.0 more]", "needs two numbers"),
        ("[%engine 0.50 +2.0] [%engine 0.50 +2.0]", "[%engine] is given twice"),
    ],
)
def test_what_cannot_be_read_exactly_is_refused_with_the_reason(comment: str, reason: str) -> None:
    with pytest.raises(EngineCommandError) as raised:
        read_engine_commands(comment, 2)
    assert reason in str(raised.value)


def test_the_message_is_bounded() -> None:
    with pytest.raises(EngineCommandError) as raised:
        read_engine_commands(f"[%win {'0.1,' * 10_000}0.1]", 2)
    assert len(str(raised.value)) < 120
