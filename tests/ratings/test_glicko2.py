"""Glicko-2 against the worked example of Glickman's "Example of the Glicko-2 system"."""

from __future__ import annotations

import pytest

from gamerec.validator.ratings.glicko2 import Glicko2, expected_score, rate

#: The paper's player and its three games of one rating period (tau 0.5).
PLAYER = Glicko2(1500, 200, 0.06)
GAMES = [(Glicko2(1400, 30), 1.0), (Glicko2(1550, 100), 0.0), (Glicko2(1700, 300), 0.0)]


def test_the_papers_example_to_its_printed_digits() -> None:
    """Step 8 of the paper: r' = 1464.06, RD' = 151.52, sigma' = 0.05999 (mu' -0.2069,
    phi' 0.8722). The paper rounds mu' before scaling (hence 1464.05 against 1464.06) and
    cuts sigma' after five decimals (0.0599960 here)."""
    after = rate(PLAYER, GAMES)
    assert after.mu == pytest.approx(-0.2069, abs=5e-5)
    assert after.phi == pytest.approx(0.8722, abs=5e-5)
    assert after.rating == pytest.approx(1464.06, abs=0.02)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.059996, abs=5e-7)


def test_the_papers_expected_scores() -> None:
    """Step 3's E values: 0.639, 0.432, 0.303."""
    expected = [expected_score(PLAYER, opponent) for opponent, _ in GAMES]
    assert expected == pytest.approx([0.639, 0.432, 0.303], abs=5e-4)


def test_a_period_without_games_only_widens_the_deviation() -> None:
    """Step 6 alone: phi' = sqrt(phi^2 + sigma^2); rating and volatility stay."""
    after = rate(PLAYER, [])
    assert (after.rating, after.volatility) == (1500, 0.06)
    assert after.phi == pytest.approx((PLAYER.phi**2 + 0.06**2) ** 0.5)


def test_a_win_raises_a_loss_lowers_a_draw_between_equals_keeps() -> None:
    new = Glicko2()
    assert rate(new, [(new, 1.0)]).rating > 1500 > rate(new, [(new, 0.0)]).rating
    assert rate(new, [(new, 0.5)]).rating == pytest.approx(1500)
