"""Events and ratings: a 500-player Swiss round, rating 100,000 games, forecasts on held-out games.

1. **Pairing**: one round of a 500-player two-seat Swiss by the FIDE Dutch system (py4swiss,
   from the event written as TRF). The rounds before it are made cheaply (each score group
   paired in order, avoiding repeats, colours balanced) with seeded results, so that the
   round timed has scoregroups, colour preferences and opponents to avoid, as a real round 4
   has; only the timed round goes through py4swiss.
2. **Rating**: ``rate_games`` over 100,000 games of a seeded population (70% two-seat games,
   rated by Glicko-2; 30% four-seat games, by Weng-Lin through openskill), games/s overall
   and per system. Reading an archive (judging each record) is ``validate``'s speed and is
   not in this figure.
3. **Forecasts**: the same kind of games from players of hidden strengths (Elo-like:
   ``10^(s/400)`` weights, Plackett-Luce for the order of a table, 10% of two-seat games
   drawn); the systems rate the first 80% in order and forecast the last 20% with the
   ratings frozen. The log-loss (natural log, lower is better) of two-seat games: Glicko-2
   and Weng-Lin against plain Elo (logistic, K = 32 per game, the model whose difference
   ``gamerec tournament`` prints); of four-seat games: Weng-Lin against the uniform forecast
   (``ln 4``).

Run alone: ``.venv/bin/python -m bench.bench_event [--quick]``.
"""

from __future__ import annotations

import argparse
import importlib
import math
import random
import time
from dataclasses import dataclass
from fractions import Fraction

from bench.figures import Figure, table
from gamerec.validator.events import event as operations
from gamerec.validator.events.model import Event, Result, Round, Settings, Table
from gamerec.validator.ratings.pools import (
    WENG_LIN,
    Pool,
    RatedGame,
    first_score,
    log_loss,
    rate_games,
    two_seat_loss,
)

#: Share of two-seat games in the rated population.
TWO_SEATS = 0.7
#: Plain Elo's K factor.
ELO_K = 32.0


@dataclass(frozen=True, slots=True)
class EventFigures:
    """What one run measured.

    Attributes:
        players: players of the Swiss; round: the round timed; pairing_s: its seconds.
        games: games rated; rating_s, glicko_s, weng_lin_s: seconds, all and per system.
        two_seat_games, four_seat_games: the two systems' shares of ``games``.
        held_out_two, held_out_four: held-out games forecast.
        elo, glicko, weng_lin_two: log-loss of two-seat games.
        weng_lin_four: log-loss of four-seat games.
    """

    players: int
    round: int
    pairing_s: float
    games: int
    rating_s: float
    two_seat_games: int
    four_seat_games: int
    glicko_s: float
    weng_lin_s: float
    held_out_two: int
    held_out_four: int
    elo: float
    glicko: float
    weng_lin_two: float
    weng_lin_four: float


def _cheap_round(made: Event, rng: random.Random) -> None:
    """Pair the next round in score order avoiding repeats (no Dutch), with random results."""
    points = operations.scores(made)
    whites = {p.name: 0 for p in made.players}
    met: set[frozenset[str]] = set()
    for past in made.rounds:
        for t in past.tables:
            whites[t.seats[0]] += 1
            met.add(frozenset(t.seats))
    left = sorted(made.players, key=lambda p: (-points[p.name], p.number))
    names = [p.name for p in left]
    made_round = Round(len(made.rounds) + 1)
    while len(names) > 1:
        first = names.pop(0)
        other = next((n for n in names if frozenset((first, n)) not in met), names[0])
        names.remove(other)
        seats = (first, other) if whites[first] <= whites[other] else (other, first)
        ranks = rng.choice([(1, 2), (2, 1), (1, 1)])
        made_round.tables.append(Table(len(made_round.tables) + 1, seats, result=Result(ranks, "")))
    made.rounds.append(made_round)


def pairing_seconds(players: int, before: int, seed: int = 36) -> float:
    """Seconds py4swiss takes to pair round ``before + 1`` of a ``players``-player Swiss."""
    made = Event(Settings("Bench", "ONE", 2, "swiss", 9, (Fraction(1), Fraction(0)), Fraction(1)))
    operations.add_players(made, [(f"P{n}", None) for n in range(1, players + 1)])
    rng = random.Random(seed)
    for _ in range(before):
        _cheap_round(made, rng)
    importlib.import_module("py4swiss.engines")  # its import (pydantic) is not the pairing
    started = time.perf_counter()
    operations.pair_next(made)
    return time.perf_counter() - started


def population(games: int, seed: int = 36, players: int = 400) -> list[RatedGame]:
    """Seeded games of players of hidden Elo-like strengths (see the module docstring)."""
    rng = random.Random(seed)
    strength = {f"p{n}": rng.gauss(0, 200) for n in range(players)}
    names = list(strength)
    out = []
    for _ in range(games):
        seats = 2 if rng.random() < TWO_SEATS else 4
        table = rng.sample(names, seats)
        weights = [10 ** (strength[name] / 400) for name in table]
        if seats == 2 and rng.random() < 0.1:
            ranks: tuple[int, ...] = (1, 1)
        else:
            order: list[int] = []
            left = list(range(seats))
            while left:
                pick = rng.choices(left, [weights[i] for i in left])[0]
                order.append(pick)
                left.remove(pick)
            ranks = tuple(order.index(seat) + 1 for seat in range(seats))
        out.append(RatedGame("G", tuple(table), ranks))
    return out


def _elo_log_loss(train: list[RatedGame], test: list[RatedGame]) -> float:
    rating: dict[str, float] = {}

    def expected(a: str, b: str) -> float:
        return 1 / (1 + 10 ** ((rating.get(b, 1500.0) - rating.get(a, 1500.0)) / 400))

    for game in train:
        a, b = game.players
        change = ELO_K * (first_score(game.ranks) - expected(a, b))
        rating[a] = rating.get(a, 1500.0) + change
        rating[b] = rating.get(b, 1500.0) - change
    return sum(two_seat_loss(expected(*g.players), g.ranks) for g in test) / len(test)


def _weng_lin_two(train: list[RatedGame], test: list[RatedGame]) -> float:
    """Weng-Lin on the two-seat games too (pools use Glicko-2 there), for the comparison."""
    pool = Pool("G", 2, WENG_LIN)
    for game in train:
        pool.play(game)
    return _mean_loss(pool, test)


def _mean_loss(pool: Pool, games: list[RatedGame]) -> float:
    return sum(log_loss(pool, game) for game in games) / len(games)


def measure(players: int, games: int) -> EventFigures:
    """Pair one round, rate ``games`` games, forecast held-out games."""
    pairing = pairing_seconds(players, before=3)
    archive = population(games)
    two = [g for g in archive if len(g.players) == 2]
    four = [g for g in archive if len(g.players) == 4]
    started = time.perf_counter()
    rate_games(archive)
    rating_s = time.perf_counter() - started
    started = time.perf_counter()
    rate_games(two)
    glicko_s = time.perf_counter() - started
    started = time.perf_counter()
    rate_games(four)
    weng_lin_s = time.perf_counter() - started
    cut_two, cut_four = int(len(two) * 0.8), int(len(four) * 0.8)
    (glicko_pool,) = rate_games(two[:cut_two])
    (weng_lin_pool,) = rate_games(four[:cut_four])
    return EventFigures(
        players,
        4,
        pairing,
        games,
        rating_s,
        len(two),
        len(four),
        glicko_s,
        weng_lin_s,
        len(two) - cut_two,
        len(four) - cut_four,
        _elo_log_loss(two[:cut_two], two[cut_two:]),
        _mean_loss(glicko_pool, two[cut_two:]),
        _weng_lin_two(two[:cut_two], two[cut_two:]),
        _mean_loss(weng_lin_pool, four[cut_four:]),
    )


def figures(measured: EventFigures) -> list[Figure]:
    """The section's figures: seconds, games/s and log-loss beside their references."""
    m = measured
    elo = f"plain Elo, K {ELO_K:g} ({m.held_out_two:,} held-out 2-seat games; lower is better)"
    return [
        Figure(
            f"Swiss round {m.round} of {m.players} players (FIDE Dutch, py4swiss)", m.pairing_s, "s"
        ),
        Figure(
            f"rating {m.games:,} games (Glicko-2 and Weng-Lin)", m.games / m.rating_s, "games/s"
        ),
        Figure(
            f"Glicko-2: {m.two_seat_games:,} 2-seat games", m.two_seat_games / m.glicko_s, "games/s"
        ),
        Figure(
            f"Weng-Lin (openskill): {m.four_seat_games:,} 4-seat games",
            m.four_seat_games / m.weng_lin_s,
            "games/s",
        ),
        Figure("log-loss of Glicko-2, 2-seat games", m.glicko, "nats", elo, m.elo),
        Figure("log-loss of Weng-Lin, 2-seat games", m.weng_lin_two, "nats", elo, m.elo),
        Figure(
            "log-loss of Weng-Lin, 4-seat games",
            m.weng_lin_four,
            "nats",
            f"uniform forecast, ln 4 ({m.held_out_four:,} held-out 4-seat games)",
            math.log(4),
        ),
    ]


def main() -> None:
    """Run the event benchmark alone and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true", help="100 players, 10,000 games")
    options = parser.parse_args()
    players, games = (100, 10_000) if options.quick else (500, 100_000)
    print(table(figures(measure(players, games))))


if __name__ == "__main__":
    main()
