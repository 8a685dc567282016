"""The ONE rules engine: 2 to 6 seats, a board of rings and spokes, jump captures.

The rules are docs/rules/one.md; the move text is notation.md (ONE section). The package holds,
in the order every engine follows: ``board`` (constants and the board as data), ``variant``,
``legality`` (the reason codes; ``check`` and ``legal_moves``), ``state`` (playing, scoring,
pictures), ``notation``, ``replay`` (the fast replay) and ``engine`` (:data:`ENGINE`; its
random games and perft are those of ``protocol.BaseEngine``, playing listed moves unchecked).
Every name the rest of gamerec uses is re-exported here. Like every engine, the package may
import only the standard library, ``gamerec.recorder.errors``, the record's grammar
``gamerec.recorder.syntax.one`` and ``gamerec.validator.games.protocol``.

Moves
    A move is a plain tuple of *point codes*, ``Move = tuple[int, ...]``:

    - ``(p,)``: a placement on point ``p``;
    - ``(p0, p1, ..., pk)`` with k >= 1: a capture by the stone on ``p0`` that jumps k times,
      landing on ``p1`` .. ``pk`` in turn (``c7xc9xa5``);
    - ``()``: ``resign`` (:data:`RESIGN`).

    A point code is the point's name as a number, ``ring + 26 * index`` with ring 0 for ``a``
    (``c7`` is ``2 + 26 * 7 = 184``). It depends on the text alone, not on the board, so
    ``e1`` has a code on every board and ``check`` answers ``NO_SUCH_POINT`` where the board
    has no such point. :func:`point_code` and :func:`point_name` convert. The state keeps its
    cells in a list indexed by point code (``-1`` where a code names no point), so checking a
    move needs no translation.

State
    :class:`OneState` is mutable (the protocol's model): ``play`` changes it in place and
    ``copy`` gives an independent one.
"""

from __future__ import annotations

from gamerec.validator.games.one.board import (
    CODE_STRIDE,
    EMPTY,
    MAX_POINTS,
    MIN_RING_SIZE,
    NAME,
    NO_POINT,
    RING_LETTERS,
    RULES,
    Board,
    Line,
    board_for,
    point_name,
)
from gamerec.validator.games.one.engine import ENGINE, OneEngine
from gamerec.validator.games.one.legality import REASON_CODES, REASON_SECTIONS, OneLegality
from gamerec.validator.games.one.notation import RESIGN, Move, format_move, parse_move, point_code
from gamerec.validator.games.one.replay import replay
from gamerec.validator.games.one.state import _DIGITS as _DIGITS  # tests/games/frozen_results.py
from gamerec.validator.games.one.state import OneState
from gamerec.validator.games.one.variant import (
    DEFAULT_RINGS,
    MIRROR_OPTIONS,
    TIEBREAK_OPTIONS,
    OneVariant,
)

__all__ = [
    "CODE_STRIDE",
    "DEFAULT_RINGS",
    "EMPTY",
    "ENGINE",
    "MAX_POINTS",
    "MIN_RING_SIZE",
    "MIRROR_OPTIONS",
    "NAME",
    "NO_POINT",
    "REASON_CODES",
    "REASON_SECTIONS",
    "RESIGN",
    "RING_LETTERS",
    "RULES",
    "TIEBREAK_OPTIONS",
    "Board",
    "Line",
    "Move",
    "OneEngine",
    "OneLegality",
    "OneState",
    "OneVariant",
    "board_for",
    "format_move",
    "parse_move",
    "point_code",
    "point_name",
    "replay",
]
