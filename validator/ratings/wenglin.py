"""Weng-Lin ratings with the Plackett-Luce model, through openskill 6 (its ``PlackettLuce``).

A rating is ``(mu, sigma)`` (25 and 25/3 for a new player, openskill's defaults: beta 25/6,
tau 25/300, kappa 1e-4); a game of 3 to 6 seats updates every seat from the places (ties
share a place). The list is ordered by the *ordinal* ``mu - 3 sigma``, the rating a player is
very likely above. Pure: openskill computes in Python, no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Any

#: A new player's mean and deviation (openskill's defaults).
DEFAULT_MU, DEFAULT_SIGMA = 25.0, 25.0 / 3


@dataclass(frozen=True, slots=True)
class WengLin:
    """A player's Weng-Lin rating.

    Attributes:
        mu: the mean skill (25 for a new player).
        sigma: its deviation (25/3 for a new player).
    """

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA

    @property
    def ordinal(self) -> float:
        """``mu - 3 sigma``: what the rating list is ordered by."""
        return self.mu - 3 * self.sigma


@cache
def _model() -> Any:
    from openskill.models import PlackettLuce  # noqa: PLC0415 (only rating needs it)

    return PlackettLuce()


def rate(players: Sequence[WengLin], ranks: Sequence[int]) -> list[WengLin]:
    """Every seat's rating after one game, from its place (1 first; equal places tie)."""
    model = _model()
    teams = [[model.rating(mu=p.mu, sigma=p.sigma)] for p in players]
    rated = model.rate(teams, ranks=list(ranks))
    return [WengLin(team[0].mu, team[0].sigma) for team in rated]


def win_chances(players: Sequence[WengLin]) -> list[float]:
    """Each seat's chance of the first place (openskill's ``predict_win``; they sum to 1)."""
    model = _model()
    teams = [[model.rating(mu=p.mu, sigma=p.sigma)] for p in players]
    return [float(chance) for chance in model.predict_win(teams)]
