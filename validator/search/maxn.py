"""Max-n search for 3-6 seats: every seat maximises its own value (Luckhardt and Irani).

A position is worth a vector, one value per seat; the seat to move picks the child whose
vector is best for itself (the first such, in the engine's order of decisions). A finished
game is worth :data:`~.alphabeta.WIN` to a sole winner, 0 to seats sharing first place,
``-WIN`` to the others, each plus its lead; a position at the depth limit is worth each
seat's :data:`~.core.Evaluate`. Max-n prunes nothing (shallow pruning needs a bounded sum of
values, which leads are not), so it reaches about half the depth of paranoid search in the
same time; it is offered where that depth suffices (few decisions, short games).
Iterative deepening until a limit; the answer is the last finished iteration's.
"""

from __future__ import annotations

from typing import Any, Final

from gamerec.validator.games.protocol import GameState
from gamerec.validator.search.alphabeta import CENTS, MAX_LEAD, WIN
from gamerec.validator.search.core import (
    Budget,
    Evaluate,
    Limits,
    OutOfBudgetError,
    SearchResult,
    deepening_result,
    leads,
)

#: How often (in nodes) the clock is read.
_CLOCK_EVERY: Final = 256


def _finished(state: GameState[Any]) -> tuple[int, ...]:
    winners = state.winners()
    values = []
    for seat, full in enumerate(leads(state.scores()), start=1):
        lead = CENTS * max(-MAX_LEAD, min(MAX_LEAD, full))
        if seat in winners:
            values.append((WIN if len(winners) == 1 else 0) + lead)
        else:
            values.append((-WIN if winners else 0) + lead)
    return tuple(values)


def _search(
    state: GameState[Any], depth: int, evaluate: Evaluate, budget: Budget
) -> tuple[tuple[int, ...], tuple[Any, ...]]:
    budget.nodes += 1
    if budget.nodes % _CLOCK_EVERY == 0 and budget.spent():
        raise OutOfBudgetError
    if state.is_over:
        budget.playouts += 1
        return _finished(state), ()
    if depth == 0:
        budget.playouts += 1
        bound = WIN // 10
        return tuple(
            max(-bound, min(bound, evaluate(state, seat))) for seat in range(1, state.seats + 1)
        ), ()
    mover = state.to_move - 1
    best: tuple[tuple[int, ...], tuple[Any, ...]] | None = None
    for move in state.legal_moves():
        child = state.copy()
        child.decide(move)
        values, line = _search(child, depth - 1, evaluate, budget)
        if best is None or values[mover] > best[0][mover]:
            best = values, (move, *line)
    assert best is not None
    return best


def maxn(state: GameState[Any], limits: Limits, evaluate: Evaluate) -> SearchResult:
    """Search ``state`` by max-n within ``limits``; at least one decision deep.

    Raises:
        ValueError: the game is over.
    """
    if state.is_over:
        raise ValueError("the game is over: there is nothing to search")
    budget = Budget(limits)
    values: tuple[int, ...] = ()
    line: tuple[Any, ...] = ()
    finished = 0
    for depth in range(1, (limits.depth or 10_000) + 1):
        try:
            values, line = _search(state, depth, evaluate, budget)
        except OutOfBudgetError:
            if finished == 0:  # pragma: no cover - the first iteration is tiny
                raise
            break
        finished = depth
        if budget.spent() or all(abs(value) > WIN // 2 for value in values):
            break
    mover = state.to_move
    return deepening_result(state, line, budget, score=_lead(values[mover - 1]), depth=finished)


def _lead(value: int) -> int:
    """The lead in hundredths a value says: a finished game's lead, else the evaluation."""
    if value > WIN // 2:
        return value - WIN
    if value < -WIN // 2:
        return value + WIN
    return value
