"""Rating pools: the games of an archive rated per game and seat count, in a fixed order.

A *pool* is one game at one seat count (ONE at 2 seats and ONE at 4 are two pools): players
are rated only against the players of their pool. Two-seat pools use Glicko-2
(``glicko2``), each game a rating period of its own for its two players (the ratings before
the game update both: an archive has no calendar of periods, and a game at a time is what a
club's list wants after each evening). Pools of 3 to 6 seats use Weng-Lin Plackett-Luce
(``wenglin``). A game is rated from its places (1 first; equal places share), in the order
:func:`rate_games` is given; the same games in the same order give the same list to the last
digit (no randomness, no clock).

Pure: :class:`RatedGame` values in, :class:`Pool` values out.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from gamerec.validator.ratings import glicko2, wenglin
from gamerec.validator.ratings.glicko2 import Glicko2
from gamerec.validator.ratings.wenglin import WengLin

#: The systems, by seat count.
GLICKO2, WENG_LIN = "glicko-2", "weng-lin"


class RatedGame(NamedTuple):
    """One game as the ratings take it.

    Attributes:
        game: the game's name (a pool is a game and a seat count).
        players: the player of each seat.
        ranks: each seat's place (1 first; equal places share).
        source: where it was read (``file #number``).
    """

    game: str
    players: tuple[str, ...]
    ranks: tuple[int, ...]
    source: str = ""


@dataclass
class Rated:
    """A player of a pool: its rating and its record.

    Attributes:
        player: the player (a seat's player id, else its name).
        glicko: its Glicko-2 rating (two-seat pools), else None.
        weng_lin: its Weng-Lin rating (pools of 3 to 6 seats), else None.
        games: games rated; firsts: games it placed first alone; shared: first place shared.
    """

    player: str
    glicko: Glicko2 | None = None
    weng_lin: WengLin | None = None
    games: int = 0
    firsts: int = 0
    shared: int = 0

    @property
    def rating(self) -> float:
        """What the list is ordered by: Glicko-2's ``r``, or Weng-Lin's ordinal."""
        if self.glicko is not None:
            return self.glicko.rating
        assert self.weng_lin is not None
        return self.weng_lin.ordinal


@dataclass
class Pool:
    """One game at one seat count: its system, its players and how many games it rated."""

    game: str
    seats: int
    system: str
    players: dict[str, Rated] = field(default_factory=dict)
    games: int = 0

    def rated(self, player: str) -> Rated:
        """The player's entry (a new player's rating when it has none yet)."""
        if player not in self.players:
            if self.system == GLICKO2:
                self.players[player] = Rated(player, glicko=Glicko2())
            else:
                self.players[player] = Rated(player, weng_lin=WengLin())
        return self.players[player]

    def ranking(self) -> list[Rated]:
        """The players, best first (rating, then name)."""
        return sorted(self.players.values(), key=lambda p: (-p.rating, p.player))

    def win_chances(self, players: Sequence[str]) -> list[float]:
        """Each seat's chance of the first place from the ratings now (unknown: new)."""
        known = [self.players.get(p) for p in players]
        if self.system == GLICKO2:
            first, second = (r.glicko if r and r.glicko else Glicko2() for r in known)
            chance = _head_to_head(first, second)
            return [chance, 1 - chance]
        return wenglin.win_chances([r.weng_lin if r and r.weng_lin else WengLin() for r in known])

    def play(self, game: RatedGame) -> None:
        """Rate one game of this pool."""
        entries = [self.rated(player) for player in game.players]
        if self.system == GLICKO2:
            first, second = entries
            assert first.glicko is not None and second.glicko is not None
            score = _score(game.ranks[0], game.ranks[1])
            first.glicko, second.glicko = (
                glicko2.rate(first.glicko, [(second.glicko, score)]),
                glicko2.rate(second.glicko, [(first.glicko, 1 - score)]),
            )
        else:
            new = wenglin.rate([e.weng_lin or WengLin() for e in entries], game.ranks)
            for entry, rating in zip(entries, new, strict=True):
                entry.weng_lin = rating
        shared = game.ranks.count(1) > 1
        for entry, rank in zip(entries, game.ranks, strict=True):
            entry.games += 1
            entry.firsts += rank == 1 and not shared
            entry.shared += rank == 1 and shared
        self.games += 1


def _score(mine: int, theirs: int) -> float:
    return 1.0 if mine < theirs else (0.0 if mine > theirs else 0.5)


def _head_to_head(first: Glicko2, second: Glicko2) -> float:
    """The first player's expected score, both deviations counted (Glickman's E for a game)."""
    phi = math.hypot(first.phi, second.phi)
    g = 1 / math.sqrt(1 + 3 * phi * phi / (math.pi * math.pi))
    return 1 / (1 + math.exp(-g * (first.mu - second.mu)))


def pool_key(game: RatedGame) -> tuple[str, int]:
    """The pool of a game: its name and seat count."""
    return game.game, len(game.players)


def rate_games(games: Iterable[RatedGame]) -> list[Pool]:
    """Rate every game in the order given, each in its pool; pools by game, then seats."""
    pools: dict[tuple[str, int], Pool] = {}
    for game in games:
        key = pool_key(game)
        if key not in pools:
            pools[key] = Pool(key[0], key[1], GLICKO2 if key[1] == 2 else WENG_LIN)
        pools[key].play(game)
    return [pools[key] for key in sorted(pools)]


def log_loss(pool: Pool, game: RatedGame) -> float:
    """The log-loss of the pool's forecast of ``game`` (natural log; lower is better).

    Two seats: ``-(s ln p + (1 - s) ln (1 - p))`` with ``p`` the first seat's expected score
    and ``s`` its score (1, ½, 0). More seats: ``-ln`` of the chance given to the seats that
    placed first (their chances summed when they share the place).
    """
    chances = pool.win_chances(game.players)
    if len(chances) == 2:
        return two_seat_loss(chances[0], game.ranks)
    won = sum(c for c, rank in zip(chances, game.ranks, strict=True) if rank == 1)
    return -math.log(max(won, TINY))


#: The least probability a forecast is taken to give (a certain forecast proved wrong would
#: cost an infinite loss).
TINY = 1e-12


def first_score(ranks: Sequence[int]) -> float:
    """The first seat's score in a two-seat game from its places: 1, ½ or 0."""
    return _score(ranks[0], ranks[1])


def two_seat_loss(chance: float, ranks: Sequence[int]) -> float:
    """The log-loss of forecasting the first seat's expected score as ``chance``."""
    p = min(max(chance, TINY), 1 - TINY)
    s = first_score(ranks)
    return -(s * math.log(p) + (1 - s) * math.log(1 - p))
