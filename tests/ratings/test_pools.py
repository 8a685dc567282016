"""Pools per game and seat count, Weng-Lin through openskill, determinism, forecasts."""

from __future__ import annotations

import math
import random
from pathlib import Path

import pytest
from openskill.models import PlackettLuce

from gamerec.validator.ratings.archive import read_archive
from gamerec.validator.ratings.glicko2 import Glicko2, rate
from gamerec.validator.ratings.pools import GLICKO2, WENG_LIN, RatedGame, log_loss, rate_games

EVENTS = Path(__file__).resolve().parents[2] / "fixtures" / "events"


def _games(count: int, seed: int) -> list[RatedGame]:
    rng = random.Random(seed)
    names = [f"p{n}" for n in range(12)]
    games = []
    for _ in range(count):
        seats = rng.choice([2, 2, 3, 4])
        players = tuple(rng.sample(names, seats))
        ranks = tuple(rng.randint(1, seats) for _ in range(seats))
        games.append(RatedGame(rng.choice(["G1", "G2"]), players, ranks))
    return games


def test_pools_are_per_game_and_seat_count_with_their_system() -> None:
    pools = rate_games(_games(200, 1))
    assert [(p.game, p.seats, p.system) for p in pools] == [
        ("G1", 2, GLICKO2),
        ("G1", 3, WENG_LIN),
        ("G1", 4, WENG_LIN),
        ("G2", 2, GLICKO2),
        ("G2", 3, WENG_LIN),
        ("G2", 4, WENG_LIN),
    ]
    assert sum(p.games for p in pools) == 200


def test_two_seats_are_glicko2_one_game_a_period() -> None:
    """Ana beats Ben, then draws Chi: each game updates both from the ratings before it."""
    (pool,) = rate_games(
        [RatedGame("G", ("Ana", "Ben"), (1, 2)), RatedGame("G", ("Chi", "Ana"), (1, 1))]
    )
    ana = rate(Glicko2(), [(Glicko2(), 1.0)])
    ben = rate(Glicko2(), [(Glicko2(), 0.0)])
    chi = rate(Glicko2(), [(ana, 0.5)])
    ana = rate(ana, [(Glicko2(), 0.5)])
    assert {k: v.glicko for k, v in pool.players.items()} == {"Ana": ana, "Ben": ben, "Chi": chi}
    assert (pool.players["Ana"].firsts, pool.players["Ana"].shared) == (1, 1)


def test_tables_are_openskill_plackett_luce() -> None:
    """The same games through openskill by hand give the same mu and sigma."""
    games = [
        RatedGame("G", ("a", "b", "c"), (2, 1, 3)),
        RatedGame("G", ("c", "a", "b"), (1, 1, 3)),
    ]
    (pool,) = rate_games(games)
    model = PlackettLuce()
    ratings = {n: model.rating() for n in "abc"}
    for game in games:
        rated = model.rate([[ratings[p]] for p in game.players], ranks=list(game.ranks))
        for name, team in zip(game.players, rated, strict=True):
            ratings[name] = team[0]
    for name, mine in pool.players.items():
        assert mine.weng_lin is not None
        assert (mine.weng_lin.mu, mine.weng_lin.sigma) == (ratings[name].mu, ratings[name].sigma)


def test_rating_again_gives_the_same_list_to_the_last_digit() -> None:
    first = rate_games(_games(300, 7))
    again = rate_games(_games(300, 7))
    assert [p.players for p in first] == [p.players for p in again]


def test_an_archive_rates_the_same_whatever_the_workers_and_the_order_of_paths() -> None:
    paths = sorted(str(p) for p in EVENTS.iterdir())
    one = read_archive(paths, workers=1)
    two = read_archive(list(reversed(paths)), workers=2)
    assert one.games == two.games
    assert (one.copies, len(one.games), len(one.not_rated)) == (2, 9, 2)
    assert [p.players for p in rate_games(one.games)] == [p.players for p in rate_games(two.games)]


def test_log_loss_of_a_fresh_pool_is_that_of_a_coin_or_a_die() -> None:
    (two,) = rate_games([RatedGame("G", ("x", "y"), (1, 2))])
    assert log_loss(two, RatedGame("G", ("a", "b"), (1, 2))) == pytest.approx(math.log(2))
    (four,) = rate_games([RatedGame("G", ("w", "x", "y", "z"), (1, 2, 3, 4))])
    game = RatedGame("G", ("a", "b", "c", "d"), (2, 1, 3, 4))
    assert log_loss(four, game) == pytest.approx(math.log(4))
    strong = RatedGame("G", ("x", "y"), (1, 2))
    assert log_loss(two, strong) < math.log(2) < log_loss(two, strong._replace(ranks=(2, 1)))
