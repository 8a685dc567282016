"""The board models: every site where the rules put it, in the engine's order."""

from __future__ import annotations

import math
from itertools import combinations
from typing import Any

import pytest

from gamerec.validator.games import aronda, engine, ohwahree, oust
from gamerec.validator.render.model import BoardModel, Disc, Polygon, Wedge, board_model

#: (game, variant options) covering every game and the board options.
VARIANTS: list[tuple[str, dict[str, Any]]] = [
    ("ONE", {"players": 2}),
    ("ONE", {"players": 3, "rings": (6, 6)}),
    ("ONE", {"players": 6, "rings": (10, 10, 20)}),
    ("ONE", {"players": 2, "rings": (5, 10, 20, 40, 80)}),
    ("Aronda", {}),
    ("Oust", {"side": 2}),
    ("Oust", {"side": 3}),
    ("Oust", {"side": 7}),
    ("Oust", {"side": 13}),
    ("Oh-Wah-Ree", {"players": 2}),
    ("Oh-Wah-Ree", {"players": 3}),
    ("Oh-Wah-Ree", {"players": 4}),
]


def model_of(game: str, **options: Any) -> tuple[BoardModel, Any]:
    found = engine(game)
    variant = found.variant(**options)
    return board_model(game, variant), variant


def clockwise_angle(x: float, y: float) -> float:
    """Degrees clockwise from 12 o'clock (y grows downwards)."""
    return math.degrees(math.atan2(x, -y)) % 360.0


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_sites_are_those_of_the_engine_position_in_its_order(
    game: str, options: dict[str, Any]
) -> None:
    model, variant = model_of(game, **options)
    position = engine(game).new_game(variant).position()
    assert [site.name for site in model.sites] == [site.name for site in position.sites]
    assert model.seats == engine(game).new_game(variant).seats


@pytest.mark.parametrize(("game", "options"), VARIANTS)
def test_every_site_lies_inside_the_bounds_and_text_cells_are_distinct(
    game: str, options: dict[str, Any]
) -> None:
    model, _ = model_of(game, **options)
    left, top, right, bottom = model.bounds
    for site in model.sites:
        x, y = site.anchor
        assert left < x < right and top < y < bottom, site.name
    cells = [(site.row, site.column) for site in model.sites]
    if model.kind != "pit":
        assert len(set(cells)) == len(cells)
        assert max(site.row for site in model.sites) < len(model.text.row_labels)


def test_a_model_is_built_once_per_variant() -> None:
    first, _ = model_of("ONE", players=3, rings=(6, 6))
    again, _ = model_of("ONE", players=3, rings=(6, 6))
    other, _ = model_of("ONE", players=3, rings=(6, 12))
    assert first is again
    assert other is not first


# -- ONE: docs/rules/one.md §2.1 ------------------------------------------------------------------


@pytest.mark.parametrize("rings", [(10, 10, 20, 20), (6, 6), (5, 10, 20, 40, 80)])
def test_one_point_xi_lies_at_360_i_minus_1_over_n_on_its_ring(rings: tuple[int, ...]) -> None:
    model, _ = model_of("ONE", players=2, rings=rings)
    for site in model.sites:
        ring = ord(site.name[0]) - ord("a")
        index = int(site.name[1:])
        x, y = site.anchor
        expected = 360.0 * (index - 1) / rings[ring]
        assert clockwise_angle(x, y) == pytest.approx(expected, abs=1e-6)
        assert math.hypot(x, y) == pytest.approx(model.rings[ring])
        assert isinstance(site.shape, Disc)
    assert list(model.rings) == sorted(model.rings)


def test_one_default_board_has_ten_long_and_ten_short_spokes_along_radii() -> None:
    model, _ = model_of("ONE", players=2)
    assert len(model.spokes) == 20
    lengths = sorted(round(math.dist(*spoke)) for spoke in model.spokes)
    assert lengths[:10] == [lengths[0]] * 10  # c(2k)-d(2k): one ring step
    assert lengths[10:] == [lengths[-1]] * 10  # a-b-c-d: three ring steps
    for (x1, y1), (x2, y2) in model.spokes:
        assert clockwise_angle(x1, y1) == pytest.approx(clockwise_angle(x2, y2), abs=1e-6)


def test_one_neighbouring_points_do_not_overlap() -> None:
    model, _ = model_of("ONE", players=2, rings=(5, 10, 20, 40, 80))
    discs = [site.shape for site in model.sites]
    for first, second in combinations(discs, 2):
        assert isinstance(first, Disc) and isinstance(second, Disc)
        assert math.dist(first.centre, second.centre) > first.radius + second.radius


# -- Aronda: docs/rules/aronda.md §2 --------------------------------------------------------------


def test_aronda_capacities_are_the_rules_table() -> None:
    model, _ = model_of("Aronda")
    capacity = {site.name: site.capacity for site in model.sites}
    assert capacity["c"] == 4
    assert [name for name, cap in capacity.items() if cap == 2] == ["o1", "o3", "o5", "o7"]
    assert [name for name, cap in capacity.items() if cap == 4] == ["c", "m1", "m3", "m5", "m7"]
    assert sum(1 for cap in capacity.values() if cap == 3) == 16


def test_aronda_wedges_have_the_rules_sectors() -> None:
    model, _ = model_of("Aronda")
    sectors = {
        site.name: (site.shape.start % 360, site.shape.end - site.shape.start)
        for site in model.sites
        if isinstance(site.shape, Wedge)
    }
    assert sectors["i1"] == (0.0, 45.0)
    assert sectors["m1"] == (330.0, 60.0)
    assert sectors["m2"] == (30.0, 30.0)
    assert sectors["o1"] == (345.0, 30.0)
    assert sectors["o2"] == (15.0, 60.0)
    for ring in "imo":
        assert sum(span for name, (_, span) in sectors.items() if name[0] == ring) == 360.0


def _touching(first: Wedge | Disc, second: Wedge | Disc) -> bool:
    """Whether two Aronda fields share a stretch of boundary (not just a corner)."""
    if isinstance(first, Disc) or isinstance(second, Disc):
        wedge = second if isinstance(first, Disc) else first
        return isinstance(wedge, Wedge) and wedge.inner == 62.0
    assert isinstance(first, Wedge) and isinstance(second, Wedge)
    if first.inner == second.inner:
        return first.end % 360 == second.start % 360 or second.end % 360 == first.start % 360
    if first.outer != second.inner and second.outer != first.inner:
        return False
    # Overlapping angle intervals on the shared circle (both taken modulo 360).
    for shift in (-360.0, 0.0, 360.0):
        if min(first.end, second.end + shift) - max(first.start, second.start + shift) > 0:
            return True
    return False


def test_aronda_fields_touch_exactly_where_the_rules_make_them_neighbours() -> None:
    model, _ = model_of("Aronda")
    shapes = {site.name: site.shape for site in model.sites}
    drawn = set()
    for (a, first), (b, second) in combinations(shapes.items(), 2):
        assert not isinstance(first, Polygon) and not isinstance(second, Polygon)
        if _touching(first, second):
            drawn.add(frozenset((a, b)))
    rules = {
        frozenset((aronda.FIELD_NAMES[code], aronda.FIELD_NAMES[other]))
        for code, neighbours in enumerate(aronda.NEIGHBOURS)
        for other in neighbours
    }
    assert len(rules) == 64
    assert drawn == rules


# -- Oust: docs/rules/oust.md §2.1 ----------------------------------------------------------------


def hexagon_centres(model: BoardModel) -> dict[str, tuple[float, float]]:
    """The centre of every Oust cell's hexagon (its stone sits above it, its name below)."""
    centres = {}
    for site in model.sites:
        assert isinstance(site.shape, Polygon)
        xs, ys = zip(*site.shape.corners, strict=True)
        centres[site.name] = (sum(xs) / 6, sum(ys) / 6)
    return centres


@pytest.mark.parametrize("side", [2, 3, 7])
def test_oust_neighbouring_cells_are_exactly_the_hexagons_one_step_apart(side: int) -> None:
    model, _ = model_of("Oust", side=side)
    board = oust.hex_board(side)
    centres = hexagon_centres(model)
    shape = model.sites[0].shape
    assert isinstance(shape, Polygon)
    step = math.dist(shape.corners[1], shape.corners[5])  # the hexagon's width
    rules = {
        frozenset((oust.cell_name(code), oust.cell_name(other)))
        for code in board.cells
        for other in board.neighbours(code)
    }
    drawn = {
        frozenset((a, b))
        for (a, first), (b, second) in combinations(centres.items(), 2)
        if math.dist(first, second) == pytest.approx(step)
    }
    assert drawn == rules


def test_oust_row_1_is_at_the_bottom_and_the_centre_in_the_middle() -> None:
    model, _ = model_of("Oust", side=7)
    centres = hexagon_centres(model)
    assert centres["g7"] == pytest.approx((0.0, 0.0))
    assert centres["g1"][1] > centres["g7"][1] > centres["a13"][1]
    assert centres["h7"][0] > centres["g7"][0]
    # (u, v+1) is up and to the right of (u, v): g8 from g7.
    assert centres["g8"][0] > centres["g7"][0] and centres["g8"][1] < centres["g7"][1]


# -- Oh-Wah-Ree: docs/rules/ohwahree.md §2 --------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ohwahree_pits_run_counter_clockwise_with_the_owners_of_the_rules(players: int) -> None:
    model, _ = model_of("Oh-Wah-Ree", players=players)
    angles = [clockwise_angle(*site.anchor) for site in model.sites]
    for pit in range(12):
        step = (angles[pit] - angles[(pit + 1) % 12]) % 360.0
        assert step == pytest.approx(30.0)  # each next pit 30 degrees counter-clockwise
    assert tuple(site.home for site in model.sites) == ohwahree.pit_owners(players)
    assert [block.seat for block in model.blocks] == list(range(1, players + 1))
    assert [store.seat for store in model.stores] == list(range(1, players + 1))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ohwahree_each_block_wedge_holds_exactly_its_seats_pits(players: int) -> None:
    model, _ = model_of("Oh-Wah-Ree", players=players)
    for block in model.blocks:
        inside = []
        for site in model.sites:
            angle = clockwise_angle(*site.anchor)
            if any(block.wedge.start < angle + shift < block.wedge.end for shift in (0.0, 360.0)):
                inside.append(site.home)
        assert inside == [block.seat] * (12 // players)


def test_seat_1s_block_is_at_the_bottom() -> None:
    model, _ = model_of("Oh-Wah-Ree", players=2)
    block = model.blocks[0]
    assert (block.wedge.start + block.wedge.end) / 2 == pytest.approx(180.0)
