"""Oust: the rules engine of docs/rules/oust.md (hex-hex board, group captures, pie rule).

Moves
    A ``Move`` is one whole turn, which is one ply:

    * a tuple of one or more **cell codes**, the turn's placements in order: ``e5,f5,k9`` is
      ``(cell_code("e5"), cell_code("f5"), cell_code("k9"))``; every placement but the last is
      capturing (docs/rules/oust.md §4.2);
    * one of the strings :data:`PASS`, :data:`SWAP`, :data:`RESIGN`.

    A cell code is an ``int`` that names a cell whatever the board size:
    ``code = 32 * (number - 1) + letter`` with ``a`` = 0, so ``g7`` is ``32 * 6 + 6 = 198``.
    Every well-formed name has a code, also one that is not on the board (``z99``, ``a1`` on
    side 7): such a move parses, and :meth:`OustState.check` reports ``NO_SUCH_CELL``. The code
    is also the cell's bit in the engine's bitboards (rows of 32 bits), so each of the six
    neighbours of a cell is a fixed shift away and a whole group's neighbours are six shifts.

Turns and placements
    ``check``, ``play`` and :meth:`OustEngine.replay` take whole turns. Because an Oust turn
    chains placements, :meth:`OustState.legal_moves` lists the legal next *placements*, each as a
    one-placement move, plus ``swap`` and ``pass`` where legal (architecture.md). A capturing
    placement listed there is the start of a turn, not a whole turn: as a whole turn it is
    ``MUST_PLACE_AGAIN`` while the mover has a legal placement left. To walk a turn placement by
    placement use :meth:`OustState.place` (it says whether the turn goes on),
    :meth:`OustState.legal_placements` and :meth:`OustState.check_placement`; while a turn is
    under way (:attr:`OustState.in_turn`) ``check`` and ``play`` take the *rest* of the turn.
    :meth:`OustState.legal_turns` yields every complete turn; :func:`perft` counts them
    (the generic ``protocol.perft`` would count placements, not turns, and does not apply).

State
    Mutable (``play`` and ``place`` change the state in place; ``copy`` for what-if). The board
    is two bitboards, one per seat, plus group bookkeeping: every stone knows the root cell of
    its group and every root knows its group's bitboard. Groups only ever merge (captures remove
    whole groups), so a merge relabels the smaller groups into the largest one and finding a
    stone's group is two list lookups; no placement floods the board.

Modules
    Each imports only those before it: ``board`` (the name, the rules text, cell codes and the
    board's tables), ``notation`` (moves and their tokens), ``variant``, ``reasons`` (reason
    codes and the words of messages), ``groups`` (groups and captures on bitboards), the four
    classes that make ``OustState`` (``stones``, ``legality``, ``turns``, ``state``), ``replay``
    (the fast replay) and ``engine`` (random games, perft, ``OustEngine``, ``ENGINE``). This
    module re-exports their public names, so ``gamerec.validator.games.oust`` reads as one
    module; it may import only those modules.
"""

from __future__ import annotations

from gamerec.validator.games.oust.board import (
    DEFAULT_SIDE,
    MAX_SIDE,
    MIN_SIDE,
    NAME,
    ROW_BITS,
    RULES,
    HexBoard,
    cell_name,
    cells_of,
    hex_board,
)
from gamerec.validator.games.oust.engine import (
    ENGINE,
    MAX_RANDOM_PLIES,
    OustEngine,
    perft,
    play_chosen_turn,
    random_game,
)
from gamerec.validator.games.oust.notation import (
    PASS,
    RESIGN,
    SWAP,
    Move,
    Special,
    Turn,
    cell_code,
    format_move,
    parse_move,
)
from gamerec.validator.games.oust.reasons import (
    REASON_CODES,
    REASON_SECTIONS,
)
from gamerec.validator.games.oust.replay import (
    replay,
)
from gamerec.validator.games.oust.state import (
    OustState,
)
from gamerec.validator.games.oust.variant import (
    OustVariant,
)

__all__ = [
    "DEFAULT_SIDE",
    "ENGINE",
    "MAX_RANDOM_PLIES",
    "MAX_SIDE",
    "MIN_SIDE",
    "NAME",
    "PASS",
    "REASON_CODES",
    "REASON_SECTIONS",
    "RESIGN",
    "ROW_BITS",
    "RULES",
    "SWAP",
    "HexBoard",
    "Move",
    "OustEngine",
    "OustState",
    "OustVariant",
    "Special",
    "Turn",
    "cell_code",
    "cell_name",
    "cells_of",
    "format_move",
    "hex_board",
    "parse_move",
    "perft",
    "play_chosen_turn",
    "random_game",
    "replay",
]
