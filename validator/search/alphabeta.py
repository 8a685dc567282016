"""Alpha-beta search with a transposition table: minimax for two seats, paranoid for more.

The value of a position is the root seat's: that seat maximises, every other seat minimises
(with two seats that is minimax; with 3-6 it is the paranoid assumption of Sturtevant and
Korf, every other seat in coalition against the root seat). Iterative deepening from one
decision on, until a limit; the answer is the last finished iteration's (or a better root
decision an unfinished one proved), its line read from the table. Depth counts turns: a
decision after which the same seat decides again (Oust's chained placements) does not use
up depth. Decisions are ordered by the table's best first, then the killers (the last two
that cut off at that distance from the root), then the history heuristic (how often and how
deep each decision cut off); the root's by the last iteration's values, and before the first
iteration by the value of the position each leads to (its evaluation, or its end), so that a
first iteration cut short (an Oust turn's chained captures can be too many to weigh) has
weighed the most promising decisions first. The time is read every :data:`CLOCK_EVERY`
nodes in the tree, and before each root decision and each one the root's order values.

Values, for the root seat, in hundredths of a score point: a finished game is worth ``WIN``
(won alone), ``-WIN`` (not among the winners) or 0 (first place shared), plus the root seat's
final lead (clipped to +-999 points), and a win or loss loses ``PLY`` per decision on the way
to it, so a shorter win is worth more and the distance can be read back (the protocol's
``score win N``). A position at the depth limit is worth the caller's
:data:`~.core.Evaluate` of it (each game's own, from its registry entry), clipped to
+-``WIN // 10``. Where an :data:`~.core.Exact` function answers a two-seat position its value
is that of a finished game with that margin (below the root: the root is searched, so that a
move is chosen). Values are stored in the table relative to the node (a win ``N`` decisions
away is worth ``WIN - N * PLY`` wherever the node stands), so a transposition reached at
another depth reads the same value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from gamerec.validator.games.protocol import GameState
from gamerec.validator.search.core import (
    Budget,
    Evaluate,
    Exact,
    Limits,
    OutOfBudgetError,
    SearchResult,
    deepening_result,
)

#: The value of a won game (before the lead and the distance are counted).
WIN: Final = 1_000_000_000_000
#: What each decision on the way costs a win (and saves a loss).
PLY: Final = 1_000_000
#: The largest lead a finished game's value counts, in score points.
MAX_LEAD: Final = 999
#: Hundredths of a score point in a point: values are counted in hundredths.
CENTS: Final = 100
#: How often (in nodes) the clock is read.
CLOCK_EVERY: Final = 64
_EXACT, _LOWER, _UPPER = 0, 1, 2


@dataclass(slots=True)
class _Entry:
    depth: int
    value: int
    bound: int
    move: Any


def is_proven(value: int) -> bool:
    """Whether a value is a forced win or loss (the game's end is reached on every line)."""
    return abs(value) > WIN // 2


def distance(value: int) -> int:
    """The decisions to the end of a proven value."""
    return (WIN - abs(value) + PLY // 2) // PLY


def _toward_root(value: int) -> int:
    """A child's value as its parent sees it: a proven result one decision further away."""
    if value > WIN // 2:
        return value - PLY
    if value < -WIN // 2:
        return value + PLY
    return value


def _from_root(value: int) -> int:
    """The inverse of :func:`_toward_root` (a parent's window as its child sees it)."""
    if value > WIN // 2:
        return value + PLY
    if value < -WIN // 2:
        return value - PLY
    return value


class _Searcher:
    def __init__(
        self, root_seat: int, evaluate: Evaluate, exact: Exact | None, budget: Budget
    ) -> None:
        self.seat = root_seat
        self.evaluate = evaluate
        self.exact = exact
        self.budget = budget
        self.table: dict[str, _Entry] = {}
        self.avoid: frozenset[str] = frozenset()
        # Move ordering: the decisions that cut off most (history), and at each distance from
        # the root the last two that cut off (killers).
        self.history: dict[Any, int] = {}
        self.killers: dict[int, list[Any]] = {}
        # The root's decisions in the order of the last iteration's values (best first), and
        # the best root decision of the iteration running, once its value is known.
        self.root_order: list[Any] = []
        self.root_best: tuple[Any, int] | None = None

    def finished(self, state: GameState[Any]) -> int:
        winners = state.winners()
        scores = state.scores()
        lead = scores[self.seat - 1] - max(
            (score for seat, score in enumerate(scores, start=1) if seat != self.seat),
            default=0,
        )
        lead = CENTS * max(-MAX_LEAD, min(MAX_LEAD, lead))
        if self.seat in winners and len(winners) == 1:
            return WIN + lead
        if winners and self.seat not in winners:
            return -WIN + lead
        return lead

    def known(self, state: GameState[Any]) -> int | None:
        if state.is_over:
            return self.finished(state)
        if self.exact is None or state.seats != 2:
            return None
        margin = self.exact(state)
        if margin is None:
            return None
        lead = margin if self.seat == 1 else -margin
        clipped = CENTS * max(-MAX_LEAD, min(MAX_LEAD, lead))
        if lead > 0:
            return WIN + clipped
        if lead < 0:
            return -WIN + clipped
        return 0

    def search(self, state: GameState[Any], depth: int, alpha: int, beta: int, height: int) -> int:
        """The value of a position below the root, ``height`` decisions from it."""
        budget = self.budget
        budget.nodes += 1
        if budget.nodes % CLOCK_EVERY == 0 and budget.spent():
            raise OutOfBudgetError
        known = self.known(state)
        if known is not None:
            budget.playouts += 1
            return known
        if depth <= 0:
            budget.playouts += 1
            bound = WIN // 10
            return max(-bound, min(bound, self.evaluate(state, self.seat)))
        key = state.digest()
        entry = self.table.get(key)
        first = None
        if entry is not None:
            first = entry.move
            if entry.depth >= depth and _settles(entry, alpha, beta):
                return entry.value
        mover = state.to_move
        moves = self.ordered(state, first, height)
        maximising = mover == self.seat
        low, high = alpha, beta
        best_value = -WIN * 2 if maximising else WIN * 2
        best_move = moves[0]
        for move in moves:
            child = state.copy()
            child.decide(move)
            # A decision after which the same seat decides again (Oust's chained placements)
            # is part of one turn: the turn, not the decision, uses up the depth.
            step = 0 if child.to_move == mover else 1
            value = _toward_root(
                self.search(child, depth - step, _from_root(low), _from_root(high), height + 1)
            )
            if maximising and value > best_value:
                best_value, best_move = value, move
                low = max(low, value)
            elif not maximising and value < best_value:
                best_value, best_move = value, move
                high = min(high, value)
            if low >= high:
                self.cut_off(mover, move, depth, height)
                break
        self.table[key] = _Entry(depth, best_value, _bound(best_value, alpha, beta), best_move)
        return best_value

    def ordered(self, state: GameState[Any], first: Any, height: int) -> list[Any]:
        """The decisions, the table's best first, then the killers, then by history."""
        moves = state.legal_moves()
        history = self.history
        mover = state.to_move
        if history:
            moves.sort(key=lambda move: -history.get((mover, move), 0))
        front = [first] if first is not None else []
        front += [move for move in self.killers.get(height, ()) if move != first]
        for move in reversed(front):
            if move in moves:
                moves.remove(move)
                moves.insert(0, move)
        return moves

    def root_moves(self, state: GameState[Any]) -> list[Any]:
        """The root's decisions: the last iteration's order, the fresh places first."""
        if not self.root_order:
            moves = state.legal_moves()
            if self.avoid:
                moves = _new_places(state, moves, self.avoid)
            self.root_order = self.by_value(state, moves)
        return list(self.root_order)

    def by_value(self, state: GameState[Any], moves: list[Any]) -> list[Any]:
        """The decisions, best first by the value of the position each leads to (stable).

        When the time runs out on the way, the decisions not valued yet follow in their order.
        """
        values: dict[Any, int] = {}
        for move in moves:
            if self.budget.out_of_time():
                break
            child = state.copy()
            child.decide(move)
            known = self.known(child)
            if known is None:
                bound = WIN // 10  # as at the horizon
                known = max(-bound, min(bound, self.evaluate(child, self.seat)))
            values[move] = known
        return sorted(moves, key=lambda move: -values.get(move, -WIN * 2))

    def cut_off(self, mover: int, move: Any, depth: int, height: int) -> None:
        """Remember a decision that cut off the search here (history and killers)."""
        key = (mover, move)
        self.history[key] = self.history.get(key, 0) + depth * depth
        killers = self.killers.setdefault(height, [])
        if move not in killers:
            killers.insert(0, move)
            del killers[2:]

    def iterate(self, state: GameState[Any], depth: int) -> int:
        """One iteration of the deepening; the root's decisions are then reordered by value.

        Raises:
            OutOfBudgetError: the limit was reached before the iteration finished
                (:attr:`root_best` then holds its best root decision so far, if any).
        """
        self.root_best = None
        self.budget.nodes += 1
        values: dict[Any, int] = {}
        low = -WIN * 2
        for move in self.root_moves(state):
            # the time is read before each root decision too: below one, a turn of chained
            # decisions can take longer than the nodes between two readings in the tree
            if self.budget.out_of_time():
                raise OutOfBudgetError
            child = state.copy()
            child.decide(move)
            step = 0 if child.to_move == state.to_move else 1
            value = _toward_root(self.search(child, depth - step, _from_root(low), WIN * 2, 1))
            values[move] = value
            if value > low:
                low = value
                self.root_best = (move, value)
        self.root_order.sort(key=lambda move: -values[move])
        best, value = self.root_order[0], values[self.root_order[0]]
        self.table[state.digest()] = _Entry(depth, value, _EXACT, best)
        return value

    def line(self, state: GameState[Any], depth: int) -> tuple[Any, ...]:
        """The table's best decisions from ``state``, for ``depth`` turns at most."""
        moves: list[Any] = []
        seen: set[str] = set()
        state = state.copy()
        turns = 0
        while turns < depth and not state.is_over:
            key = state.digest()
            entry = self.table.get(key)
            if entry is None or key in seen:
                break
            seen.add(key)
            moves.append(entry.move)
            mover = state.to_move
            state.decide(entry.move)
            turns += state.to_move != mover
        return tuple(moves)


def _new_places(state: GameState[Any], moves: list[Any], avoid: frozenset[str]) -> list[Any]:
    """The decisions that lead to a position not in ``avoid``; all of them when none does."""
    fresh = []
    for move in moves:
        child = state.copy()
        child.decide(move)
        if child.digest() not in avoid:
            fresh.append(move)
    return fresh or moves


def _settles(entry: _Entry, alpha: int, beta: int) -> bool:
    """Whether a stored value answers a search with this window."""
    if entry.bound == _EXACT:
        return True
    if entry.bound == _LOWER:
        return entry.value >= beta
    return entry.value <= alpha


def _bound(value: int, alpha: int, beta: int) -> int:
    """What a node's value says: exact inside the window, a bound outside it."""
    if value <= alpha:
        return _UPPER
    if value >= beta:
        return _LOWER
    return _EXACT


def alphabeta(
    state: GameState[Any],
    limits: Limits,
    evaluate: Evaluate,
    *,
    exact: Exact | None = None,
    avoid: frozenset[str] = frozenset(),
) -> SearchResult:
    """Search ``state`` by iterative deepening within ``limits`` (see the module docstring).

    An iteration the limit cuts short still counts where it found a root decision better
    than the one it searched first (the last iteration's best): that decision is played. The
    first iteration (one turn deep) is cut short too (a turn of chained decisions can be
    long): its best root decision so far is played, or the first listed when none finished
    (the result's depth is then 0).
    ``avoid``: digests of positions the game has reached; a root decision that leads back to
    one is not searched while another leads elsewhere (the rules have no repetition rule, and
    play that returns to a position can go round for ever, as greedy play avoids too).

    Raises:
        ValueError: the game is over.
    """
    if state.is_over:
        raise ValueError("the game is over: there is nothing to search")
    budget = Budget(limits)
    searcher = _Searcher(state.to_move, evaluate, exact, budget)
    searcher.avoid = avoid
    value, finished = 0, 0
    top = limits.depth or 10_000
    for depth in range(1, top + 1):
        try:
            value = searcher.iterate(state, depth)
        except OutOfBudgetError:
            partial = searcher.root_best
            if partial is not None and (finished == 0 or partial[0] != searcher.root_order[0]):
                searcher.root_order.remove(partial[0])
                searcher.root_order.insert(0, partial[0])
                value = partial[1]
            break
        finished = depth
        if is_proven(value) or budget.spent():
            break
    move = searcher.root_order[0]
    proven = None
    if is_proven(value):
        steps = distance(value)
        proven = steps if value > 0 else -steps
    seats = state.seats
    win: tuple[float, ...] = ()
    margin: tuple[float, ...] = ()
    lead = _lead_of(value)
    if seats == 2:
        points = lead / CENTS
        margin = tuple(points if seat == state.to_move else -points for seat in (1, 2))
        if proven is not None:
            won = 1.0 if proven > 0 else 0.0
            win = tuple(won if seat == state.to_move else 1.0 - won for seat in (1, 2))
    line = searcher.line(state, finished)
    pv = line if line and line[0] == move else (move,)
    return deepening_result(
        state,
        pv,
        budget,
        score=lead,
        depth=finished,
        win=win,
        margin=margin,
        proven=proven,
    )


def _lead_of(value: int) -> int:
    """The root seat's lead in hundredths a value says (a proven value's; else the evaluation)."""
    if value > WIN // 2:
        return value - WIN + distance(value) * PLY
    if value < -WIN // 2:
        return value + WIN - distance(value) * PLY
    return value
