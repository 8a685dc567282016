"""Tie-breaks: values worked out by hand, for two seats (FIDE) and for tables."""

from __future__ import annotations

from fractions import Fraction as F  # noqa: N817 - the tables of values read better

import pytest

from gamerec.validator.events.model import (
    TIEBREAKS,
    Event,
    EventError,
    Player,
    Result,
    Round,
    Settings,
    Table,
)
from gamerec.validator.events.tiebreaks import standings


def _event(seats: int, points: tuple[F, ...], names: str) -> Event:
    settings = Settings("Test", "ONE", seats, "swiss", 2, points, points[0])
    event = Event(settings)
    event.players = [Player(n, name) for n, name in enumerate(names.split(), start=1)]
    return event


def _table(number: int, seats: str, ranks: tuple[int, ...]) -> Table:
    return Table(number, tuple(seats.split()), result=Result(ranks, f"k{number}{seats}"))


@pytest.fixture
def two_seats() -> Event:
    """A beats B, C draws D, E has a bye; then C beats A, B beats E, D has a bye."""
    event = _event(2, (F(1), F(0)), "A B C D E")
    event.rounds = [
        Round(1, [_table(1, "A B", (1, 2)), _table(2, "C D", (1, 1))], {"E": F(1)}),
        Round(2, [_table(1, "A C", (2, 1)), _table(2, "B E", (1, 2))], {"D": F(1)}),
    ]
    return event


def test_two_seat_tiebreaks_are_fides(two_seats: Event) -> None:
    lines = {line.name: line for line in standings(two_seats, TIEBREAKS)}
    assert {n: line.points for n, line in lines.items()} == {
        "A": 1,
        "B": 1,
        "C": F(3, 2),
        "D": F(3, 2),
        "E": 1,
    }
    expected = {
        # buchholz (an unplayed round counts the player's own points), cut-1, median
        "A": (F(5, 2), F(3, 2), 0, 1, 1, 2),
        "B": (2, 1, 0, 1, 1, 1),
        "C": (F(5, 2), F(3, 2), 0, F(7, 4), 1, 2),
        "D": (3, F(3, 2), 0, F(3, 4), 0, 2),
        "E": (2, 1, 0, 0, 0, 2),
    }
    for name, (bh, cut1, median, sb, wins, progressive) in expected.items():
        values = lines[name].tiebreaks
        assert values["buchholz"] == bh, name
        assert values["buchholz-cut1"] == cut1, name
        assert values["buchholz-median"] == median, name
        assert values["sonneborn-berger"] == sb, name
        assert values["wins"] == wins, name
        assert values["progressive"] == progressive, name


def test_the_directors_order_decides(two_seats: Event) -> None:
    order = [(line.place, line.name) for line in standings(two_seats)]
    assert order == [(1, "D"), (2, "C"), (3, "A"), (4, "B"), (5, "E")]
    # direct encounter alone: C and D drew (equal); A, B, E did not all meet (no split)
    direct = standings(two_seats, ["direct"])
    assert [(line.place, line.name) for line in direct] == [
        (1, "C"),
        (1, "D"),
        (3, "A"),
        (3, "B"),
        (3, "E"),
    ]
    assert [line.tiebreaks["direct"] for line in direct[:2]] == [F(1, 2), F(1, 2)]
    sb_first = standings(two_seats, ["sonneborn-berger"])
    assert [line.name for line in sb_first] == ["C", "D", "A", "B", "E"]


def test_direct_encounter_splits_players_who_all_met(two_seats: Event) -> None:
    two_seats.rounds[0].tables[1].result = Result((1, 2), "c-wins")  # C beats D
    two_seats.rounds[1].byes = {"D": F(2)}  # C 1 + 1, D 0 + 2: level on 2
    lines = standings(two_seats, ["direct"])
    assert [line.name for line in lines[:2]] == ["C", "D"]
    assert lines[0].tiebreaks["direct"] == 1 and lines[1].tiebreaks["direct"] == 0
    assert lines[1].place == 2


def test_an_unknown_tiebreak_is_refused(two_seats: Event) -> None:
    with pytest.raises(EventError, match="unknown tie-break 'koya'"):
        standings(two_seats, ["koya"])


def test_table_tiebreaks_read_each_game_as_pairings() -> None:
    event = _event(3, (F(2), F(1), F(0)), "P Q R S T U")
    event.rounds = [Round(1, [_table(1, "P Q R", (1, 2, 3)), _table(2, "S T U", (1, 1, 3))])]
    lines = {line.name: line for line in standings(event, TIEBREAKS)}
    assert {n: line.points for n, line in lines.items()} == {
        "P": 2,
        "Q": 1,
        "R": 0,
        "S": F(3, 2),
        "T": F(3, 2),
        "U": 0,
    }
    buchholz = {n: line.tiebreaks["buchholz"] for n, line in lines.items()}
    assert buchholz == {
        "P": F(1, 2),
        "Q": 1,
        "R": F(3, 2),
        "S": F(3, 4),
        "T": F(3, 4),
        "U": F(3, 2),
    }
    berger = {n: line.tiebreaks["sonneborn-berger"] for n, line in lines.items()}
    assert berger == {"P": F(1, 2), "Q": 0, "R": 0, "S": F(3, 8), "T": F(3, 8), "U": 0}
    wins = {n: line.tiebreaks["wins"] for n, line in lines.items()}
    assert wins == {"P": 1, "Q": 0, "R": 0, "S": 0, "T": 0, "U": 0}
    assert lines["S"].tiebreaks["direct"] == lines["T"].tiebreaks["direct"] == F(1, 2)


def test_a_game_without_its_result_yet_is_left_out_of_buchholz(two_seats: Event) -> None:
    two_seats.rounds.append(Round(3, [Table(1, ("A", "D"))], {}))
    lines = {line.name: line for line in standings(two_seats, ["buchholz"])}
    # A: B 1 + C 3/2 (the pending game against D adds nothing); B, C: absent, own points
    assert lines["A"].tiebreaks["buchholz"] == F(5, 2)
    assert lines["B"].tiebreaks["buchholz"] == 3
