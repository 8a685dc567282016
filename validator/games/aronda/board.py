"""Aronda's board of docs/rules/aronda.md §2, with the game's name and rules text.

The fields, their capacities and neighbours as codes and bitmasks, and the set operations the
rules use on them: neighbour unions (two table lookups for any set of fields), the fields of a
mask, taking fields from outside (§5 step 2).

May import: nothing of gamerec (pure tables).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

#: The game's name as the GRN ``Game`` tag writes it.
NAME = "Aronda"
#: The rules text every message cites.
RULES = "docs/rules/aronda.md"

#: docs/rules/aronda.md §2, row by row: field, capacity, neighbours. The neighbour lists are
#: the rule.
FIELD_TABLE = """
c   4  i1 i2 i3 i4 i5 i6 i7 i8
i1  3  c i2 i8 m1 m2
i2  3  c i1 i3 m2 m3
i3  3  c i2 i4 m3 m4
i4  3  c i3 i5 m4 m5
i5  3  c i4 i6 m5 m6
i6  3  c i5 i7 m6 m7
i7  3  c i6 i8 m7 m8
i8  3  c i1 i7 m1 m8
m1  4  i1 i8 m2 m8 o1 o2 o8
m2  3  i1 i2 m1 m3 o2
m3  4  i2 i3 m2 m4 o2 o3 o4
m4  3  i3 i4 m3 m5 o4
m5  4  i4 i5 m4 m6 o4 o5 o6
m6  3  i5 i6 m5 m7 o6
m7  4  i6 i7 m6 m8 o6 o7 o8
m8  3  i7 i8 m1 m7 o8
o1  2  m1 o2 o8
o2  3  m1 m2 m3 o1 o3
o3  2  m3 o2 o4
o4  3  m3 m4 m5 o3 o5
o5  2  m5 o4 o6
o6  3  m5 m6 m7 o5 o7
o7  2  m7 o6 o8
o8  3  m1 m7 m8 o1 o7
"""


def _read_field_table() -> tuple[tuple[str, ...], tuple[int, ...], tuple[tuple[str, ...], ...]]:
    """Split :data:`FIELD_TABLE` into names, capacities and neighbour names, in table order."""
    rows = [line.split() for line in FIELD_TABLE.strip().splitlines()]
    names = tuple(row[0] for row in rows)
    capacities = tuple(int(row[1]) for row in rows)
    neighbours = tuple(tuple(row[2:]) for row in rows)
    return names, capacities, neighbours


_NAMES, _CAPACITIES, _NEIGHBOUR_NAMES = _read_field_table()

#: Field names in board order; a field's code is its index here.
FIELD_NAMES: tuple[str, ...] = _NAMES
#: The code of every field name.
FIELD_CODES: dict[str, int] = {name: code for code, name in enumerate(FIELD_NAMES)}
#: How many fields the board has.
FIELD_COUNT = len(FIELD_NAMES)
#: The capacity of each field, by code.
CAPACITY: tuple[int, ...] = _CAPACITIES
#: The neighbours of each field, by code, as codes in table order.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(FIELD_CODES[name] for name in row) for row in _NEIGHBOUR_NAMES
)
#: The neighbours of each field, by code, as a bitmask.
NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << n for n in row) for row in NEIGHBOURS)
#: Every field of the board.
ALL_FIELDS = (1 << FIELD_COUNT) - 1
#: The edge: the outer ring o1..o8.
EDGE = sum(1 << FIELD_CODES[f"o{k}"] for k in range(1, 9))
#: Placement pieces each seat starts with (§3).
SUPPLY = 16
#: Fields that win the game (§6.1).
WINNING_FIELDS = 13
#: Seats at the table: Aronda is a two-seat game.
SEATS = 2


# Neighbour unions of many fields at once: a 25-bit mask is split into a low part of 13 bits
# and a high part of 12 bits, each looked up in one table, so the union of the neighbours of
# any set of fields costs two lookups (the hot path floods chains with it).
_LOW_BITS = 13
_LOW_MASK = (1 << _LOW_BITS) - 1


def _neighbour_union_table(first_code: int, width: int) -> tuple[int, ...]:
    """Neighbour unions of every subset of the ``width`` fields from ``first_code`` on."""
    table = [0] * (1 << width)
    for subset in range(1, 1 << width):
        lowest = subset & -subset
        table[subset] = (
            table[subset ^ lowest] | NEIGHBOUR_MASK[first_code + lowest.bit_length() - 1]
        )
    return tuple(table)


_AROUND_LOW = _neighbour_union_table(0, _LOW_BITS)
_AROUND_HIGH = _neighbour_union_table(_LOW_BITS, FIELD_COUNT - _LOW_BITS)


def around(fields: int) -> int:
    """The fields adjacent to at least one field of the mask ``fields``."""
    return _AROUND_LOW[fields & _LOW_MASK] | _AROUND_HIGH[fields >> _LOW_BITS]


def fields_in(fields: int) -> Iterator[int]:
    """The codes of the fields in the mask ``fields``, in board order."""
    while fields:
        lowest = fields & -fields
        yield lowest.bit_length() - 1
        fields ^= lowest


def take_from_outside(owned: int, unowned: int, order: Sequence[int] = range(FIELD_COUNT)) -> int:
    """The fields a seat owning ``owned`` takes from outside (§5 step 2), as a mask.

    Follows the rule literally: sweep the fields in ``order`` and take every field without an
    owner (in ``unowned``) of which the seat owns at least its capacity of neighbours, counting
    the fields taken earlier in the sweep; repeat until a whole sweep takes nothing. The result
    is the same for every ``order`` (the tests shuffle it), because taking is monotone.
    """
    taken = 0
    changed = True
    while changed:
        changed = False
        for field in order:
            bit = 1 << field
            if not unowned & bit or taken & bit:
                continue
            if (NEIGHBOUR_MASK[field] & (owned | taken)).bit_count() >= CAPACITY[field]:
                taken |= bit
                changed = True
    return taken
