"""The director's operations on an event as data: round robins, withdrawals, swaps, byes."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamerec.validator.events import event as operations
from gamerec.validator.events.model import Event, EventError, Result, Settings


def _event(seats: int, form: str, names: str, rounds: int = 0) -> Event:
    points = tuple(Fraction(seats - r) for r in range(1, seats + 1))
    made = Event(Settings("Test", "ONE", seats, form, rounds, points, points[0]))
    operations.add_players(made, [(name, None) for name in names.split()])
    return made


def _finish(made: Event) -> None:
    """Give every table of the latest round the result: seats in order, first seat first."""
    for table in made.rounds[-1].tables:
        table.result = Result(tuple(range(1, len(table.seats) + 1)), f"{table.number}")


def test_a_withdrawn_players_round_robin_games_become_byes() -> None:
    made = _event(2, "roundrobin", "A B C D")
    operations.pair_next(made)
    _finish(made)
    operations.withdraw(made, "D")
    second = operations.pair_next(made)  # FIDE round 2 of 4: 4-3 1-2
    assert [table.seats for table in second.tables] == [("A", "B")]
    assert second.byes == {"C": Fraction(1)}


def test_a_table_round_robin_through_the_event() -> None:
    made = _event(3, "roundrobin", "A B C D E F G H I")
    assert operations._format_rounds(made) == 4
    met: set[frozenset[str]] = set()
    for _ in range(4):
        made_round = operations.pair_next(made)
        for table in made_round.tables:
            for i, a in enumerate(table.seats):
                for b in table.seats[i + 1 :]:
                    assert frozenset((a, b)) not in met  # 9 at 3 seats: each pair once
                    met.add(frozenset((a, b)))
        _finish(made)
    assert len(met) == 36
    with pytest.raises(EventError, match="the event has 4 rounds, all paired"):
        operations.pair_next(made)


def test_a_round_robin_takes_no_late_entry() -> None:
    made = _event(2, "roundrobin", "A B C D")
    operations.pair_next(made)
    with pytest.raises(EventError, match="round robin takes no late entries"):
        operations.add_players(made, [("E", None)])


def test_a_swap_with_a_bye_gives_a_bye_by_hand() -> None:
    made = _event(2, "swiss", "A B C", rounds=3)
    first = operations.pair_next(made)
    assert first.byes == {"C": Fraction(1)}
    operations.swap(made, 1, "C", "A")
    assert first.byes == {"A": Fraction(1)} and first.manual_byes == {"A"}
    assert first.tables[0].seats == ("C", "B") and first.tables[0].manual
    _finish(made)
    second = operations.pair_next(made)
    assert [table.seats for table in second.tables] == [("A", "C")]
    assert second.byes == {"B": Fraction(1)}


def test_a_swap_is_refused_once_a_result_is_in() -> None:
    made = _event(2, "swiss", "A B C D", rounds=3)
    operations.pair_next(made)
    _finish(made)
    with pytest.raises(EventError, match="table 1 already has a result"):
        operations.swap(made, 1, "A", "B")
    with pytest.raises(EventError, match="there is no player 'Zed'"):
        operations.swap(made, 1, "A", "Zed")
