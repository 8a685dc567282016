"""A record analysed ply by ply (``gamerec analyse``), in the spirit of KataGo's analysis.

Before every main-line ply, and after the last one, the position is searched by MCTS, and
the analysis says, from the search's point of view: each seat's chance of winning (the mean
of its playouts' rewards, a shared first place counting as a share), each seat's expected
final lead in score points over the best other seat, the best decision and line, the effort
(visits, the deepest node) and where the value comes from: ``exact`` (endgame tables, or a
game already over: then the rules' result, with no search), or ``searched``.

What the numbers are not: a chance of winning is the search's estimate under its own play
from here (random playouts below a shallow tree), not a probability about the players; two
runs with the same seed and a playout limit give the same numbers, a time limit does not.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from gamerec.recorder.arguments import require_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.analysis.searcher import SearchSettings, search, whole_plies
from gamerec.validator.frames import ReplayStoppedError, steps
from gamerec.validator.games.protocol import GameState
from gamerec.validator.identity import RulesIdentity, identify
from gamerec.validator.search.core import leads, rewards

#: Where a value comes from.
EXACT, SEARCHED = "exact", "searched"


@dataclass(frozen=True, slots=True)
class PositionAnalysis:
    """The analysis of the position before one ply.

    Attributes:
        ply: the ply about to be played (1-based); ``plies + 1`` after the last one.
        to_move: the seat to move (0 when the game is over).
        played: the ply's token as the record has it (``""`` after the last ply).
        win: each seat's chance of winning, in seat order.
        margin: each seat's expected final lead in score points over the best other seat.
        best: the best ply's token (``""`` when the game is over).
        line: the best line, as whole plies' tokens (see ``searcher.whole_plies``).
        visits: the search's root visits (playouts).
        depth: the deepest tree node the search reached.
        value: ``exact`` or ``searched``.
        seconds: the time the search took (not compared, not in the JSON: it varies).
    """

    ply: int
    to_move: int
    played: str
    win: tuple[float, ...]
    margin: tuple[float, ...]
    best: str
    line: tuple[str, ...]
    visits: int
    depth: int
    value: str
    seconds: float = field(default=0.0, compare=False)

    def json(self) -> dict[str, Any]:
        """The analysis as a JSON object (win chances to 4 places, margins to 2)."""
        return {
            "ply": self.ply,
            "toMove": self.to_move,
            "played": self.played,
            "win": [round(value, 4) for value in self.win],
            "margin": [round(value, 2) for value in self.margin],
            "best": self.best,
            "line": list(self.line),
            "visits": self.visits,
            "depth": self.depth,
            "value": self.value,
        }


@dataclass(frozen=True, slots=True)
class RecordAnalysis:
    """Every position of a record analysed, and where the replay stopped, if it did.

    Attributes:
        positions: one analysis per ply (the position before it), then the last position's.
        stopped: the finding about the first ply that could not be played, or None.
    """

    positions: tuple[PositionAnalysis, ...]
    stopped: vpb.Finding | None


def analyse_position(
    identity: RulesIdentity,
    state: GameState[Any],
    settings: SearchSettings,
    *,
    ply: int = 0,
    played: str = "",
) -> PositionAnalysis:
    """Search one position by MCTS (``settings.algorithm`` is not consulted); see the module."""
    if state.is_over:
        return PositionAnalysis(
            ply,
            0,
            played,
            rewards(state),
            tuple(map(float, leads(state.scores()))),
            "",
            (),
            0,
            0,
            EXACT,
        )
    entry = identity.entry
    chosen = dataclasses.replace(settings, algorithm="mcts", seed=f"{settings.seed}:{ply}")
    found = search(entry, identity.variant, state, chosen)
    line = tuple(token for _, token in whole_plies(entry, identity.variant, state, found.pv))
    return PositionAnalysis(
        ply=ply,
        to_move=state.to_move,
        played=played,
        win=found.win,
        margin=found.margin,
        best=line[0],
        line=line,
        visits=found.visits,
        depth=found.depth,
        value=EXACT if found.exact else SEARCHED,
        seconds=found.seconds,
    )


def analyse_record(record: pb.GameRecord, settings: SearchSettings) -> RecordAnalysis:
    """Analyse every main-line position of ``record`` (see the module docstring).

    Raises:
        RulesError: the record's game or variant cannot be judged.
    """
    positions: list[PositionAnalysis] = []
    stopped = None
    try:
        for analysis in each_position(record, settings):
            positions.append(analysis)
    except ReplayStoppedError as error:
        stopped = error.finding
    return RecordAnalysis(tuple(positions), stopped)


def each_position(record: pb.GameRecord, settings: SearchSettings) -> Iterator[PositionAnalysis]:
    """The analyses of :func:`analyse_record`, one at a time, as they are made.

    Raises:
        RulesError: the record's game or variant cannot be judged.
        ReplayStoppedError: after the last legal ply's analysis, at an illegal ply.
    """
    require_record(record, "analyse")
    identity = identify(record)
    before: GameState[Any] = identity.engine.new_game(identity.variant)
    plies = 0
    for step in steps(record, identity):
        yield analyse_position(identity, before, settings, ply=step.ply, played=step.token)
        before, plies = step.state, step.ply
    yield analyse_position(identity, before, settings, ply=plies + 1)
