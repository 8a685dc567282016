"""The ``search`` policy: a whole ply chosen by the search of ``validator.search``.

:func:`search_ply` plays one whole ply on a copy of the position (Oust: a chained turn's
later decisions follow the first decision's line, or are searched in turn where it gives
none, while the seat keeps the move) and answers its token and the search's ``info``. The
time a ply may take is the smaller of the settings' time and a share of what the clocks
allow (:func:`ply_seconds`), so a search engine never loses on time in a tournament; with a
limit of nodes or playouts and no time, the same seed gives the same ply.
"""

from __future__ import annotations

import dataclasses
import time
from concurrent.futures import Executor
from dataclasses import dataclass
from typing import Any, Final

from gamerec.validator.analysis.searcher import SearchSettings, search, whole_plies
from gamerec.validator.games.protocol import GameState
from gamerec.validator.games.registry import GameEntry
from gamerec.validator.players.clocks import ClockState
from gamerec.validator.players.search_info import Score, SearchInfo
from gamerec.validator.search.core import Limits, SearchResult

#: The share of a move time limit a ply uses (the rest covers the pipes and the process).
MOVE_TIME_SHARE: Final = 0.4
#: The share of the remaining clock a ply uses when only clocks are given.
CLOCK_SHARE: Final = 1 / 30
#: The share of a ply's time its first decision takes (Oust's later placements of a turn its
#: line does not give share the rest).
FIRST_DECISION_SHARE: Final = 0.9
#: The least a ply is given, in seconds (at least one search iteration runs anyway).
LEAST_SECONDS: Final = 0.02


@dataclass(frozen=True, slots=True)
class SearchedPly:
    """A ply the search chose.

    Attributes:
        token: the ply's move token.
        info: the search's ``info`` for the ply's first decision.
    """

    token: str
    info: SearchInfo


def ply_seconds(settings: SearchSettings, clock: ClockState, seat: int) -> float | None:
    """The seconds one ply may take: the settings' time, capped by the clocks' budget."""
    budget_ms = clock.budget_ms(seat)
    allowed = settings.limits.time
    if budget_ms is not None:
        if clock.move_limit_ms is not None and budget_ms == clock.move_limit_ms:
            share = budget_ms * MOVE_TIME_SHARE
        else:
            share = budget_ms * CLOCK_SHARE + clock.increment_ms * MOVE_TIME_SHARE
        clocked = max(LEAST_SECONDS, share / 1000)
        allowed = clocked if allowed is None else min(allowed, clocked)
    return allowed


def search_ply(
    entry: GameEntry,
    variant: Any,
    state: GameState[Any],
    settings: SearchSettings,
    *,
    seconds: float | None = None,
    executor: Executor | None = None,
    reached: frozenset[str] = frozenset(),
) -> SearchedPly:
    """Choose and describe one whole ply for the seat to move (``state`` is not changed).

    The first decision's search weighs the whole turn (alpha-beta counts turns), so Oust's
    later placements of a turn follow its line; a decision the line does not give is searched
    in half the time still left. ``reached``: the digests of the positions the game has
    reached, which the search does not return to while it can.
    """
    engine = entry.engine
    started = time.perf_counter()
    first: list[SearchResult] = []
    planned: list[Any] = []

    def choose(now: GameState[Any], options: list[Any]) -> Any:
        if planned and planned[0] in options:
            return planned.pop(0)
        planned.clear()
        if len(options) == 1:
            return options[0]
        limits = settings.limits
        if seconds is not None:
            left = seconds - (time.perf_counter() - started)
            share = left / 2 if first else left * FIRST_DECISION_SHARE
            limits = dataclasses.replace(limits, time=max(LEAST_SECONDS, share))
        found = search(
            entry,
            variant,
            now,
            dataclasses.replace(settings, limits=limits),
            executor=executor,
            avoid=reached,
        )
        if not first:
            first.append(found)
        planned.extend(found.pv[1:])
        return found.move

    after = state.copy()
    move = engine.play_chosen(after, choose)
    token = engine.format_move(variant, move)
    elapsed = round(1000 * (time.perf_counter() - started))
    if not first:
        return SearchedPly(token, SearchInfo(depth=0, nodes=0, time_ms=elapsed, pv=(token,)))
    found = first[0]
    line = [token for _, token in whole_plies(entry, variant, state, found.pv)]
    return SearchedPly(
        token,
        SearchInfo(
            score=score_of(found),
            depth=found.depth,
            nodes=found.nodes,
            time_ms=elapsed,
            pv=(token, *line[1:]),
        ),
    )


def score_of(found: SearchResult) -> Score:
    """The protocol's score of a search: a forced result, or the mover's expected lead."""
    if found.proven is not None and found.proven > 0:
        return Score("win", found.proven)
    if found.proven is not None:
        return Score("loss", -found.proven)
    return Score("value", found.score)


def settings_limits(time_s: float | None, playouts: int | None, nodes: int | None) -> Limits:
    """The limits of the engine's options; one second a ply when none is given."""
    if time_s is None and playouts is None and nodes is None:
        time_s = 1.0
    return Limits(time=time_s, playouts=playouts, nodes=nodes)
