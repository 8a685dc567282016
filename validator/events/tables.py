"""Tables of 3-6 seats: grouping players into tables and giving them seats.

**Grouping** (:func:`group`). The players come in an order (the ranking, for a Swiss; the
pairing numbers, for a round robin). The *cost* of putting two players at one table is
``4 ** m`` where ``m`` is how often they met before; a table's cost is the sum over its pairs.
Tables are filled one after the other: a table starts with the first player not yet seated,
then takes, one at a time, the unseated player that adds the least cost to it (the first in
the order among equals; with ``by_rank`` the order is the ranking, so equal costs keep score
groups together). Then swaps improve it: for table ``i`` before table ``j``, each player
``a`` of ``i`` and ``b`` of ``j`` in the order they were taken (in a Swiss, not the tables'
first players), ``a`` and ``b`` change tables when that lowers the sum of the two tables' costs (the
first such swap is made and the scan starts again), until no swap lowers it.

**Seats** (:func:`seat`). Each way of giving the table's players (in the order they were
taken) seats costs the sum over players of ``4 ** c``, ``c`` being how often the player
already sat in the seat it gets; the cheapest is taken, and among equals the first in
lexicographic order of the seats given to the players, taken in order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, permutations

#: How often each pair (lower number first) met.
Meetings = Counter[tuple[int, int]]
#: How often each player sat in each seat (player, seat index from 0).
Seats = Counter[tuple[int, int]]


def pair(a: int, b: int) -> tuple[int, int]:
    """The key of a pair of players in :data:`Meetings`."""
    return (a, b) if a < b else (b, a)


def _cost(players: Sequence[int], meetings: Meetings) -> int:
    return sum(4 ** meetings[pair(a, b)] for a, b in combinations(players, 2))


def added(player: int, table: Sequence[int], meetings: Meetings) -> int:
    """The cost ``player`` adds to ``table``."""
    return sum(4 ** meetings[pair(player, other)] for other in table)


def group(
    order: Sequence[int], seats: int, meetings: Meetings, *, by_rank: bool
) -> list[list[int]]:
    """The players of ``order`` (a multiple of ``seats``) grouped into tables (module docstring).

    ``by_rank`` (a Swiss): the tables' first players stay where they are.
    """
    if len(order) % seats:
        raise ValueError(f"{len(order)} players do not fill tables of {seats}")
    unseated = list(order)
    tables: list[list[int]] = []
    while unseated:
        table = [unseated.pop(0)]
        while len(table) < seats:
            best = min(range(len(unseated)), key=lambda i: (added(unseated[i], table, meetings), i))
            table.append(unseated.pop(best))
        tables.append(table)
    improve(tables, meetings, keep_first=by_rank)
    return tables


def improve(
    tables: list[list[int]],
    meetings: Meetings,
    *,
    keep_first: bool = False,
) -> None:
    """Make the first swap that lowers the cost, again and again, until none does.

    ``keep_first``: the tables' first players do not move.
    """
    improved = True
    while improved:
        improved = False
        for i, j in combinations(range(len(tables)), 2):
            before = _cost(tables[i], meetings) + _cost(tables[j], meetings)
            places = [(x, y) for x in range(len(tables[i])) for y in range(len(tables[j]))]
            for x, y in places:
                if keep_first and 0 in (x, y):
                    continue
                left, right = list(tables[i]), list(tables[j])
                left[x], right[y] = right[y], left[x]
                if _cost(left, meetings) + _cost(right, meetings) < before:
                    tables[i], tables[j] = left, right
                    improved = True
                    break
            if improved:
                break


def seat(table: Sequence[int], seat_counts: Seats) -> tuple[int, ...]:
    """The table's players in seat order, each where it sat least (module docstring)."""
    best: tuple[int, ...] | None = None
    best_cost = -1
    for order in permutations(range(len(table))):
        cost = sum(4 ** seat_counts[(table[p], s)] for p, s in enumerate(order))
        if best is None or cost < best_cost:
            placed = [0] * len(table)
            for p, s in enumerate(order):
                placed[s] = table[p]
            best, best_cost = tuple(placed), cost
    assert best is not None
    return best


def swiss_round(
    ranking: Sequence[int],
    seats: int,
    meetings: Meetings,
    seat_counts: Seats,
    byes: Counter[int],
) -> tuple[list[tuple[int, ...]], list[int]]:
    """One Swiss round at tables of ``seats``: the tables (seat order) and the byes.

    ``ranking`` is the players by score, then pairing number. When they do not fill whole
    tables, the ``len % seats`` lowest-ranked players among those with the fewest byes have a
    bye; the others are grouped by :func:`group` in ranking order and seated by :func:`seat`.
    """
    spare = len(ranking) % seats
    position = {p: i for i, p in enumerate(ranking)}
    chosen = set(sorted(ranking, key=lambda p: (byes[p], -position[p]))[:spare])
    bye = [p for p in ranking if p in chosen]
    playing = [p for p in ranking if p not in chosen]
    tables = group(playing, seats, meetings, by_rank=True)
    return [seat(table, seat_counts) for table in tables], bye
