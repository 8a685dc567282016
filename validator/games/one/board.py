"""ONE's board as data: the constants, point codes and names, lines, and :class:`Board`.

Everything here is derived from the ring sizes alone (docs/rules/one.md §2); a board is built
once per ring-size tuple (:func:`board_for`). It may import the standard library and
``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import lru_cache
from operator import itemgetter
from typing import Final, NamedTuple

from gamerec.validator.games.protocol import VariantError

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

#: A cell value, an opposite point or a mirror ban that names no point.
NO_POINT: Final = -1
#: A cell value: the point is empty.
EMPTY: Final = 0

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


class GroupTables(NamedTuple):
    """What the largest-group search reads (§5), made once per board on first use.

    A set of points is an int: bit ``q`` for the point at place ``q`` of ``Board.points``.

    Attributes:
        neighbours: per place, the set of its neighbours.
        places: every nonempty set of one point's neighbours, to their places in increasing
            order (a point has at most four neighbours, so at most 15 such sets per point).
    """

    neighbours: tuple[int, ...]
    places: dict[int, tuple[int, ...]]


def _group_tables(adjacent: tuple[tuple[int, ...], ...]) -> GroupTables:
    places: dict[int, tuple[int, ...]] = {}
    for near in adjacent:
        for chosen in range(1, 1 << len(near)):
            subset = tuple(sorted(q for k, q in enumerate(near) if chosen >> k & 1))
            places[sum(1 << q for q in subset)] = subset
    return GroupTables(tuple(sum(1 << q for q in near) for near in adjacent), places)


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
            group search works on the points alone, without the gaps of the code tables).
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
        "_group_tables",
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
        self._group_tables: GroupTables | None = None

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

    def group_tables(self) -> GroupTables:
        """The tables of the largest-group search (see :class:`GroupTables`), made on first use."""
        tables = self._group_tables
        if tables is None:
            tables = self._group_tables = _group_tables(self.adjacent)
        return tables

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
