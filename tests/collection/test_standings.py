"""Standings of a hand-made two-seat round robin and a four-seat event, against tables by hand."""

from __future__ import annotations

from fractions import Fraction

import pytest

from gamerec.v1 import collections_pb2 as cpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.standings import (
    StandingsError,
    competition_ranks,
    game_points,
    standings,
)
from tests.collection.events import EVENTS, files, four_seat_event, round_robin

HALF = Fraction(1, 2)


def table(event: cpb.EventStandings) -> list[tuple[int, str, int, Fraction, Fraction, Fraction]]:
    return [
        (
            line.place,
            line.name,
            line.games,
            Fraction(line.points),
            Fraction(line.buchholz),
            Fraction(line.sonneborn_berger),
        )
        for line in event.players
    ]


def cells(event: cpb.EventStandings) -> dict[str, dict[str, list[str]]]:
    names = [line.name for line in event.players]
    return {
        line.name: {names[cell.opponent - 1]: list(cell.results) for cell in line.cells}
        for line in event.players
    }


def test_two_seat_round_robin_from_the_rules() -> None:
    (event,) = standings(round_robin()).events
    assert (event.event, event.seats, list(event.points_table)) == ("Club night", 2, [1, 0])
    # Points: Ana 1 + 1/2 + 1, Chi 1/2 + 1/2 + 1 (the rules: Chi beat Ben), Ben 0 + 1 + 0,
    # Dev 1/2 + 0 + 0; the illegal game does not count. Buchholz: the opponents' points;
    # Sonneborn-Berger: beaten opponents' points plus half the drawn ones'.
    assert table(event) == [
        (1, "Ana", 3, 2 + HALF, 3 + HALF, 2 + HALF),
        (2, "Chi", 3, Fraction(2), Fraction(4), 2 + HALF),
        (3, "Ben", 3, Fraction(1), Fraction(5), HALF),
        (4, "Dev", 3, HALF, 5 + HALF, Fraction(1)),
    ]
    assert cells(event)["Chi"] == {"Ana": ["½"], "Ben": ["1*"], "Dev": ["½"]}
    assert cells(event)["Dev"] == {"Ana": ["0"], "Chi": ["½"], "Ben": ["0"]}
    marks = [(game.mark, game.scored) for game in event.games]
    assert marks == [("", True)] * 5 + [("WINNER_MISMATCH", True), ("OCCUPIED", False)]


def test_two_seat_round_robin_from_the_claims() -> None:
    (event,) = standings(round_robin(), use="claimed").events
    # Ben beat Chi as claimed; Dev beat Chi in the illegal game as claimed.
    assert table(event) == [
        (1, "Ana", 3, 2 + HALF, 4 + HALF, Fraction(4)),
        (2, "Ben", 3, Fraction(2), Fraction(5), 2 + HALF),
        (3, "Dev", 4, 1 + HALF, 6 + HALF, 1 + HALF),
        (4, "Chi", 4, Fraction(1), 7 + HALF, Fraction(2)),
    ]
    assert cells(event)["Chi"]["Dev"] == ["½", "0*"]


def test_four_seat_event_with_the_default_points() -> None:
    (event,) = standings(four_seat_event()).events
    assert (event.seats, list(event.points_table)) == (4, [3, 2, 1, 0])
    # Points 3-2-1-0 by place; each opponent at a table is one pairing for the tie-breaks.
    assert table(event) == [
        (1, "Ana", 3, Fraction(5), Fraction(29), Fraction(12)),
        (2, "Eli", 2, Fraction(5), Fraction(21), Fraction(17)),
        (3, "Chi", 2, Fraction(4), Fraction(22), Fraction(14)),
        (4, "Ben", 3, Fraction(3), Fraction(35), Fraction(10)),
        (5, "Dev", 2, Fraction(1), Fraction(25), Fraction(3)),
    ]
    assert cells(event)["Ana"]["Eli"] == ["0", "0"]
    assert cells(event)["Ben"]["Ana"] == ["0", "0", "1"]


def test_four_seat_event_with_a_points_table() -> None:
    (event,) = standings(four_seat_event(), points_table=[4, 2, 1, 0]).events
    points = {line.name: line.points for line in event.players}
    assert points == {"Ana": 6, "Eli": 6, "Chi": 5, "Ben": 3, "Dev": 1}
    with pytest.raises(StandingsError, match="3 places, but a game has 4 seats"):
        standings(four_seat_event(), points_table=[3, 1, 0])


def test_shared_ranks_share_the_points_of_their_places() -> None:
    assert game_points([1, 1, 3, 4], [Fraction(p) for p in (3, 2, 1, 0)]) == (
        2 + HALF,
        2 + HALF,
        Fraction(1),
        Fraction(0),
    )
    assert game_points([1, 1], [Fraction(1), Fraction(0)]) == (HALF, HALF)
    assert competition_ranks([2], [10, 0, 30], 3) == (3, 1, 2)
    assert competition_ranks([], [10, 20, 20], 3) == (3, 1, 1)


def test_one_table_per_event_and_choosing_one() -> None:
    both = standings([*round_robin(), *four_seat_event()])
    assert [event.event for event in both.events] == ["Club night", "Four-seat open"]
    only = standings([*round_robin(), *four_seat_event()], event="four-seat OPEN")
    assert [event.event for event in only.events] == ["Four-seat open"]


def test_the_event_fixtures_are_these_events() -> None:
    for name, data in files().items():
        assert (EVENTS / name).read_bytes() == data, "run python -m scripts.make_event_fixtures"


def test_games_that_cannot_be_put_in_a_table_are_not_counted() -> None:
    unnamed, twice, fine = round_robin()[:3]
    unnamed.seats[0].name = ""
    twice.seats[1].name = twice.seats[0].name
    (event,) = standings([unnamed, twice, fine]).events
    notes = [(game.scored, game.note) for game in event.games]
    assert notes == [
        (False, "a seat has neither a name nor a player id: not counted"),
        (False, "one player holds two seats: not counted"),
        (True, ""),
    ]
    assert {line.name: line.games for line in event.players} == {
        "Ana": 1,
        "Chi": 1,
        "(seat 1)": 0,
        "Ben": 0,
    }


def test_the_events_folder_counts_the_second_scorers_copies_once() -> None:
    """Issue 36: round 1 given again by a second scorer counts once (Ana: 3 games, 2½ points,
    not 4 and 3½); each copy names the record that counts; Ben - Dev of round 2, different in
    the two files, is a conflict: neither counts, and both name the diff to run."""
    club, _ = standings([str(EVENTS)]).events
    by_name = {line[1]: line for line in table(club)}
    assert by_name["Ana"][2:4] == (3, 2 + HALF)
    assert by_name["Ben"][2:4] == (2, Fraction(0))
    assert by_name["Dev"][2:4] == (2, HALF)
    copies = {g.place.record_number: g.same_as for g in club.games if g.same_as}
    jsonl = f"{EVENTS}/club-night-second-scorer.jsonl"
    assert copies == {1: f"{jsonl} #1", 2: f"{jsonl} #2"}
    assert [g.place.source for g in club.games if g.same_as] == [f"{EVENTS}/club-night.grn"] * 2
    assert sum(1 for g in club.games if g.scored) == 5
    conflicts = [g for g in club.games if "conflict" in g.note]
    assert [(g.round, list(g.players), g.scored) for g in conflicts] == [
        ("2", ["Dev", "Ben"], False),
        ("2", ["Dev", "Ben"], False),
    ]
    assert f"gamerec diff {jsonl} {EVENTS}/club-night.grn" in conflicts[0].note


def test_a_copy_counts_once_and_the_same_moves_in_two_rounds_are_two_games() -> None:
    """The same moves in two rounds are two games; given twice in one round, one."""
    first, *_ = round_robin()
    again = pb.GameRecord()
    again.CopyFrom(first)
    again.metadata.round = "9"
    (event,) = standings([first, again, first]).events
    assert [g.scored for g in event.games] == [True, True, False]
    assert event.games[2].same_as == "<records> #1"
    assert {line.name: line.games for line in event.players} == {"Ana": 2, "Ben": 2}
