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
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from typing import Final, Literal, NamedTuple, TypeAlias, cast

from gamerec.recorder.errors import NotationError
from gamerec.recorder.syntax import oust as syntax
from gamerec.validator.games.protocol import (
    BaseEngine,
    GameEvent,
    GameState,
    Illegal,
    IllegalMoveError,
    MoveSyntaxError,
    Position,
    ReplayOutcome,
    Site,
    VariantError,
    VariantValue,
    any_variant,
    digest_of,
    option_number,
    option_word,
    seats_of_bits,
)

# ---------------------------------------------------------------------------------------------
# Constants and metadata: cell codes and board tables
# ---------------------------------------------------------------------------------------------

NAME = "Oust"
RULES = "docs/rules/oust.md"

MIN_SIDE = 2
MAX_SIDE = 13
DEFAULT_SIDE = 7

#: Bits per board row in cell codes and bitboards; wider than the widest row (25 cells), so
#: a shift that leaves a row lands in unused padding bits, never on another row's cell.
ROW_BITS = 32
_UP_LEFT = ROW_BITS - 1  # (u - 1, v + 1) is 31 bits up; (u + 1, v - 1) is 31 bits down

PASS: Literal["pass"] = "pass"
SWAP: Literal["swap"] = "swap"
RESIGN: Literal["resign"] = "resign"

Turn: TypeAlias = tuple[int, ...]
Special: TypeAlias = Literal["pass", "swap", "resign"]
Move: TypeAlias = Turn | Special

REASON_CODES: dict[str, str] = {
    "NOT_YOUR_TURN": "the ply claims a seat that is not the seat to move",
    "GAME_ALREADY_OVER": "the game has ended (a win, a resignation, or both seats blocked)",
    "NO_SUCH_CELL": "a placement names a cell that is not on this board",
    "OCCUPIED": "a placement is on a cell that already holds a stone",
    "NO_ENEMY_CONTACT": "a placement joins own stones but the new group touches no enemy group",
    "ENEMY_NOT_SMALLER": "a placement joins own stones into a group that touches an enemy "
    "group of the same size or larger",
    "MUST_PLACE_AGAIN": "the turn ends with a capturing placement while a legal placement is left",
    "TURN_ALREADY_ENDED": "a placement follows a non-capturing placement, the winning capture, "
    "or a capture after which no placement was possible",
    "PASS_NOT_ALLOWED": "pass while the seat to move has a legal placement or must place again",
    "SWAP_NOT_ALLOWED": "swap other than as ply 2 with the pie rule on",
}

#: The sections of the rules text each reason code's sentences cite (tests check that they
#: exist and that every sentence cites only these).
REASON_SECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "NOT_YOUR_TURN": ("§4.2",),
    "GAME_ALREADY_OVER": ("§6.1", "§6.2", "§7"),
    "NO_SUCH_CELL": ("§2.1",),
    "OCCUPIED": ("§4.1",),
    "NO_ENEMY_CONTACT": ("§4.1",),
    "ENEMY_NOT_SMALLER": ("§4.1",),
    "MUST_PLACE_AGAIN": ("§4.2",),
    "TURN_ALREADY_ENDED": ("§4.2", "§6.1"),
    "PASS_NOT_ALLOWED": ("§4.2", "§4.3"),
    "SWAP_NOT_ALLOWED": ("§4.4",),
}


def cell_code(name: str) -> int:
    """The cell code of a cell name such as ``g7`` (case-insensitive, any board).

    Raises:
        MoveSyntaxError: ``name`` is not a letter followed by a number.
    """
    move = parse_move(name)
    if isinstance(move, str) or len(move) != 1:
        raise MoveSyntaxError(f"{name!r} is not an Oust cell name (a letter and a number)")
    return move[0]


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


# ---------------------------------------------------------------------------------------------
# Variant
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OustVariant:
    """The rule options of docs/rules/oust.md §8.1.

    Attributes:
        side: the board's side length, 2 to 13 (GRN tag ``Board``, default 7).
        pie: whether seat 2 may answer ply 1 with ``swap`` (GRN tag ``Pie``, default ``on``).
        players: the number of seats; Oust has exactly 2.

    Raises:
        VariantError: a value of the wrong type or out of range.
    """

    side: int = DEFAULT_SIDE
    pie: bool = True
    players: int = 2

    def __post_init__(self) -> None:
        """Check the options (see the class docstring)."""
        if type(self.side) is not int or not MIN_SIDE <= self.side <= MAX_SIDE:
            raise VariantError(
                f"Oust board side must be an integer from {MIN_SIDE} to {MAX_SIDE}, "
                f"not {self.side!r} ({RULES} §8.1)"
            )
        if type(self.pie) is not bool:
            raise VariantError(f"Oust pie option must be True or False, not {self.pie!r}")
        if type(self.players) is not int or self.players != 2:
            raise VariantError(f"Oust is played by exactly 2 seats, not {self.players!r}")


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


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


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _ordinal(n: int) -> str:
    if n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _group_text(board: HexBoard, stones: int) -> str:
    names = [cell_name(code) for code in cells_of(stones & board.mask)]
    shown = " ".join(names[:6])
    return shown + " ..." if len(names) > 6 else shown


class OustState:
    """An Oust position with the seat to move; mutable (see the module docstring).

    Besides the protocol's ``GameState`` methods it offers the placement-level API
    (:meth:`place`, :meth:`check_placement`, :meth:`legal_placements`, :attr:`in_turn`) and
    whole-turn enumeration (:meth:`legal_turns`, :meth:`count_turns`).
    """

    __slots__ = (
        "_board",
        "_end",
        "_groups",
        "_must_pass",
        "_over",
        "_ply",
        "_resigned",
        "_seat",
        "_stones",
        "_turn",
        "_variant",
        "_winner",
    )

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

    @classmethod
    def with_stones(
        cls,
        variant: OustVariant,
        first: Iterable[int],
        second: Iterable[int],
        to_move: int = 1,
        ply: int = 2,
    ) -> OustState:
        """A position set up directly: the cells of seat 1 and seat 2 and the seat to move.

        ``ply`` is the number of plies taken to reach it (it matters only for ``swap``). The
        seat to move must pass, or the game is over, when the rules say so (§4.3, §6.2).

        Raises:
            ValueError: a cell off the board or given twice, or a seat other than 1 or 2.
        """
        state = cls(variant)
        if to_move not in (1, 2):
            raise ValueError(f"the seat to move must be 1 or 2, not {to_move}")
        for seat, codes in ((1, first), (2, second)):
            for code in codes:
                state._set_up_stone(seat, code)
        state._ply = ply
        state._begin_turn(to_move)
        return state

    def _set_up_stone(self, seat: int, code: int) -> None:
        bit = self._board.bit.get(code)
        if bit is None or (self._stones[1] | self._stones[2]) & bit:
            raise ValueError(f"cannot set up a stone on {cell_name(code)}: off board or taken")
        mine = self._stones[seat]
        self._stones[seat] = mine | bit
        own = self._board.neighbour_mask[code] & mine
        joined = bit
        while own:
            part = self._groups.stones_of((own & -own).bit_length() - 1)
            joined |= part
            own &= ~part
        self._groups.found(code, bit)
        self._groups.merge(code, joined)

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

    # -- legality ----------------------------------------------------------------------------

    def legal_placements(self) -> list[int]:
        """Every legal next placement of the seat to move, as cell codes in board order."""
        if self._over:
            return []
        mine, theirs = self._stones[self._seat], self._stones[3 - self._seat]
        empty = self._board.mask & ~(mine | theirs)
        near = _spread(mine)
        legal = empty & ~near
        candidates = empty & near
        neighbour_mask = self._board.neighbour_mask
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            own = neighbour_mask[low.bit_length() - 1] & mine
            if self._groups.capture_effect(mine, theirs, low, own)[1]:
                legal |= low
        return cells_of(legal)

    def legal_moves(self) -> list[Move]:
        """The legal next decisions: each legal placement as ``(code,)``, then swap, then pass.

        At the start of a turn a listed capturing placement begins the turn (see the module
        docstring); in the middle of a turn only placements are listed. ``resign`` is legal
        while the game goes on and is not listed.
        """
        moves: list[Move] = [(code,) for code in self.legal_placements()]
        if not self._over and not self._turn:
            if self._swap_refusal() is None:
                moves.append(SWAP)
            if self._must_pass:
                moves.append(PASS)
        return moves

    def check(self, move: Move, seat: int | None = None) -> Illegal | None:
        """Why the turn ``move`` (the rest of the turn when one is under way) is illegal, or None.

        Raises:
            ValueError: ``move`` is not an Oust move value (an empty tuple, another string).
        """
        refusal = self._refusal_before_move(seat)
        if refusal is not None:
            return refusal
        if isinstance(move, str):
            return self._special_refusal(move)
        _require_turn(move)
        if len(move) == 1:
            return self._single_placement_refusal(move[0])
        return self.copy()._run_placements(move, None)

    def check_placement(self, code: int, seat: int | None = None) -> Illegal | None:
        """Why placing on ``code`` now, as the next placement of this turn, is illegal, or None."""
        refusal = self._refusal_before_move(seat)
        if refusal is not None:
            return refusal
        verdict = self._evaluate(code)
        if isinstance(verdict, _Refusal):
            number = len(self._turn) + 1
            return self._illegal_placement(verdict, number, number, code)
        return None

    def _refusal_before_move(self, seat: int | None) -> Illegal | None:
        if self._over:
            return Illegal("GAME_ALREADY_OVER", self._over_text())
        if seat is not None and seat != self._seat:
            return Illegal(
                "NOT_YOUR_TURN",
                f"seat {seat} is not to move: it is seat {self._seat}'s turn ({RULES} §4.2)",
            )
        return None

    def _over_text(self) -> str:
        if self._end == "resign":
            return f"the game is over: seat {self._resigned[0]} resigned ({RULES} §7)"
        if self._end == "blocked":
            return f"the game is over: neither seat has a legal placement ({RULES} §6.2)"
        return f"the game is over: seat {self._winner} removed the last enemy stone ({RULES} §6.1)"

    def _special_refusal(self, move: str) -> Illegal | None:
        if move == RESIGN:
            return None
        if move == PASS:
            return self._pass_refusal()
        if move == SWAP:
            return self._swap_refusal()
        raise ValueError(f"{move!r} is not an Oust move (pass, swap, resign or placements)")

    def _pass_refusal(self) -> Illegal | None:
        if self._turn:
            last = cell_name(self._turn[-1])
            return Illegal(
                "PASS_NOT_ALLOWED",
                f"pass: seat {self._seat} must place again after the capturing placement "
                f"{last} ({RULES} §4.2)",
            )
        if not self._must_pass:
            example = cell_name(self.legal_placements()[0])
            return Illegal(
                "PASS_NOT_ALLOWED",
                f"pass: seat {self._seat} has a legal placement (such as {example}) and may "
                f"not pass ({RULES} §4.3)",
            )
        return None

    def _swap_refusal(self) -> Illegal | None:
        if not self._variant.pie:
            reason = "the pie rule is off in this game"
        elif self._ply != 1 or self._turn:
            reason = f"it is legal only as ply 2, and this is ply {self._ply + 1}"
        else:
            return None
        return Illegal("SWAP_NOT_ALLOWED", f"swap: {reason} ({RULES} §4.4)")

    def _single_placement_refusal(self, code: int) -> Illegal | None:
        """The verdict on a one-placement (rest of a) turn, without copying the whole state."""
        verdict = self._evaluate(code)
        done = len(self._turn)
        if isinstance(verdict, _Refusal):
            return self._illegal_placement(verdict, done + 1, done + 1, code)
        if not verdict.removed:
            return None
        seat = self._seat
        mine = self._stones[seat] | verdict.group
        theirs = self._stones[3 - seat] & ~verdict.removed
        if not theirs:
            return None  # the winning capture ends the turn
        groups = self._groups.copy()
        groups.merge(code, verdict.group)
        if not groups.can_place(mine, theirs):
            return None  # no placement left: the turn ends (§4.2)
        return self._must_place_again(code)

    def _must_place_again(self, code: int) -> Illegal:
        return Illegal(
            "MUST_PLACE_AGAIN",
            f"the turn ends with the capturing placement {cell_name(code)}, but seat "
            f"{self._seat} has a legal placement left and must place again ({RULES} §4.2)",
        )

    def _evaluate(self, code: int) -> _Effect | _Refusal:
        """What placing a stone of the mover on ``code`` would do, or why it is illegal."""
        board = self._board
        bit = board.bit.get(code)
        if bit is None:
            return _Refusal("NO_SUCH_CELL", f"there is no such cell on the side-{board.side} board")
        mine, theirs = self._stones[self._seat], self._stones[3 - self._seat]
        if (mine | theirs) & bit:
            return _Refusal("OCCUPIED", "the cell is occupied")
        own = board.neighbour_mask[code] & mine
        if not own:
            return _Effect(bit, 0)
        new_group, removed, blocker = self._groups.capture_effect(mine, theirs, bit, own)
        size = new_group.bit_count()
        if blocker >= 0:
            enemy = self._groups.stones_of(blocker)
            return _Refusal(
                "ENEMY_NOT_SMALLER",
                f"it joins own stones into a group of {size} that touches the enemy group "
                f"{_group_text(board, enemy)} of {enemy.bit_count()}, which is not smaller",
            )
        if not removed:
            return _Refusal(
                "NO_ENEMY_CONTACT",
                f"it joins own stones into a group of {size} that touches no enemy group",
            )
        return _Effect(new_group, removed)

    def _illegal_placement(self, refusal: _Refusal, number: int, total: int, code: int) -> Illegal:
        label = _placement_label(number, total, code)
        blocked = ""
        if self._must_pass and not self._turn:
            blocked = f"; seat {self._seat} has no legal placement and must pass"
        section = "§2.1" if refusal.code == "NO_SUCH_CELL" else "§4.1"
        return Illegal(refusal.code, f"{label}: {refusal.reason}{blocked} ({RULES} {section})")

    # -- playing -----------------------------------------------------------------------------

    def play(self, move: Move) -> tuple[GameEvent, ...]:
        """Play the turn ``move`` (the rest of the turn when one is under way) in place.

        Returns:
            The events: ``capture`` per capturing placement (the removed cells),
            ``turn-ended`` when a capture left no legal placement, ``pass``, ``swap``,
            ``resign``, and ``end`` (seat = the winner, 0 for none) when the game ends.

        Raises:
            IllegalMoveError: ``check`` rejects the move; the state is unchanged.
        """
        refusal = self._refusal_before_move(None)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        events: list[GameEvent] = []
        if isinstance(move, str):
            refusal = self._special_refusal(move)
            if refusal is not None:
                raise IllegalMoveError(refusal)
            self._play_special(move, events)
            return tuple(events)
        _require_turn(move)
        scratch = self.copy()
        refusal = scratch._run_placements(move, events)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        self._take_over(scratch)
        return tuple(events)

    def place(self, code: int) -> bool:
        """Make one placement of the seat to move, as the next placement of its turn.

        Returns:
            True when the turn goes on (a capture, and the mover has a legal placement left:
            it must place again); False when the turn is over (the next seat is to move, or
            the game has ended).

        Raises:
            IllegalMoveError: the placement is illegal now; the state is unchanged.
        """
        refusal = self._refusal_before_move(None) or self._place_one(code)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        return bool(self._turn)

    def _place_one(self, code: int) -> Illegal | None:
        verdict = self._evaluate(code)
        if isinstance(verdict, _Refusal):
            number = len(self._turn) + 1
            return self._illegal_placement(verdict, number, number, code)
        self._apply(code, verdict)
        self._after_placement(code, verdict, None)
        return None

    def _run_placements(self, move: Turn, events: list[GameEvent] | None) -> Illegal | None:
        """Play the placements of the whole (rest of the) turn ``move`` on this state.

        Stops at the first illegal placement and returns why; the state is then half played,
        so callers run this on a copy.
        """
        done = len(self._turn)
        total = done + len(move)
        previous: _Effect | None = None
        for index, code in enumerate(move):
            number = done + index + 1
            if previous is not None and not self._turn:
                return self._turn_already_ended(move[index - 1], previous, number, total, code)
            verdict = self._evaluate(code)
            if isinstance(verdict, _Refusal):
                return self._illegal_placement(verdict, number, total, code)
            self._apply(code, verdict)
            self._after_placement(code, verdict, events)
            previous = verdict
        if self._turn:  # the last placement captured and a legal placement is left
            return self._must_place_again(move[-1])
        return None

    def _turn_already_ended(
        self, previous: int, effect: _Effect, number: int, total: int, code: int
    ) -> Illegal:
        before = cell_name(previous)
        if not effect.removed:
            why = f"the turn ended with the non-capturing placement {before} ({RULES} §4.2)"
        elif self._end == "capture":
            why = f"the game ended when {before} removed the last enemy stone ({RULES} §6.1)"
        else:
            why = (
                f"the turn ended after the capturing placement {before} because no legal "
                f"placement was left ({RULES} §4.2)"
            )
        return Illegal("TURN_ALREADY_ENDED", f"{_placement_label(number, total, code)}: {why}")

    def _apply(self, code: int, effect: _Effect) -> None:
        seat = self._seat
        bit = self._board.bit[code]
        self._stones[seat] |= bit
        if not effect.removed:
            self._groups.found(code, bit)
            return
        self._stones[3 - seat] &= ~effect.removed
        self._groups.merge(code, effect.group)

    def _after_placement(self, code: int, effect: _Effect, events: list[GameEvent] | None) -> None:
        """Decide whether the turn goes on after a placement (docs/rules/oust.md §4.2, §6.1)."""
        seat = self._seat
        if effect.removed and events is not None:
            removed = tuple(cell_name(cell) for cell in cells_of(effect.removed))
            events.append(GameEvent("capture", seat, removed, len(removed)))
        if not effect.removed:
            self._end_turn(events)
        elif not self._stones[3 - seat]:
            self._finish(seat, "capture", events)
        elif self._can_place_now(seat):
            self._turn.append(code)
        else:
            if events is not None:
                events.append(GameEvent("turn-ended", seat, (cell_name(code),)))
            self._end_turn(events)

    def _can_place_now(self, seat: int) -> bool:
        mine, theirs = self._stones[seat], self._stones[3 - seat]
        return self._groups.can_place(mine, theirs)

    def _end_turn(self, events: list[GameEvent] | None) -> None:
        self._ply += 1
        self._turn = []
        self._begin_turn(3 - self._seat)
        if self._over and events is not None:
            events.append(GameEvent("end", 0))

    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn: a normal turn, a forced pass (§4.3), or both blocked (§6.2)."""
        self._seat = seat
        self._turn = []
        self._must_pass = not self._can_place_now(seat)
        if self._must_pass and not self._can_place_now(3 - seat):
            self._over, self._end = True, "blocked"

    def _finish(self, winner: int, end: str, events: list[GameEvent] | None) -> None:
        self._ply += 1
        self._turn = []
        self._over, self._winner, self._end = True, winner, end
        if events is not None:
            events.append(GameEvent("end", winner))

    def _play_special(self, move: str, events: list[GameEvent]) -> None:
        seat = self._seat
        if move == RESIGN:
            self._resigned = (seat,)
            events.append(GameEvent("resign", seat))
            self._finish(3 - seat, "resign", events)
            return
        if move == SWAP:
            moved = self._stones[1]
            self._stones[1], self._stones[2] = 0, moved
            events.append(GameEvent("swap", 2, tuple(cell_name(c) for c in cells_of(moved))))
            self._ply += 1
            self._begin_turn(1)
            return
        events.append(GameEvent("pass", seat))
        self._end_turn(events)

    def _take_over(self, other: OustState) -> None:
        for name in OustState.__slots__:
            setattr(self, name, getattr(other, name))

    # -- whole turns -------------------------------------------------------------------------

    def legal_turns(self) -> Iterator[Move]:
        """Every legal complete turn from here (the rest of the turn when one is under way).

        Each placement sequence runs until the turn ends; ``swap`` and ``pass`` come last.
        """
        for move, _ in self.turn_children():
            yield move

    def turn_children(self) -> Iterator[tuple[Move, OustState]]:
        """Every legal complete turn with the state it leads to (perft's expansion)."""
        if self._over:
            return
        for code in self.legal_placements():
            child = self.copy()
            child._place_one(code)
            if child._turn:
                for rest, grandchild in child.turn_children():
                    yield (code, *cast(Turn, rest)), grandchild
            else:
                yield (code,), child
        if not self._turn:
            for special in (SWAP, PASS):
                if self._special_refusal(special) is None:
                    child = self.copy()
                    child._play_special(special, [])
                    yield special, child

    def count_turns(self) -> int:
        """The number of legal complete turns from here (what :meth:`legal_turns` yields)."""
        if self._over:
            return 0
        count = 0
        mine = self._stones[self._seat]
        neighbour_mask = self._board.neighbour_mask
        for code in self.legal_placements():
            if not neighbour_mask[code] & mine:
                count += 1
                continue
            child = self.copy()
            child._place_one(code)
            count += child.count_turns() if child._turn else 1
        if not self._turn:
            count += (self._swap_refusal() is None) + self._must_pass
        return count

    # -- results and snapshots ---------------------------------------------------------------

    def decide(self, decision: Move) -> None:
        """Make one decision of ``legal_moves``.

        A placement ``(code,)`` is placed as the next placement of the turn (:meth:`place`);
        ``swap`` and ``pass`` are played.
        """
        if isinstance(decision, tuple) and len(decision) == 1:
            self.place(decision[0])
        else:
            self.play(decision)

    def copy(self) -> OustState:
        """An independent copy of this state."""
        twin = OustState.__new__(OustState)
        twin._take_over(self)
        twin._stones = self._stones[:]
        twin._groups = self._groups.copy()
        twin._turn = self._turn[:]
        return twin

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


def _require_turn(move: object) -> None:
    if not isinstance(move, tuple) or not move:
        raise ValueError(f"{move!r} is not an Oust move (pass, swap, resign or placements)")


def _placement_label(number: int, total: int, code: int) -> str:
    if total == 1:
        return f"placement {cell_name(code)}"
    return f"{_ordinal(number)} placement {cell_name(code)}"


# ---------------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------------

_SPECIALS: dict[str, Special] = {PASS: PASS, SWAP: SWAP, RESIGN: RESIGN}


def parse_move(text: str) -> Move:
    """Parse a turn token of notation.md: ``g7``, ``e5,f5,k9``, ``pass``, ``swap``, ``resign``.

    Case-insensitive, space around the token ignored; read by the record's grammar
    (``gamerec.recorder.syntax.oust``), so no space inside it. Cells off the board parse
    (``check`` reports them).

    Raises:
        MoveSyntaxError: the text is not an Oust move token.
    """
    lowered = text.strip().lower()
    special = _SPECIALS.get(lowered)
    if special is not None:
        return special
    try:
        cells = syntax.parse_move(lowered)
    except NotationError as error:
        raise MoveSyntaxError(str(error)) from None
    return tuple(_code_of(column, row) for column, row in cells)


def format_move(move: Move) -> str:
    """The canonical lower-case token of ``move`` (``e5,f5,k9``, ``pass``)."""
    if isinstance(move, str):
        return move
    return ",".join(cell_name(code) for code in move)


# ---------------------------------------------------------------------------------------------
# The fast replay
# ---------------------------------------------------------------------------------------------


def replay(
    variant: OustVariant, moves: Sequence[Move], seats: Sequence[int] | None = None
) -> ReplayOutcome:
    """Check and play whole turns from the start; stop at the first illegal one.

    The legal prefix runs in :func:`_accepted_prefix`, one tight loop over bitboards. At the
    first ply that loop does not accept, :meth:`OustState.check` gives the verdict on the state
    before it, so codes and messages are check's own.
    """
    stop = len(moves)
    if seats is not None:
        # Seats strictly alternate in Oust (swap and pass are plies too): ply k is seat 1 + k % 2.
        stop = next((k for k, seat in enumerate(seats[:stop]) if seat and seat != 1 + k % 2), stop)
    accepted, state = _accepted_prefix(variant, moves, stop)
    for index in range(accepted, len(moves)):
        claimed = seats[index] if seats is not None and index < len(seats) else 0
        illegal = state.check(moves[index], claimed or None)
        if illegal is not None:
            return _outcome(state, index, illegal)
        state.play(moves[index])
    return _outcome(state, len(moves), None)


def _outcome(state: OustState, plies: int, illegal: Illegal | None) -> ReplayOutcome:
    return ReplayOutcome(state, plies, illegal)


# How a ply other than the common one ended, for the fast replay.
_NEXT_SEAT, _WON, _RESIGNED, _SWAPPED = range(4)


class _PlyRefusedError(Exception):
    """The fast replay meets a ply it does not accept (check then says why)."""


def _accepted_prefix(
    variant: OustVariant, moves: Sequence[Move], stop: int
) -> tuple[int, OustState]:
    """Play ``moves[:stop]`` while every ply is legal, on flat bitboards.

    Seats strictly alternate in Oust (swap and pass are plies too), so ply ``k`` (from 0) is
    always seat ``1 + k % 2``'s and no seat is tracked here.

    Returns:
        ``(k, state)``: ``k`` plies were accepted and ``state`` is the position after them;
        when ``k < stop`` the fast loop does not accept ply ``k`` (it is illegal).
    """
    board = hex_board(variant.side)
    bit_of = board.bit.get
    neighbour_mask = board.neighbour_mask
    groups = _Groups(board)
    root, group = groups.root, groups.group
    mine = theirs = 0  # the stones of the seat to move, and of its opponent
    over = 0  # how the game ended (_WON or _RESIGNED); 0 while it goes on
    for k, move in enumerate(moves[:stop] if stop < len(moves) else moves):
        if over:
            return k, _replayed_state(variant, groups, mine, theirs, ply=k, over=over)
        if type(move) is tuple and len(move) == 1:
            (code,) = move
            bit = bit_of(code)
            if bit is not None and not (mine | theirs) & bit and not neighbour_mask[code] & mine:
                # The common ply: one non-capturing placement, which ends the turn (§4.2).
                root[code] = code
                group[code] = bit
                mine, theirs = theirs, mine | bit
                continue
        try:
            if type(move) is tuple:
                mine, theirs, ending = _replay_turn(groups, move, mine, theirs)
            else:
                swap_open = k == 1 and variant.pie
                mine, theirs, ending = _replay_special(groups, move, mine, theirs, swap_open)
        except _PlyRefusedError:
            # The bitboards are those before the turn, but its placements before the refused
            # one may have merged groups in the tables: find the groups again.
            groups = _Groups.of_stones(board, mine, theirs)
            return k, _replayed_state(variant, groups, mine, theirs, ply=k, over=0)
        if ending == _NEXT_SEAT:
            mine, theirs = theirs, mine
        elif ending != _SWAPPED:  # seat 1, to move after a swap, has no stone: mine stays 0
            over = ending
    return stop, _replayed_state(variant, groups, mine, theirs, ply=stop, over=over)


def _replay_turn(groups: _Groups, move: Turn, mine: int, theirs: int) -> tuple[int, int, int]:
    """Play the placements of one turn; return the new bitboards and how the turn ended.

    Raises:
        _PlyRefusedError: the turn is not legal.
    """
    bit_of = groups.board.bit.get
    neighbour_mask = groups.board.neighbour_mask
    last = len(move) - 1
    for index, code in enumerate(move):
        bit = bit_of(code)
        if bit is None or (mine | theirs) & bit:
            break
        own = neighbour_mask[code] & mine
        if not own:  # non-capturing: the turn ends here (§4.2)
            if index != last:
                break
            groups.found(code, bit)
            return mine | bit, theirs, _NEXT_SEAT
        removed = groups.capture(mine, theirs, code, own)
        if not removed:
            break
        mine |= bit
        theirs &= ~removed
        if not theirs:  # the winning capture ends the game at once (§6.1)
            if index != last:
                break
            return mine, theirs, _WON
        if index == last:
            if groups.can_place(mine, theirs):
                break  # a placement is left: the seat must place again
            return mine, theirs, _NEXT_SEAT
    raise _PlyRefusedError


def _replay_special(
    groups: _Groups, move: Move, mine: int, theirs: int, swap_open: bool
) -> tuple[int, int, int]:
    """Play ``pass``, ``swap`` (legal when ``swap_open``) or ``resign``; say how it ended.

    Raises:
        _PlyRefusedError: the ply is not legal.
    """
    if move == SWAP and swap_open:
        return mine, theirs, _SWAPPED
    can_move = groups.can_place(mine, theirs)
    if move == PASS and not can_move and groups.can_place(theirs, mine):
        return mine, theirs, _NEXT_SEAT
    if move == RESIGN and (can_move or groups.can_place(theirs, mine)):
        return mine, theirs, _RESIGNED  # legal unless both seats are blocked (game over)
    raise _PlyRefusedError


def _replayed_state(
    variant: OustVariant, groups: _Groups, mine: int, theirs: int, *, ply: int, over: int
) -> OustState:
    """The state the fast replay reached after ``ply`` plies, handed over without copying.

    ``mine`` are the stones of the seat to move, or, when the game is ``over``, of the seat
    that made the last ply (it won, or it resigned).
    """
    seat = 1 + (ply - 1) % 2 if over else 1 + ply % 2
    state = OustState(variant, groups)
    state._stones = [0, mine, theirs] if seat == 1 else [0, theirs, mine]
    state._ply = ply
    if not over:
        state._begin_turn(seat)
        return state
    state._seat = seat
    state._over = True
    if over == _WON:
        state._winner, state._end = seat, "capture"
    else:
        state._winner, state._end, state._resigned = 3 - seat, "resign", (seat,)
    return state


# ---------------------------------------------------------------------------------------------
# Random games and perft
# ---------------------------------------------------------------------------------------------


#: A random game longer than this is taken for a loop (side-7 games run 3 to ~200 plies).
MAX_RANDOM_PLIES = 100_000


def random_game(
    variant: OustVariant,
    rng: random.Random,
    choose: Callable[[GameState[Move], list[Move]], Move] | None = None,
) -> list[Move]:
    """Play a complete legal game, placement by placement; return its whole turns.

    ``choose`` picks one of the moves it is given from :meth:`OustState.legal_moves`
    (placements, swap, pass), also for each placement after a capture; the default is
    ``rng.choice``. Never resigns.

    Raises:
        RuntimeError: the game is still going after :data:`MAX_RANDOM_PLIES` plies.
        IllegalMoveError, ValueError: ``choose`` returned a move it was not given.
    """
    state = OustState(variant)
    plies: list[Move] = []
    pick = choose if choose is not None else _random_choice(rng)
    while not state.is_over:
        if len(plies) >= MAX_RANDOM_PLIES:
            raise RuntimeError(f"random Oust game not over after {len(plies)} plies")
        plies.append(play_chosen_turn(state, pick))
    return plies


def _random_choice(rng: random.Random) -> Callable[[GameState[Move], list[Move]], Move]:
    """A chooser that takes any listed move, equally likely."""

    def choose(state: GameState[Move], options: list[Move]) -> Move:
        return rng.choice(options)

    return choose


def play_chosen_turn(
    state: OustState, choose: Callable[[GameState[Move], list[Move]], Move]
) -> Move:
    """Play one whole turn on ``state``, placement by placement; return the turn.

    ``choose`` picks one of the moves of :meth:`OustState.legal_moves` (placements, ``swap``,
    ``pass``), and again after each capturing placement, until the turn ends.

    Raises:
        IllegalMoveError, ValueError: ``choose`` returned a move it was not given.
    """
    choice = choose(state, state.legal_moves())
    if isinstance(choice, str):
        state.play(choice)
        return choice
    turn: list[int] = []
    while True:
        (code,) = choice  # a placement in legal_moves() is a one-placement move
        state.place(code)
        turn.append(code)
        if not state.in_turn:
            return tuple(turn)
        choice = cast(Turn, choose(state, state.legal_moves()))


def perft(state: OustState, depth: int) -> int:
    """Count the leaves of the tree of whole turns to ``depth`` (perft.md conventions).

    A game that ends before ``depth`` is one leaf. Faster than the protocol's generic perft,
    which would count placements rather than turns.
    """
    if depth == 0 or state.is_over:
        return 1
    if depth == 1:
        return state.count_turns()
    return sum(perft(child, depth - 1) for _, child in state.turn_children())


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------


class OustEngine(BaseEngine[OustVariant, Move, OustState]):
    """The Oust engine behind the protocol's ``Engine`` (see ``protocol``).

    Its own: the GRN tags of the variant, and because a turn chains placements, its first
    decision, random games played placement by placement and a perft that counts whole turns.
    """

    def __init__(self) -> None:
        """The Oust engine (there is one, :data:`ENGINE`)."""
        super().__init__(
            name=NAME,
            rules=RULES,
            reason_codes=REASON_CODES,
            reason_sections=REASON_SECTIONS,
            variant_type=OustVariant,
            state_type=OustState,
            parse_move=parse_move,
            format_move=any_variant(format_move),
            replay=replay,
        )

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> OustVariant:
        """A variant from the options ``Board``, ``Pie`` (and ``Players``, which must be 2).

        Raises:
            VariantError: a value that is not a number, not ``on``/``off``, or out of range.
        """
        side = option_number("Board", values.get("Board", DEFAULT_SIDE))
        players = option_number("Players", values.get("Players", 2))
        pie_text = option_word(values.get("Pie", "on"))
        if pie_text not in ("on", "off"):
            raise VariantError(f"Oust Pie tag must be on or off, not {values['Pie']!r}")
        return OustVariant(side=side, pie=pie_text == "on", players=players)

    def variant_tags(self, variant: OustVariant) -> dict[str, str]:
        """The tags ``Board`` and ``Pie`` of ``variant``."""
        return {"Board": str(variant.side), "Pie": "on" if variant.pie else "off"}

    def first_decision(self, move: Move) -> Move:
        """The first decision of ``move``: a turn's first placement, else the move itself."""
        return move[:1] if isinstance(move, tuple) else move

    def random_game(
        self,
        variant: OustVariant,
        rng: random.Random,
        choose: Callable[[GameState[Move], list[Move]], Move] | None = None,
    ) -> list[Move]:
        """A complete random legal game, placement by placement (see :func:`random_game`)."""
        return random_game(variant, rng, choose)

    def play_chosen(
        self, state: GameState[Move], choose: Callable[[GameState[Move], list[Move]], Move]
    ) -> Move:
        """One whole turn, placement by placement (see :func:`play_chosen_turn`).

        Raises:
            TypeError: ``state`` is not an Oust position.
        """
        if not isinstance(state, OustState):
            raise TypeError(f"an Oust turn needs an Oust position, not {type(state).__name__}")
        return play_chosen_turn(state, choose)

    def perft_from(self, state: OustState, depth: int) -> int:
        """perft.md's count of whole turns from ``state`` to ``depth`` (see :func:`perft`)."""
        return perft(state, depth)


ENGINE = OustEngine()
