"""The Aronda board of docs/rules/aronda.md §2: the field table is golden data."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from gamerec.validator.games.aronda import (
    ALL_FIELDS,
    CAPACITY,
    EDGE,
    FIELD_CODES,
    FIELD_COUNT,
    FIELD_NAMES,
    NEIGHBOUR_MASK,
    NEIGHBOURS,
    ArondaState,
    ArondaVariant,
    around,
    fields_in,
)

# docs/rules/aronda.md §2, copied verbatim (sector column left out): field | cap | neighbours.
SPEC_TABLE = """
| c | 4 | i1 i2 i3 i4 i5 i6 i7 i8 |
| i1 | 3 | c i2 i8 m1 m2 |
| i2 | 3 | c i1 i3 m2 m3 |
| i3 | 3 | c i2 i4 m3 m4 |
| i4 | 3 | c i3 i5 m4 m5 |
| i5 | 3 | c i4 i6 m5 m6 |
| i6 | 3 | c i5 i7 m6 m7 |
| i7 | 3 | c i6 i8 m7 m8 |
| i8 | 3 | c i1 i7 m1 m8 |
| m1 | 4 | i1 i8 m2 m8 o1 o2 o8 |
| m2 | 3 | i1 i2 m1 m3 o2 |
| m3 | 4 | i2 i3 m2 m4 o2 o3 o4 |
| m4 | 3 | i3 i4 m3 m5 o4 |
| m5 | 4 | i4 i5 m4 m6 o4 o5 o6 |
| m6 | 3 | i5 i6 m5 m7 o6 |
| m7 | 4 | i6 i7 m6 m8 o6 o7 o8 |
| m8 | 3 | i7 i8 m1 m7 o8 |
| o1 | 2 | m1 o2 o8 |
| o2 | 3 | m1 m2 m3 o1 o3 |
| o3 | 2 | m3 o2 o4 |
| o4 | 3 | m3 m4 m5 o3 o5 |
| o5 | 2 | m5 o4 o6 |
| o6 | 3 | m5 m6 m7 o5 o7 |
| o7 | 2 | m7 o6 o8 |
| o8 | 3 | m1 m7 m8 o1 o7 |
"""


def spec_rows() -> dict[str, tuple[int, set[str]]]:
    """The spec table as field -> (capacity, neighbour names)."""
    rows = {}
    for line in SPEC_TABLE.strip().splitlines():
        field, cap, neighbours = (cell.strip() for cell in line.strip("| ").split("|"))
        rows[field] = (int(cap), set(neighbours.split()))
    return rows


def engine_rows() -> dict[str, tuple[int, set[str]]]:
    """The engine's board tables as field -> (capacity, neighbour names)."""
    return {
        FIELD_NAMES[code]: (CAPACITY[code], {FIELD_NAMES[n] for n in NEIGHBOURS[code]})
        for code in range(FIELD_COUNT)
    }


def wrap(k: int) -> int:
    """Ring index k wrapped round 1..8."""
    return (k - 1) % 8 + 1


def rule_form_rows() -> dict[str, tuple[int, set[str]]]:
    """The board built from the sentences of §2 ("The same table as a rule"), field by field."""
    rows = {"c": (4, {f"i{k}" for k in range(1, 9)})}
    for k in range(1, 9):
        odd = k % 2 == 1
        rows[f"i{k}"] = (3, {"c", f"i{wrap(k - 1)}", f"i{wrap(k + 1)}", f"m{k}", f"m{wrap(k + 1)}"})
        m_edge = {f"o{wrap(k - 1)}", f"o{k}", f"o{wrap(k + 1)}"} if odd else {f"o{k}"}
        rows[f"m{k}"] = (
            4 if odd else 3,
            {f"m{wrap(k - 1)}", f"m{wrap(k + 1)}", f"i{wrap(k - 1)}", f"i{k}"} | m_edge,
        )
        o_middle = {f"m{k}"} if odd else {f"m{wrap(k - 1)}", f"m{k}", f"m{wrap(k + 1)}"}
        rows[f"o{k}"] = (2 if odd else 3, {f"o{wrap(k - 1)}", f"o{wrap(k + 1)}"} | o_middle)
    return rows


def test_board_order_is_centre_then_inner_middle_outer_rings() -> None:
    expected = ("c", *(f"{ring}{k}" for ring in "imo" for k in range(1, 9)))
    assert expected == FIELD_NAMES
    assert {name: code for code, name in enumerate(expected)} == FIELD_CODES


def test_every_field_has_the_capacity_and_neighbours_of_the_spec_table() -> None:
    spec = spec_rows()
    assert len(spec) == 25
    engine = engine_rows()
    for field, row in spec.items():
        assert engine[field] == row, field


def test_spec_table_equals_the_rule_form_description() -> None:
    assert rule_form_rows() == spec_rows()


def test_adjacency_is_symmetric_and_irreflexive() -> None:
    for code in range(FIELD_COUNT):
        assert code not in NEIGHBOURS[code]
        for other in NEIGHBOURS[code]:
            assert code in NEIGHBOURS[other], (FIELD_NAMES[code], FIELD_NAMES[other])


def test_board_has_64_adjacent_pairs() -> None:
    pairs = {frozenset((code, other)) for code in range(FIELD_COUNT) for other in NEIGHBOURS[code]}
    assert len(pairs) == 64


def test_capacity_totals_four_2_fields_five_4_fields_sixteen_3_fields() -> None:
    by_capacity: dict[int, set[str]] = {2: set(), 3: set(), 4: set()}
    for code, name in enumerate(FIELD_NAMES):
        by_capacity[CAPACITY[code]].add(name)
    assert by_capacity[2] == {"o1", "o3", "o5", "o7"}
    assert by_capacity[4] == {"c", "m1", "m3", "m5", "m7"}
    assert len(by_capacity[3]) == 16


def test_capacity_is_the_smallest_majority_of_neighbours_except_the_centre() -> None:
    for code, name in enumerate(FIELD_NAMES):
        if name != "c":
            assert CAPACITY[code] == len(NEIGHBOURS[code]) // 2 + 1, name
    assert CAPACITY[FIELD_CODES["c"]] == 4


def test_the_edge_is_the_outer_ring() -> None:
    assert {FIELD_NAMES[code] for code in fields_in(EDGE)} == {f"o{k}" for k in range(1, 9)}


def test_neighbour_masks_match_neighbour_lists() -> None:
    for code in range(FIELD_COUNT):
        assert set(fields_in(NEIGHBOUR_MASK[code])) == set(NEIGHBOURS[code])


@given(st.integers(min_value=0, max_value=ALL_FIELDS))
def test_around_is_the_union_of_the_neighbours(fields: int) -> None:
    expected = 0
    for code in fields_in(fields):
        expected |= NEIGHBOUR_MASK[code]
    assert around(fields) == expected


def test_position_lists_the_fields_in_board_order() -> None:
    sites = ArondaState(ArondaVariant()).position().sites
    assert tuple(site.name for site in sites) == FIELD_NAMES
