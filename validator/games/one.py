"""The ONE rules engine: 2 to 6 seats, a board of rings and spokes, jump captures.

The rules are docs/rules/one.md; the move text is notation.md (ONE section). Sections, in the
order every engine file follows: constants and the board as data, variant, state, notation,
the fast replay, registration (:data:`ENGINE`; its random games and perft are those of
``protocol.BaseEngine``, playing listed moves unchecked).

Moves
    A move is a plain tuple of *point codes*, ``Move = tuple[int, ...]``:

    - ``(p,)``: a placement on point ``p``;
    - ``(p0, p1, ..., pk)`` with k >= 1: a capture by the stone on ``p0`` that jumps k times,
      landing on ``p1`` .. ``pk`` in turn (``c7xc9xa5``);
    - ``()``: ``resign`` (:data:`RESIGN`).

    A point code is the point's name as a number, ``ring + 26 * index`` with ring 0 for ``a``
    (``c7`` is ``2 + 26 * 7 = 184``). It depends on the text alone, not on the board, so
    ``e1`` has a code on every board and ``check`` answers ``NO_SUCH_POINT`` where the board
    has no such point. :func:`point_code` and :func:`point_name` convert. The state keeps its
    cells in a list indexed by point code (``-1`` where a code names no point), so checking a
    move needs no translation.

State
    :class:`OneState` is mutable (the protocol's model): ``play`` changes it in place and
    ``copy`` gives an independent one.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import chain, compress, pairwise, repeat
from operator import itemgetter
from typing import Final, NamedTuple

from gamerec.recorder.errors import NotationError
from gamerec.recorder.syntax import one as syntax
from gamerec.validator.games.protocol import (
    BaseEngine,
    GameEvent,
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
    option_numbers,
    option_word,
    rank_seats,
)

# ---------------------------------------------------------------------------------------------
# Constants and the board as data (docs/rules/one.md §2)
# ---------------------------------------------------------------------------------------------

#: The game's name as the GRN ``Game`` tag writes it.
NAME: Final = "ONE"
#: Ring letters, innermost first; a board has at most this many rings.
RING_LETTERS: Final = "abcdefghijklmnopqrstuvwxyz"
#: Point code = ring + CODE_STRIDE * index.
CODE_STRIDE: Final = len(RING_LETTERS)
#: The smallest ring size (§2.1).
MIN_RING_SIZE: Final = 5
#: The most points a board may have. Not a rule: a guard so that a record cannot ask for a
#: board of millions of points (26 doubling rings would have 335 million).
MAX_POINTS: Final = 10_000
#: The default ``Board`` (§2.2).
DEFAULT_RINGS: Final = (10, 10, 20, 20)
#: The ``Mirror`` option values (§4.1, §8.1).
MIRROR_OPTIONS: Final = ("none", "first", "every")
#: The ``Tiebreak`` option values (§6.4, §8.1).
TIEBREAK_OPTIONS: Final = ("shared", "largest-group")

#: A ONE move: the point codes of a placement or capture, ``()`` for resign (module docstring).
Move = tuple[int, ...]
#: The ``resign`` move.
RESIGN: Final[Move] = ()
#: What a position's scoring makes at once: largest groups, scores and ranks, in seat order.
_Scoring = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]

#: Every reason code ``check`` can return, with a one-line description.
REASON_CODES: Final[dict[str, str]] = {
    "NOT_YOUR_TURN": "the ply is claimed by a seat that is not the seat to move",
    "GAME_ALREADY_OVER": "the game has ended; no ply may follow",
    "NO_SUCH_POINT": "a point of the move is not on this board",
    "OCCUPIED": "a placement on a point that holds a stone",
    "NO_STONES_LEFT": "a placement by a seat whose supply is empty",
    "MIRROR": "a placement opposite the previous one, forbidden by the Mirror option",
    "NOT_YOUR_STONE": "a capture starts on a point without a stone of the mover",
    "NOT_A_JUMP": "a landing point is not two points beyond along one line",
    "JUMP_OVER_EMPTY": "a jump passes over an empty point",
    "CAPTURE_OVER_OWN_STONE": "a jump passes over a stone of the mover",
    "LANDING_OCCUPIED": "a jump lands on a point that holds a stone",
}
#: The sections of the rules text each reason code's sentences cite (tests check that they
#: exist and that every sentence cites only these).
REASON_SECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "NOT_YOUR_TURN": ("§4",),
    "GAME_ALREADY_OVER": ("§6.2",),
    "NO_SUCH_POINT": ("§2.1",),
    "OCCUPIED": ("§4.1",),
    "NO_STONES_LEFT": ("§4.1",),
    "MIRROR": ("§4.1",),
    "NOT_YOUR_STONE": ("§4.2",),
    "NOT_A_JUMP": ("§2.1", "§4.2"),
    "JUMP_OVER_EMPTY": ("§4.2",),
    "CAPTURE_OVER_OWN_STONE": ("§4.2",),
    "LANDING_OCCUPIED": ("§4.2",),
}

#: A cell value, an opposite point or a mirror ban that names no point.
NO_POINT: Final = -1
#: A cell value: the point is empty.
EMPTY: Final = 0
#: Cell values (0 for empty, else a seat) to the digits the digest writes for them.
_DIGITS: Final = bytes.maketrans(bytes(range(10)), b"0123456789")

#: The rules text every message cites.
RULES: Final = "docs/rules/one.md"


def point_name(code: int) -> str:
    """The notation of a point code (``184`` -> ``"c7"``)."""
    index, ring = divmod(code, CODE_STRIDE)
    return f"{RING_LETTERS[ring]}{index}"


class Line(NamedTuple):
    """One line of the board: its points in order, and whether it closes on itself.

    Attributes:
        points: point codes in line order (rings clockwise from index 1, spokes outwards).
        closed: True for a ring, False for a spoke.
    """

    points: tuple[int, ...]
    closed: bool


def _code(ring: int, index: int) -> int:
    return ring + CODE_STRIDE * index


def _check_rings(rings: tuple[int, ...]) -> None:
    """Raise VariantError unless ``rings`` is a valid ``Board`` (§2.1)."""
    if not 1 <= len(rings) <= len(RING_LETTERS):
        raise VariantError(f"a ONE board has 1 to 26 rings, not {len(rings)} ({RULES} §2.1)")
    for inner, outer in zip((None, *rings), rings, strict=False):
        if type(outer) is not int or outer < MIN_RING_SIZE:
            raise VariantError(f"ring size {outer!r} is not an integer >= 5 ({RULES} §2.1)")
        if inner is not None and outer % inner:
            raise VariantError(f"ring size {inner} does not divide {outer} ({RULES} §2.1)")
    if sum(rings) > MAX_POINTS:
        raise VariantError(f"a board of {sum(rings)} points exceeds the limit of {MAX_POINTS}")


def _ring_lines(rings: tuple[int, ...]) -> list[Line]:
    return [
        Line(tuple(_code(ring, i) for i in range(1, size + 1)), closed=True)
        for ring, size in enumerate(rings)
    ]


def _spoke_lines(rings: tuple[int, ...]) -> list[Line]:
    """Every spoke with at least two points, from its innermost point outwards (§2.1)."""
    spokes = []
    for ring, size in enumerate(rings):
        step = size // rings[ring - 1] if ring else 1
        for index in range(1, size + 1):
            if ring and (index - 1) % step == 0:
                continue  # this point has an inward link: it lies on a spoke begun further in
            points = [_code(ring, index)]
            outer_index = index
            for outer in range(ring + 1, len(rings)):
                outer_index = (outer_index - 1) * (rings[outer] // rings[outer - 1]) + 1
                points.append(_code(outer, outer_index))
            if len(points) > 1:
                spokes.append(Line(tuple(points), closed=False))
    return spokes


def _line_steps(line: Line, position: int) -> tuple[int | None, int | None]:
    """The positions before and after ``position`` on ``line`` (None past an open end)."""
    size = len(line.points)
    if line.closed:
        return (position - 1) % size, (position + 1) % size
    before = position - 1 if position > 0 else None
    after = position + 1 if position < size - 1 else None
    return before, after


class Board:
    """A ONE board built from its ring sizes: points, lines, adjacency, jumps, opposites.

    Everything is derived from the lines alone (§2.1). Tables are indexed by point code and
    have ``span`` entries; entries for codes that name no point are empty (or ``NO_POINT``).
    Build boards with :func:`board_for`, which builds each ring-size tuple once.

    Attributes:
        rings: the ring sizes, innermost first.
        size: the number of points P.
        points: every point code in board order (ring ``a`` first, each ring by index).
        names: the name of each point of ``points``, in the same order.
        adjacent: per point in board order, the places in ``points`` of its neighbours (the
            flood fill works on the points alone, without the gaps of the code tables).
        span: one more than the largest point code; the length of every table.
        lines: the rings (closed), then the spokes (open), each innermost / index 1 first.
        cells: the empty board: ``EMPTY`` on each point, ``NO_POINT`` elsewhere.
        neighbours: per point, the adjacent points: ring predecessor (counter-clockwise) and
            successor, then spoke predecessor (inward) and successor (outward), as present.
        jumps: per point p, every ``(jumped, landing)`` pair of a jump triple (p, q, t): ring
            successor side, ring predecessor side, spoke outward, spoke inward.
        jumped_between: per point p, ``{landing: jumped}`` (p and t determine q, §2.1).
        opposite: per point, its opposite point on an even ring, else ``NO_POINT``.
        on_points: a callable that gives a cell table's entries at ``points``, in order.
    """

    __slots__ = (
        "adjacent",
        "cells",
        "jumped_between",
        "jumps",
        "lines",
        "names",
        "neighbours",
        "on_points",
        "opposite",
        "points",
        "rings",
        "size",
        "span",
    )

    def __init__(self, rings: tuple[int, ...]) -> None:
        """Build the board of ``rings``; raise VariantError when it is not valid (§2.1)."""
        _check_rings(rings)
        ring_lines = _ring_lines(rings)
        self.rings = rings
        self.lines = tuple(ring_lines + _spoke_lines(rings))
        self.points = tuple(p for line in ring_lines for p in line.points)
        self.names = tuple(map(point_name, self.points))
        self.size = len(self.points)
        self.span = _code(0, max(rings) + 1)
        cells = [NO_POINT] * self.span
        for p in self.points:
            cells[p] = EMPTY
        self.cells = tuple(cells)
        self.neighbours, self.jumps = self._links_and_jumps()
        place = {p: i for i, p in enumerate(self.points)}
        self.adjacent = tuple(tuple(place[q] for q in self.neighbours[p]) for p in self.points)
        self.jumped_between = tuple({t: q for q, t in pairs} for pairs in self.jumps)
        self.opposite = self._opposites()
        self.on_points: Callable[[Sequence[int]], tuple[int, ...]] = itemgetter(*self.points)

    def _links_and_jumps(
        self,
    ) -> tuple[tuple[tuple[int, ...], ...], tuple[tuple[tuple[int, int], ...], ...]]:
        neighbours: list[list[int]] = [[] for _ in range(self.span)]
        jumps: list[list[tuple[int, int]]] = [[] for _ in range(self.span)]
        for line in self.lines:
            points = line.points
            for position, p in enumerate(points):
                before, after = _line_steps(line, position)
                neighbours[p].extend(points[s] for s in (before, after) if s is not None)
                for step, onward in ((after, 1), (before, 0)):
                    if step is None:
                        continue
                    beyond = _line_steps(line, step)[onward]
                    if beyond is not None:
                        jumps[p].append((points[step], points[beyond]))
        return tuple(map(tuple, neighbours)), tuple(map(tuple, jumps))

    def _opposites(self) -> tuple[int, ...]:
        opposite = [NO_POINT] * self.span
        for ring, size in enumerate(self.rings):
            if size % 2 == 0:
                for index in range(1, size + 1):
                    facing = (index - 1 + size // 2) % size + 1
                    opposite[_code(ring, index)] = _code(ring, facing)
        return tuple(opposite)

    def has_point(self, code: int) -> bool:
        """Whether ``code`` names a point of this board."""
        return 0 <= code < self.span and self.cells[code] == EMPTY

    def text(self) -> str:
        """The ``Board`` tag value (``"10,10,20,20"``)."""
        return ",".join(map(str, self.rings))


@lru_cache(maxsize=64)
def board_for(rings: tuple[int, ...]) -> Board:
    """The board of ``rings``, built once per ring-size tuple (the 64 latest are kept).

    Raises:
        VariantError: the ring sizes are not a valid board (§2.1).
    """
    return Board(rings)


# ---------------------------------------------------------------------------------------------
# Variant (docs/rules/one.md §3, §8)
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OneVariant:
    """The rule options of a ONE game (§8.1), checked on creation.

    Attributes:
        players: the number of seats N, 2 to 6 (GRN ``Players``, required).
        rings: the ring sizes, innermost first (GRN ``Board``, default ``10,10,20,20``).
        mirror: the anti-mirror rule, ``"none"``, ``"first"`` (default) or ``"every"``.
        tiebreak: how equal scores are separated, ``"shared"`` (default) or
            ``"largest-group"``.

    Raises:
        VariantError: a value is impossible (see :func:`board_for` for the board rules), or
            the board has fewer points than seats (each seat needs at least one stone, §3).
    """

    players: int
    rings: tuple[int, ...] = DEFAULT_RINGS
    mirror: str = "first"
    tiebreak: str = "shared"

    def __post_init__(self) -> None:
        """Check every option and normalise ``rings`` to a tuple."""
        if type(self.players) is not int or not 2 <= self.players <= 6:
            raise VariantError(f"ONE is for 2 to 6 players, not {self.players!r} ({RULES} §3)")
        if not isinstance(self.rings, tuple | list):
            raise VariantError(f"ring sizes must be a sequence of integers, not {self.rings!r}")
        object.__setattr__(self, "rings", tuple(self.rings))
        board = board_for(self.rings)
        if board.size < self.players:
            raise VariantError(
                f"a board of {board.size} points gives {self.players} seats no stones ({RULES} §3)"
            )
        if self.mirror not in MIRROR_OPTIONS:
            raise VariantError(f"Mirror must be none, first or every, not {self.mirror!r}")
        if self.tiebreak not in TIEBREAK_OPTIONS:
            raise VariantError(f"Tiebreak must be shared or largest-group, not {self.tiebreak!r}")

    @property
    def board(self) -> Board:
        """The board of this variant."""
        return board_for(self.rings)

    @property
    def stones(self) -> int:
        """K, every seat's starting supply: floor(P / N) (§3)."""
        return self.board.size // self.players


# ---------------------------------------------------------------------------------------------
# State (docs/rules/one.md §4 - §7)
# ---------------------------------------------------------------------------------------------


class OneState:
    """A ONE position with the seat to move; mutable (``play`` works in place).

    Seats are 1-based. Per-seat lists inside are indexed by seat (entry 0 unused).
    """

    __slots__ = (
        "_active",
        "_banned",
        "_board",
        "_captured",
        "_cells",
        "_ending",
        "_next",
        "_ply",
        "_resigned",
        "_scored",
        "_stones",
        "_supplies",
        "_to_move",
        "_variant",
    )

    def __init__(self, variant: OneVariant) -> None:
        """The start position of ``variant``: an empty board, full supplies, seat 1 to move."""
        board = variant.board
        seats = variant.players
        self._variant = variant
        self._board = board
        self._cells = list(board.cells)
        self._supplies = [0] + [variant.stones] * seats
        self._captured = [0] * (seats + 1)
        # _next[s]: the next seat after s that has not resigned (kept for resigned seats too).
        self._next = [0] + [seat % seats + 1 for seat in range(1, seats + 1)]
        self._active = seats
        self._resigned: list[int] = []
        self._to_move = 1
        self._ply = 0
        self._ending = False
        # largest_groups(), scores() and ranking(), made together once and remembered until
        # the position changes: _end_ply (every ply) and every write outside play() reset it.
        self._scored: _Scoring | None = None
        self._banned = NO_POINT
        self._stones = 0

    @classmethod
    def set_up(
        cls,
        variant: OneVariant,
        stones: Mapping[str, int],
        *,
        to_move: int = 1,
        supplies: Sequence[int] | None = None,
        captured: Sequence[int] | None = None,
    ) -> OneState:
        """A position built by hand, for tests and analysis; it need not be reachable.

        The position counts as ply 0 with no mirror ban, so under ``Mirror first`` the second
        ply played from it is restricted as ply 2 of a game is.

        Args:
            variant: the rules.
            stones: the seat on each occupied point, by point name (``{"c7": 1}``).
            to_move: the seat to move.
            supplies: per seat in seat order; default K minus the seat's stones on the board.
            captured: per seat in seat order; default all 0.

        Raises:
            VariantError: a point is not on the board, or a seat or count is out of range.
        """
        state = cls(variant)
        seats = variant.players
        for name, seat in stones.items():
            code = point_code(name)
            if not state._board.has_point(code) or not 1 <= seat <= seats:
                raise VariantError(f"cannot put a stone of seat {seat} on {name}")
            state._cells[code] = seat
            state._stones += 1
            state._scored = None
        if not 1 <= to_move <= seats:
            raise VariantError(f"seat {to_move} is not at a table of {seats}")
        placed = [sum(1 for s in stones.values() if s == seat) for seat in range(1, seats + 1)]
        default_supplies = [max(variant.stones - n, 0) for n in placed]
        for target, values in (
            (state._supplies, default_supplies if supplies is None else supplies),
            (state._captured, [0] * seats if captured is None else captured),
        ):
            if len(values) != seats or min(values) < 0:
                raise VariantError(f"need one count >= 0 per seat, not {list(values)}")
            target[1:] = values
        state._to_move = to_move
        return state

    # -- the protocol's read-only view ----------------------------------------------------

    @property
    def variant(self) -> OneVariant:
        """The rules of this game."""
        return self._variant

    @property
    def board(self) -> Board:
        """The board."""
        return self._board

    @property
    def seats(self) -> int:
        """The number of seats at the table (resigned seats included)."""
        return self._variant.players

    @property
    def to_move(self) -> int:
        """The seat to move; 0 when the game is over."""
        return self._to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (§6.2, §7)."""
        return self._to_move == 0

    @property
    def ply(self) -> int:
        """The number of plies played so far."""
        return self._ply

    @property
    def supplies(self) -> tuple[int, ...]:
        """Stones left to place, per seat in seat order."""
        return tuple(self._supplies[1:])

    @property
    def captured(self) -> tuple[int, ...]:
        """Stones captured, per seat in seat order."""
        return tuple(self._captured[1:])

    @property
    def resigned(self) -> tuple[int, ...]:
        """The seats that have resigned, in the order they did."""
        return tuple(self._resigned)

    @property
    def ending(self) -> bool:
        """Whether some seat has placed its last stone: the round in progress is the last."""
        return self._ending

    @property
    def stones_on_board(self) -> int:
        """The number of stones on the board."""
        return self._stones

    def stone_at(self, name: str) -> int:
        """The seat whose stone stands on point ``name``, 0 when it is empty.

        Raises:
            MoveSyntaxError: ``name`` is not a point name.
            KeyError: the board has no such point.
        """
        code = point_code(name)
        if not self._board.has_point(code):
            raise KeyError(name)
        return self._cells[code]

    # -- legality -------------------------------------------------------------------------

    def check(self, move: Move, seat: int | None = None) -> Illegal | None:
        """Return why ``move`` is illegal here, or None when it is legal.

        The order of the tests fixes which code a move with several faults gets: game over,
        wrong seat, a point not on the board (any point of the token), then the clauses of
        §4.1 (placement) or §4.2 (capture, jump by jump) in the rules' order.
        """
        if self._to_move == 0:
            return Illegal("GAME_ALREADY_OVER", f"the game is already over ({RULES} §6.2)")
        if seat is not None and seat != self._to_move:
            return Illegal(
                "NOT_YOUR_TURN",
                f"seat {seat} cannot play {format_move(move)}: it is seat {self._to_move}'s "
                f"turn ({RULES} §4)",
            )
        if not move:
            return None
        for p in move:
            if not self._board.has_point(p):
                return Illegal(
                    "NO_SUCH_POINT",
                    f"point {point_name(p)} is not on the board {self._board.text()} "
                    f"({RULES} §2.1)",
                )
        if len(move) == 1:
            return self._placement_fault(move[0])
        return self._capture_fault(move)

    def _placement_fault(self, p: int) -> Illegal | None:
        seat = self._to_move
        if self._cells[p] != EMPTY:
            return Illegal("OCCUPIED", f"point {point_name(p)} is occupied ({RULES} §4.1)")
        if self._supplies[seat] < 1:
            return Illegal(
                "NO_STONES_LEFT",
                f"seat {seat} has no stone left to place on {point_name(p)} ({RULES} §4.1)",
            )
        if p == self._banned and not self._mirror_exception():
            return Illegal(
                "MIRROR",
                f"{point_name(p)} is opposite {point_name(self._board.opposite[p])}, placed at "
                f"the previous ply (Mirror {self._variant.mirror}, {RULES} §4.1)",
            )
        return None

    def _mirror_exception(self) -> bool:
        """Under ``every`` the banned point is allowed when it is the only empty point."""
        return self._variant.mirror == "every" and self._board.size - self._stones == 1

    def _capture_fault(self, path: Move) -> Illegal | None:
        seat = self._to_move
        cells = self._cells
        start = path[0]
        if cells[start] != seat:
            return Illegal(
                "NOT_YOUR_STONE",
                f"capture start {point_name(start)} holds no stone of seat {seat} ({RULES} §4.2)",
            )
        removed: list[tuple[int, int]] = []
        cells[start] = EMPTY  # the stone leaves its start point; it may land there again
        try:
            here = start
            for land in path[1:]:
                fault = self._jump_fault(here, land)
                if fault is not None:
                    return fault
                over = self._board.jumped_between[here][land]
                removed.append((over, cells[over]))
                cells[over] = EMPTY
                here = land
            return None
        finally:
            for over, owner in removed:
                cells[over] = owner
            cells[start] = seat

    def _jump_fault(self, here: int, land: int) -> Illegal | None:
        """Why one jump from ``here`` to ``land`` is illegal now (§4.2 clauses 1-3)."""
        jump = f"{point_name(here)}x{point_name(land)}"
        over = self._board.jumped_between[here].get(land)
        if over is None:
            return Illegal(
                "NOT_A_JUMP",
                f"{jump} is not a jump: {point_name(land)} is not two points beyond "
                f"{point_name(here)} along one line ({RULES} §2.1, §4.2)",
            )
        owner = self._cells[over]
        if owner == EMPTY:
            return Illegal(
                "JUMP_OVER_EMPTY",
                f"jump {jump} passes over the empty point {point_name(over)} ({RULES} §4.2)",
            )
        if owner == self._to_move:
            return Illegal(
                "CAPTURE_OVER_OWN_STONE",
                f"jump {jump} passes over {point_name(over)}, the mover's own stone ({RULES} §4.2)",
            )
        if self._cells[land] != EMPTY:
            return Illegal(
                "LANDING_OCCUPIED",
                f"landing point {point_name(land)} is occupied ({RULES} §4.2)",
            )
        return None

    def legal_moves(self) -> list[Move]:
        """Every legal placement (board order), then every capture chain; ``[]`` when over.

        A capture chain and each shorter chain that stops earlier are different moves.
        ``resign`` is always legal while the game goes on and is not listed.
        """
        seat = self._to_move
        if seat == 0:
            return []
        moves: list[Move] = []
        if self._supplies[seat] > 0:
            cells = self._cells
            banned = NO_POINT if self._mirror_exception() else self._banned
            moves = [(p,) for p in self._board.points if cells[p] == EMPTY and p != banned]
        for p in self._board.points:
            if self._cells[p] == seat:
                moves.extend(self._captures_from(p, seat))
        return moves

    def _captures_from(self, start: int, seat: int) -> list[Move]:
        """Every capture chain of the stone on ``start`` (depth first, in jump-table order)."""
        cells = self._cells
        jumps = self._board.jumps
        found: list[Move] = []
        path = [start]
        removed: list[tuple[int, int]] = []
        pending = [iter(jumps[start])]
        cells[start] = EMPTY
        while pending:
            for over, land in pending[-1]:
                owner = cells[over]
                if owner > 0 and owner != seat and cells[land] == EMPTY:
                    cells[over] = EMPTY
                    removed.append((over, owner))
                    path.append(land)
                    found.append(tuple(path))
                    pending.append(iter(jumps[land]))
                    break
            else:
                pending.pop()
                if pending:  # back out of the jump that led here
                    over, owner = removed.pop()
                    cells[over] = owner
                    path.pop()
        cells[start] = seat
        return found

    # -- playing --------------------------------------------------------------------------

    def play(self, move: Move) -> tuple[GameEvent, ...]:
        """Play ``move`` in place and return what it did.

        Events: ``capture`` (seat = the captor, where = the jumped points in jump order,
        count = how many), ``resign`` (the resigning seat), ``end`` (the game is over after
        this ply; seat = the seat that made it). A placement adds no event of its own.

        Raises:
            IllegalMoveError: ``check`` rejects the move; the state is unchanged.
        """
        illegal = self.check(move)
        if illegal is not None:
            raise IllegalMoveError(illegal)
        seat = self._to_move
        events: list[GameEvent] = []
        if not move:
            self._resign(seat)
            events.append(GameEvent("resign", seat))
        elif len(move) == 1:
            self._place(move[0], seat)
        else:
            jumped = self._capture(move, seat)
            events.append(GameEvent("capture", seat, tuple(map(point_name, jumped)), len(jumped)))
        if self._end_ply(seat):
            events.append(GameEvent("end", seat))
        return tuple(events)

    def _apply(self, move: Move) -> None:
        """Play a move known to be legal (from ``legal_moves``) without checking it."""
        seat = self._to_move
        if not move:
            self._resign(seat)
        elif len(move) == 1:
            self._place(move[0], seat)
        else:
            self._capture(move, seat)
        self._end_ply(seat)

    def _place(self, p: int, seat: int) -> None:
        self._cells[p] = seat
        self._supplies[seat] -= 1
        self._stones += 1
        if self._supplies[seat] == 0:
            self._ending = True  # §6.1
        mirror = self._variant.mirror
        if mirror == "every" or (mirror == "first" and self._ply == 0):
            self._banned = self._board.opposite[p]
        else:
            self._banned = NO_POINT

    def _capture(self, path: Move, seat: int) -> list[int]:
        cells = self._cells
        jumped = []
        cells[path[0]] = EMPTY
        for here, land in pairwise(path):
            over = self._board.jumped_between[here][land]
            cells[over] = EMPTY
            jumped.append(over)
        cells[path[-1]] = seat
        self._captured[seat] += len(jumped)
        self._stones -= len(jumped)
        self._banned = NO_POINT
        return jumped

    def _resign(self, seat: int) -> None:
        self._resigned.append(seat)
        self._active -= 1
        self._banned = NO_POINT
        seats = self.seats
        playing = [s for s in range(1, seats + 1) if s not in self._resigned]
        for s in range(1, seats + 1):
            self._next[s] = next((t for t in playing if t > s), playing[0])

    def _end_ply(self, seat: int) -> bool:
        """Pass the turn after ``seat``'s ply; return whether the game is now over (§6.2, §7)."""
        self._ply += 1
        self._scored = None
        following = self._next[seat]
        if self._active == 1 or (self._ending and following <= seat):
            self._to_move = 0
            return True
        self._to_move = following
        return False

    def decide(self, decision: Move) -> None:
        """Make one decision of ``legal_moves``: in this game, a whole ply (see ``play``)."""
        self.play(decision)

    def copy(self) -> OneState:
        """An independent copy of this state."""
        other = OneState.__new__(OneState)
        other._variant = self._variant
        other._board = self._board
        other._cells = self._cells.copy()
        other._supplies = self._supplies.copy()
        other._captured = self._captured.copy()
        other._next = self._next.copy()
        other._active = self._active
        other._resigned = self._resigned.copy()
        other._to_move = self._to_move
        other._ply = self._ply
        other._ending = self._ending
        other._banned = self._banned
        other._stones = self._stones
        other._scored = self._scored
        return other

    # -- scoring (§5, §6.3, §6.4, §7) -----------------------------------------------------

    def largest_groups(self) -> tuple[int, ...]:
        """largest(s) per seat in seat order: the size of its biggest group, 0 with no stone."""
        return (self._scored or self._score())[0]

    def scores(self) -> tuple[int, ...]:
        """score(s) = largest(s) + 2 x captured(s), every seat (resigned too), now (§6.3)."""
        return (self._scored or self._score())[1]

    def ranking(self) -> tuple[int, ...]:
        """Competition ranks per seat in seat order (§6.4, §7).

        Seats still playing are ranked by score, ties separated by ``Tiebreak``; resigned
        seats follow, the later resignation ranking higher. Before the end of the game this
        is the standing now.
        """
        return (self._scored or self._score())[2]

    def winners(self) -> tuple[int, ...]:
        """The seats ranked 1st once the game is over; ``()`` while it goes on."""
        if self._to_move:
            return ()
        ranks = (self._scored or self._score())[2]
        return tuple([seat for seat, rank in enumerate(ranks, 1) if rank == 1])

    def _score(self) -> _Scoring:
        """Make and remember largest groups, scores and ranks in one pass (§6.3, §6.4, §7)."""
        largest = self._find_largest_groups()
        captured = self._captured
        seats = range(1, len(captured))
        scores = tuple([largest[seat] + 2 * captured[seat] for seat in seats])
        if self._variant.tiebreak == "largest-group":
            # (score, largest group) compared as one number: a group has at most size points.
            scale = self._board.size + 1
            keys = [scores[seat - 1] * scale + largest[seat] for seat in seats]
        else:
            keys = list(scores)
        scored = self._scored = (
            tuple(largest[1:]),
            scores,
            rank_seats(keys, self._resigned),
        )
        return scored

    def _find_largest_groups(self) -> list[int]:
        """largest(s) indexed by seat (entry 0 unused), every group flood-filled once.

        On a list of the points' cells in board order, emptying each stone as it joins a
        group: no stone is looked at twice, and the scan for the next group skips the
        emptied ones.
        """
        board = self._board
        owners = list(board.on_points(self._cells))
        adjacent = board.adjacent
        largest = [0] * len(self._captured)
        # compress reads the list as it goes: a stone emptied by an earlier group is skipped.
        for start in compress(range(len(owners)), owners):
            seat = owners[start]
            owners[start] = EMPTY
            group = [start]
            grow = group.append
            for here in group:  # the list grows as the loop reads it
                for there in adjacent[here]:
                    if owners[there] == seat:
                        owners[there] = EMPTY
                        grow(there)
            if len(group) > largest[seat]:  # noqa: PLR1730 (no call per group)
                largest[seat] = len(group)
        return largest

    # -- pictures -------------------------------------------------------------------------

    def position(self) -> Position:
        """A game-neutral snapshot: every point with its stone, supplies, captures, resigned."""
        board = self._board
        return Position(
            to_move=self._to_move,
            sites=tuple(map(Site, board.names, board.on_points(self._cells))),
            supplies=self.supplies,
            captured=self.captured,
            resigned=self.resigned,
        )

    def digest(self) -> str:
        """A blake2b digest (32 hex digits) of everything that decides the game's future.

        Covers the variant, every point, supplies, captures, the resignation order, the seat
        to move, the ``ending`` flag and the point the anti-mirror rule bans next; not the
        ply count. The digested text is those fields joined by ``|``, each point a digit.
        """
        banned = self._banned
        rest = "|{}|{}|{}|{}|{}|{}".format(
            ",".join(map(str, self._supplies[1:])),
            ",".join(map(str, self._captured[1:])),
            ",".join(map(str, self._resigned)),
            self._to_move,
            "1" if self._ending else "0",
            "-" if banned == NO_POINT else point_name(banned),
        )
        points = bytes(self._board.on_points(self._cells)).translate(_DIGITS)
        return digest_of(b"".join((_digest_head(self._variant), points, rest.encode("ascii"))))

    def diagram(self) -> str:
        """The board as text, one row per ring from ``a`` outwards.

        Each row lists the ring's points in index order: ``.`` for an empty point, else the
        seat number of its stone::

            a . . . . 1 . . . . .
            b . . . . . . . . . .
        """
        rows = []
        for ring, size in enumerate(self._board.rings):
            cells = (self._cells[_code(ring, i)] for i in range(1, size + 1))
            rows.append(" ".join([RING_LETTERS[ring], *(str(c) if c else "." for c in cells)]))
        return "\n".join(rows)

    def __repr__(self) -> str:
        """The variant, ply and seat to move, for debugging."""
        return f"OneState({self._variant!r}, ply={self._ply}, to_move={self._to_move})"


@lru_cache(maxsize=64)
def _digest_head(variant: OneVariant) -> bytes:
    """The start of a digested text that the variant alone decides, up to the points' ``|``."""
    board = variant.board.text()
    return f"{NAME}|{variant.players}|{board}|{variant.mirror}|{variant.tiebreak}|".encode("ascii")


# ---------------------------------------------------------------------------------------------
# Notation (notation.md, ONE)
# ---------------------------------------------------------------------------------------------


def point_code(name: str) -> int:
    """The code of a point name (``"c7"`` -> 184), whether or not a board has that point.

    Raises:
        MoveSyntaxError: ``name`` is not a ring letter followed by an index.
    """
    move = parse_move(name)
    if len(move) != 1:
        raise MoveSyntaxError(f"{name!r} is not a ONE point (a ring letter and an index)")
    return move[0]


def parse_move(text: str) -> Move:
    """Parse a ONE move token: ``c7``, ``c7xc9xa5`` or ``resign`` (case-insensitive).

    The record's grammar reads it (``gamerec.recorder.syntax.one``): leading zeros are read as
    the number they spell (``c07`` is ``c7``), an index is at most 2^32 - 1.

    Raises:
        MoveSyntaxError: the text is not a ONE move token (``pass`` is not one: ONE has none).
    """
    token = text.strip().lower()
    if token == "resign":
        return RESIGN
    try:
        points = syntax.parse_move(token)
    except NotationError as error:
        raise MoveSyntaxError(str(error)) from None
    return tuple(_code(ring - 1, index) for ring, index in points)


def format_move(move: Move) -> str:
    """The canonical token of ``move``: ``c7``, ``c7xc9xa5`` or ``resign``."""
    return "x".join(map(point_name, move)) if move else "resign"


# ---------------------------------------------------------------------------------------------
# The fast replay: the validator's hot path
# ---------------------------------------------------------------------------------------------

_FOREVER: Final = 1 << 62


def replay(
    variant: OneVariant, moves: Sequence[Move], seats: Sequence[int] | None = None
) -> ReplayOutcome:
    """Check and play ``moves`` from the start; stop at the first illegal one.

    Placements and captures that are legal are played inline on the state's own lists.
    Anything else (resign, an illegal or unusual ply) goes through :meth:`OneState.check`
    and :meth:`OneState.play`, so verdicts and codes are exactly theirs. ``seats[i]`` is the
    seat ply i+1 claims (0 = unstated); missing entries count as unstated.
    """
    state = OneState(variant)
    board = state._board
    cells, supplies, captured, following = (
        state._cells,
        state._supplies,
        state._captured,
        state._next,
    )
    jumped_between, opposite, span = board.jumped_between, board.opposite, board.span
    ban_plies = {"none": 0, "first": 1, "every": _FOREVER}[variant.mirror]
    to_move, ply, ending, banned, stones = 1, 0, False, NO_POINT, 0
    claims = repeat(0) if seats is None else chain(seats, repeat(0))
    for move, claim in zip(moves, claims, strict=False):  # claims never runs out
        seat = to_move
        if seat and (not claim or claim == seat):
            size = len(move)
            if size == 1:
                p = move[0]
                if 0 <= p < span and cells[p] == EMPTY and p != banned and supplies[seat]:
                    cells[p] = seat
                    left = supplies[seat] - 1
                    supplies[seat] = left
                    if not left:
                        ending = True
                    stones += 1
                    banned = opposite[p] if ply < ban_plies else NO_POINT
                    ply += 1
                    nxt = following[seat]
                    to_move = 0 if ending and nxt <= seat else nxt
                    continue
            elif size > 1:
                taken = _capture_inline(cells, jumped_between, move, seat, span)
                if taken:
                    captured[seat] += taken
                    stones -= taken
                    banned = NO_POINT
                    ply += 1
                    nxt = following[seat]
                    to_move = 0 if ending and nxt <= seat else nxt
                    continue
        state._to_move, state._ply, state._ending = to_move, ply, ending
        state._banned, state._stones, state._scored = banned, stones, None
        illegal = state.check(move, claim or None)
        if illegal is not None:
            return ReplayOutcome(state, ply, illegal)
        state.play(move)
        to_move, ply, ending = state._to_move, state._ply, state._ending
        banned, stones = state._banned, state._stones
    state._to_move, state._ply, state._ending = to_move, ply, ending
    state._banned, state._stones, state._scored = banned, stones, None
    return ReplayOutcome(state, ply, None)


def _capture_inline(
    cells: list[int],
    jumped_between: tuple[dict[int, int], ...],
    path: Move,
    seat: int,
    span: int,
) -> int:
    """Play the capture ``path`` on ``cells`` if it is legal; return the stones taken.

    Returns 0 with ``cells`` unchanged when any clause of §4.2 fails (a legal capture takes at
    least one stone), so that the caller can ask ``check`` for the reason.
    """
    start = path[0]
    if not (0 <= start < span and cells[start] == seat):
        return 0
    cells[start] = EMPTY
    here = start
    removed: list[int] = []  # jumped point, its owner, jumped point, its owner, ...
    for land in path[1:]:
        over = jumped_between[here].get(land)
        if over is None:
            break
        owner = cells[over]
        if owner <= 0 or owner == seat or cells[land]:
            break
        cells[over] = EMPTY
        removed.append(over)
        removed.append(owner)
        here = land
    else:
        cells[here] = seat
        return len(removed) >> 1
    for i in range(0, len(removed), 2):
        cells[removed[i]] = removed[i + 1]
    cells[start] = seat
    return 0


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------


class OneEngine(BaseEngine[OneVariant, Move, OneState]):
    """The ONE engine behind the protocol's ``Engine`` shape; use the module's ``ENGINE``.

    Its own: the GRN tags of the variant, and perft and random games that play listed moves
    unchecked (:meth:`OneState._apply`).
    """

    def __init__(self) -> None:
        """The ONE engine (there is one, :data:`ENGINE`)."""
        super().__init__(
            name=NAME,
            rules=RULES,
            reason_codes=REASON_CODES,
            reason_sections=REASON_SECTIONS,
            variant_type=OneVariant,
            state_type=OneState,
            parse_move=parse_move,
            format_move=any_variant(format_move),
            replay=replay,
        )

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> OneVariant:
        """A variant from the options ``Players``, ``Board``, ``Mirror``, ``Tiebreak``.

        ``Players`` is required; words are read case-insensitively; other names are ignored.

        Raises:
            VariantError: ``Players`` is missing, or a value is unknown or impossible.
        """
        if "Players" not in values:
            raise VariantError("a ONE record needs the Players tag")
        options: dict[str, object] = {"players": option_number("Players", values["Players"])}
        if "Board" in values:
            options["rings"] = option_numbers("Board", values["Board"])
        if "Mirror" in values:
            options["mirror"] = option_word(values["Mirror"])
        if "Tiebreak" in values:
            options["tiebreak"] = option_word(values["Tiebreak"])
        return self.variant(**options)

    def variant_tags(self, variant: OneVariant) -> dict[str, str]:
        """The GRN tags of ``variant``, every option written out."""
        return {
            "Players": str(variant.players),
            "Board": variant.board.text(),
            "Mirror": variant.mirror,
            "Tiebreak": variant.tiebreak,
        }

    def _play_listed(self, state: OneState, move: Move) -> None:
        """Play a move of ``state.legal_moves()`` without checking it again."""
        state._apply(move)


#: The ONE engine (registered as ``ONE`` in ``gamerec.validator.games``).
ENGINE: Final = OneEngine()
