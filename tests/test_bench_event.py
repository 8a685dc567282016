"""The event section of the bench: its cheap rounds, its population and its figures."""

from __future__ import annotations

import math

from bench.bench_event import EventFigures, figures, pairing_seconds, population


def test_a_small_swiss_round_is_paired_after_cheap_rounds() -> None:
    assert pairing_seconds(20, before=3) > 0


def test_the_population_is_seeded_and_ranks_every_seat() -> None:
    games = population(500, seed=3)
    assert games == population(500, seed=3)
    assert {len(g.players) for g in games} == {2, 4}
    for game in games:
        assert len(set(game.players)) == len(game.players)
        if len(game.players) == 4:
            assert sorted(game.ranks) == [1, 2, 3, 4]


def test_the_figures_put_each_forecast_beside_its_reference() -> None:
    made = EventFigures(500, 4, 40.0, 100_000, 20.0, 70_000, 30_000, 5.0, 15.0, 14_000, 6_000,
                        0.62, 0.60, 0.69, 1.1)  # fmt: skip
    shown = {f.name: (f.value, f.reference_value) for f in figures(made)}
    assert shown["rating 100,000 games (Glicko-2 and Weng-Lin)"] == (5_000, None)
    assert shown["log-loss of Glicko-2, 2-seat games"] == (0.60, 0.62)
    assert shown["log-loss of Weng-Lin, 4-seat games"] == (1.1, math.log(4))
