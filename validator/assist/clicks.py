"""What the clicks of a turn allow next, from the engine's legal decisions.

A ply's notation.md token names places in order (``c7xc9``: c7 then c9; ``o1,o3``; ``4cw``:
pit 4), and :func:`~gamerec.validator.render.scene.move_places` reads them; a page that plays
by clicking sends the places clicked so far. They are matched against the places of the
legal decisions, decision by decision (Oust chains placements, each one decision; the other
games make a whole ply in one decision), so that the answer holds for every game with no
per-game branch: the sites a next click may name, and the whole plies the clicks already
make. A turn is complete when deciding ends it (the engine's ply count moves on, or the
game ends), as the live match's ``GetMatch`` with ``decided`` says.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from gamerec.recorder.errors import GamerecError
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.games.protocol import GameState, MoveSyntaxError
from gamerec.validator.identity import RulesIdentity, identify
from gamerec.validator.render.model import board_model
from gamerec.validator.render.scene import Scene, move_places, scene_of
from gamerec.validator.replay import Step, walk

#: The most clicks one request may carry (the longest Oust turn on the largest board is far
#: shorter).
MAX_CLICKS: Final = 256
#: Finding codes of the answer's ``refused``.
NO_SUCH_CLICK: Final = "NO_LEGAL_CLICK"


class ClicksError(GamerecError):
    """The request cannot be answered: too many clicks, or a record that cannot be replayed.

    Attributes:
        field: the request's field at fault (``clicks``, ``record``).
    """

    def __init__(self, field_name: str, message: str) -> None:
        """Say the field and why."""
        super().__init__(message)
        self.field = field_name


@dataclass(slots=True)
class Clicks:
    """What a partial turn allows.

    Attributes:
        scene: the position after the record's plies, to draw.
        state: the engine's state there (the caller must not change it).
        next_sites: the sites a next click may name, sorted.
        complete: the whole plies the clicks make as they stand (tokens), in the engine's
            order; several when a choice that is no site remains (Oh-Wah-Ree's direction).
        refused: why no legal ply starts with the clicks; None when one does.
    """

    scene: Scene
    state: GameState[Any]
    next_sites: list[str] = field(default_factory=list)
    complete: list[str] = field(default_factory=list)
    refused: vpb.Finding | None = None


def answer_clicks(record: pb.GameRecord, clicks: Sequence[str]) -> Clicks:
    """The board after ``record``'s plies and what ``clicks`` allow the seat to move next.

    Raises:
        ClicksError: more than :data:`MAX_CLICKS` clicks, or the record's rules cannot be
            judged or one of its plies is illegal (its finding's sentence).
    """
    if len(clicks) > MAX_CLICKS:
        raise ClicksError("clicks", f"{len(clicks)} clicks; at most {MAX_CLICKS} are read")
    try:
        identity = identify(record)
        last = _last_step(record, identity)
    except GamerecError as error:
        raise ClicksError("record", str(error)) from None
    model = board_model(identity.name, identity.variant)
    names = tuple(seat.name for seat in record.seats)
    state = last.state
    answer = Clicks(scene_of(last, model, plies=len(record.moves), seat_names=names), state)
    if state.is_over:
        return answer
    walker = _Walker(identity, state.ply)
    walker.walk(state, tuple(clicks), ())
    answer.next_sites = sorted(walker.next_sites)
    answer.complete = walker.complete
    if clicks and not walker.next_sites and not walker.complete:
        answer.refused = _refusal(identity, state, clicks, len(record.moves) + 1)
    return answer


def _last_step(record: pb.GameRecord, identity: RulesIdentity) -> Step:
    """The replay's step after the record's last ply (the start when it has none)."""
    journey = walk(
        record,
        identity,
        steps=True,
        start=max(len(record.moves) - 1, 0),
        include_start=not record.moves,
    )
    last: Step | None = None
    try:
        while True:
            last = next(journey)
    except StopIteration as stop:
        judgement = stop.value
    if judgement.stopped:
        error = next((f for f in judgement.findings if f.ply), None)
        if error is None and judgement.findings:
            error = judgement.findings[0]
        why = f"ply {error.ply}: {error.code}: {error.message}" if error else "it stops early"
        raise ClicksError("record", f"the record cannot be replayed to its end: {why}")
    if last is None:
        raise ClicksError("record", "the record cannot be replayed")
    return last


class _Walker:
    """Matches the clicks against the legal decisions, one decision after another."""

    def __init__(self, identity: RulesIdentity, start_ply: int) -> None:
        self.engine = identity.engine
        self.variant = identity.variant
        self.start_ply = start_ply
        self.next_sites: set[str] = set()
        self.complete: list[str] = []

    def walk(self, state: GameState[Any], rest: tuple[str, ...], made: tuple[str, ...]) -> None:
        """Follow every decision the clicks ``rest`` cover, after the decisions ``made``."""
        for decision in state.legal_moves():
            token = self.engine.format_move(self.variant, decision)
            places = move_places(token)
            if rest[: len(places)] == places:
                after = state.copy()
                after.decide(decision)
                remaining = rest[len(places) :]
                if after.ply != self.start_ply or after.is_over:
                    if not remaining:
                        self.complete.append(",".join((*made, token)))
                elif places or not rest:
                    self.walk(after, remaining, (*made, token))
            elif len(places) > len(rest) and places[: len(rest)] == rest:
                self.next_sites.add(places[len(rest)])


def _refusal(
    identity: RulesIdentity, state: GameState[Any], clicks: Sequence[str], ply: int
) -> vpb.Finding:
    """Why no legal ply starts with ``clicks``: the engine's reason when they read as a move."""
    text = ",".join(clicks)
    finding = vpb.Finding(ply=ply, seat=state.to_move, move=text, code=NO_SUCH_CLICK)
    try:
        illegal = state.check(identity.engine.parse_move(identity.variant, text))
    except MoveSyntaxError:
        illegal = None
    if illegal is not None:
        finding.code, finding.message = illegal.code, illegal.message
    else:
        finding.message = f"no legal move of seat {state.to_move} starts with {text}"
    return finding
