"""Which items a reader has seen before: the admission note of its bounded memos.

Readers remember the translations of the moves that recur across an archive (the same few
hundred moves make most plies), but many multi-part moves occur once, and remembering those
fills a memo with items it never uses again, pushing out the ones it does. A reader asks
:meth:`Sightings.seen_before` before it remembers such an item and remembers it only the
second time. The note has a fixed size, so a hostile archive of distinct items cannot grow
it. The binary move reader (``validator.moves``) takes its long moves so; the note lives here,
in the lower layer, so that a reader of either layer can. Pure Python; imports nothing of
gamerec.
"""

from __future__ import annotations

from collections.abc import Hashable
from typing import Final

#: The note's default size in bits (128 KiB).
DEFAULT_BITS: Final = 1 << 20
#: Notes taken before the note starts again, by default (at most 6% of its bits set).
DEFAULT_NOTES: Final = 65_536


class Sightings:
    """Notes the items seen once, as bits of a fixed table indexed by their hashes.

    The first time an item is asked about the answer is False (and the item is noted), the
    next time True. A hash collision only answers True one sighting early. The table is made
    at the first question and starts again, empty, after ``notes`` notes, so that old notes
    do not end up letting everything through.
    """

    __slots__ = ("_mask", "_max_notes", "_notes", "_size", "_table")

    def __init__(self, bits: int = DEFAULT_BITS, notes: int = DEFAULT_NOTES) -> None:
        """A note of ``bits`` bits (a power of two, at least 8), started again every ``notes``.

        Raises:
            ValueError: ``bits`` is not a power of two of at least 8, or ``notes`` < 1.
        """
        if bits < 8 or bits & (bits - 1) or notes < 1:
            raise ValueError(f"bits must be a power of two >= 8 and notes >= 1: {bits}, {notes}")
        self._mask = bits - 1
        self._size = bits // 8
        self._max_notes = notes
        self._table = bytearray()  # made at the first question
        self._notes = notes  # "full": the first question makes the table

    @property
    def size(self) -> int:
        """The table's bytes now (0 before the first question)."""
        return len(self._table)

    @property
    def notes(self) -> int:
        """The notes taken since the table last started."""
        return self._notes if self._table else 0

    def seen_before(self, item: Hashable) -> bool:
        """Whether ``item`` was noted already; notes it when it was not."""
        if self._notes >= self._max_notes:
            self._table = bytearray(self._size)
            self._notes = 0
        bit = hash(item) & self._mask
        index, mask = bit >> 3, 1 << (bit & 7)
        if self._table[index] & mask:
            return True
        self._table[index] |= mask
        self._notes += 1
        return False
