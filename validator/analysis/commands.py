"""The engine's comment commands, ``[%win]``, ``[%drop]`` and ``[%engine]``: written and read.

``gamerec annotate --engine`` (:mod:`.marks`) writes them into the comments of a record; the
viewer (:mod:`gamerec.validator.render.viewer.graph`) reads them back to draw the chances of
winning and the marks. Their one grammar is here, in pure Python (no protobuf, no search), so
that the renderer reads them without loading the search:

- ``[%win W1,W2,...]`` on a ply: each seat's chance of winning after it, in seat order,
  each from 0 to 1;
- ``[%drop D S]`` on a marked ply: how much the mover's chance of winning fell (0 to 1) and
  the score points its expected margin fell by (signed);
- ``[%engine W M]`` on the first move of the better line (a variation of the marked ply): the
  mover's chance of winning with it and its expected margin (signed).

A reader refuses what it cannot read exactly (a command given twice, a number it cannot
read, a chance outside 0..1, a count of chances other than the seats') with the reason, and
never picks one of two values.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from gamerec.recorder.errors import GamerecError

#: What starts the comment of an engine line's first move: it tells the engine's variations
#: from the others.
ENGINE_LINE: Final = "[%engine"
#: The longest argument an error message quotes.
_QUOTED: Final = 40
_COMMAND: Final = re.compile(r"\s*\[%(win|drop|engine)(?:\s+([^\]]*))?\]")
_NUMBER: Final = re.compile(r"[+-]?[0-9]+(?:\.[0-9]+)?")


class EngineCommandError(GamerecError):
    """An engine command that cannot be read exactly (the message says which and why)."""


def win_command(chances: Sequence[float]) -> str:
    """``[%win 0.81,0.19]``: each seat's chance of winning after a ply."""
    return f"[%win {','.join(f'{chance:.2f}' for chance in chances)}]"


def drop_command(drop: float, lost: float) -> str:
    """``[%drop 0.34 6.5]``: the mover's fall in chance of winning and in score points."""
    return f"[%drop {drop:.2f} {lost:.1f}]"


def engine_command(chance: float, margin: float) -> str:
    """``[%engine 0.55 +2.0]``: the mover's chance and expected margin on the better line."""
    return f"{ENGINE_LINE} {chance:.2f} {margin:+.1f}]"


def with_engine_commands(comment: str, commands: str) -> str:
    """``comment`` with its engine commands replaced by ``commands`` (after its text)."""
    text = without_engine_commands(comment)
    return f"{text} {commands}" if text else commands


def without_engine_commands(comment: str) -> str:
    """``comment`` without its engine commands: the words a person wrote."""
    return _COMMAND.sub("", comment).strip()


def is_engine_line(comment: str) -> bool:
    """Whether a variation's first move's comment marks it as the engine's better line."""
    return ENGINE_LINE in comment


@dataclass(frozen=True, slots=True)
class EngineNotes:
    """The engine commands of one comment.

    Attributes:
        win: each seat's chance of winning after the ply (``()``: no ``[%win]``).
        drop: the mover's fall in chance of winning (None: no ``[%drop]``, not marked).
        lost: the score points the mover's expected margin fell by (with ``drop``).
        engine: on an engine line's first move, the mover's chance and expected margin.
    """

    win: tuple[float, ...] = ()
    drop: float | None = None
    lost: float = 0.0
    engine: tuple[float, float] | None = None


def read_engine_commands(comment: str, seats: int) -> EngineNotes:
    """The engine commands of a comment, checked against the game's number of seats.

    Raises:
        EngineCommandError: a command given twice, or one whose values cannot be read
            (``[%win]`` must give ``seats`` chances).
    """
    found: dict[str, str] = {}
    for match in _COMMAND.finditer(comment):
        name, argument = match.group(1), (match.group(2) or "").strip()
        if name in found:
            raise EngineCommandError(f"[%{name}] is given twice")
        found[name] = argument
    win: tuple[float, ...] = ()
    if "win" in found:
        win = tuple(_chance("win", part) for part in found["win"].split(","))
        if len(win) != seats:
            raise EngineCommandError(
                f"[%win {_quoted(found['win'])}] gives {len(win)} chances for {seats} seats"
            )
    drop: float | None = None
    lost = 0.0
    if "drop" in found:
        drop_text, lost_text = _pair("drop", found["drop"])
        drop, lost = _chance("drop", drop_text), _number("drop", lost_text)
    engine = None
    if "engine" in found:
        chance_text, margin_text = _pair("engine", found["engine"])
        engine = (_chance("engine", chance_text), _number("engine", margin_text))
    return EngineNotes(win, drop, lost, engine)


def _quoted(text: str) -> str:
    return text if len(text) <= _QUOTED else text[:_QUOTED] + "…"


def _pair(name: str, argument: str) -> tuple[str, str]:
    words = argument.split()
    if len(words) != 2:
        raise EngineCommandError(f"[%{name} {_quoted(argument)}] needs two numbers")
    return words[0], words[1]


def _number(name: str, text: str) -> float:
    if not _NUMBER.fullmatch(text.strip()):
        raise EngineCommandError(f"[%{name}]: {_quoted(text)!r} is not a decimal number")
    return float(text)


def _chance(name: str, text: str) -> float:
    value = _number(name, text)
    if not 0 <= value <= 1:
        raise EngineCommandError(f"[%{name}]: the chance {_quoted(text)} is not between 0 and 1")
    return value
