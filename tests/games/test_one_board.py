"""The board of docs/rules/one.md §2 as data: the general construction and the default-board table.

The table of §2.2 is golden data: the board built from the ring sizes 10,10,20,20 must give
every row's neighbours and jumps, in the table's order.
"""

from __future__ import annotations

import pytest

from gamerec.validator.games.one import (
    NO_POINT,
    Board,
    Line,
    OneVariant,
    board_for,
    point_code,
    point_name,
)
from gamerec.validator.games.protocol import VariantError

# docs/rules/one.md §2.2, verbatim: point | angle° | neighbours | jumps (jumped→landing).
DEFAULT_BOARD_TABLE = """
| a1 | 0 | a10, a2, b1 | a2→a3, a10→a9, b1→c1 |
| a2 | 36 | a1, a3, b2 | a3→a4, a1→a10, b2→c3 |
| a3 | 72 | a2, a4, b3 | a4→a5, a2→a1, b3→c5 |
| a4 | 108 | a3, a5, b4 | a5→a6, a3→a2, b4→c7 |
| a5 | 144 | a4, a6, b5 | a6→a7, a4→a3, b5→c9 |
| a6 | 180 | a5, a7, b6 | a7→a8, a5→a4, b6→c11 |
| a7 | 216 | a6, a8, b7 | a8→a9, a6→a5, b7→c13 |
| a8 | 252 | a7, a9, b8 | a9→a10, a7→a6, b8→c15 |
| a9 | 288 | a8, a10, b9 | a10→a1, a8→a7, b9→c17 |
| a10 | 324 | a9, a1, b10 | a1→a2, a9→a8, b10→c19 |
| b1 | 0 | b10, b2, a1, c1 | b2→b3, b10→b9, c1→d1 |
| b2 | 36 | b1, b3, a2, c3 | b3→b4, b1→b10, c3→d3 |
| b3 | 72 | b2, b4, a3, c5 | b4→b5, b2→b1, c5→d5 |
| b4 | 108 | b3, b5, a4, c7 | b5→b6, b3→b2, c7→d7 |
| b5 | 144 | b4, b6, a5, c9 | b6→b7, b4→b3, c9→d9 |
| b6 | 180 | b5, b7, a6, c11 | b7→b8, b5→b4, c11→d11 |
| b7 | 216 | b6, b8, a7, c13 | b8→b9, b6→b5, c13→d13 |
| b8 | 252 | b7, b9, a8, c15 | b9→b10, b7→b6, c15→d15 |
| b9 | 288 | b8, b10, a9, c17 | b10→b1, b8→b7, c17→d17 |
| b10 | 324 | b9, b1, a10, c19 | b1→b2, b9→b8, c19→d19 |
| c1 | 0 | c20, c2, b1, d1 | c2→c3, c20→c19, b1→a1 |
| c2 | 18 | c1, c3, d2 | c3→c4, c1→c20 |
| c3 | 36 | c2, c4, b2, d3 | c4→c5, c2→c1, b2→a2 |
| c4 | 54 | c3, c5, d4 | c5→c6, c3→c2 |
| c5 | 72 | c4, c6, b3, d5 | c6→c7, c4→c3, b3→a3 |
| c6 | 90 | c5, c7, d6 | c7→c8, c5→c4 |
| c7 | 108 | c6, c8, b4, d7 | c8→c9, c6→c5, b4→a4 |
| c8 | 126 | c7, c9, d8 | c9→c10, c7→c6 |
| c9 | 144 | c8, c10, b5, d9 | c10→c11, c8→c7, b5→a5 |
| c10 | 162 | c9, c11, d10 | c11→c12, c9→c8 |
| c11 | 180 | c10, c12, b6, d11 | c12→c13, c10→c9, b6→a6 |
| c12 | 198 | c11, c13, d12 | c13→c14, c11→c10 |
| c13 | 216 | c12, c14, b7, d13 | c14→c15, c12→c11, b7→a7 |
| c14 | 234 | c13, c15, d14 | c15→c16, c13→c12 |
| c15 | 252 | c14, c16, b8, d15 | c16→c17, c14→c13, b8→a8 |
| c16 | 270 | c15, c17, d16 | c17→c18, c15→c14 |
| c17 | 288 | c16, c18, b9, d17 | c18→c19, c16→c15, b9→a9 |
| c18 | 306 | c17, c19, d18 | c19→c20, c17→c16 |
| c19 | 324 | c18, c20, b10, d19 | c20→c1, c18→c17, b10→a10 |
| c20 | 342 | c19, c1, d20 | c1→c2, c19→c18 |
| d1 | 0 | d20, d2, c1 | d2→d3, d20→d19, c1→b1 |
| d2 | 18 | d1, d3, c2 | d3→d4, d1→d20 |
| d3 | 36 | d2, d4, c3 | d4→d5, d2→d1, c3→b2 |
| d4 | 54 | d3, d5, c4 | d5→d6, d3→d2 |
| d5 | 72 | d4, d6, c5 | d6→d7, d4→d3, c5→b3 |
| d6 | 90 | d5, d7, c6 | d7→d8, d5→d4 |
| d7 | 108 | d6, d8, c7 | d8→d9, d6→d5, c7→b4 |
| d8 | 126 | d7, d9, c8 | d9→d10, d7→d6 |
| d9 | 144 | d8, d10, c9 | d10→d11, d8→d7, c9→b5 |
| d10 | 162 | d9, d11, c10 | d11→d12, d9→d8 |
| d11 | 180 | d10, d12, c11 | d12→d13, d10→d9, c11→b6 |
| d12 | 198 | d11, d13, c12 | d13→d14, d11→d10 |
| d13 | 216 | d12, d14, c13 | d14→d15, d12→d11, c13→b7 |
| d14 | 234 | d13, d15, c14 | d15→d16, d13→d12 |
| d15 | 252 | d14, d16, c15 | d16→d17, d14→d13, c15→b8 |
| d16 | 270 | d15, d17, c16 | d17→d18, d15→d14 |
| d17 | 288 | d16, d18, c17 | d18→d19, d16→d15, c17→b9 |
| d18 | 306 | d17, d19, c18 | d19→d20, d17→d16 |
| d19 | 324 | d18, d20, c19 | d20→d1, d18→d17, c19→b10 |
| d20 | 342 | d19, d1, c20 | d1→d2, d19→d18 |
"""


def table_rows() -> list[tuple[str, int, list[str], list[tuple[str, str]]]]:
    rows = []
    for line in DEFAULT_BOARD_TABLE.strip().splitlines():
        point, angle, neighbours, jumps = (cell.strip() for cell in line.strip("|").split("|"))
        pairs = [tuple(jump.split("→")) for jump in jumps.split(", ")]
        rows.append(
            (point, int(angle), neighbours.split(", "), [(q, t) for q, t in pairs]),
        )
    return rows


def names(codes: tuple[int, ...]) -> list[str]:
    return [point_name(code) for code in codes]


DEFAULT = board_for((10, 10, 20, 20))


# -- §2.2 the default board ------------------------------------------------------------------


@pytest.mark.parametrize("row", table_rows(), ids=lambda row: row[0])
def test_default_board_table_row(row: tuple[str, int, list[str], list[tuple[str, str]]]) -> None:
    point, _angle, neighbours, jumps = row
    code = point_code(point)
    assert names(DEFAULT.neighbours[code]) == neighbours
    assert [(point_name(q), point_name(t)) for q, t in DEFAULT.jumps[code]] == jumps


def test_default_board_table_covers_every_point_once() -> None:
    assert [row[0] for row in table_rows()] == names(DEFAULT.points)
    assert DEFAULT.size == 60


def test_default_board_has_160_directed_jumps_and_100_adjacent_pairs() -> None:
    assert sum(len(DEFAULT.jumps[p]) for p in DEFAULT.points) == 160
    pairs = {frozenset((p, q)) for p in DEFAULT.points for q in DEFAULT.neighbours[p]}
    assert len(pairs) == 100


def test_default_board_degrees() -> None:
    def degree(name: str) -> int:
        return len(DEFAULT.neighbours[point_code(name)])

    assert {degree(f"a{k}") for k in range(1, 11)} == {3}
    assert {degree(f"b{k}") for k in range(1, 11)} == {4}
    assert {degree(f"c{j}") for j in range(1, 21, 2)} == {4}
    assert {degree(f"c{j}") for j in range(2, 21, 2)} == {3}
    assert {degree(f"d{j}") for j in range(1, 21)} == {3}


def test_default_board_has_10_long_and_10_short_spokes() -> None:
    spokes = [names(line.points) for line in DEFAULT.lines if not line.closed]
    long_spokes = [[f"a{k}", f"b{k}", f"c{2 * k - 1}", f"d{2 * k - 1}"] for k in range(1, 11)]
    short_spokes = [[f"c{2 * k}", f"d{2 * k}"] for k in range(1, 11)]
    assert sorted(spokes) == sorted(long_spokes + short_spokes)


def test_default_board_spoke_jumps_are_40_ring_jumps_120() -> None:
    on_spoke = 0
    for p in DEFAULT.points:
        for q, t in DEFAULT.jumps[p]:
            on_spoke += len({point_name(x)[0] for x in (p, q, t)}) == 3
    assert on_spoke == 40


def test_short_spoke_point_c2_is_never_jumped_along_its_spoke() -> None:
    c2 = point_code("c2")
    jumpers = sorted(
        point_name(p) + ">" + point_name(t)
        for p in DEFAULT.points
        for q, t in DEFAULT.jumps[p]
        if q == c2
    )
    assert jumpers == ["c1>c3", "c3>c1"]


def test_default_board_points_on_one_spoke_share_the_table_angle() -> None:
    angle = {row[0]: row[1] for row in table_rows()}
    for line in DEFAULT.lines:
        if not line.closed:
            assert len({angle[name] for name in names(line.points)}) == 1


@pytest.mark.parametrize(
    ("point", "opposite"), [("a1", "a6"), ("b3", "b8"), ("c7", "c17"), ("d10", "d20")]
)
def test_default_board_opposite_points(point: str, opposite: str) -> None:
    assert DEFAULT.opposite[point_code(point)] == point_code(opposite)
    assert DEFAULT.opposite[point_code(opposite)] == point_code(point)


# -- §2.1 the general board ------------------------------------------------------------------


@pytest.mark.parametrize("rings", [(), tuple([5] * 27)])
def test_board_has_1_to_26_rings(rings: tuple[int, ...]) -> None:
    with pytest.raises(VariantError):
        Board(rings)


def test_board_of_26_rings_names_them_a_to_z() -> None:
    board = Board(tuple([5] * 26))
    assert point_name(board.points[-1]) == "z5"
    assert board.size == 130


@pytest.mark.parametrize("rings", [(4,), (5, 4), (0,), (-5,)])
def test_every_ring_has_at_least_five_points(rings: tuple[int, ...]) -> None:
    with pytest.raises(VariantError):
        Board(rings)


@pytest.mark.parametrize("rings", [(10, 15), (6, 9), (10, 5)])
def test_each_ring_size_divides_the_next(rings: tuple[int, ...]) -> None:
    with pytest.raises(VariantError):
        Board(rings)


def test_ring_is_a_closed_line_from_index_1() -> None:
    rings = [names(line.points) for line in board_for((5, 10)).lines if line.closed]
    assert rings == [[f"a{i}" for i in range(1, 6)], [f"b{i}" for i in range(1, 11)]]


def test_radial_link_joins_points_at_the_same_angle() -> None:
    # Ring b has twice ring a's points: a_i faces b_(2i-1), and even b points have no inward link.
    board = board_for((5, 10))
    assert names(board.neighbours[point_code("a3")]) == ["a2", "a4", "b5"]
    assert names(board.neighbours[point_code("b4")]) == ["b3", "b5"]


def test_spoke_that_reaches_a_ring_continues_to_every_ring_outside_it() -> None:
    board = board_for((5, 10, 20))
    spokes = sorted(
        (names(line.points) for line in board.lines if not line.closed), key=lambda s: s[0]
    )
    assert ["a2", "b3", "c5"] in spokes
    assert ["b2", "c3"] in spokes
    # c2 has no inward link and c is the outermost ring: a lone point links radially to nothing.
    assert all("c2" not in spoke for spoke in spokes)
    assert len(spokes) == 5 + 5


def test_diagonal_points_are_not_adjacent() -> None:
    for p, q in [("c1", "d2"), ("b1", "c2"), ("a1", "b2")]:
        assert point_code(q) not in DEFAULT.neighbours[point_code(p)]


def test_no_line_runs_through_the_centre() -> None:
    a1, a6 = point_code("a1"), point_code("a6")
    assert a6 not in DEFAULT.neighbours[a1]
    assert all(point_name(t)[0] != "a" or point_name(q)[0] == "a" for q, t in DEFAULT.jumps[a1])


@pytest.mark.parametrize(
    "rings", [(10, 10, 20, 20), (10, 10, 20), (6, 6, 12, 12, 24), (5, 10, 10, 30)]
)
def test_every_jump_is_three_consecutive_points_of_one_line(rings: tuple[int, ...]) -> None:
    board = board_for(rings)
    triples = set()
    for line in board.lines:
        points = line.points
        count = len(points)
        starts = range(count) if line.closed else range(count - 2)
        for i in starts:
            p, q, t = (points[(i + k) % count] for k in range(3))
            triples |= {(p, q, t), (t, q, p)}
    found = {(p, q, t) for p in board.points for q, t in board.jumps[p]}
    assert found == triples


@pytest.mark.parametrize("rings", [(10, 10, 20, 20), (5, 5, 10), (6, 6, 12, 12, 24)])
def test_start_and_landing_determine_the_jumped_point(rings: tuple[int, ...]) -> None:
    board = board_for(rings)
    for p in board.points:
        assert len(board.jumped_between[p]) == len(board.jumps[p])
        assert all(board.jumped_between[p][t] == q for q, t in board.jumps[p])


def test_adjacency_comes_from_the_lines_alone() -> None:
    for rings in [(10, 10, 20, 20), (6, 12, 12, 24)]:
        board = board_for(rings)
        linked = set()
        for line in board.lines:
            points = line.points
            ends = len(points) if line.closed else len(points) - 1
            for i in range(ends):
                linked |= {(points[i], points[(i + 1) % len(points)])}
        symmetric = linked | {(q, p) for p, q in linked}
        assert {(p, q) for p in board.points for q in board.neighbours[p]} == symmetric


def test_opposite_point_is_a_half_turn_on_an_even_ring() -> None:
    board = board_for((6, 12))
    assert point_name(board.opposite[point_code("a2")]) == "a5"
    assert point_name(board.opposite[point_code("b12")]) == "b6"


def test_point_on_an_odd_ring_has_no_opposite() -> None:
    board = board_for((5, 10))
    assert {board.opposite[point_code(f"a{i}")] for i in range(1, 6)} == {NO_POINT}
    assert board.opposite[point_code("b1")] == point_code("b6")


def test_board_is_built_once_per_ring_sizes() -> None:
    assert board_for((10, 10, 20, 20)) is board_for((10, 10, 20, 20))
    assert OneVariant(players=2).board is DEFAULT


def test_point_not_on_the_board_is_known_as_such() -> None:
    assert DEFAULT.has_point(point_code("d20"))
    for name in ("e1", "d21", "a11", "a0"):
        assert not DEFAULT.has_point(point_code(name))


def test_default_board_has_four_closed_rings_and_twenty_open_spokes() -> None:
    assert all(isinstance(line, Line) for line in DEFAULT.lines)
    assert [len(line.points) for line in DEFAULT.lines if line.closed] == [10, 10, 20, 20]
    assert sum(not line.closed for line in DEFAULT.lines) == 20
