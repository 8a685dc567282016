"""Oust's registry entry: syntax, engine, citations, annotation and search values, board model.

The board model (docs/rules/oust.md §2.1): pointy-top hexagons at the axial coordinates,
row 1 at the bottom, ``(u, v+1)`` up-right and ``(u−1, v+1)`` up-left; stones are marked
``X`` and ``O`` as the rules draw them.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any, Final

from gamerec.recorder.errors import EncodingError
from gamerec.recorder.foreign.steps import LudiiStep, register_steps
from gamerec.recorder.syntax.oust import SYNTAX
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.games import oust
from gamerec.validator.games.protocol import GameState, IllegalMoveError, VariantError
from gamerec.validator.games.registry import (
    Annotation,
    Citation,
    GameEntry,
    Who,
    Wording,
    lead,
)

if TYPE_CHECKING:  # the board model is needed for pictures only: loaded there
    from gamerec.validator.render.model import (
        BoardModel,
    )

#: The widest row of the board, from the first hexagon's left edge to the last one's right,
#: unless the cells would then be smaller than ``MIN_CELL_RADIUS`` (boards of side 7 and more
#: grow instead, so that a cell's name stays readable beside its stone).
OUST_WIDTH: Final = 600.0
MIN_CELL_RADIUS: Final = 30.0
#: Seat 1's and seat 2's stones, as docs/rules/oust.md draws them.
MARKS: Final = ("X", "O")
#: What a win is worth in the annotator's search, above any count of stones.
WIN: Final = 1000


def board_model(variant: oust.OustVariant) -> BoardModel:
    """Pointy-top hexagons at the axial coordinates of docs/rules/oust.md §2.1, row 1 at bottom."""
    from gamerec.validator.render.model import (  # noqa: PLC0415 (pictures only)
        BoardModel,
        Polygon,
        SiteModel,
        TextLayout,
        at_angle,
    )

    side = variant.side
    board = oust.hex_board(side)
    radius = max(OUST_WIDTH / ((2 * side - 1) * math.sqrt(3)), MIN_CELL_RADIUS)
    sites = []
    for code in board.cells:
        v, u = divmod(code, oust.ROW_BITS)
        q, r = u - (side - 1), v - (side - 1)
        centre = (radius * math.sqrt(3) * (q + r / 2), -radius * 1.5 * r)
        corners = tuple(at_angle(radius, 60.0 * k) for k in range(6))
        sites.append(
            SiteModel(
                name=oust.cell_name(code),
                shape=Polygon(tuple((centre[0] + x, centre[1] + y) for x, y in corners)),
                # The stone in the upper part of the cell, the cell's name below it.
                anchor=(centre[0], centre[1] - radius * 0.2),
                size=radius * 0.4,
                label_at=(centre[0], centre[1] + radius * 0.45),
                row=2 * side - 2 - v,
                column=2 * u + v - (side - 1),
            )
        )
    half_width = radius * math.sqrt(3) * (2 * side - 1) / 2
    half_height = radius * (1.5 * (side - 1) + 1)
    layout = TextLayout(
        row_labels=tuple(str(number) for number in range(2 * side - 1, 0, -1)),
        column_labels=(),
        cell_width=4,
        gap=1,
        edge_labels=letter_labels(side),
    )
    return BoardModel(
        game=SYNTAX.name,
        kind="cell",
        seats=variant.players,
        sites=tuple(sites),
        bounds=(-half_width, -half_height, half_width, half_height),
        text=layout,
        label_size=min(max(radius * 0.4, 11.0), 16.0),
        marks=MARKS,
    )


def letter_labels(side: int) -> tuple[tuple[int, int, str], ...]:
    """Each letter in the text grid one cell up-right of its diagonal's top cell.

    A letter's cells run up-right (docs/rules/oust.md §2.1), so its label goes where the
    diagonal would go on past the board: over the top row for ``a``.., at the right end of
    the upper rows for the letters after. Row and column as the sites' (``board_model``).
    """
    labels = []
    for u in range(2 * side - 1):
        v = min(3 * side - 3 - u, 2 * side - 2) + 1
        labels.append((2 * side - 2 - v, 2 * u + v - (side - 1), chr(ord("a") + u)))
    return tuple(labels)


def stones_lead(state: GameState[Any], seat: int) -> int:
    """Oust's annotation value: a win first (its score says only who has won), then stones."""
    assert isinstance(state, oust.OustState)
    stones = [len(state.stones(other)) for other in range(1, state.seats + 1)]
    return WIN * lead(state.scores(), seat) + lead(stones, seat)


#: The search evaluation's weights, in hundredths of a stone: a stone on the board, a stone
#: that the seat to move can remove with one placement now (its best capture), and a safe cell
#: (an empty cell touching none of the seat's stones: a placement that risks nothing).
STONE: Final = 100
THREAT: Final = 90
SAFE: Final = 5


def stone_race(state: GameState[Any], seat: int) -> int:
    """Oust's search evaluation: the lead in stones, the mover's next capture, safe cells.

    In hundredths of a stone, for ``seat``: :data:`STONE` a stone it has more than the other
    seat; :data:`THREAT` an enemy stone the best capture of the seat to move would remove
    (for ``seat`` when it moves, against it otherwise: a position at the search's horizon is
    one where a turn is about to start, and the mover takes first); :data:`SAFE` a safe cell
    it has more (docs/analysis.md says what each is worth in games).
    """
    assert isinstance(state, oust.OustState)
    other = 3 - seat
    value = STONE * (len(state.stones(seat)) - len(state.stones(other)))
    value += SAFE * (state.safe(seat) - state.safe(other))
    mover = state.to_move
    if mover:
        threat = THREAT * state.best_capture(mover)
        value += threat if mover == seat else -threat
    return value


_SPECIALS: Final[dict[str, oust.Move]] = {
    "pass": oust.PASS,
    "swap": oust.SWAP,
    "resign": oust.RESIGN,
}


def move_of(move: pb.Move) -> oust.Move | None:
    """The engine move of a record move (see ``GameEntry.move_of``)."""
    action = move.WhichOneof("action")
    if action != "oust":
        return _SPECIALS.get(action or "")
    codes = []
    for cell in move.oust.placements:
        if not 1 <= cell.column <= 26:
            return None
        codes.append(oust.ROW_BITS * (cell.row - 1) + cell.column - 1)
    return tuple(codes) if codes else None


def ludii_steps(record: pb.GameRecord) -> list[LudiiStep]:
    """A record's main line as Ludii's Oust plays it (Oust.lud), one Ludii move a placement.

    A capturing placement removes the captured groups and gives the mover another move
    (``moveAgain``); when a capture leaves the mover no placement, Ludii's mover passes
    (Ludii adds a pass when a player has no legal move), which ends the turn. A last
    ``resign`` has no Ludii move and is left out.

    Raises:
        EncodingError: an impossible variant, a ply the rules refuse (Ludii replays a
            trial's effects as written, so only a legal game has them), or a ``swap``
            (Ludii's Oust has no pie rule).
    """
    try:
        state = ENGINE.new_game(ENTRY.variant_of(record.rules))
    except VariantError as error:
        raise EncodingError(f"the record's variant: {error}") from None
    steps: list[LudiiStep] = []
    for number, move in enumerate(record.moves, start=1):
        played = move_of(move)
        if played == oust.RESIGN and number == len(record.moves):
            break
        if played is None or played in (oust.SWAP, oust.RESIGN):
            raise EncodingError(f"ply {number}: {move.WhichOneof('action')} has no Ludii move")
        seat = state.to_move
        try:
            events = state.play(played)
        except IllegalMoveError as error:
            raise EncodingError(
                f"ply {number}: {error}; a Ludii trial holds each move's effects, so only a "
                "legal game is written"
            ) from None
        if played == oust.PASS:
            steps.append(LudiiStep(seat, None))
            continue
        captures = [event.where for event in events if event.kind == "capture"]
        for index, code in enumerate(played):
            removed = captures[index] if index < len(captures) else ()
            steps.append(LudiiStep(seat, oust.cell_name(code), removed, bool(removed)))
        if any(event.kind == "turn-ended" for event in events):
            steps.append(LudiiStep(seat, None))
    return steps


def rules_end(state: GameState[Any], who: Who) -> str:
    """Why Oust's rules ended the game (§6.1, §6.2)."""
    assert isinstance(state, oust.OustState)
    winners = state.winners()
    if state.end_reason == "capture" and winners:
        return f"{who(winners[0])} captured the last stone of {who(3 - winners[0])}"
    return "neither seat had a legal placement left (both seats blocked)"


ENGINE: Final = oust.ENGINE


#: Oust in the registry. A ply is clearly worse when it loses two enemy stones.
ENTRY: Final = GameEntry(
    syntax=SYNTAX,
    engine=ENGINE,
    citation=Citation(oust.RULES, end="§6.1-6.2", score="§6.1", ranking="§6.1", terminations="§7"),
    annotation=Annotation(value=stones_lead, threshold=2),
    board_model=board_model,
    move_of=move_of,
    wording=Wording(
        rules_end=rules_end,
        scores="",
        specials={
            "swap": "the pie rule: seat 2 takes the stone of ply 1 as its own, and seat 1 "
            "places next",
        },
        moves="a cell (g7); a turn that captures goes on: its placements joined by , "
        "(e5,f5,k9) or typed one at a time",
    ),
    evaluation=stone_race,
)
register_steps(SYNTAX.game, ludii_steps)
