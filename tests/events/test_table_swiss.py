"""The Swiss for tables of 3-6 seats: score groups, repeats avoided, seats balanced, byes."""

from __future__ import annotations

import random
from collections import Counter
from fractions import Fraction
from itertools import combinations

import pytest

from gamerec.validator.events.tables import Meetings, Seats, group, pair, seat, swiss_round


def _play(seed: int) -> tuple[int, int, list[tuple[list[tuple[int, ...]], list[int], list[int]]]]:
    """A random table Swiss: seats, players, and each round's tables, byes and ranking."""
    rng = random.Random(seed)
    seats = rng.randint(3, 6)
    players = rng.randint(seats, 8 * seats)
    score = {p: Fraction(0) for p in range(1, players + 1)}
    meetings: Meetings = Counter()
    seated: Seats = Counter()
    byes: Counter[int] = Counter()
    rounds = []
    for _ in range(rng.randint(2, 7)):
        ranking = sorted(score, key=lambda p: (-score[p], p))
        tables, bye = swiss_round(ranking, seats, meetings, seated, byes)
        rounds.append((tables, bye, ranking))
        for table in tables:
            for a, b in combinations(table, 2):
                meetings[pair(a, b)] += 1
            seated.update((p, i) for i, p in enumerate(table))
            places = list(range(seats))
            rng.shuffle(places)
            for i, p in enumerate(table):
                score[p] += seats - 1 - places[i]
        byes.update(bye)
    return seats, players, rounds


@pytest.mark.parametrize("seed", range(40))
def test_table_swiss_properties(seed: int) -> None:
    seats, players, rounds = _play(seed)
    met: Counter[tuple[int, int]] = Counter()
    seated: Counter[tuple[int, int]] = Counter()
    byes: Counter[int] = Counter()
    for number, (tables, bye, ranking) in enumerate(rounds, start=1):
        assert sorted([p for t in tables for p in t] + bye) == list(range(1, players + 1))
        assert all(len(table) == seats for table in tables)
        assert len(bye) == players % seats
        byes.update(bye)
        had = [byes[p] for p in range(1, players + 1)]
        assert max(had) - min(had) <= 1  # a second bye only when everyone had one
        if tables:
            assert ranking[0] in tables[0] or ranking[0] in bye  # the leader at the top table
        repeats = sum(met[pair(a, b)] > 0 for t in tables for a, b in combinations(t, 2))
        if number == 2 and players >= seats * seats:
            assert repeats == 0  # avoidable: there are at least as many tables as seats
        for table in tables:
            for a, b in combinations(table, 2):
                met[pair(a, b)] += 1
            seated.update((p, i) for i, p in enumerate(table))
    for player in range(1, players + 1):
        counts = [seated[(player, s)] for s in range(seats)]
        assert max(counts) - min(counts) <= 2


def test_grouping_keeps_score_order_when_nobody_met() -> None:
    assert group(list(range(1, 13)), 4, Counter(), by_rank=True) == [
        [1, 2, 3, 4],
        [5, 6, 7, 8],
        [9, 10, 11, 12],
    ]


def test_grouping_avoids_a_repeat_by_taking_the_next_player() -> None:
    meetings: Meetings = Counter({pair(1, 2): 1})
    assert group([1, 2, 3, 4, 5, 6], 3, meetings, by_rank=True) == [[1, 3, 4], [2, 5, 6]]


def test_seats_go_where_each_player_sat_least() -> None:
    seated: Seats = Counter({(7, 0): 1, (8, 1): 1, (9, 2): 1})
    # 7 sat first, 8 second, 9 third: the first order with nobody in a seat taken before
    # gives 7 the second seat, 8 the third and 9 the first
    assert seat([7, 8, 9], seated) == (9, 7, 8)
