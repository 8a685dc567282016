"""What a person types at ``gamerec play``, read into commands; completion of moves.

A line is a command word (``resign``, ``draw``, ``decline``, ``abort``, ``flip``, ``quit``,
``help``), ``?`` (list the legal moves), or a move in the game's notation (docs/notation.md):
a whole ply (ONE's ``b2xb4``), or in Oust the placements of a turn joined by ``,``
(``e5,f5``), which may also be typed one placement at a time. How the game being played
writes its moves is its registry entry's (``Wording.moves``). Words are read in any case; a move is
passed on as typed (the referee reads it and names what is wrong with it).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final


class Action(StrEnum):
    """What a typed line asks for."""

    MOVE = "move"
    HINT = "hint"
    RESIGN = "resign"
    DRAW = "draw"
    DECLINE = "decline"
    ABORT = "abort"
    FLIP = "flip"
    QUIT = "quit"
    HELP = "help"
    NOTHING = "nothing"


@dataclass(frozen=True, slots=True)
class Command:
    """A typed line, read.

    Attributes:
        action: what it asks for.
        decisions: for a move, its decisions (Oust's placements; one for other games).
    """

    action: Action
    decisions: tuple[str, ...] = ()

    @property
    def text(self) -> str:
        """The move as the referee takes it (the decisions joined by ``,``)."""
        return ",".join(self.decisions)


#: The command words and what each does (``help`` prints them).
WORDS: Final[dict[str, tuple[Action, str]]] = {
    "?": (Action.HINT, "list the legal moves (or the next placements of a turn)"),
    "resign": (Action.RESIGN, "resign the game"),
    "draw": (Action.DRAW, "offer a draw, or accept the one on offer"),
    "decline": (Action.DECLINE, "decline the draw on offer"),
    "abort": (Action.ABORT, "call the match off (until every seat has moved)"),
    "flip": (Action.FLIP, "turn the board upside down"),
    "quit": (Action.QUIT, "leave (a server's match goes on: play again to come back)"),
    "help": (Action.HELP, "list these commands"),
}


def read_command(line: str) -> Command:
    """The command a typed line asks for (see the module docstring)."""
    text = line.strip()
    if not text:
        return Command(Action.NOTHING)
    word = WORDS.get(text.lower())
    if word is not None:
        return Command(word[0])
    decisions = tuple(part.strip() for part in text.split(",") if part.strip())
    return Command(Action.MOVE, decisions)


def help_lines(moves: str) -> list[str]:
    """One line per command word, then how a move of the game is typed (``moves``)."""
    lines = [f"{word:<8} {what}" for word, (_, what) in WORDS.items()]
    lines.append(f"a move: {moves}")
    return lines


def completions(typed: str, legal: Sequence[str]) -> list[str]:
    """The legal moves and command words that complete ``typed`` (its last decision, in Oust).

    ``e5,f`` completes to ``e5,f5`` when ``f5`` is legal (``legal`` lists the next decision).
    """
    head, comma, last = typed.rpartition(",")
    prefix = head + comma
    found = [prefix + move for move in legal if move.lower().startswith(last.lower())]
    if not comma:
        found += [word for word in WORDS if word != "?" and word.startswith(typed.lower())]
    return found


def common_completion(typed: str, legal: Sequence[str]) -> str:
    """What ``typed`` can be completed to without a choice (itself when nothing is common)."""
    found = completions(typed, legal)
    if not found:
        return typed
    shortest = min(found, key=len)
    common = len(shortest)
    for other in found:
        while common and other[:common].lower() != shortest[:common].lower():
            common -= 1
    return shortest[:common] if common >= len(typed) else typed


def hint_lines(legal: Sequence[str], decided: Sequence[str], width: int = 76) -> list[str]:
    """The legal moves (or next decisions) wrapped in lines of at most ``width`` characters."""
    if not legal:
        return ["no legal move listed (resign is always legal)"]
    head = (
        f"after {','.join(decided)}, legal placements ({len(legal)}):"
        if decided
        else f"legal ({len(legal)}):"
    )
    lines = [head]
    line = ""
    for move in legal:
        if line and len(line) + 1 + len(move) > width:
            lines.append(line)
            line = ""
        line = f"{line} {move}" if line else move
    lines.append(line)
    return lines
