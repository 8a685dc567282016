"""The fields of an Oust position and what reads them: ``_Stones``, the base of ``OustState``.

``OustState`` (``oust.state``) is one class written in four modules, each a class on top of
the one before: ``stones`` (``__init__``, the protocol's read-only facts, results and
snapshots), ``legality`` (legal placements and moves, the refusals), ``turns`` (``check`` and
``play`` of turns and placements) and ``state`` (the slots, set-up, whole-turn enumeration,
``copy``).

May import: ``protocol``, ``oust.board``, ``oust.notation``, ``oust.variant``, ``oust.groups``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Self

from gamerec.validator.games.oust.board import (
    HexBoard,
    _cell_names,
    _rows,
    _spread,
    cell_name,
    cells_of,
    hex_board,
)
from gamerec.validator.games.oust.groups import _Groups
from gamerec.validator.games.oust.notation import (
    Turn,
)
from gamerec.validator.games.oust.variant import OustVariant
from gamerec.validator.games.protocol import (
    Position,
    Site,
    digest_of,
    seats_of_bits,
)


class _Stones:
    """The fields of an Oust position and what reads them: facts, results and snapshots.

    The first of the classes ``OustState`` is made of (``stones``, ``legality``, ``turns``,
    ``state``); they add methods only. The slots are ``OustState``'s own (see there).
    """

    if not TYPE_CHECKING:  # for mypy the attributes are those __init__ sets
        __slots__ = ()

    def __init__(self, variant: OustVariant, groups: _Groups | None = None) -> None:
        """The start position of ``variant``: an empty board, seat 1 to move.

        ``groups`` is for the engine's own use: group tables to adopt instead of empty ones.
        """
        board = hex_board(variant.side)
        self._variant = variant
        self._board = board
        self._stones = [0, 0, 0]  # bitboards by seat; index 0 unused
        self._groups = groups or _Groups(board)
        self._seat = 1
        self._ply = 0
        self._turn: list[int] = []  # placements made so far in the turn under way
        self._must_pass = False
        self._over = False
        self._winner = 0
        self._resigned: tuple[int, ...] = ()
        self._end = ""

    # -- the protocol's read-only facts ------------------------------------------------------

    @property
    def variant(self) -> OustVariant:
        """The variant this game is played under."""
        return self._variant

    @property
    def board(self) -> HexBoard:
        """The board's tables."""
        return self._board

    @property
    def seats(self) -> int:
        """The number of seats: 2."""
        return 2

    @property
    def to_move(self) -> int:
        """The seat to move (also in the middle of its turn); 0 when the game is over."""
        return 0 if self._over else self._seat

    @property
    def is_over(self) -> bool:
        """Whether the game has ended: a win (§6.1), both seats blocked (§6.2), a resignation."""
        return self._over

    @property
    def ply(self) -> int:
        """The number of whole plies played (a turn under way is not counted yet)."""
        return self._ply

    @property
    def in_turn(self) -> bool:
        """Whether the seat to move has made a capture this turn and must place again."""
        return bool(self._turn)

    @property
    def turn_so_far(self) -> Turn:
        """The placements already made in the turn under way (empty at the start of a turn)."""
        return tuple(self._turn)

    @property
    def must_pass(self) -> bool:
        """Whether the seat to move has no legal placement while its opponent has one (§4.3)."""
        return self._must_pass and not self._over

    @property
    def end_reason(self) -> str:
        """How the game ended: ``"capture"``, ``"blocked"``, ``"resign"``; ``""`` while on."""
        return self._end

    def owner(self, code: int) -> int:
        """The seat whose stone stands on cell ``code``, 0 when it is empty or not a cell."""
        bit = self._board.bit.get(code, 0)
        return 1 if self._stones[1] & bit else 2 if self._stones[2] & bit else 0

    def stones(self, seat: int) -> tuple[int, ...]:
        """The cells holding the stones of ``seat``, in board order."""
        return tuple(cells_of(self._stones[seat]))

    def group_of(self, code: int) -> tuple[int, ...]:
        """The cells of the group of the stone on ``code`` (empty when there is none)."""
        if not self.owner(code):
            return ()
        return tuple(cells_of(self._groups.stones_of(code)))

    def safe(self, seat: int) -> int:
        """How many empty cells touch none of the stones of ``seat`` (non-capturing places)."""
        mine = self._stones[seat]
        return (self._board.mask & ~(mine | self._stones[3 - seat]) & ~_spread(mine)).bit_count()

    def best_capture(self, seat: int) -> int:
        """The most enemy stones one placement of ``seat`` removes now (0: it has no capture).

        As if ``seat`` were to move (read-only; the search's evaluation asks it, §4.1).
        """
        mine, theirs = self._stones[seat], self._stones[3 - seat]
        # a capturing placement joins own stones: only the empty cells next to them
        candidates = self._board.mask & ~(mine | theirs) & _spread(mine)
        neighbour_mask = self._board.neighbour_mask
        effect = self._groups.capture_effect
        best = 0
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            own = neighbour_mask[low.bit_length() - 1] & mine
            best = max(best, effect(mine, theirs, low, own)[1].bit_count())
        return best

    if TYPE_CHECKING:  # OustState's own (state.py), which names its class

        def copy(self) -> Self:
            """An independent copy of this state."""
            ...

        def _take_over(self, other: Self) -> None: ...

    def scores(self) -> tuple[int, ...]:
        """``(1, 0)`` or ``(0, 1)`` once a seat has won, else ``(0, 0)`` (the Result tag)."""
        return (int(self._winner == 1), int(self._winner == 2))

    def ranking(self) -> tuple[int, ...]:
        """``(1, 2)`` or ``(2, 1)`` once a seat has won, else ``(1, 1)``."""
        return {1: (1, 2), 2: (2, 1)}.get(self._winner, (1, 1))

    def winners(self) -> tuple[int, ...]:
        """The winning seat, or ``()`` while the game goes on or when both seats are blocked."""
        return (self._winner,) if self._winner else ()

    def position(self) -> Position:
        """The snapshot: every cell in board order with the seat of its stone."""
        sites = tuple(map(Site, _cell_names(self._variant.side), self._seats_on_cells()))
        return Position(to_move=self.to_move, sites=sites, resigned=self._resigned)

    def _seats_on_cells(self) -> bytes:
        """The seat of the stone on each cell (0 for none), in board order."""
        board = self._board
        by_code = seats_of_bits(self._stones[1], self._stones[2], board.span)
        return b"".join([by_code[row] for row in _rows(board.side)])

    def digest(self) -> str:
        """A blake2b digest of the board, the seat to move and everything that steers the future.

        Encoded: side, whether ``swap`` is still available, the seat to move (0 when over),
        whether a turn is under way, the winner, the resigned seat, then one byte per cell.
        """
        swap_open = self._variant.pie and self._ply == 1 and not self._turn
        header = bytes(
            (
                self._variant.side,
                swap_open,
                self.to_move,
                bool(self._turn),
                self._winner,
                self._resigned[0] if self._resigned else 0,
            )
        )
        return digest_of(b"oust:" + header + self._seats_on_cells())

    def __repr__(self) -> str:
        """A short description for debugging."""
        first = " ".join(cell_name(c) for c in cells_of(self._stones[1]))
        second = " ".join(cell_name(c) for c in cells_of(self._stones[2]))
        return f"<OustState ply {self._ply} to move {self.to_move}: X [{first}] O [{second}]>"
