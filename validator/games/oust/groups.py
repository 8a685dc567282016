"""Oust's groups and captures (docs/rules/oust.md §4.1) on bitboards: ``_Groups``.

Every stone knows the root cell of its group and every root its group's bitboard; groups
only merge (captures remove whole groups). ``capture_effect`` judges a placement, ``capture``
is the fast replay's one-pass judge-and-merge, ``can_place`` asks whether a seat has a legal
placement. ``_Effect`` and ``_Refusal`` are what judging one placement gives.

May import: ``oust.board``.
"""

from __future__ import annotations

from typing import NamedTuple

from gamerec.validator.games.oust.board import (
    _UP_LEFT,
    ROW_BITS,
    HexBoard,
    _spread,
    cells_of,
)


class _Effect(NamedTuple):
    """What a legal placement does: the stones of its group and the enemy stones it removes."""

    group: int
    removed: int


class _Refusal(NamedTuple):
    """Why a single placement is illegal: a reason code and a clause for the message."""

    code: str
    reason: str


class _Groups:
    """The groups on the board: the root cell of every stone's group, and every root's group.

    A group is a bitboard; its root is one of its cells. Groups only merge (captures remove
    whole groups), so a merge relabels the smaller parts into the largest one and a stone's
    group is two list lookups. Entries of empty cells are stale and never read: placing a
    stone writes its entries.
    """

    __slots__ = ("board", "group", "root")

    def __init__(self, board: HexBoard) -> None:
        """Empty tables for ``board``."""
        self.board = board
        self.root = [0] * board.span  # stone's cell code -> root cell of its group
        self.group = [0] * board.span  # root cell -> bitboard of its group

    def copy(self) -> _Groups:
        """An independent copy."""
        twin = _Groups.__new__(_Groups)
        twin.board = self.board
        twin.root = self.root[:]
        twin.group = self.group[:]
        return twin

    @classmethod
    def of_stones(cls, board: HexBoard, *bitboards: int) -> _Groups:
        """The tables of the groups of ``bitboards`` (each seat's stones), found afresh."""
        groups = cls(board)
        for stones in bitboards:
            left = stones
            while left:
                group = left & -left
                while True:
                    grown = (group | _spread(group)) & stones
                    if grown == group:
                        break
                    group = grown
                groups.adopt(group)
                left &= ~group
        return groups

    def adopt(self, stones: int) -> None:
        """Record ``stones`` as one group, rooted at its first cell."""
        root = (stones & -stones).bit_length() - 1
        self.group[root] = stones
        for code in cells_of(stones):
            self.root[code] = root

    def found(self, code: int, bit: int) -> None:
        """Record a new single-stone group on ``code``."""
        self.root[code] = code
        self.group[code] = bit

    def stones_of(self, code: int) -> int:
        """The bitboard of the group of the stone on ``code``."""
        return self.group[self.root[code]]

    def capture_effect(self, mine: int, theirs: int, bit: int, own: int) -> tuple[int, int, int]:
        """Evaluate a placement on ``bit`` touching the own stones ``own`` (rules §4.1).

        Returns:
            ``(new_group, removed, blocker)``: the stones of G; the stones of every enemy group
            of E, or 0 when E is empty; the root of an enemy group of E that is not smaller
            than G, or -1. The placement is legal exactly when ``removed`` is not 0.
        """
        root, group = self.root, self.group
        new_group = bit
        while own:
            joined = group[root[(own & -own).bit_length() - 1]]
            new_group |= joined
            own &= ~joined
        size = new_group.bit_count()
        touching = (  # _spread(new_group), inlined: this runs for every candidate cell
            (new_group << 1)
            | (new_group >> 1)
            | (new_group << ROW_BITS)
            | (new_group >> ROW_BITS)
            | (new_group << _UP_LEFT)
            | (new_group >> _UP_LEFT)
        ) & theirs
        removed = 0
        while touching:
            enemy_root = root[(touching & -touching).bit_length() - 1]
            enemy = group[enemy_root]
            if enemy.bit_count() >= size:
                return new_group, 0, enemy_root
            removed |= enemy
            touching &= ~enemy
        return new_group, removed, -1

    def capture(self, mine: int, theirs: int, code: int, own: int) -> int:
        """Make the placement on ``code`` touching the own stones ``own`` if it is legal (§4.1).

        The fast replay's one-pass form of :meth:`capture_effect` and :meth:`merge`: when the
        placement is legal the groups are merged (the caller updates the bitboards).

        Returns:
            The enemy stones it removes; 0 when the placement is illegal (nothing changed).
        """
        root, group = self.root, self.group
        new_group = 1 << code
        keep, keep_part, keep_size = code, 0, 0
        while own:
            part_root = root[(own & -own).bit_length() - 1]
            part = group[part_root]
            new_group |= part
            own &= ~part
            part_size = part.bit_count()
            if part_size > keep_size:
                keep, keep_part, keep_size = part_root, part, part_size
        size = new_group.bit_count()
        touching = (
            (new_group << 1)
            | (new_group >> 1)
            | (new_group << ROW_BITS)
            | (new_group >> ROW_BITS)
            | (new_group << _UP_LEFT)
            | (new_group >> _UP_LEFT)
        ) & theirs
        removed = 0
        while touching:
            enemy = group[root[(touching & -touching).bit_length() - 1]]
            if enemy.bit_count() >= size:
                return 0
            removed |= enemy
            touching &= ~enemy
        if removed:
            relabel = new_group & ~keep_part
            while relabel:
                low = relabel & -relabel
                root[low.bit_length() - 1] = keep
                relabel ^= low
            group[keep] = new_group
        return removed

    def merge(self, code: int, new_group: int) -> None:
        """Make ``new_group`` (the stone on ``code`` and the groups it joins) one group."""
        root, group = self.root, self.group
        others = new_group & ~(1 << code)
        keep, keep_size = code, 0
        while others:
            part_root = root[(others & -others).bit_length() - 1]
            part = group[part_root]
            others &= ~part
            if part.bit_count() > keep_size:
                keep, keep_size = part_root, part.bit_count()
        relabel = new_group & ~group[keep] if keep != code else new_group
        while relabel:
            low = relabel & -relabel
            root[low.bit_length() - 1] = keep
            relabel ^= low
        group[keep] = new_group

    def can_place(self, mine: int, theirs: int) -> bool:
        """Whether the seat owning ``mine`` has a legal placement (docs/rules/oust.md §4.1)."""
        board = self.board
        empty = board.mask & ~(mine | theirs)
        if empty & ~_spread(mine):
            return True  # a cell touching none of its stones: a non-capturing placement
        neighbour_mask = board.neighbour_mask
        while empty:
            low = empty & -empty
            empty ^= low
            own = neighbour_mask[low.bit_length() - 1] & mine
            if self.capture_effect(mine, theirs, low, own)[1]:
                return True
        return False
