"""What every search shares: its limits, its result, and the values of a position's end.

A search walks *decisions* (``GameState.legal_moves`` / ``decide``): a whole ply in every game
but Oust, where a turn chains placements and the mover stays the same after a capturing one.
Nothing here assumes that the seat to move changes after a decision.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from gamerec.validator.games.protocol import GameState

#: The heuristic value of a position for a seat (higher is better for it), in hundredths of a
#: score point (the protocol's ``score`` unit: a lead of 3 points is worth 300).
Evaluate = Callable[[GameState[Any], int], int]
#: The exact final score margin (seat 1's score minus seat 2's) under perfect play from a
#: two-seat position, or None when nothing exact is known (endgame tables answer it).
Exact = Callable[[GameState[Any]], "int | None"]


class OutOfBudgetError(Exception):
    """A search's limit was reached in the middle of an iteration (caught by the search)."""


class LimitError(ValueError):
    """A search was given no limit, or a limit that is not positive."""


@dataclass(frozen=True, slots=True)
class Limits:
    """When a search stops: whichever given limit is reached first.

    Attributes:
        time: seconds of thinking (wall clock), or None.
        nodes: positions visited (MCTS: tree nodes made; alpha-beta: positions searched).
        playouts: MCTS iterations (each ends in one random playout); alpha-beta counts its
            leaves here.
        depth: alpha-beta's and max-n's deepest iteration, in decisions; None for no bound.

    Raises:
        LimitError: no limit at all, or one that is not positive.
    """

    time: float | None = None
    nodes: int | None = None
    playouts: int | None = None
    depth: int | None = None

    def __post_init__(self) -> None:
        """Check that the search has somewhere to stop."""
        given = [value for value in (self.time, self.nodes, self.playouts, self.depth) if value]
        if not given:
            raise LimitError("a search needs a limit: a time, nodes, playouts or a depth")
        for name in ("time", "nodes", "playouts", "depth"):
            value = getattr(self, name)
            if value is not None and value <= 0:
                raise LimitError(f"the search's {name} limit must be positive, not {value}")

    @property
    def deterministic(self) -> bool:
        """Whether the search's answer depends on its seed only (no time limit)."""
        return self.time is None

    def split(self, parts: int) -> Limits:
        """The limits of one of ``parts`` searches run side by side (root parallel)."""
        return Limits(
            time=self.time,
            nodes=None if self.nodes is None else max(1, self.nodes // parts),
            playouts=None if self.playouts is None else max(1, self.playouts // parts),
            depth=self.depth,
        )


class Budget:
    """The clock and counters of one search against its :class:`Limits`."""

    def __init__(self, limits: Limits) -> None:
        """Start counting now."""
        self.limits = limits
        self.started = time.perf_counter()
        self.deadline = None if limits.time is None else self.started + limits.time
        self.nodes = 0
        self.playouts = 0

    def spent(self) -> bool:
        """Whether a limit has been reached."""
        limits = self.limits
        if limits.nodes is not None and self.nodes >= limits.nodes:
            return True
        if limits.playouts is not None and self.playouts >= limits.playouts:
            return True
        return self.out_of_time()

    def out_of_time(self) -> bool:
        """Whether the time limit has been reached (the node and playout limits not read)."""
        return self.deadline is not None and time.perf_counter() >= self.deadline

    def elapsed(self) -> float:
        """Seconds since the search started."""
        return time.perf_counter() - self.started


@dataclass(frozen=True, slots=True)
class SearchResult:
    """What a search found at its root.

    Attributes:
        seat: the seat to move at the root.
        move: the decision it chooses.
        pv: the principal variation, decisions from the root (``move`` first).
        win: each seat's chance of winning, in seat order (MCTS: the mean reward of its
            playouts, a shared first place counting as a share; alpha-beta: 1 or 0 when the
            result is proven, else the empty tuple).
        margin: each seat's expected final lead in score points over the best other seat.
        score: the mover's value in hundredths of a score point (the protocol's ``score``).
        proven: a forced win (N > 0) or loss (-N) for the mover in N decisions, else None.
        exact: whether the value is exact (an endgame table answered it).
        depth: alpha-beta's deepest finished iteration; MCTS's deepest tree node.
        visits: MCTS's root visits (0 for alpha-beta).
        nodes: positions visited.
        playouts: MCTS playouts (alpha-beta: leaves valued).
        seconds: the time it took.
    """

    seat: int
    move: Any
    pv: tuple[Any, ...]
    win: tuple[float, ...]
    margin: tuple[float, ...]
    score: int
    proven: int | None
    exact: bool
    depth: int
    visits: int
    nodes: int
    playouts: int
    seconds: float


def deepening_result(
    state: GameState[Any],
    line: tuple[Any, ...],
    budget: Budget,
    *,
    score: int,
    depth: int,
    win: tuple[float, ...] = (),
    margin: tuple[float, ...] = (),
    proven: int | None = None,
) -> SearchResult:
    """The result of an iterative-deepening search (alpha-beta, max-n): no visits, not exact."""
    return SearchResult(
        seat=state.to_move,
        move=line[0],
        pv=line,
        win=win,
        margin=margin,
        score=score,
        proven=proven,
        exact=False,
        depth=depth,
        visits=0,
        nodes=budget.nodes,
        playouts=budget.playouts,
        seconds=budget.elapsed(),
    )


def leads(scores: tuple[int, ...] | list[int]) -> tuple[int, ...]:
    """Each seat's lead over the best other seat (negative when behind)."""
    if len(scores) < 2:
        return tuple(0 for _ in scores)
    ordered = sorted(scores, reverse=True)
    return tuple(score - (ordered[1] if score == ordered[0] else ordered[0]) for score in scores)


def rewards(state: GameState[Any]) -> tuple[float, ...]:
    """Each seat's reward at the end (or the standing now): the winners share 1.

    Before the end the rules' ranking is the standing of the position (a playout cut short).
    With no seat ranked first alone or shared, every seat gets an equal share.
    """
    seats = state.seats
    if state.is_over:
        first = state.winners()
    else:
        first = tuple(seat for seat, rank in enumerate(state.ranking(), start=1) if rank == 1)
    if not first:
        return tuple(1.0 / seats for _ in range(seats))
    share = 1.0 / len(first)
    return tuple(share if seat in first else 0.0 for seat in range(1, seats + 1))


def exact_rewards(margin: int) -> tuple[float, float]:
    """The two seats' rewards of an exact final margin (seat 1's score minus seat 2's)."""
    if margin > 0:
        return (1.0, 0.0)
    if margin < 0:
        return (0.0, 1.0)
    return (0.5, 0.5)
