"""Round robins: FIDE's Berger tables exactly, odd fields with a bye, tables of 3-6 seats."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from gamerec.validator.events.roundrobin import (
    berger_round,
    berger_rounds,
    table_round,
    table_rounds,
)
from gamerec.validator.events.tables import Meetings, Seats, pair

#: FIDE Handbook C.05 Annex 1, the Berger tables (white first), round by round.
FIDE_BERGER = {
    4: ["1-4 2-3", "4-3 1-2", "2-4 3-1"],
    6: ["1-6 2-5 3-4", "6-4 5-3 1-2", "2-6 3-1 4-5", "6-5 1-4 2-3", "3-6 4-2 5-1"],
    8: [
        "1-8 2-7 3-6 4-5",
        "8-5 6-4 7-3 1-2",
        "2-8 3-1 4-7 5-6",
        "8-6 7-5 1-4 2-3",
        "3-8 4-2 5-1 6-7",
        "8-7 1-6 2-5 3-4",
        "4-8 5-3 6-2 7-1",
    ],
}


def _boards(text: str) -> list[tuple[int, int]]:
    return [(int(a), int(b)) for a, b in (board.split("-") for board in text.split())]


@pytest.mark.parametrize("players", sorted(FIDE_BERGER))
def test_berger_tables_are_fides(players: int) -> None:
    for number, text in enumerate(FIDE_BERGER[players], start=1):
        assert berger_round(players, number) == (_boards(text), None)


@pytest.mark.parametrize("players", [3, 5, 7])
def test_an_odd_field_has_the_bye_where_the_added_player_would_sit(players: int) -> None:
    """FIDE: with an odd number the highest number (n + 1) is a bye; its opponent sits out."""
    for number, text in enumerate(FIDE_BERGER[players + 1], start=1):
        full = _boards(text)
        boards, bye = berger_round(players, number)
        assert boards == [b for b in full if players + 1 not in b]
        assert bye == next(a if b == players + 1 else b for a, b in full if players + 1 in (a, b))


@pytest.mark.parametrize("players", range(2, 21))
def test_everyone_meets_everyone_once_with_balanced_colours(players: int) -> None:
    met: Counter[tuple[int, int]] = Counter()
    whites: Counter[int] = Counter()
    byes: list[int] = []
    for number in range(1, berger_rounds(players) + 1):
        boards, bye = berger_round(players, number)
        seated = [p for board in boards for p in board] + ([bye] if bye else [])
        assert sorted(seated) == list(range(1, players + 1))
        for white, black in boards:
            met[pair(white, black)] += 1
            whites[white] += 1
        byes += [bye] if bye else []
    assert set(met.values()) == {1} and len(met) == players * (players - 1) // 2
    assert len(byes) == len(set(byes)) == players % 2 * players
    games = players - 1
    assert all(abs(2 * whites[p] - games) <= 1 for p in range(1, players + 1))


def test_a_round_outside_the_table_is_refused() -> None:
    with pytest.raises(ValueError, match="rounds 1 to 3"):
        berger_round(4, 4)
    with pytest.raises(ValueError, match="at least 2"):
        berger_round(1, 1)


def _schedule(
    players: int, seats: int, rounds: int
) -> list[tuple[list[tuple[int, ...]], list[int]]]:
    meetings: Meetings = Counter()
    seated: Seats = Counter()
    byes: Counter[int] = Counter()
    made = []
    for _ in range(rounds):
        tables, bye = table_round(list(range(1, players + 1)), seats, meetings, seated, byes)
        for table in tables:
            for a, b in combinations(table, 2):
                meetings[pair(a, b)] += 1
            seated.update((player, index) for index, player in enumerate(table))
        byes.update(bye)
        made.append((tables, bye))
    return made


CASES = [(players, seats) for seats in range(3, 7) for players in range(seats, 4 * seats + 2)]


@pytest.mark.parametrize(("players", "seats"), CASES)
def test_table_round_robin_partitions_rotates_seats_and_spreads_byes(
    players: int, seats: int
) -> None:
    rounds = 2 * seats
    seat_of: dict[int, list[int]] = {p: [] for p in range(1, players + 1)}
    byes_had: Counter[int] = Counter()
    for tables, bye in _schedule(players, seats, rounds):
        seated = [p for table in tables for p in table]
        assert sorted(seated + bye) == list(range(1, players + 1))
        assert all(len(table) == seats for table in tables)
        assert len(bye) == players % seats
        byes_had.update(bye)
        had = [byes_had[p] for p in range(1, players + 1)]
        assert max(had) - min(had) <= 1  # a second bye only when everyone had one
        for table in tables:
            for index, player in enumerate(table):
                seat_of[player].append(index)
    # seats in turn: no seat taken more than twice as often as another... at most 2 apart
    for player, seated_at in seat_of.items():
        counts = Counter(seated_at)
        assert max(counts.values()) - min(counts.get(s, 0) for s in range(seats)) <= 2, player


def _meetings(players: int, seats: int) -> list[int]:
    meetings: Counter[tuple[int, int]] = Counter()
    for tables, _ in _schedule(players, seats, table_rounds(players, seats)):
        for table in tables:
            for a, b in combinations(table, 2):
                meetings[pair(a, b)] += 1
    return [meetings[pair(a, b)] for a, b in combinations(range(1, players + 1), 2)]


@pytest.mark.parametrize(("players", "seats"), [(9, 3), (16, 4)])
def test_table_round_robin_finds_the_perfect_schedule_of_an_affine_plane(
    players: int, seats: int
) -> None:
    """9 players at 3 seats in 4 rounds, 16 at 4 in 5: each pair meets exactly once."""
    assert set(_meetings(players, seats)) == {1}


@pytest.mark.parametrize(
    ("players", "seats"), [(12, 3), (15, 3), (12, 4), (24, 4), (20, 5), (25, 5), (18, 6)]
)
def test_table_round_robin_meets_evenly_in_its_rounds(players: int, seats: int) -> None:
    """In the fewest rounds a meeting of all needs, at most a fifth of the pairs never meet."""
    counts = _meetings(players, seats)
    assert counts.count(0) <= len(counts) // 5
    assert max(counts) <= 3


def test_table_round_robin_is_deterministic() -> None:
    assert _schedule(14, 4, 6) == _schedule(14, 4, 6)
