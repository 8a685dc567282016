"""Whole Swiss events played by bots on a real ``gamerec serve --matches``, round by round.

Each round is paired, started in one call (``event start``), played by random bots through
the players' tickets, and collected from the server's sealed records (``event results
--server``). The standings and tie-breaks ``event standings --json`` gives are then checked
against values worked out here from the games the bots saw end (the server's ``ended``
events), by this file's own reading of docs/events.md's definitions.
"""

from __future__ import annotations

import datetime
import json
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import pytest

from gamerec.v1 import match_pb2 as mpb
from tests.events.server_rounds import event_file, play, run, state_of, tickets
from tests.live.conftest import LiveServer

pytestmark = pytest.mark.xdist_group("events-on-server-swiss")

TIEBREAKS = (
    "buchholz-cut1",
    "buchholz",
    "buchholz-median",
    "sonneborn-berger",
    "wins",
    "progressive",
)
_BYE = re.compile(r"^ bye  (?P<name>.+) \(\d+\): (?P<points>\S+)$")


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    """A server on the real clock, shared by both events."""
    made = LiveServer(tmp_path_factory.mktemp("swiss-server"), clock=False)
    yield made
    made.stop()


@dataclass
class Played:
    """The event as this test saw it: each round's tables (seats, ranks) and byes."""

    tables: list[list[tuple[tuple[str, ...], tuple[int, ...]]]] = field(default_factory=list)
    byes: list[dict[str, Fraction]] = field(default_factory=list)


def run_event(server: LiveServer, path: Path, rounds: int, seed: str) -> Played:
    """Pair, start, play and collect every round; what the bots saw."""
    seen = Played()
    for number in range(1, rounds + 1):
        paired = run("event", "pair", str(path))
        assert paired.exit_code == 0, paired.output
        byes = {}
        for line in paired.output.splitlines():
            bye = _BYE.match(line)
            if bye:
                byes[bye["name"]] = Fraction(bye["points"].replace("½", "1/2"))
        started = run(
            "event",
            "start",
            str(path),
            str(number),
            "--server",
            server.address,
            "--variant",
            "Board=5,5",
            "--clock",
            "600+5",
            "--start-at",
            "+2s",
        )
        assert started.exit_code == 0, started.output
        seats = tickets(started.output)
        scheduled = started.output.splitlines()[0].rsplit("clocks start at ", 1)[1]
        state = state_of(server.address, seats[0].match_id)
        assert state.clocks_start.ToDatetime(datetime.UTC) == datetime.datetime.fromisoformat(
            scheduled
        )
        ended = play(server.address, seats, f"{seed}-{number}")
        by_match: dict[str, list[str]] = {}
        for seat in seats:
            by_match.setdefault(seat.match_id, []).append(seat.name)
        seen.tables.append(
            [
                (tuple(names), tuple(ended[match_id].result.ranks))
                for match_id, names in by_match.items()
            ]
        )
        for end in ended.values():
            assert end.status == mpb.MATCH_STATUS_FINISHED
        seen.byes.append(byes)
        collected = run("event", "results", str(path), str(number), "--server", server.address)
        assert collected.exit_code == 0, collected.output
        assert collected.output.count(f"round {number} table ") == len(by_match)
    return seen


def place_points(ranks: tuple[int, ...], points: tuple[Fraction, ...]) -> list[Fraction]:
    """Each seat's points: a shared place shares the points of the places it covers."""
    out = []
    for rank in ranks:
        sharing = ranks.count(rank)
        out.append(sum(points[rank - 1 : rank - 1 + sharing], Fraction(0)) / sharing)
    return out


def score(mine: int, theirs: int) -> Fraction:
    return Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)


@dataclass
class Line:
    """A player's line of the standings, worked out here."""

    name: str
    number: int
    points: Fraction
    tiebreaks: dict[str, Fraction]
    place: int = 0

    def order(self) -> tuple[Fraction, ...]:
        """What orders the standings: points, then each tie-break, then pairing number."""
        return (-self.points, *(-self.tiebreaks[name] for name in TIEBREAKS), Fraction(self.number))


def expected(seen: Played, players: list[str], points: tuple[Fraction, ...]) -> list[Line]:
    """The standings by docs/events.md's definitions, from the games alone."""
    per_round: dict[str, list[Fraction]] = {name: [] for name in players}
    games: dict[str, list[list[tuple[str, Fraction]]]] = {name: [] for name in players}
    wins = dict.fromkeys(players, 0)
    for tables, byes in zip(seen.tables, seen.byes, strict=True):
        for seats, ranks in tables:
            won = place_points(ranks, points)
            for index, name in enumerate(seats):
                per_round[name].append(won[index])
                games[name].append(
                    [
                        (other, score(ranks[index], ranks[j]))
                        for j, other in enumerate(seats)
                        if j != index
                    ]
                )
                if ranks[index] == 1 and ranks.count(1) == 1:
                    wins[name] += 1
        for name, given in byes.items():
            per_round[name].append(given)
            games[name].append([])
    total = {name: sum(values, Fraction(0)) for name, values in per_round.items()}
    lines = []
    for number, name in enumerate(players, 1):
        rounds = [
            sum((total[other] for other, _ in game), Fraction(0)) / len(game)
            if game
            else total[name]
            for game in games[name]
        ]
        ordered = sorted(rounds)
        berger = sum(
            (
                sum((share * total[other] for other, share in game), Fraction(0)) / len(game)
                for game in games[name]
                if game
            ),
            Fraction(0),
        )
        running = Fraction(0)
        progressive = Fraction(0)
        for value in per_round[name]:
            running += value
            progressive += running
        breaks = {
            "buchholz-cut1": sum(ordered[1:], Fraction(0)),
            "buchholz": sum(ordered, Fraction(0)),
            "buchholz-median": sum(ordered[1:-1], Fraction(0)),
            "sonneborn-berger": berger,
            "wins": Fraction(wins[name]),
            "progressive": progressive,
        }
        lines.append(Line(name, number, total[name], breaks))
    lines.sort(key=Line.order)
    for index, line in enumerate(lines):
        same = index > 0 and line.order()[:-1] == lines[index - 1].order()[:-1]
        line.place = lines[index - 1].place if same else index + 1
    return lines


def check_standings(
    path: Path, seen: Played, players: list[str], points: tuple[Fraction, ...]
) -> None:
    shown = run("event", "standings", str(path), "--json")
    assert shown.exit_code == 0, shown.output
    got = json.loads(shown.output)["players"]
    want = expected(seen, players, points)
    assert [line["name"] for line in got] == [line.name for line in want]
    for mine, theirs in zip(want, got, strict=True):
        assert theirs["place"] == mine.place, theirs["name"]
        assert Fraction(theirs["points"]).limit_denominator(1000) == mine.points
        for name in TIEBREAKS:
            value = Fraction(theirs["tiebreaks"][name]).limit_denominator(1000)
            assert value == mine.tiebreaks[name], (theirs["name"], name)


def test_a_swiss_of_30_players_in_7_rounds(server: LiveServer, tmp_path: Path) -> None:
    players = [f"P{n:02d}" for n in range(1, 31)]
    options = ("--rounds", "7", "--tiebreaks", ",".join(TIEBREAKS))
    path = event_file(tmp_path, "swiss", "Thirty", *options, players=players)
    seen = run_event(server, path, 7, "swiss")
    met = [frozenset(seats) for tables in seen.tables for seats, _ in tables]
    assert len(met) == 7 * 15 and len(set(met)) == len(met)  # no two players met twice
    check_standings(path, seen, players, (Fraction(1), Fraction(0)))
    folder = tmp_path / "swiss-records" / "round-7"
    verified = run("verify", "--require", "host", *(str(p) for p in sorted(folder.iterdir())))
    assert verified.exit_code == 0, verified.output


def test_a_table_swiss_of_24_players_at_4_seats_in_5_rounds(
    server: LiveServer, tmp_path: Path
) -> None:
    players = [f"T{n:02d}" for n in range(1, 25)]
    options = ["--seats", "4", "--rounds", "5", "--points", "6,5,3,1"]
    options += ["--tiebreaks", ",".join(TIEBREAKS)]
    path = event_file(tmp_path, "tables", "Twenty-four", *options, players=players)
    seen = run_event(server, path, 5, "tables")
    assert all(len(tables) == 6 for tables in seen.tables)
    seat_counts: dict[tuple[str, int], int] = {}
    for tables in seen.tables:
        for seats, _ in tables:
            for index, name in enumerate(seats):
                seat_counts[(name, index)] = seat_counts.get((name, index), 0) + 1
    for name in players:  # five rounds at four seats: no seat more than twice
        assert max(seat_counts.get((name, s), 0) for s in range(4)) <= 2
    check_standings(path, seen, players, (Fraction(6), Fraction(5), Fraction(3), Fraction(1)))
