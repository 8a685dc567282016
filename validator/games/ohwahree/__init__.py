"""The Oh-Wah-Ree rules engine: 2, 3 or 4 seats round a ring of 12 pits (docs/rules/ohwahree.md).

Moves (notation.md, Oh-Wah-Ree section). ``Move = Sow | Literal["resign"]``:

- :class:`Sow` ``(pit, direction)``: the pit as written and the direction suffix, ``None`` for
  a bare pit. ``4`` is ``Sow(4)``, ``4ccw`` is ``Sow(4, "ccw")``, ``4cw`` is ``Sow(4, "cw")``.
  A number that is not a pit (``13``, ``0``) is still a move: ``check`` says ``NOT_A_PIT``.
- :data:`RESIGN` (the string ``"resign"``): the seat to move resigns.

Directions: where the mover chooses (3 seats; 4 seats with ``Direction`` ``free``) the suffix is
required, and a bare pit is ``DIRECTION_REQUIRED``. Where every move is counter-clockwise (2
seats; 4 seats with ``Direction`` ``ccw``) the bare pit is the move; ``4ccw`` is accepted as the
same move (rules §4.1 says so for 4 seats; this engine treats 2 seats alike), and ``4cw`` is
``DIRECTION_NOT_ALLOWED``. ``legal_moves`` lists the canonical form only, and ``format_move``
writes it.

A game need not end: with 4 seats and ``Direction`` ``ccw``, three lone stones four pits apart
go round the ring for ever, every move forced (the rules have no repetition rule, §8.2). Such a
record is legal and unfinished; :func:`random_game` stops when it sees the cycle.

States are mutable (``protocol``): ``play`` changes the state in place. A position can also be
set up directly with :meth:`OhWahReeState.from_position`, as the worked examples E4-E6 are.

:func:`replay` does not use the state class for ordinary plies: it keeps the whole position
(12 pits and the stores) packed in one integer, a fixed-width bit field per pit, and plays each
ply with precomputed sowing tables, so that a ply is a handful of integer operations. Anything
out of the ordinary (an illegal ply, a resignation, a sowing longer than the tables) is handed
to the state class, which gives the verdict.

The package holds, in the order every engine follows: ``pits`` (the constants and the ring as
data), ``variant``, ``notation`` (the moves and their tokens), ``state`` (the reason codes and
:class:`OhWahReeState`), ``replay`` (the fast replay) and ``engine`` (random games and
:data:`ENGINE`). Every name the rest of gamerec uses is re-exported here. Like every engine, the
package may import only the standard library, ``gamerec.recorder.errors``, the record's grammar
``gamerec.recorder.syntax.ohwahree`` and ``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from gamerec.validator.games.ohwahree.engine import ENGINE, OhWahReeEngine, random_game
from gamerec.validator.games.ohwahree.notation import RESIGN, Move, Sow, format_move, parse_move
from gamerec.validator.games.ohwahree.pits import (
    DIRECTION_RULES,
    DIRECTION_STEP,
    NAME,
    PIT_COUNT,
    RULES,
    SowDirection,
    last_pit,
    pit_owners,
    seat_pits,
)
from gamerec.validator.games.ohwahree.replay import replay
from gamerec.validator.games.ohwahree.state import (
    REASON_CODES,
    REASON_SECTIONS,
    OhWahReeState,
    PositionError,
    check_position,
)
from gamerec.validator.games.ohwahree.variant import OhWahReeVariant

__all__ = [
    "DIRECTION_RULES",
    "DIRECTION_STEP",
    "ENGINE",
    "NAME",
    "PIT_COUNT",
    "REASON_CODES",
    "REASON_SECTIONS",
    "RESIGN",
    "RULES",
    "Move",
    "OhWahReeEngine",
    "OhWahReeState",
    "OhWahReeVariant",
    "PositionError",
    "Sow",
    "SowDirection",
    "check_position",
    "format_move",
    "last_pit",
    "parse_move",
    "pit_owners",
    "random_game",
    "replay",
    "seat_pits",
]
