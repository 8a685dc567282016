"""What a person types at gamerec play: commands, completion, the hint listing."""

from __future__ import annotations

import re

import pytest

from gamerec.recorder.errors import GamerecError
from gamerec.validator.games.registry import GameEntry, entries
from gamerec.validator.play.commands import (
    Action,
    Command,
    common_completion,
    completions,
    help_lines,
    hint_lines,
    read_command,
)


@pytest.mark.parametrize(
    ("line", "action"),
    [
        ("resign", Action.RESIGN),
        ("  Draw ", Action.DRAW),
        ("decline", Action.DECLINE),
        ("ABORT", Action.ABORT),
        ("flip", Action.FLIP),
        ("quit", Action.QUIT),
        ("help", Action.HELP),
        ("?", Action.HINT),
        ("", Action.NOTHING),
        ("   ", Action.NOTHING),
    ],
)
def test_command_words_are_read_in_any_case(line: str, action: Action) -> None:
    assert read_command(line) == Command(action)


def test_a_move_is_passed_on_as_typed_split_into_its_decisions() -> None:
    assert read_command("b2xb4") == Command(Action.MOVE, ("b2xb4",))
    placements = read_command(" e5, f5 ,k9 ")
    assert placements.decisions == ("e5", "f5", "k9")
    assert placements.text == "e5,f5,k9"
    # A word that is no command is a move: the referee names what is wrong with it.
    assert read_command("resignation") == Command(Action.MOVE, ("resignation",))


def test_completions_offer_the_legal_moves_and_command_words_that_fit() -> None:
    legal = ["a1", "a2", "b2xb4", "b5"]
    assert completions("a", legal) == ["a1", "a2", "abort"]
    assert completions("b2", legal) == ["b2xb4"]
    assert completions("B", legal) == ["b2xb4", "b5"]
    assert completions("zz", legal) == []
    # Completing the last placement of a turn: what came before is kept; no command word.
    assert completions("e5,f", ["f5", "f6", "g7"]) == ["e5,f5", "e5,f6"]
    assert completions("e5,", ["f5"]) == ["e5,f5"]


def test_common_completion_goes_as_far_as_every_completion_agrees() -> None:
    legal = ["b2xb4", "b2xb5", "c3"]
    assert common_completion("b", legal) == "b2xb"
    assert common_completion("c", legal) == "c3"
    assert common_completion("z", legal) == "z"
    assert common_completion("re", legal) == "resign"
    assert common_completion("", ["a1", "b1"]) == ""


def test_the_hint_lists_every_legal_move_wrapped() -> None:
    legal = [f"{letter}{number}" for letter in "abcdefgh" for number in range(1, 11)]
    lines = hint_lines(legal, (), width=30)
    assert lines[0] == "legal (80):"
    assert all(len(line) <= 30 for line in lines)
    assert " ".join(lines[1:]).split() == legal
    assert hint_lines(["f5"], ("e5",))[0] == "after e5, legal placements (1):"
    assert hint_lines([], ()) == ["no legal move listed (resign is always legal)"]


def test_help_names_every_command_word() -> None:
    text = "\n".join(help_lines("a cell (g7)"))
    for word in ("?", "resign", "draw", "decline", "abort", "flip", "quit", "help"):
        assert f"\n{word} " in f"\n{text}"
    assert text.endswith("\na move: a cell (g7)")


@pytest.mark.parametrize("entry", entries(), ids=lambda entry: entry.name)
def test_each_games_help_shows_tokens_of_that_game(entry: GameEntry) -> None:
    """Every example in a game's words on moves is a token of that game."""
    examples = re.findall(r"[a-z0-9,]+", " ".join(re.findall(r"\(([^)]*)\)", entry.wording.moves)))
    tokens = [token for example in examples for token in example.split(",") if token]
    assert tokens
    for token in tokens:
        try:
            entry.syntax.parse_move(token)
        except GamerecError as error:
            assert token == "pass", error  # a special, not a move form
