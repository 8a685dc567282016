"""Glicko-2, as Mark Glickman's "Example of the Glicko-2 system" (2013) gives it, step by step.

A rating is ``(r, RD, sigma)`` on the Glicko scale (1500, 350, 0.06 for a new player). One
rating period updates a player from the games it played in it against opponents whose
ratings are taken as they were at the start of the period (steps 1 to 8 of the paper; the
volatility by the Illinois algorithm of step 5.1 to 5.5, to a tolerance of 1e-6). A player
without games in a period only sees its deviation grow (step 6). ``tau`` bounds how fast the
volatility changes (Glickman suggests 0.3 to 1.2; 0.5 here, as in his example).

Pure: numbers in, numbers out.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

#: The Glicko scale's factor to Glicko-2's (173.7178 in the paper: 400 / ln 10).
SCALE = 400 / math.log(10)
#: A new player's rating, deviation and volatility.
DEFAULT_RATING, DEFAULT_DEVIATION, DEFAULT_VOLATILITY = 1500.0, 350.0, 0.06
#: The system constant of the paper's example.
TAU = 0.5
#: The convergence tolerance of step 5.
EPSILON = 1e-6


@dataclass(frozen=True, slots=True)
class Glicko2:
    """A player's Glicko-2 rating on the Glicko scale.

    Attributes:
        rating: ``r`` (1500 for a new player).
        deviation: ``RD``, the rating's uncertainty (350 for a new player).
        volatility: ``sigma``, how erratic the player's results are.
    """

    rating: float = DEFAULT_RATING
    deviation: float = DEFAULT_DEVIATION
    volatility: float = DEFAULT_VOLATILITY

    @property
    def mu(self) -> float:
        """The rating on the Glicko-2 scale (step 2)."""
        return (self.rating - DEFAULT_RATING) / SCALE

    @property
    def phi(self) -> float:
        """The deviation on the Glicko-2 scale (step 2)."""
        return self.deviation / SCALE


def _g(phi: float) -> float:
    return 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))


def _expected(mu: float, mu_j: float, phi_j: float) -> float:
    return 1 / (1 + math.exp(-_g(phi_j) * (mu - mu_j)))


def expected_score(player: Glicko2, opponent: Glicko2) -> float:
    """The player's expected score against the opponent (``E`` of step 3)."""
    return _expected(player.mu, opponent.mu, opponent.phi)


def _volatility(sigma: float, phi: float, variance: float, delta: float, tau: float) -> float:
    """Step 5: the new volatility, by the Illinois algorithm."""
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        spread = phi * phi + variance + ex
        return ex * (delta * delta - spread + ex) / (2 * spread * spread) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + variance:
        big_b = math.log(delta * delta - phi * phi - variance)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2
        big_b, f_b = big_c, f_c
    return math.exp(big_a / 2)


def rate(player: Glicko2, games: Sequence[tuple[Glicko2, float]], tau: float = TAU) -> Glicko2:
    """The player's rating after one rating period of ``games`` (opponent, score 0, ½ or 1)."""
    mu, phi = player.mu, player.phi
    if not games:
        grown = math.sqrt(phi * phi + player.volatility * player.volatility)
        return Glicko2(player.rating, grown * SCALE, player.volatility)
    inverse_variance = 0.0
    improvement = 0.0
    for opponent, score in games:
        g = _g(opponent.phi)
        expected = _expected(mu, opponent.mu, opponent.phi)
        inverse_variance += g * g * expected * (1 - expected)
        improvement += g * (score - expected)
    variance = 1 / inverse_variance
    delta = variance * improvement
    sigma = _volatility(player.volatility, phi, variance, delta, tau)
    phi_star = math.sqrt(phi * phi + sigma * sigma)
    new_phi = 1 / math.sqrt(1 / (phi_star * phi_star) + 1 / variance)
    new_mu = mu + new_phi * new_phi * improvement
    return Glicko2(new_mu * SCALE + DEFAULT_RATING, new_phi * SCALE, sigma)
