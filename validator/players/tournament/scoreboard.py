"""A tournament's score so far: points by place; wins, draws, losses and Elo of a match.

:class:`Scoreboard`. It imports ``gamerec.v1``, ``validator.collection.standings`` and
``players.elo``.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.standings import (
    competition_ranks,
    default_points,
    fraction_text,
    game_points,
)
from gamerec.validator.players.elo import EloEstimate, elo_estimate


class Scoreboard:
    """The score so far: points by place, and wins, draws and losses of a two-engine match.

    Points are the standings' default table (``n - r`` for the ``r``-th of ``n`` seats); with
    two engines, the first engine's wins, draws and losses are counted too. Results are the
    records' claims: the referee's own results, forfeits included. A game with no result
    (stopped by the referee) counts for nobody.
    """

    def __init__(self, names: Sequence[str]) -> None:
        """A board for the field ``names`` (in order)."""
        self.names = tuple(names)
        self.points: dict[str, Fraction] = dict.fromkeys(self.names, Fraction(0))
        self.wins = self.draws = self.losses = 0
        self.unfinished = 0
        self.games = 0

    def add(self, record: pb.GameRecord) -> None:
        """Count a finished game."""
        self.games += 1
        seats = [seat.name for seat in record.seats]
        claim = record.result
        if not claim.winners and not claim.HasField("scores"):
            self.unfinished += 1
            return
        ranks = competition_ranks(claim.winners, claim.scores.values, len(seats))
        for name, points in zip(seats, game_points(ranks, default_points(len(seats))), strict=True):
            self.points[name] = self.points.get(name, Fraction(0)) + points
        if self.is_match and set(seats) == set(self.names):
            first, second = ranks[seats.index(self.names[0])], ranks[seats.index(self.names[1])]
            if first == second:
                self.draws += 1
            elif first < second:
                self.wins += 1
            else:
                self.losses += 1

    @property
    def is_match(self) -> bool:
        """Whether the field is two engines (a match: wins, draws, losses and Elo)."""
        return len(self.names) == 2

    def line(self) -> str:
        """``Score of A vs B: 5 - 3 - 2 [0.600] 10`` (cutechess's), or the points by name."""
        if self.is_match and self.wins + self.draws + self.losses:
            counted = self.wins + self.draws + self.losses
            score = (self.wins + self.draws / 2) / counted
            return (
                f"Score of {self.names[0]} vs {self.names[1]}: {self.wins} - {self.losses} - "
                f"{self.draws} [{score:.3f}] {counted}"
            )
        ordered = sorted(self.names, key=lambda name: (-self.points[name], name))
        return "Points: " + ", ".join(
            f"{name} {fraction_text(self.points[name])}" for name in ordered
        )

    def elo(self) -> EloEstimate | None:
        """The first engine's Elo difference to the second (a match with a counted game)."""
        if not self.is_match or not self.wins + self.draws + self.losses:
            return None
        return elo_estimate(self.wins, self.draws, self.losses)
