"""Monte Carlo tree search (UCT) for every game and seat count, over decisions.

Each iteration walks the tree from the root by UCB1 (each node's mover picks the child with
the best mean reward for itself plus the exploration term), adds one child, plays uniformly
random decisions to the end (or to :data:`PLAYOUT_CAP` decisions, where the rules' standing
counts), and adds every seat's reward and score lead to each node on the way back. A
shared first place is a share of the reward, so the mean reward of a seat is its chance of
winning as the playouts see it. Where an :data:`~.core.Exact` function answers a two-seat
position, that node's value is exact and no playout runs below it.

The answer: the most visited root decision; its line is the most visited path. With the same
seed and a limit of nodes or playouts (not time) the answer is the same on every run.
``workers`` > 1 runs that many searches side by side in processes (root parallel), each with
its own seed and a share of the playouts, and sums the root's statistics.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Final

from gamerec.validator.games.protocol import GameState
from gamerec.validator.search.core import (
    Budget,
    Exact,
    Limits,
    SearchResult,
    exact_rewards,
    leads,
    rewards,
)

#: UCB1's exploration constant (rewards are in 0..1).
EXPLORATION: Final = 1.0
#: The longest playout, in decisions; a playout cut there takes the rules' standing. Games
#: that can cycle for ever (Oh-Wah-Ree, four seats, under forced moves) stop here.
PLAYOUT_CAP: Final = 1_000


class _Node:
    """A position in the tree: its mover, untried decisions, children and statistics."""

    __slots__ = ("children", "exact", "margin", "mover", "reward", "untried", "visits")

    def __init__(
        self, state: GameState[Any], rng: random.Random, exact: Exact | None, root: bool = False
    ) -> None:
        self.mover = state.to_move
        self.visits = 0
        self.reward = [0.0] * state.seats
        self.margin = [0.0] * state.seats
        self.children: list[tuple[Any, _Node]] = []
        self.exact: tuple[tuple[float, ...], tuple[int, ...]] | None = None
        if state.is_over:
            self.exact = (rewards(state), leads(state.scores()))
            self.untried: list[Any] = []
            return
        known = exact(state) if exact is not None and state.seats == 2 and not root else None
        if known is not None:
            self.exact = (exact_rewards(known), (known, -known))
            self.untried = []
            return
        self.untried = state.legal_moves()
        rng.shuffle(self.untried)

    def best_child(self) -> tuple[Any, _Node]:
        """The UCB1 choice of this node's mover."""
        seat = self.mover - 1
        log_visits = math.log(self.visits)
        best: tuple[Any, _Node] | None = None
        best_value = -math.inf
        for pair in self.children:
            child = pair[1]
            value = child.reward[seat] / child.visits + EXPLORATION * math.sqrt(
                log_visits / child.visits
            )
            if value > best_value:
                best, best_value = pair, value
        assert best is not None
        return best


@dataclass(frozen=True, slots=True)
class RootStats:
    """One root decision's statistics, as a worker reports them (picklable, summable)."""

    move: Any
    visits: int
    reward: tuple[float, ...]
    margin: tuple[float, ...]
    line: tuple[Any, ...]
    exact: bool


@dataclass(frozen=True, slots=True)
class _Run:
    """One search's root statistics and counters."""

    children: tuple[RootStats, ...]
    visits: int
    reward: tuple[float, ...]
    margin: tuple[float, ...]
    depth: int
    nodes: int
    playouts: int


def mcts(
    state: GameState[Any],
    limits: Limits,
    *,
    seed: int | str = 1,
    exact: Exact | None = None,
    workers: int = 1,
    executor: Executor | None = None,
) -> SearchResult:
    """Search ``state`` by UCT within ``limits`` and answer its best decision.

    Args:
        state: the position (not changed); the game must not be over.
        limits: when to stop.
        seed: the seed of every random choice.
        exact: exact two-seat margins, where known (endgame tables).
        workers: searches run side by side (root parallel); > 1 needs ``executor``.
        executor: a process pool for the workers.

    Raises:
        ValueError: the game is over, or workers > 1 without an executor.
    """
    if state.is_over:
        raise ValueError("the game is over: there is nothing to search")
    budget = Budget(limits)
    if workers <= 1:
        runs = [_search(state, limits, f"{seed}", exact)]
    else:
        if executor is None:
            raise ValueError("a root-parallel search needs a process pool")
        share = limits.split(workers)
        futures = [
            executor.submit(_search, state, share, f"{seed}:{worker}", exact)
            for worker in range(workers)
        ]
        runs = [future.result() for future in futures]
    return _merged(state, runs, budget.elapsed())


def _search(state: GameState[Any], limits: Limits, seed: str, exact: Exact | None) -> _Run:
    """One UCT search from ``state`` (a worker's whole job in a root-parallel search)."""
    rng = random.Random(seed)
    budget = Budget(limits)
    root = _Node(state, rng, exact, root=True)
    depth = 0
    while True:
        reached = _iterate(root, state, rng, exact)
        budget.nodes += 1
        budget.playouts += 1
        depth = max(depth, reached)
        if _settled(root) or budget.spent():
            break
    children = tuple(
        RootStats(
            move,
            child.visits,
            tuple(child.reward),
            tuple(child.margin),
            (move, *_line(child)),
            child.exact is not None,
        )
        for move, child in root.children
    )
    return _Run(
        children,
        root.visits,
        tuple(root.reward),
        tuple(root.margin),
        depth,
        budget.nodes,
        budget.playouts,
    )


def _iterate(root: _Node, start: GameState[Any], rng: random.Random, exact: Exact | None) -> int:
    """One iteration: select, expand, play out, back up; the depth it reached."""
    state = start.copy()
    node = root
    path = [node]
    while not node.untried and node.children and node.exact is None:
        move, node = node.best_child()
        state.decide(move)
        path.append(node)
    if node.untried and node.exact is None:
        move = node.untried.pop()
        state.decide(move)
        child = _Node(state, rng, exact)
        node.children.append((move, child))
        node = child
        path.append(node)
    if node.exact is not None:
        reward, margin = node.exact
    else:
        reward, margin = _playout(state, rng)
    for visited in path:
        visited.visits += 1
        for seat, value in enumerate(reward):
            visited.reward[seat] += value
            visited.margin[seat] += margin[seat]
    return len(path) - 1


def _settled(root: _Node) -> bool:
    """Whether every root decision is tried and exact: more iterations change nothing."""
    return not root.untried and all(child.exact is not None for _, child in root.children)


def _playout(
    state: GameState[Any], rng: random.Random
) -> tuple[tuple[float, ...], tuple[int, ...]]:
    """Random decisions to the end (or the cap); every seat's reward and lead there."""
    steps = 0
    while not state.is_over and steps < PLAYOUT_CAP:
        state.decide(rng.choice(state.legal_moves()))
        steps += 1
    return rewards(state), leads(state.scores())


def _line(node: _Node) -> tuple[Any, ...]:
    """The most visited path below ``node``."""
    line: list[Any] = []
    while node.children:
        move, node = max(node.children, key=lambda pair: pair[1].visits)
        line.append(move)
    return tuple(line)


def _exact_value(stats: RootStats, mover: int) -> tuple[float, float]:
    """An exact root decision's value for the mover: its reward, then its lead."""
    return stats.reward[mover - 1] / stats.visits, stats.margin[mover - 1] / stats.visits


def _merged(state: GameState[Any], runs: Sequence[_Run], seconds: float) -> SearchResult:
    """The runs' root statistics summed, and the answer they give."""
    seats = state.seats
    mover = state.to_move
    by_move: dict[Any, list[RootStats]] = {}
    for run in runs:
        for stats in run.children:
            by_move.setdefault(stats.move, []).append(stats)
    visits = sum(run.visits for run in runs)
    total = [sum(run.reward[seat] for run in runs) for seat in range(seats)]
    margin = [sum(run.margin[seat] for run in runs) for seat in range(seats)]
    exact = all(stats.exact for group in by_move.values() for stats in group)
    if exact:  # every root decision's value is exact: the mover's best one is the value
        best = max(by_move.values(), key=lambda group: _exact_value(group[0], mover))
        leader = best[0]
        win = tuple(value / leader.visits for value in leader.reward)
        lead = tuple(value / leader.visits for value in leader.margin)
    else:
        best = max(by_move.values(), key=lambda group: sum(stats.visits for stats in group))
        leader = max(best, key=lambda stats: stats.visits)
        win = tuple(value / visits for value in total)
        lead = tuple(value / visits for value in margin)
    return SearchResult(
        seat=mover,
        move=leader.move,
        pv=leader.line,
        win=win,
        margin=lead,
        score=round(100 * lead[mover - 1]),
        proven=None,
        exact=exact,
        depth=max(run.depth for run in runs),
        visits=visits,
        nodes=sum(run.nodes for run in runs),
        playouts=sum(run.playouts for run in runs),
        seconds=seconds,
    )
