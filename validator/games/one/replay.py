"""ONE's fast replay, the validator's hot path: :func:`replay`.

Plays legal placements and captures inline on a :class:`OneState`'s own lists and hands
anything else to its ``check`` and ``play``. It may import the modules of ``one`` but
``engine``, and ``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import chain, repeat
from typing import Final

from gamerec.validator.games.one.board import EMPTY, NO_POINT
from gamerec.validator.games.one.notation import Move
from gamerec.validator.games.one.state import OneState
from gamerec.validator.games.one.variant import OneVariant
from gamerec.validator.games.protocol import ReplayOutcome

_FOREVER: Final = 1 << 62


def replay(
    variant: OneVariant, moves: Sequence[Move], seats: Sequence[int] | None = None
) -> ReplayOutcome:
    """Check and play ``moves`` from the start; stop at the first illegal one.

    Placements and captures that are legal are played inline on the state's own lists.
    Anything else (resign, an illegal or unusual ply) goes through :meth:`OneState.check`
    and :meth:`OneState.play`, so verdicts and codes are exactly theirs. ``seats[i]`` is the
    seat ply i+1 claims (0 = unstated); missing entries count as unstated.
    """
    state = OneState(variant)
    board = state._board
    cells, supplies, captured, following = (
        state._cells,
        state._supplies,
        state._captured,
        state._next,
    )
    jumped_between, opposite, span = board.jumped_between, board.opposite, board.span
    ban_plies = {"none": 0, "first": 1, "every": _FOREVER}[variant.mirror]
    to_move, ply, ending, banned, stones = 1, 0, False, NO_POINT, 0
    claims = repeat(0) if seats is None else chain(seats, repeat(0))
    for move, claim in zip(moves, claims, strict=False):  # claims never runs out
        seat = to_move
        if seat and (not claim or claim == seat):
            size = len(move)
            if size == 1:
                p = move[0]
                if 0 <= p < span and cells[p] == EMPTY and p != banned and supplies[seat]:
                    cells[p] = seat
                    left = supplies[seat] - 1
                    supplies[seat] = left
                    if not left:
                        ending = True
                    stones += 1
                    banned = opposite[p] if ply < ban_plies else NO_POINT
                    ply += 1
                    nxt = following[seat]
                    to_move = 0 if ending and nxt <= seat else nxt
                    continue
            elif size > 1:
                taken = _capture_inline(cells, jumped_between, move, seat, span)
                if taken:
                    captured[seat] += taken
                    stones -= taken
                    banned = NO_POINT
                    ply += 1
                    nxt = following[seat]
                    to_move = 0 if ending and nxt <= seat else nxt
                    continue
        state._to_move, state._ply, state._ending = to_move, ply, ending
        state._banned, state._stones, state._scored = banned, stones, None
        illegal = state.check(move, claim or None)
        if illegal is not None:
            return ReplayOutcome(state, ply, illegal)
        state.play(move)
        to_move, ply, ending = state._to_move, state._ply, state._ending
        banned, stones = state._banned, state._stones
    state._to_move, state._ply, state._ending = to_move, ply, ending
    state._banned, state._stones, state._scored = banned, stones, None
    return ReplayOutcome(state, ply, None)


def _capture_inline(
    cells: list[int],
    jumped_between: tuple[dict[int, int], ...],
    path: Move,
    seat: int,
    span: int,
) -> int:
    """Play the capture ``path`` on ``cells`` if it is legal; return the stones taken.

    Returns 0 with ``cells`` unchanged when any clause of §4.2 fails (a legal capture takes at
    least one stone), so that the caller can ask ``check`` for the reason.
    """
    start = path[0]
    if not (0 <= start < span and cells[start] == seat):
        return 0
    cells[start] = EMPTY
    here = start
    removed: list[int] = []  # jumped point, its owner, jumped point, its owner, ...
    for land in path[1:]:
        over = jumped_between[here].get(land)
        if over is None:
            break
        owner = cells[over]
        if owner <= 0 or owner == seat or cells[land]:
            break
        cells[over] = EMPTY
        removed.append(over)
        removed.append(owner)
        here = land
    else:
        cells[here] = seat
        return len(removed) >> 1
    for i in range(0, len(removed), 2):
        cells[removed[i]] = removed[i + 1]
    cells[start] = seat
    return 0
