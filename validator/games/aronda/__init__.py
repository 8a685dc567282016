"""Aronda: the rules engine of docs/rules/aronda.md behind the protocol of ``protocol.py``.

Board: the 25 fields in board order ``c, i1..i8, m1..m8, o1..o8``. A field's *code* is its
index in that order (``c`` = 0, ``ik`` = k, ``mk`` = 8 + k, ``ok`` = 16 + k). A set of fields
is an ``int`` bitmask with bit ``code`` set for each field in it.

Move: a whole turn, a plain ``tuple[int, ...]`` (``Move``):

- ``(f,)`` or ``(f, g)``: one or two placements, in the order they are made (``o1,o3`` is
  ``(17, 19)``, ``m2,m2`` is ``(10, 10)``);
- ``PASS == (-1,)`` and ``RESIGN == (-2,)``;
- a well-formed field token that names no field (``i9``, ``o0``) gets a code of 25 or more
  that keeps its text (:func:`field_code`); ``check`` reports it as ``NO_SUCH_FIELD``.
  Turns of three or more placements parse too; ``check`` reports ``WRONG_PLACEMENT_COUNT``.

State: :class:`ArondaState` is mutable (``play`` changes it in place, ``copy`` forks it), as
the protocol asks. Its ``check``/``play`` follow the rules text step by step and recompute the
chains from scratch; :meth:`ArondaEngine.replay` is an independent, incremental hot path over
local bitmasks. Tests hold the two to the same verdicts.

Choices where the rules leave room (each is tested):

- A placement is checked in the order of the conditions of §4.2: ``FIELD_OWNED``, then
  ``NOT_CONNECTED``, then ``NO_PIECES_LEFT`` (after ``NO_SUCH_FIELD``).
- A turn whose first piece wins the game (§6.1) but that names a second piece is
  ``WRONG_PLACEMENT_COUNT``: the ply itself is the winning one, the extra piece is what is
  wrong with it (``GAME_ALREADY_OVER`` is kept for plies after the last one).
- A two-piece turn whose second piece has no legal field reports the second placement's own
  reason (``NO_PIECES_LEFT``, ``FIELD_OWNED`` ...); a one-piece turn whose second piece *has*
  a legal field is ``WRONG_PLACEMENT_COUNT``.
- Seat 1's first turn with two pieces, an empty turn and a turn of three or more pieces are
  ``WRONG_PLACEMENT_COUNT`` before any placement is looked at.
- A seat with no legal field at the start of its turn (§4.3) loses at once: the state after the
  previous ply is already over (``ending == "blocked"``), with the other seat as winner.
- Events: ``possession-inside`` / ``possession-outside`` per placement in play order (the
  outside fields of one placement in board order), with ``count`` = placement pieces that went
  back to the supplies; ``pass``, ``resign``, ``turn-ended`` (a turn of one piece after seat
  1's first); ``end`` when the game is over after the ply, with ``seat`` = the winner (0 on a
  draw).

The package's modules, each importing only those before it: ``board`` (the name, the rules
text and the board's tables), ``notation`` (moves and their tokens), ``variant``, ``reasons``
(reason codes, endings and the sentences of refusals), ``state`` (``ArondaState``), ``replay``
(the fast replay) and ``engine`` (``ArondaEngine``, ``ENGINE``). This module re-exports their
public names, so ``gamerec.validator.games.aronda`` reads as one module; it may import only
those modules (and, through them, ``protocol``, ``recorder.errors`` and the record's grammar).
"""

from __future__ import annotations

from gamerec.validator.games.aronda.board import (
    ALL_FIELDS,
    CAPACITY,
    EDGE,
    FIELD_CODES,
    FIELD_COUNT,
    FIELD_NAMES,
    FIELD_TABLE,
    NAME,
    NEIGHBOUR_MASK,
    NEIGHBOURS,
    RULES,
    SEATS,
    SUPPLY,
    WINNING_FIELDS,
    around,
    fields_in,
    take_from_outside,
)
from gamerec.validator.games.aronda.engine import (
    ENGINE,
    ArondaEngine,
)
from gamerec.validator.games.aronda.notation import (
    PASS,
    PASS_CODE,
    RESIGN,
    RESIGN_CODE,
    Move,
    field_code,
    field_name,
    format_move,
    parse_move,
)
from gamerec.validator.games.aronda.reasons import (
    ENDINGS,
    REASON_CODES,
    REASON_SECTIONS,
)
from gamerec.validator.games.aronda.state import (
    ArondaState,
)
from gamerec.validator.games.aronda.variant import (
    SECOND_PIECE_OPTIONS,
    SUPPLY_OPTIONS,
    ArondaVariant,
)

__all__ = [
    "ALL_FIELDS",
    "CAPACITY",
    "EDGE",
    "ENDINGS",
    "ENGINE",
    "FIELD_CODES",
    "FIELD_COUNT",
    "FIELD_NAMES",
    "FIELD_TABLE",
    "NAME",
    "NEIGHBOURS",
    "NEIGHBOUR_MASK",
    "PASS",
    "PASS_CODE",
    "REASON_CODES",
    "REASON_SECTIONS",
    "RESIGN",
    "RESIGN_CODE",
    "RULES",
    "SEATS",
    "SECOND_PIECE_OPTIONS",
    "SUPPLY",
    "SUPPLY_OPTIONS",
    "WINNING_FIELDS",
    "ArondaEngine",
    "ArondaState",
    "ArondaVariant",
    "Move",
    "around",
    "field_code",
    "field_name",
    "fields_in",
    "format_move",
    "parse_move",
    "take_from_outside",
]
