"""Oust's hex-hex board of docs/rules/oust.md §2.1, with the game's name and rules text.

Cell codes and names, the tables of one board (``HexBoard``, built once per side by
``hex_board``) and the bitboard operations on them (the six neighbour shifts, the cells of a
bitboard); see the package docstring for the codes.

May import: nothing of gamerec (pure tables).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

NAME = "Oust"
RULES = "docs/rules/oust.md"

MIN_SIDE = 2
MAX_SIDE = 13
DEFAULT_SIDE = 7

#: Bits per board row in cell codes and bitboards; wider than the widest row (25 cells), so
#: a shift that leaves a row lands in unused padding bits, never on another row's cell.
ROW_BITS = 32
_UP_LEFT = ROW_BITS - 1  # (u - 1, v + 1) is 31 bits up; (u + 1, v - 1) is 31 bits down


def cell_name(code: int) -> str:
    """The canonical name of a cell code (``198`` -> ``g7``)."""
    number, letter = divmod(code, ROW_BITS)
    return f"{chr(ord('a') + letter)}{number + 1}"


def _code_of(column: int, row: int) -> int:
    """The code of a cell form: its column's rank (``a`` = 1) and its row."""
    return ROW_BITS * (row - 1) + column - 1


@dataclass(frozen=True, slots=True)
class HexBoard:
    """The precomputed tables of one hex-hex board (docs/rules/oust.md §2.1).

    Attributes:
        side: the side length N.
        cells: every cell code in board order (row 1 first, each row by letter).
        bit: cell code -> its bitboard bit, for the cells on this board only.
        mask: the bitboard of every cell.
        neighbour_mask: indexed by cell code, the bitboard of the cell's neighbours
            (0 for codes that are not cells).
        order: indexed by cell code, the cell's place in ``cells`` (0 for codes that are not
            cells).
    """

    side: int
    cells: tuple[int, ...]
    bit: dict[int, int]
    mask: int
    neighbour_mask: tuple[int, ...]
    order: tuple[int, ...]

    @property
    def span(self) -> int:
        """One more than the largest cell code: the length of per-cell tables."""
        return self.cells[-1] + 1

    def neighbours(self, code: int) -> tuple[int, ...]:
        """The neighbouring cells of ``code`` in board order (empty when it is not a cell)."""
        if code not in self.bit:
            return ()
        return tuple(cells_of(self.neighbour_mask[code]))


@cache
def hex_board(side: int) -> HexBoard:
    """The tables of the board of side ``side`` (2 to 13), built once per side."""
    last = 2 * side - 2
    cells = tuple(
        ROW_BITS * v + u
        for v in range(last + 1)
        for u in range(max(side - 1 - v, 0), min(3 * side - 3 - v, last) + 1)
    )
    bit = {code: 1 << code for code in cells}
    mask = sum(bit.values())
    neighbour_mask = [0] * (cells[-1] + 1)
    order = [0] * (cells[-1] + 1)
    for place, code in enumerate(cells):
        neighbour_mask[code] = _spread(bit[code]) & mask
        order[code] = place
    return HexBoard(side, cells, bit, mask, tuple(neighbour_mask), tuple(order))


@cache
def _rows(side: int) -> tuple[slice, ...]:
    """The codes of each row of the board of ``side`` as a slice (a row's codes are consecutive)."""
    board = hex_board(side)
    rows: list[slice] = []
    for code in board.cells:
        if rows and rows[-1].stop == code:
            rows[-1] = slice(rows[-1].start, code + 1)
        else:
            rows.append(slice(code, code + 1))
    return tuple(rows)


@cache
def _cell_names(side: int) -> tuple[str, ...]:
    """The names of the cells of the board of ``side``, in board order."""
    return tuple(map(cell_name, hex_board(side).cells))


def _spread(stones: int) -> int:
    """Every bit next to a stone of ``stones``: the six neighbour shifts, not masked to the board.

    In words (docs/rules/oust.md §2.1): same row +-1, one row up (same letter and the previous
    letter), one row down (same letter and the next letter).
    """
    return (
        (stones << 1)
        | (stones >> 1)
        | (stones << ROW_BITS)
        | (stones >> ROW_BITS)
        | (stones << _UP_LEFT)
        | (stones >> _UP_LEFT)
    )


def cells_of(stones: int) -> list[int]:
    """The cell codes of the bits of a bitboard, in board order."""
    codes = []
    while stones:
        low = stones & -stones
        codes.append(low.bit_length() - 1)
        stones ^= low
    return codes
