"""One picture's contents: a position on its board, the last ply's marks, and the captions.

Positions come from the explaining replay (:func:`~gamerec.validator.frames.steps`), so a
picture shows exactly the engine's :class:`~gamerec.validator.games.protocol.Position` after a
ply.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.frames import Step, steps
from gamerec.validator.games.protocol import GameEvent, Position
from gamerec.validator.identity import RulesIdentity, identify
from gamerec.validator.render.model import BoardModel, board_model

#: Events whose places the ply took from someone: removed stones, taken pits, possessions.
TAKING_EVENTS = frozenset({"capture", "possession-inside", "possession-outside"})


@dataclass(frozen=True, slots=True)
class Scene:
    """Everything one picture shows.

    Attributes:
        model: the board.
        position: the position drawn.
        scores: every seat's score in the position (rules' definition).
        ply: the ply the position follows (0: the start position).
        plies: how many plies the record has (0 when unknown).
        seat: the seat that made the ply (0 for the start position).
        token: the ply as written (``""`` for the start position).
        placed: the places the ply names (placements, jump start and landings, the pit sown).
        taken: the places the ply captured or took possession of.
        seat_names: the players' names in seat order (may be shorter than the seats).
        finished: the game ended by its rules at this position.
        winners: the winning seats by the rules (``GameState.winners``), once finished.
    """

    model: BoardModel
    position: Position
    scores: tuple[int, ...]
    ply: int = 0
    plies: int = 0
    seat: int = 0
    token: str = ""
    placed: tuple[str, ...] = ()
    taken: tuple[str, ...] = ()
    seat_names: tuple[str, ...] = ()
    finished: bool = False
    winners: tuple[int, ...] = ()

    @property
    def result(self) -> str:
        """The rules' result of a finished game (``seat 2 wins 14-11``, ``draw 24-24``), or ``""``.

        Every seat ranked first is a draw; some of them share first place; none (Oust's both
        seats blocked) is no winner.
        """
        if not self.finished:
            return ""
        scores = "-".join(str(score) for score in self.scores)
        winners = sorted(self.winners)
        if not winners:
            verdict = "no seat wins"
        elif len(winners) == 1:
            verdict = f"seat {winners[0]} wins"
        elif len(winners) == self.model.seats:
            verdict = "draw"
        else:
            verdict = f"seats {','.join(map(str, winners))} share first place"
        return f"{verdict} {scores}".rstrip()

    @property
    def title(self) -> str:
        """``ONE · after ply 12 of 60, seat 3 b6 · game over``."""
        if self.ply:
            total = f" of {self.plies}" if self.plies else ""
            where = f"after ply {self.ply}{total}, seat {self.seat} {self.token}"
        else:
            where = "start position"
        to_move = self.position.to_move
        status = f"seat {to_move} to move" if to_move else "game over"
        return f"{self.model.game} · {where} · {status}"


def move_places(token: str) -> tuple[str, ...]:
    """The places a move token names: ``c7xc9`` -> c7, c9; ``o1,o3``; ``4ccw`` -> 4.

    Special moves (``pass``, ``resign``, ``swap``) name no place.
    """
    if token in ("pass", "resign", "swap"):
        return ()
    parts = token.replace("x", ",").split(",")
    return tuple(
        part.removesuffix("cw").removesuffix("c") if part[:1].isdigit() else part
        for part in parts
        if part
    )


def taken_places(events: tuple[GameEvent, ...]) -> tuple[str, ...]:
    """The places a ply's events captured or took possession of, in event order."""
    return tuple(place for event in events if event.kind in TAKING_EVENTS for place in event.where)


def step_places(step: Step) -> tuple[str, ...]:
    """The places to highlight after a step: those its move names, or a swapped stone."""
    swapped = tuple(place for event in step.events if event.kind == "swap" for place in event.where)
    return move_places(step.token) + swapped


def scene_of(
    step: Step, model: BoardModel, *, plies: int = 0, seat_names: tuple[str, ...] = ()
) -> Scene:
    """The scene after one replay step."""
    return Scene(
        model=model,
        position=step.state.position(),
        scores=tuple(step.state.scores()),
        ply=step.ply,
        plies=plies,
        seat=step.seat,
        token=step.token,
        placed=step_places(step),
        taken=taken_places(step.events),
        seat_names=seat_names,
        finished=step.state.is_over,
        winners=tuple(step.state.winners()) if step.state.is_over else (),
    )


def scenes(record: pb.GameRecord, identity: RulesIdentity | None = None) -> Iterator[Scene]:
    """The scene of the start position and after every legal ply of ``record``.

    Raises:
        RulesError: the record's game or variant cannot be judged.
        ReplayStoppedError: after the last legal scene, at the first illegal ply.
    """
    identity = identity or identify(record)
    model = board_model(identity.name, identity.variant)
    names = tuple(seat.name for seat in record.seats)
    for step in steps(record, identity, include_start=True):
        yield scene_of(step, model, plies=len(record.moves), seat_names=names)


def scene_at(
    record: pb.GameRecord, ply: int | None = None, identity: RulesIdentity | None = None
) -> Scene:
    """The scene after ply ``ply`` of ``record`` (None: the last ply; 0: the start position).

    Raises:
        RulesError: the record's game or variant cannot be judged.
        ReplayStoppedError: a ply at or before ``ply`` is illegal.
        NoSuchPlyError: the record has fewer plies than ``ply``.
    """
    last: Scene | None = None
    for scene in scenes(record, identity):
        last = scene
        if ply is not None and scene.ply == ply:
            return scene
    assert last is not None  # the start position is always there
    if ply is not None:
        raise NoSuchPlyError(f"the record has {last.ply} plies; there is no ply {ply}")
    return last


class NoSuchPlyError(GamerecError):
    """A ply was asked for that the record does not have."""
