"""Deadlines for long replays: a caller's time limit, checked every few plies.

A deadline is a ``time.monotonic()`` value (on Linux the monotonic clock is system-wide, so a
deadline set in one process holds in another). :func:`validate`, :func:`score`,
:func:`adjudicate` and :func:`replay` take one as ``deadline=`` and raise
:class:`~.errors.DeadlineExceededError` once it has passed, instead of finishing work
nobody waits for. The engines know nothing of time: their fast replay reads its moves through
:class:`PacedMoves`, which looks at the clock every :data:`PLIES_PER_CHECK` moves.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from typing import Final, TypeVar, overload

from gamerec.recorder.errors import DeadlineExceededError
from gamerec.recorder.words import plural

#: How many moves an engine may read between two looks at the clock. A look costs about
#: 50 ns; the fastest engine ply about 600 ns, so checking every 1,024 plies costs nothing
#: measurable and stops a replay within a millisecond of its deadline.
PLIES_PER_CHECK: Final = 1024
_CHECK_MASK: Final = PLIES_PER_CHECK - 1

T = TypeVar("T")


def check_deadline(deadline: float | None, done: str = "") -> None:
    """Raise when ``deadline`` (a monotonic time, or None for none) has passed.

    Raises:
        DeadlineExceededError: the deadline has passed; ``done`` says how far the job got.
    """
    if deadline is not None and time.monotonic() > deadline:
        raise DeadlineExceededError(done)


class PacedMoves(Sequence[T]):
    """A list of moves that checks a deadline while an engine reads it.

    Engines read their moves by index, by iteration or by slicing; every way of reading looks
    at the clock once per :data:`PLIES_PER_CHECK` moves and raises
    :class:`~.errors.DeadlineExceededError` past the deadline.
    """

    __slots__ = ("_deadline", "_moves")

    def __init__(self, moves: list[T], deadline: float) -> None:
        """Wrap ``moves`` (not copied) with the monotonic ``deadline``."""
        self._moves = moves
        self._deadline = deadline

    def __len__(self) -> int:
        """The number of moves."""
        return len(self._moves)

    @overload
    def __getitem__(self, index: int) -> T: ...

    @overload
    def __getitem__(self, index: slice) -> PacedMoves[T]: ...

    def __getitem__(self, index: int | slice) -> T | PacedMoves[T]:
        """One move (checking the clock at every 1,024th index), or a paced slice."""
        if type(index) is int:
            if not index & _CHECK_MASK:
                check_deadline(self._deadline, f"{index:,} of {plural(len(self._moves), 'ply')}")
            return self._moves[index]
        assert isinstance(index, slice)
        return PacedMoves(self._moves[index], self._deadline)

    def __iter__(self) -> Iterator[T]:
        """The moves in order, checking the clock before every 1,024 of them."""
        moves = self._moves
        for start in range(0, len(moves), PLIES_PER_CHECK):
            check_deadline(self._deadline, f"{start:,} of {plural(len(moves), 'ply')}")
            yield from moves[start : start + PLIES_PER_CHECK]


def paced(moves: list[T], deadline: float | None) -> Sequence[T]:
    """``moves`` as they are when there is no deadline or too few to matter, else paced."""
    if deadline is None or len(moves) <= PLIES_PER_CHECK:
        return moves
    return PacedMoves(moves, deadline)
