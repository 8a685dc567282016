"""How a position is searched: settings, each game's evaluation, and the algorithm chosen.

The evaluation at a search's horizon is the game's registry entry's ``evaluation`` where it
has one, else its annotation value (the mover's lead in what the rules count, or what stands
for it: Oh-Wah-Ree's store); exact endgame answers come from
:func:`exact_for` where tables cover a position. ``auto`` picks the algorithm by seat
count, as the strength measurements in docs/analysis.md found best at short time limits.
"""

from __future__ import annotations

from collections.abc import Sequence
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Final

from gamerec.validator.games.protocol import GameState
from gamerec.validator.games.registry import GameEntry
from gamerec.validator.search.alphabeta import CENTS, alphabeta
from gamerec.validator.search.core import Evaluate, Exact, Limits, SearchResult
from gamerec.validator.search.maxn import maxn
from gamerec.validator.search.mcts import mcts
from gamerec.validator.tables import default_table

#: The algorithms a search may use (``auto``: chosen by seat count).
ALGORITHMS: Final = ("auto", "mcts", "alphabeta", "maxn")
#: ``auto``'s choice: two seats, and three or more.
AUTO_TWO_SEATS: Final = "alphabeta"
AUTO_MORE_SEATS: Final = "alphabeta"


@dataclass(frozen=True, slots=True)
class SearchSettings:
    """How to search a position.

    Attributes:
        limits: when to stop.
        algorithm: one of :data:`ALGORITHMS`; ``alphabeta`` with more than two seats is
            paranoid search.
        workers: MCTS searches run side by side in processes (root parallel); needs an
            executor.
        seed: the seed of the search's random choices.
    """

    limits: Limits
    algorithm: str = "auto"
    workers: int = 1
    seed: int | str = 1

    def __post_init__(self) -> None:
        """Check the algorithm's name.

        Raises:
            ValueError: an unknown algorithm.
        """
        if self.algorithm not in ALGORITHMS:
            choices = ", ".join(ALGORITHMS)
            raise ValueError(
                f"unknown search algorithm {self.algorithm!r}; choose one of {choices}"
            )

    def chosen(self, seats: int) -> str:
        """The algorithm used for a game of ``seats`` seats."""
        if self.algorithm != "auto":
            return self.algorithm
        return AUTO_TWO_SEATS if seats == 2 else AUTO_MORE_SEATS


def exact_for(entry: GameEntry, variant: Any) -> Exact | None:
    """The exact endgame answers of the default tables (docs/tables.md), or None without them.

    The tables answer a position they cover (and None for any other game's, or a position
    whose perfect play never ends) with what is still to be won for the side to move; the
    answer here is the final score margin, seat 1's minus seat 2's: that plus the stores
    already held (``Position.captured``).

    Raises:
        TableError: the default table file is there but damaged or foreign.
    """
    table = default_table()
    if table is None:
        return None

    def final_margin(state: GameState[Any]) -> int | None:
        ahead = table.lookup(state)
        if ahead is None:
            return None
        stores = state.position().captured
        mover = state.to_move
        lead = ahead + stores[mover - 1] - stores[2 - mover]
        return lead if mover == 1 else -lead

    return final_margin


def evaluation_of(entry: GameEntry) -> Evaluate:
    """The game's evaluation at a search's horizon, in hundredths of a score point.

    The registry entry's own ``evaluation`` where it has one, else its annotation value (the
    mover's lead in what the rules count) in hundredths.
    """
    if entry.evaluation is not None:
        return entry.evaluation
    value = entry.annotation.value

    def hundredths(state: GameState[Any], seat: int) -> int:
        return CENTS * value(state, seat)

    return hundredths


def search(
    entry: GameEntry,
    variant: Any,
    state: GameState[Any],
    settings: SearchSettings,
    *,
    executor: Executor | None = None,
    exact: Exact | None = None,
    avoid: frozenset[str] = frozenset(),
) -> SearchResult:
    """Search ``state`` (not changed) by ``settings``; the game must not be over.

    ``exact`` defaults to :func:`exact_for` the game and variant. ``avoid``: positions the
    game has reached, which alpha-beta's root decisions do not return to while they can.

    Raises:
        ValueError: the game is over.
    """
    known = exact if exact is not None else exact_for(entry, variant)
    algorithm = settings.chosen(state.seats)
    evaluate = evaluation_of(entry)
    if algorithm == "alphabeta":
        return alphabeta(state, settings.limits, evaluate, exact=known, avoid=avoid)
    if algorithm == "maxn" and state.seats > 2:
        return maxn(state, settings.limits, evaluate)
    workers = settings.workers if executor is not None else 1
    return mcts(
        state, settings.limits, seed=settings.seed, exact=known, workers=workers, executor=executor
    )


def whole_plies(
    entry: GameEntry, variant: Any, state: GameState[Any], decisions: Sequence[Any]
) -> tuple[tuple[int, str], ...]:
    """A line of decisions as whole plies from ``state``: each ply's seat and token.

    A decision is a whole ply in every game but Oust, whose turn chains placements; the
    turn's decisions make one ply here. A turn the line leaves unfinished ends the line,
    except the first, which is finished with the first listed decision at each step.
    """
    engine = entry.engine
    now = state.copy()
    queue = list(decisions)
    plies: list[tuple[int, str]] = []
    while queue and not now.is_over:
        seat = now.to_move
        trial = now.copy()
        follower = _Follower(queue)
        move = engine.play_chosen(trial, follower.choose)
        if follower.strayed and plies:
            break
        plies.append((seat, engine.format_move(variant, move)))
        now = trial
        del queue[: follower.taken]
        if follower.strayed:
            break
    return tuple(plies)


class _Follower:
    """A chooser that follows a line of decisions, and the first listed one past its end."""

    def __init__(self, line: list[Any]) -> None:
        self.line = line
        self.taken = 0
        self.strayed = False

    def choose(self, _: GameState[Any], options: list[Any]) -> Any:
        if self.taken < len(self.line) and self.line[self.taken] in options:
            self.taken += 1
            return self.line[self.taken - 1]
        self.strayed = True
        return options[0]
