"""Exact Oh-Wah-Ree endgames: tables of two-seat positions solved by retrograde analysis.

What it holds: the numbering of two-seat Oh-Wah-Ree positions with up to N stones on the board
(``positions``), the retrograde analysis that solves them over the rules engine (``build``), the
table file format (``tablefile``, docs/tables.md states it byte by byte), the probes that
read a table (``probing``: ``lookup(state)`` gives the exact final score margin under perfect
play for the side to move, or None when the table does not cover the position) and what
``gamerec tables probe`` reads and says (``reading``: a typed position, a record's position).

What it may import: the standard library, ``gamerec.recorder.errors`` and the Oh-Wah-Ree engine
(``gamerec.validator.games.ohwahree``): every move, capture, end and score comes from the
engine's own ``legal_moves``, ``play``, ``is_over`` and ``scores``; no rule is written here a
second time. ``reading`` also uses ``gamerec.validator.identity`` and ``gamerec.validator.replay``
to reach a record's position. Nothing of ``gamerec.cli``. Only ``tablefile`` and ``probing``
touch files.
"""

from __future__ import annotations

from gamerec.validator.tables.probing import (
    Probe,
    Table,
    default_table,
    default_table_path,
    lookup,
    open_table,
    probe,
)
from gamerec.validator.tables.tablefile import TableError

__all__ = [
    "Probe",
    "Table",
    "TableError",
    "default_table",
    "default_table_path",
    "lookup",
    "open_table",
    "probe",
]
