"""``gamerec tournament``: the schedule, the Elo figure, faults that lose games, resuming.

The whole-tournament tests run the real command in its own process with real engine
processes: a field where one engine crashes and the other hangs in chosen encounters (their
openings say which), and a tournament resumed from a file that holds part of it.
"""

from __future__ import annotations

import itertools
import math
import shlex
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest

from gamerec.recorder.codecs import read_records, write_records
from gamerec.recorder.notation import format_action
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from gamerec.validator.judge import validate
from gamerec.validator.players.elo import elo_difference, elo_estimate
from gamerec.validator.players.tournament import (
    Entrant,
    Scoreboard,
    Tournament,
    TournamentError,
    finished_rounds,
    schedule,
)
from tests.players.engines import GAMEREC, policy

MISBEHAVING = Path(__file__).with_name("misbehaving_engine.py")


def _run(*arguments: str, timeout: float = 600) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [str(GAMEREC), "tournament", *arguments],
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )


# -- the schedule ------------------------------------------------------------------------------


def test_round_robin_seats_every_engine_in_every_seat_equally_often() -> None:
    games = schedule(["A", "B", "C", "D"], 3, 2)
    assert len(games) == 2 * 4 * 3  # 2 rounds, C(4,3) tables, 3 rotations
    assert [g.round_tag for g in games[:3]] == ["1.1", "1.2", "1.3"]
    assert games[12].round_tag == "2.1" and games[-1].round_tag == "2.12"
    assert [g.number for g in games] == list(range(1, 25))
    for seat in range(3):
        assert Counter(g.seats[seat] for g in games) == dict.fromkeys("ABCD", 6)
    assert games[0].seats == ("A", "B", "C") and games[1].seats == ("B", "C", "A")
    assert {g.encounter for g in games[:3]} == {1} and games[3].encounter == 2


def test_a_two_seat_round_robin_plays_both_colours_of_every_pair() -> None:
    games = schedule(["A", "B", "C"], 2, 1)
    assert [g.seats for g in games] == [
        ("A", "B"),
        ("B", "A"),
        ("A", "C"),
        ("C", "A"),
        ("B", "C"),
        ("C", "B"),
    ]


def test_a_gauntlet_seats_the_first_engine_at_every_table() -> None:
    games = schedule(["A", "B", "C", "D"], 2, 1, gauntlet=True)
    assert [g.seats for g in games] == [
        ("A", "B"),
        ("B", "A"),
        ("A", "C"),
        ("C", "A"),
        ("A", "D"),
        ("D", "A"),
    ]


@pytest.mark.parametrize(
    ("names", "seats", "rounds", "message"),
    [
        (["A", "B"], 3, 1, "the game has 3 seats and only 2 engines were given"),
        (["A", "A"], 2, 1, "every engine needs a name of its own"),
        (["A", "B"], 2, 0, "at least one round"),
    ],
)
def test_a_field_that_cannot_be_scheduled_is_refused(
    names: list[str], seats: int, rounds: int, message: str
) -> None:
    with pytest.raises(TournamentError, match=message):
        schedule(names, seats, rounds)


# -- Elo ---------------------------------------------------------------------------------------


def test_the_elo_figure_is_the_hand_computed_one() -> None:
    # 12 wins, 2 draws, 6 losses: mu = 13/20 = 0.65, Elo = -400 log10(1/0.65 - 1) = 107.53.
    # Per game deviation sqrt(0.6*0.35^2 + 0.1*0.15^2 + 0.3*0.65^2) = 0.45; over sqrt(20):
    # 0.100623. z = 1.957162 (cutechess's phiInv(0.975)): mu in [0.453066, 0.846934], whose
    # Elo values are -32.710 and 297.189: the margin is (297.189 + 32.710) / 2 = 164.95.
    estimate = elo_estimate(12, 2, 6)
    assert estimate.difference == pytest.approx(107.53, abs=0.01)
    assert estimate.margin == pytest.approx(164.95, abs=0.01)
    assert estimate.los == pytest.approx(0.5 * (1 + math.erf(1.0)))  # (12-6)/sqrt(2*18) = 1
    assert estimate.draw_ratio == pytest.approx(0.1)
    assert estimate.line() == ("Elo difference: 107.5 +/- 165.0, LOS: 92.1 %, DrawRatio: 10.0 %")


def test_elo_at_the_edges() -> None:
    assert elo_difference(0.5) == 0
    assert elo_difference(1.0) == math.inf and elo_difference(0.0) == -math.inf
    assert elo_estimate(0, 4, 0).line() == (
        "Elo difference: 0.0 +/- 0.0, LOS: 50.0 %, DrawRatio: 100.0 %"
    )
    assert elo_estimate(5, 0, 0).line().startswith("Elo difference: inf +/- inf")
    with pytest.raises(ValueError, match="no game"):
        elo_estimate(0, 0, 0)


# -- whole tournaments ---------------------------------------------------------------------------


def _openings(tmp_path: Path, count: int, plies: int) -> tuple[Path, list[list[str]]]:
    """A file of ``count`` Aronda records whose first ``plies`` plies all differ."""
    lines: list[list[str]] = []
    records = []
    for record in generate("Aronda", {}, 200, seed=5):
        line = [format_action(move, record.rules.game) for move in record.moves[:plies]]
        if line not in lines:
            lines.append(line)
            records.append(record)
        if len(records) == count:
            break
    path = tmp_path / "openings.pbs"
    write_records(records, path)
    return path, lines


def test_a_crashing_and_a_hanging_engine_lose_those_games_and_nothing_else_is_lost(
    tmp_path: Path,
) -> None:
    openings, lines = _openings(tmp_path, 5, 2)
    crasher = shlex.join([sys.executable, str(MISBEHAVING), "crash", " ".join(lines[0])])
    hanger = shlex.join([sys.executable, str(MISBEHAVING), "hang", " ".join(lines[1])])
    out = tmp_path / "event.pbs"
    done = _run(
        "--game", "aronda",
        "--engine", f"Crasher={crasher}",
        "--engine", f"Hanger={hanger}",
        "--rounds", "10",
        "--clock", "3/move",
        "--concurrency", "2",
        "--openings", str(openings),
        "--opening-plies", "2",
        "-o", str(out),
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    records = list(read_records(out))
    assert len(records) == 20
    assert sorted(r.metadata.round for r in records) == sorted(
        f"{r}.{g}" for r in range(1, 11) for g in (1, 2)
    )
    endings: Counter[int] = Counter()
    for record in records:
        assert validate(record).valid, record.metadata.round
        names = [seat.name for seat in record.seats]
        opening = [format_action(move, record.rules.game) for move in record.moves[:2]]
        assert [move.comment for move in record.moves[:2]] == ["opening", "opening"]
        termination = record.result.termination
        winners = [names[seat - 1] for seat in record.result.winners]
        if opening == lines[0]:
            assert (termination, winners) == (pb.TERMINATION_ABANDONED, ["Hanger"])
            assert "Crasher" in record.comment and "ENGINE_EXITED" in record.comment
        elif opening == lines[1]:
            assert (termination, winners) == (pb.TERMINATION_TIMEOUT, ["Crasher"])
            assert f"Seat {names.index('Hanger') + 1}'s time ran out" in record.comment
        else:
            assert termination == pb.TERMINATION_NORMAL, record.comment
        endings[termination] += 1
    # encounters 1 and 6 open with line 1, 2 and 7 with line 2: two games each
    assert endings[pb.TERMINATION_ABANDONED] == 4 and endings[pb.TERMINATION_TIMEOUT] == 4
    assert "gamerec tournament: 2 players, 20 of 20 games counted" in done.stdout
    assert "Score of Crasher vs Hanger:" in done.stdout
    assert "Elo difference: " in done.stdout
    assert done.stderr.count("Finished game ") == 20
    assert "20 of 20 games, ETA 0:00:00" in done.stderr


def _tokens(record: pb.GameRecord) -> list[str]:
    return [format_action(move, record.rules.game) for move in record.moves]


def _policy_field(rounds: int, out: Path, *extra: str) -> list[str]:
    random_engine = shlex.join(policy("random", 3))
    greedy_engine = shlex.join(policy("greedy", 4))
    return [
        "--game", "ONE",
        "--players", "2",
        "--variant", "Board=6,6",
        "--engine", f"Rnd={random_engine}",
        "--engine", f"Grd={greedy_engine}",
        "--rounds", str(rounds),
        "--clock", "30+1",
        "--openings", "random",
        "-o", str(out),
        *extra,
    ]  # fmt: skip


def test_a_resumed_tournament_plays_exactly_the_missing_games(tmp_path: Path) -> None:
    whole = tmp_path / "whole.grn"
    first = _run(*_policy_field(3, whole))
    assert first.returncode == 0, first.stderr
    played = list(read_records(whole))
    assert len(played) == 6
    partial = tmp_path / "partial.grn"
    kept = [played[index] for index in (0, 2, 5)]
    write_records(kept, partial)
    resumed = _run(*_policy_field(3, partial))
    assert resumed.returncode == 0, resumed.stderr
    assert "3 already in" in resumed.stderr and resumed.stderr.count("Finished game ") == 3
    after = list(read_records(partial))
    assert after[:3] == kept  # what was there stays, byte for byte the same records
    assert sorted(r.metadata.round for r in after) == ["1.1", "1.2", "2.1", "2.2", "3.1", "3.2"]
    by_round = {r.metadata.round: r for r in played}
    for record in after[3:]:  # the same schedule: the same seats and the same opening
        first_time = by_round[record.metadata.round]
        assert [seat.name for seat in record.seats] == [seat.name for seat in first_time.seats]
        assert _tokens(record)[:4] == _tokens(first_time)[:4]
    again = _run(*_policy_field(3, partial))
    assert again.returncode == 0 and "Finished game" not in again.stderr
    assert len(list(read_records(partial))) == 6


def test_a_file_of_another_tournament_is_refused_and_left_alone(tmp_path: Path) -> None:
    out = tmp_path / "event.pbs"
    assert _run(*_policy_field(1, out)).returncode == 0
    before = out.read_bytes()
    swapped = _policy_field(1, out)
    swapped[swapped.index("Rnd=" + shlex.join(policy("random", 3)))] = "Xyz=" + shlex.join(
        policy("random", 3)
    )
    refused = _run(*swapped)
    assert refused.returncode == 2
    assert "the file holds another tournament" in refused.stderr
    assert out.read_bytes() == before


def test_finished_rounds_names_the_record_of_another_event() -> None:
    plan = Tournament("Aronda", {}, (Entrant("A", "a"), Entrant("B", "b")), 1, "60")
    record = pb.GameRecord()
    record.metadata.event = "club night"
    with pytest.raises(TournamentError, match=r"out.pbs: record 1 \(round \?\) is of event"):
        finished_rounds(plan, [record], "out.pbs")


def test_the_schedule_numbers_are_dense_for_every_seat_count() -> None:
    for seats, field in itertools.product(range(2, 5), range(4, 6)):
        games = schedule([f"E{n}" for n in range(field)], seats, 1)
        assert len(games) == math.comb(field, seats) * seats
        assert len({g.round_tag for g in games}) == len(games)


def _claimed(seats: list[str], winners: list[int], scores: list[int] | None) -> pb.GameRecord:
    record = pb.GameRecord()
    record.seats.extend(pb.Seat(name=name) for name in seats)
    record.result.winners.extend(winners)
    if scores is not None:
        record.result.scores.values.extend(scores)
    return record


def test_the_scoreboard_counts_a_match_and_a_field_as_the_standings_do() -> None:
    match = Scoreboard(["A", "B"])
    match.add(_claimed(["A", "B"], [1], [20, 5]))
    match.add(_claimed(["B", "A"], [1, 2], [12, 12]))  # a draw
    match.add(_claimed(["B", "A"], [1], None))  # A forfeited: no scores, B wins
    match.add(_claimed(["A", "B"], [], None))  # stopped by the referee: counts for no one
    assert (match.wins, match.draws, match.losses, match.unfinished) == (1, 1, 1, 1)
    assert match.line() == "Score of A vs B: 1 - 1 - 1 [0.500] 3"
    estimate = match.elo()
    assert estimate is not None and estimate.difference == 0
    field = Scoreboard(["A", "B", "C"])
    field.add(_claimed(["A", "B", "C"], [2], [1, 5, 3]))  # B 2 points, C 1, A 0
    field.add(_claimed(["C", "A", "B"], [1, 2], [4, 4, 0]))  # C and A share 3/2 each
    assert field.line() == "Points: C 2½, B 2, A 1½"
    assert field.elo() is None
