"""The Elo difference of a two-player match from its wins, draws and losses, as cutechess does.

cutechess-cli (``elo.cpp``) and fastchess report, after a match of ``n`` games with ``w``
wins, ``d`` draws and ``l`` losses of the first player:

- the score fraction ``mu = (w + d/2) / n``;
- the Elo difference ``-400 log10(1/mu - 1)`` (the logistic model: a player who scores
  ``mu`` against the other is that many points stronger);
- the error margin at 95 %: the standard deviation of one game's score,
  ``sqrt(w/n (1-mu)^2 + d/n (1/2-mu)^2 + l/n mu^2)``, divided by ``sqrt(n)``, gives the
  bounds ``mu -/+ z sd`` of the score; the margin is half the Elo span between them. ``z`` is
  the normal quantile at 97.5 % as both programs compute it: ``sqrt(2) erfinv(0.95)`` by
  Winitzki's approximation of the inverse error function, 1.95716 (the exact quantile is
  1.95996), so the margins printed here are theirs to the last digit;
- the likelihood of superiority ``LOS = (1 + erf((w - l) / sqrt(2 (w + l)))) / 2``;
- the draw ratio ``d / n``.

A score of 0 or 1 has an infinite difference (cutechess prints ``inf``); a bound of the score
at 0 or 1 makes the margin infinite too.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Final


def _cutechess_phi_inverse(p: float) -> float:
    """The normal quantile at ``p`` as cutechess-cli's and fastchess's ``phiInv`` give it."""
    x = 2 * p - 1
    a = 8 * (math.pi - 3) / (3 * math.pi * (4 - math.pi))
    y = math.log(1 - x * x)
    z = 2 / (math.pi * a) + y / 2
    root = math.sqrt(math.sqrt(z * z - y / a) - z)
    return math.sqrt(2) * (root if x >= 0 else -root)


#: The quantile at 97.5 % (a two-sided 95 % interval), as cutechess computes it.
_Z95: Final = _cutechess_phi_inverse(0.975)


def elo_difference(score: float) -> float:
    """The Elo difference of a score fraction (``-400 log10(1/score - 1)``; +-inf at 1, 0)."""
    if score <= 0:
        return -math.inf
    if score >= 1:
        return math.inf
    return -400.0 * math.log10(1.0 / score - 1.0)


@dataclass(frozen=True, slots=True)
class EloEstimate:
    """What a two-player match says of the first player against the second.

    Attributes:
        wins, draws, losses: the first player's games.
        difference: the Elo difference (``inf`` when one side scored everything).
        margin: the 95 % error margin, plus or minus (``inf`` when a bound is 0 or 1).
        los: the likelihood of superiority, 0 to 1.
        draw_ratio: the share of draws.
    """

    wins: int
    draws: int
    losses: int
    difference: float
    margin: float
    los: float
    draw_ratio: float

    @property
    def games(self) -> int:
        """The games counted."""
        return self.wins + self.draws + self.losses

    @property
    def score(self) -> float:
        """The first player's score fraction."""
        return (self.wins + self.draws / 2) / self.games if self.games else 0.0

    def line(self) -> str:
        """``Elo difference: 191.3 +/- 143.5, LOS: 99.4 %, DrawRatio: 10.0 %`` (cutechess's)."""
        return (
            f"Elo difference: {_signed(self.difference)} +/- {_unsigned(self.margin)}, "
            f"LOS: {self.los * 100:.1f} %, DrawRatio: {self.draw_ratio * 100:.1f} %"
        )


def elo_estimate(wins: int, draws: int, losses: int) -> EloEstimate:
    """The estimate of a match (see the module docstring).

    Raises:
        ValueError: a negative count, or no game at all.
    """
    if min(wins, draws, losses) < 0:
        raise ValueError("wins, draws and losses are counts: none is negative")
    games = wins + draws + losses
    if games == 0:
        raise ValueError("no game was counted: there is no Elo difference to give")
    mu = (wins + draws / 2) / games
    deviation = math.sqrt(
        (wins * (1 - mu) ** 2 + draws * (0.5 - mu) ** 2 + losses * mu**2) / games
    ) / math.sqrt(games)
    low, high = mu - _Z95 * deviation, mu + _Z95 * deviation
    margin = (elo_difference(high) - elo_difference(low)) / 2 if low > 0 and high < 1 else math.inf
    decisive = wins + losses
    los = 0.5 * (1 + math.erf((wins - losses) / math.sqrt(2 * decisive))) if decisive else 0.5
    return EloEstimate(wins, draws, losses, elo_difference(mu), margin, los, draws / games)


def _signed(value: float) -> str:
    value += 0.0  # -0.0 (an even score) is written 0.0
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    return f"{value:.1f}"


def _unsigned(value: float) -> str:
    return "inf" if math.isinf(value) else f"{value:.1f}"
