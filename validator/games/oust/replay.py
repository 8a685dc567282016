"""Oust's fast replay, the validator's hot path: whole turns on flat bitboards.

The legal prefix runs in one tight loop; at the first ply it does not accept,
``OustState.check`` gives the verdict, so codes and messages are check's own.

May import: ``protocol``, ``oust.board``, ``oust.notation``, ``oust.variant``, ``oust.groups``,
``oust.state``.
"""

from __future__ import annotations

from collections.abc import Sequence

from gamerec.validator.games.oust.board import (
    hex_board,
)
from gamerec.validator.games.oust.groups import _Groups
from gamerec.validator.games.oust.notation import (
    PASS,
    RESIGN,
    SWAP,
    Move,
    Turn,
)
from gamerec.validator.games.oust.state import OustState
from gamerec.validator.games.oust.variant import OustVariant
from gamerec.validator.games.protocol import (
    Illegal,
    ReplayOutcome,
)

# ---------------------------------------------------------------------------------------------
# The fast replay
# ---------------------------------------------------------------------------------------------


def replay(
    variant: OustVariant, moves: Sequence[Move], seats: Sequence[int] | None = None
) -> ReplayOutcome:
    """Check and play whole turns from the start; stop at the first illegal one.

    The legal prefix runs in :func:`_accepted_prefix`, one tight loop over bitboards. At the
    first ply that loop does not accept, :meth:`OustState.check` gives the verdict on the state
    before it, so codes and messages are check's own.
    """
    stop = len(moves)
    if seats is not None:
        # Seats strictly alternate in Oust (swap and pass are plies too): ply k is seat 1 + k % 2.
        stop = next((k for k, seat in enumerate(seats[:stop]) if seat and seat != 1 + k % 2), stop)
    accepted, state = _accepted_prefix(variant, moves, stop)
    for index in range(accepted, len(moves)):
        claimed = seats[index] if seats is not None and index < len(seats) else 0
        illegal = state.check(moves[index], claimed or None)
        if illegal is not None:
            return _outcome(state, index, illegal)
        state.play(moves[index])
    return _outcome(state, len(moves), None)


def _outcome(state: OustState, plies: int, illegal: Illegal | None) -> ReplayOutcome:
    return ReplayOutcome(state, plies, illegal)


# How a ply other than the common one ended, for the fast replay.
_NEXT_SEAT, _WON, _RESIGNED, _SWAPPED = range(4)


class _PlyRefusedError(Exception):
    """The fast replay meets a ply it does not accept (check then says why)."""


def _accepted_prefix(
    variant: OustVariant, moves: Sequence[Move], stop: int
) -> tuple[int, OustState]:
    """Play ``moves[:stop]`` while every ply is legal, on flat bitboards.

    Seats strictly alternate in Oust (swap and pass are plies too), so ply ``k`` (from 0) is
    always seat ``1 + k % 2``'s and no seat is tracked here.

    Returns:
        ``(k, state)``: ``k`` plies were accepted and ``state`` is the position after them;
        when ``k < stop`` the fast loop does not accept ply ``k`` (it is illegal).
    """
    board = hex_board(variant.side)
    bit_of = board.bit.get
    neighbour_mask = board.neighbour_mask
    groups = _Groups(board)
    root, group = groups.root, groups.group
    mine = theirs = 0  # the stones of the seat to move, and of its opponent
    over = 0  # how the game ended (_WON or _RESIGNED); 0 while it goes on
    for k, move in enumerate(moves[:stop] if stop < len(moves) else moves):
        if over:
            return k, _replayed_state(variant, groups, mine, theirs, ply=k, over=over)
        if type(move) is tuple and len(move) == 1:
            (code,) = move
            bit = bit_of(code)
            if bit is not None and not (mine | theirs) & bit and not neighbour_mask[code] & mine:
                # The common ply: one non-capturing placement, which ends the turn (§4.2).
                root[code] = code
                group[code] = bit
                mine, theirs = theirs, mine | bit
                continue
        try:
            if type(move) is tuple:
                mine, theirs, ending = _replay_turn(groups, move, mine, theirs)
            else:
                swap_open = k == 1 and variant.pie
                mine, theirs, ending = _replay_special(groups, move, mine, theirs, swap_open)
        except _PlyRefusedError:
            # The bitboards are those before the turn, but its placements before the refused
            # one may have merged groups in the tables: find the groups again.
            groups = _Groups.of_stones(board, mine, theirs)
            return k, _replayed_state(variant, groups, mine, theirs, ply=k, over=0)
        if ending == _NEXT_SEAT:
            mine, theirs = theirs, mine
        elif ending != _SWAPPED:  # seat 1, to move after a swap, has no stone: mine stays 0
            over = ending
    return stop, _replayed_state(variant, groups, mine, theirs, ply=stop, over=over)


def _replay_turn(groups: _Groups, move: Turn, mine: int, theirs: int) -> tuple[int, int, int]:
    """Play the placements of one turn; return the new bitboards and how the turn ended.

    Raises:
        _PlyRefusedError: the turn is not legal.
    """
    bit_of = groups.board.bit.get
    neighbour_mask = groups.board.neighbour_mask
    last = len(move) - 1
    for index, code in enumerate(move):
        bit = bit_of(code)
        if bit is None or (mine | theirs) & bit:
            break
        own = neighbour_mask[code] & mine
        if not own:  # non-capturing: the turn ends here (§4.2)
            if index != last:
                break
            groups.found(code, bit)
            return mine | bit, theirs, _NEXT_SEAT
        removed = groups.capture(mine, theirs, code, own)
        if not removed:
            break
        mine |= bit
        theirs &= ~removed
        if not theirs:  # the winning capture ends the game at once (§6.1)
            if index != last:
                break
            return mine, theirs, _WON
        if index == last:
            if groups.can_place(mine, theirs):
                break  # a placement is left: the seat must place again
            return mine, theirs, _NEXT_SEAT
    raise _PlyRefusedError


def _replay_special(
    groups: _Groups, move: Move, mine: int, theirs: int, swap_open: bool
) -> tuple[int, int, int]:
    """Play ``pass``, ``swap`` (legal when ``swap_open``) or ``resign``; say how it ended.

    Raises:
        _PlyRefusedError: the ply is not legal.
    """
    if move == SWAP and swap_open:
        return mine, theirs, _SWAPPED
    can_move = groups.can_place(mine, theirs)
    if move == PASS and not can_move and groups.can_place(theirs, mine):
        return mine, theirs, _NEXT_SEAT
    if move == RESIGN and (can_move or groups.can_place(theirs, mine)):
        return mine, theirs, _RESIGNED  # legal unless both seats are blocked (game over)
    raise _PlyRefusedError


def _replayed_state(
    variant: OustVariant, groups: _Groups, mine: int, theirs: int, *, ply: int, over: int
) -> OustState:
    """The state the fast replay reached after ``ply`` plies, handed over without copying.

    ``mine`` are the stones of the seat to move, or, when the game is ``over``, of the seat
    that made the last ply (it won, or it resigned).
    """
    seat = 1 + (ply - 1) % 2 if over else 1 + ply % 2
    state = OustState(variant, groups)
    state._stones = [0, mine, theirs] if seat == 1 else [0, theirs, mine]
    state._ply = ply
    if not over:
        state._begin_turn(seat)
        return state
    state._seat = seat
    state._over = True
    if over == _WON:
        state._winner, state._end = seat, "capture"
    else:
        state._winner, state._end, state._resigned = 3 - seat, "resign", (seat,)
    return state
