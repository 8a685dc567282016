"""Probing an Oh-Wah-Ree endgame table: the exact margin of a two-seat position, or None.

The default table is the file named by the ``GAMEREC_TABLES`` environment variable, else
``ohwahree-2.owrt`` in ``$XDG_DATA_HOME/gamerec/tables`` (``~/.local/share/gamerec/tables``
when ``XDG_DATA_HOME`` is not set). Nothing is built at install time: ``gamerec tables build``
writes it. It is opened (and checked whole) at the first :func:`lookup`; when there is no file
every lookup is None, and a damaged or foreign file raises :class:`TableError` every time.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Final

from gamerec.validator.games.ohwahree import Move, OhWahReeState
from gamerec.validator.tables.positions import index_of, seen_from
from gamerec.validator.tables.tablefile import TableData, read

#: The environment variable that names the default table file.
TABLES_VARIABLE: Final = "GAMEREC_TABLES"
#: The default table's file name in the data folder.
TABLE_NAME: Final = "ohwahree-2.owrt"


@dataclass(frozen=True, slots=True)
class Probe:
    """What a table says of one position.

    Attributes:
        covered: the position is a two-seat game in play with at most ``stones`` on the board.
        stones: the stones on the board; ``table_stones`` the most the table covers.
        margin: the exact final margin (stones the side to move gains from here on, minus the
            opponent's) under perfect play; None when not covered or when play never ends.
        never_ends: covered, and perfect play never ends (rules §8.2: no repetition rule).
        lower: for such a position, the most the side to move can force with an end (None:
            it cannot force an end); ``upper`` the least the opponent can force (None: it
            cannot force an end). For an exact position both equal ``margin``.
    """

    covered: bool
    stones: int
    table_stones: int
    margin: int | None = None
    never_ends: bool = False
    lower: int | None = None
    upper: int | None = None


class Table:
    """An opened, checked table file."""

    def __init__(self, path: Path, data: TableData) -> None:
        """Wrap the checked contents ``data`` of the file at ``path`` (see :func:`open_table`)."""
        self.path = path
        self.data = data

    @property
    def stones(self) -> int:
        """The most stones on the board this table covers."""
        return self.data.stones

    def probe(self, state: Any) -> Probe:
        """What the table says of ``state`` (any game's state; only two-seat Oh-Wah-Ree is)."""
        stones = sum(state.pits) if isinstance(state, OhWahReeState) else 0
        if not _tabled(state) or stones > self.data.stones:
            return Probe(covered=False, stones=stones, table_stones=self.data.stones)
        lower, upper = self.data.lower_upper(index_of(seen_from(state.pits, state.to_move)))
        if lower is not None and lower == upper:
            return Probe(True, stones, self.data.stones, lower, False, lower, upper)
        return Probe(True, stones, self.data.stones, None, True, lower, upper)

    def lookup(self, state: Any) -> int | None:
        """The exact final margin for the side to move of ``state``, or None (see Probe)."""
        if not _tabled(state) or sum(state.pits) > self.data.stones:
            return None
        return self.data.exact(index_of(seen_from(state.pits, state.to_move)))

    def move_margins(self, state: Any) -> list[tuple[Move, int | None]]:
        """Each legal move of ``state`` with the exact margin it leads to for the mover.

        The margin counts from ``state`` (the stones the move captures included); None where
        the table has no exact value after the move. The moves that reach ``lookup(state)``
        are the perfect ones. Empty when ``state`` is not covered.
        """
        if not _tabled(state) or sum(state.pits) > self.data.stones:
            return []
        seat, other = state.to_move, 3 - state.to_move
        found: list[tuple[Move, int | None]] = []
        for move in state.legal_moves():
            child = state.copy()
            child.play(move)
            captured = child.stores[seat - 1] - state.stores[seat - 1]
            if child.is_over:  # the engine's scores: the board's stones go to their pits' owner
                scores, stores = child.scores(), child.stores
                kept = (scores[seat - 1] - stores[seat - 1]) - (
                    scores[other - 1] - stores[other - 1]
                )
                found.append((move, captured + kept))
                continue
            after = self.lookup(child)
            found.append((move, None if after is None else captured - after))
        return found


def _tabled(state: Any) -> bool:
    """Whether ``state`` is a two-seat Oh-Wah-Ree game still in play."""
    return isinstance(state, OhWahReeState) and state.seats == 2 and not state.is_over


def open_table(path: Path | str) -> Table:
    """Open and check a table file (read whole into memory).

    Raises:
        TableError: missing, unreadable, foreign, another version or rules, or damaged.
    """
    path = Path(path)
    return Table(path, read(path))


def default_table_path() -> Path:
    """Where the default table is (see the module text); the file need not exist."""
    named = os.environ.get(TABLES_VARIABLE)
    if named:
        return Path(named)
    data = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(data) / "gamerec" / "tables" / TABLE_NAME


_lock = threading.Lock()
_opened: dict[Path, Table | None] = {}


def default_table() -> Table | None:
    """The default table, opened once per path; None when there is no file there.

    Raises:
        TableError: the file is there but cannot be used.
    """
    path = default_table_path()
    with _lock:
        if path not in _opened:
            _opened[path] = open_table(path) if path.exists() else None
        return _opened[path]


def lookup(state: Any) -> int | None:
    """The exact final margin under perfect play for the side to move, from the default table.

    The margin counts what is still to be won: the stones the side to move will capture or
    keep in its pits at the end, minus the opponent's (add the stores' difference for the final
    score margin). None when the default table is missing, when ``state`` is not a two-seat
    Oh-Wah-Ree game in play, has more stones on the board than the table covers, or when perfect
    play from it never ends (see :func:`probe`).

    Raises:
        TableError: the default table file is there but damaged or foreign.
    """
    table = default_table()
    return None if table is None else table.lookup(state)


def probe(state: Any) -> Probe | None:
    """What the default table says of ``state``; None when there is no default table file.

    Raises:
        TableError: the default table file is there but damaged or foreign.
    """
    table = default_table()
    return None if table is None else table.probe(state)
