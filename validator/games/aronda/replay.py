"""Aronda's fast replay, the validator's hot path: one tight loop over local bitmasks.

Independent of ``ArondaState``'s step-by-step rules, and held to the same verdicts by the
tests; the state it reaches is handed over as an ``ArondaState`` without copying.

May import: ``protocol``, ``aronda.board``, ``aronda.notation``, ``aronda.variant``,
``aronda.reasons``, ``aronda.state``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final, TypeAlias

from gamerec.validator.games.aronda.board import (
    _AROUND_HIGH,
    _AROUND_LOW,
    _LOW_BITS,
    _LOW_MASK,
    ALL_FIELDS,
    CAPACITY,
    EDGE,
    FIELD_COUNT,
    NEIGHBOUR_MASK,
    SUPPLY,
    WINNING_FIELDS,
    around,
)
from gamerec.validator.games.aronda.notation import (
    PASS_CODE,
    RESIGN_CODE,
    Move,
)
from gamerec.validator.games.aronda.reasons import (
    _field_owned,
    _game_over,
    _no_pieces_left,
    _no_such_field,
    _not_connected,
    _not_your_turn,
    _pass_not_allowed,
    _placement_label,
    _second_piece_missing,
    _turn_already_won,
    _wrong_count,
)
from gamerec.validator.games.aronda.state import ArondaState
from gamerec.validator.games.aronda.variant import (
    ArondaVariant,
)
from gamerec.validator.games.protocol import (
    Illegal,
    ReplayOutcome,
)


def _most_fields(me: int, mine: int, theirs: int) -> tuple[int, ...]:
    """The winners after two passes: the seat owning more fields, both on equal counts."""
    if mine == theirs:
        return (1, 2)
    return (me,) if mine > theirs else (3 - me,)


_NO_SEATS: Final[tuple[int, ...]] = ()
# What a turn's first piece changed when it filled a field, seen by the mover: its owned fields,
# both seats' pieces and both supplies just before the possession (see _take_back).
_Before: TypeAlias = tuple[int, list[int], list[int], int, int]


def _replay(  # noqa: PLR0912, PLR0915 -- one tight loop on purpose: the common ply calls nothing
    variant: ArondaVariant, moves: Sequence[Move], seats: Sequence[int] | None
) -> ReplayOutcome:
    """Check and play ``moves`` from the start on local bitmasks (see ArondaEngine.replay).

    The position lives in locals seen from the seat to move ("me") and the other seat ("them"),
    swapped after every ply. A piece joins its seat's chain at once (it is legal, so it touches
    the chain or the edge); :func:`_possess` resolves a filled field. A refused turn may have
    played its first piece: the state before it takes the piece back (:func:`_take_back`).
    """
    fields, capacity, neighbours, edge = FIELD_COUNT, CAPACITY, NEIGHBOUR_MASK, EDGE
    claims, claim_count = (seats, len(seats)) if seats is not None else ((), 0)
    me, ply, passes, must_pass, placed = 1, 0, 0, False, 0  # placed: pieces of this turn so far
    own_me = own_them = held_me = held_them = chain_me = chain_them = 0  # held: has a piece
    pieces_me, pieces_them, supply_me, supply_them = [0] * fields, [0] * fields, SUPPLY, SUPPLY
    ending, winners, resigned = "", _NO_SEATS, _NO_SEATS
    illegal: Illegal | None = None
    before: _Before | None = None
    for move in moves:
        if ending or (ply < claim_count and claims[ply] and claims[ply] != me):
            illegal = _game_over() if ending else _not_your_turn(claims[ply], me)
            break
        count = len(move)
        if not ((count == 2 and ply) or (count == 1 and move[0] >= 0)):  # pass, resign or refused
            verdict = _other_turn(variant, move, me, (ply, passes, must_pass), (own_me, own_them))
            illegal, passes, ending, winners, resigned = verdict
        else:
            for field in move:
                if field < 0 or field >= fields or not supply_me:
                    illegal = _placement_refusal(move, placed, me, (own_me, own_them), chain_me)
                    break
                bit = 1 << field
                if bit & (own_me | own_them) or not (bit & edge or neighbours[field] & chain_me):
                    illegal = _placement_refusal(move, placed, me, (own_me, own_them), chain_me)
                    break
                placed += 1
                supply_me -= 1
                pieces = pieces_me[field] + 1
                pieces_me[field] = pieces
                if pieces < capacity[field]:
                    if not bit & chain_me:
                        held_me |= bit
                        chain_me |= bit
                        if neighbours[field] & (own_me | held_me) & ~chain_me:
                            chain_me = _flood(chain_me, own_me | held_me)
                    continue
                if placed == 1:
                    before = own_me, pieces_me[:], pieces_them[:], supply_me, supply_them
                mine = own_me, pieces_me, held_me, supply_me, chain_me
                theirs = own_them, pieces_them, held_them, supply_them, chain_them
                sides = _possess(bit, mine, theirs)
                own_me, held_me, supply_me, chain_me, held_them, supply_them, chain_them = sides
                if own_me.bit_count() >= WINNING_FIELDS:
                    ending, winners = "thirteen-fields", (me,)
                    if placed < count:
                        illegal = _turn_already_won(me, move[0])
                        break
            if illegal is None and count == 1 and ply and not ending:
                second = supply_me and _access(own_me | own_them, chain_me)
                illegal, ending, winners = _one_piece_turn(variant, move[0], me, second)
            if illegal is None:
                passes, placed, before = 0, 0, None
        if illegal is not None:
            break
        ply += 1
        if ending:
            continue
        # Hand the turn over, then §4.3 for the seat whose turn starts.
        me = 3 - me
        own_me, own_them = own_them, own_me
        pieces_me, pieces_them = pieces_them, pieces_me
        held_me, held_them = held_them, held_me
        supply_me, supply_them = supply_them, supply_me
        chain_me, chain_them = chain_them, chain_me
        must_pass = False
        if not supply_me or (own_me | own_them) & edge == edge:
            start = _turn_start(variant, me, supply_me, own_me | own_them, chain_me)
            must_pass, ending, winners = start
    me_now, them_now = (own_me, pieces_me, supply_me), (own_them, pieces_them, supply_them)
    turn = ply, passes, must_pass and not ending, ending, winners, resigned
    state = _replayed_state(variant, me, me_now, them_now, turn)
    if placed:
        _take_back(state, moves[ply][0], before)
    return ReplayOutcome(state, ply, illegal)


def _flood(chain: int, marked: int) -> int:
    """``chain`` grown through the ``marked`` fields joined to it: a chain of §4.2."""
    while True:
        grown = (chain | _AROUND_LOW[chain & _LOW_MASK] | _AROUND_HIGH[chain >> _LOW_BITS]) & marked
        if grown == chain:
            return chain
        chain = grown


def _access(owned: int, chain: int) -> int:
    """Fields without an owner on the edge or next to ``chain`` (§4.2, 1 and 2).

    ``owned`` are the fields either seat owns.
    """
    return (ALL_FIELDS ^ owned) & (EDGE | around(chain))


def _other_turn(
    variant: ArondaVariant, move: Move, me: int, turn: tuple[int, int, bool], owned: tuple[int, int]
) -> tuple[Illegal | None, int, str, tuple[int, ...], tuple[int, ...]]:
    """Judge a turn by ``me`` that is not one or two pieces on fields: pass, resign or refused.

    Refused: the wrong number of pieces (§4.1), a lone pass or resign code among pieces (a
    field that does not exist). ``turn`` holds the plies played, the passes in a row and
    whether ``me`` must pass; ``owned`` the fields of ``me`` and of the other seat.

    Returns:
        ``(illegal, passes, ending, winners, resigned)``: why the turn is illegal (or None),
        then the passes in a row, the ending, the winners and the resigned seats after it.
    """
    ply, passes, must_pass = turn
    count = len(move)
    if count == 1 and move[0] == RESIGN_CODE:
        return None, passes, "resignation", (3 - me,), (me,)
    if count == 1 and move[0] == PASS_CODE:
        if not must_pass:
            return _pass_not_allowed(me, variant), passes, "", (), ()
        if not passes:
            return None, 1, "", (), ()
        own_me, own_them = owned
        return None, 2, "passes", _most_fields(me, own_me.bit_count(), own_them.bit_count()), ()
    if count != 1:
        return _wrong_count(count, not ply), passes, "", (), ()
    return _no_such_field(_placement_label(0, 1), move[0]), passes, "", (), ()


def _placement_refusal(
    move: Move, index: int, me: int, owned: tuple[int, int], chain_me: int
) -> Illegal:
    """Why placement ``index`` of ``move`` by ``me`` is refused, in the order of §4.2.

    ``owned`` holds the fields of ``me`` and of the other seat, ``chain_me`` the chain of ``me``.
    """
    field = move[index]
    label = _placement_label(index, len(move))
    if not 0 <= field < FIELD_COUNT:
        return _no_such_field(label, field)
    bit = 1 << field
    own_me, own_them = owned
    if bit & (own_me | own_them):
        return _field_owned(label, field, me if bit & own_me else 3 - me)
    if not (bit & EDGE or NEIGHBOUR_MASK[field] & chain_me):
        return _not_connected(label, field, me)
    return _no_pieces_left(label, field, me)


def _possess(
    bit: int,
    mine: tuple[int, list[int], int, int, int],
    theirs: tuple[int, list[int], int, int, int],
) -> tuple[int, int, int, int, int, int, int]:
    """The mover's piece filled the field ``bit``: possession from inside, then from outside.

    Step 1 takes ``bit``, step 2 the cascade wave by wave (only neighbours of the fields taken
    in the last wave can newly qualify); the pieces on every field taken go home (§5.3).

    Args:
        bit: the filled field.
        mine: the mover's owned fields, pieces (changed in place), held fields, supply, chain.
        theirs: the same of the other seat.

    Returns:
        The mover's owned fields, held fields, supply and chain, then the other seat's held
        fields, supply and chain.
    """
    own_me, pieces_me, held_me, supply_me, chain_me = mine
    own_them, pieces_them, held_them, supply_them, chain_them = theirs
    own_me |= bit
    unowned = ALL_FIELDS ^ (own_me | own_them)
    taken = wave = bit
    while wave:
        candidates = (_AROUND_LOW[wave & _LOW_MASK] | _AROUND_HIGH[wave >> _LOW_BITS]) & unowned
        wave = 0
        while candidates:
            lowest = candidates & -candidates
            code = lowest.bit_length() - 1
            if (NEIGHBOUR_MASK[code] & own_me).bit_count() >= CAPACITY[code]:
                wave |= lowest
            candidates ^= lowest
        own_me |= wave
        unowned ^= wave
        taken |= wave
    home = taken & (held_me | held_them)
    while home:
        lowest = home & -home
        code = lowest.bit_length() - 1
        home ^= lowest
        supply_me += pieces_me[code]
        pieces_me[code] = 0
        supply_them += pieces_them[code]
        pieces_them[code] = 0
    held_me &= ~taken
    lost = held_them & taken
    if lost:  # the other seat's marked fields shrink: its chain is found again from the edge
        held_them ^= lost
        marked = own_them | held_them
        chain_them = _flood(marked & EDGE, marked) if lost & chain_them else chain_them
    # The mover's marked fields only grow, so its chain grows from the old one and the taken.
    marked = own_me | held_me
    chain_me = _flood(chain_me | taken | marked & EDGE, marked)
    return own_me, held_me, supply_me, chain_me, held_them, supply_them, chain_them


def _one_piece_turn(
    variant: ArondaVariant, field: int, me: int, second: int
) -> tuple[Illegal | None, str, tuple[int, ...]]:
    """Judge a turn of one piece on ``field`` after seat 1's first turn (§4.1, §4.3).

    It is a whole turn only when the second piece has no legal field (``second``, 0 also when
    the supply is empty); under ``SecondPiece lose`` the mover then loses.

    Returns:
        ``(illegal, ending, winners)``.
    """
    if second:
        return _second_piece_missing(me, field, second), "", ()
    if variant.second_piece == "lose":
        return None, "second-piece", (3 - me,)
    return None, "", ()


def _turn_start(
    variant: ArondaVariant, me: int, supply: int, owned: int, chain: int
) -> tuple[bool, str, tuple[int, ...]]:
    """§4.3 for ``me``, whose turn starts: it plays, must pass, or has lost (blocked).

    ``owned`` are the fields either seat owns, ``chain`` the chain of ``me``.

    Returns:
        ``(must_pass, ending, winners)``.
    """
    access = _access(owned, chain)
    if access and supply:
        return False, "", ()
    if access and variant.supply == "pass":
        return True, "", ()
    return False, "blocked", (3 - me,)


def _replayed_state(
    variant: ArondaVariant,
    me: int,
    mine: tuple[int, list[int], int],
    theirs: tuple[int, list[int], int],
    turn: tuple[int, int, bool, str, tuple[int, ...], tuple[int, ...]],
) -> ArondaState:
    """A state with ``me`` to move, the fast replay's locals handed over (lists not copied).

    ``mine`` and ``theirs`` are the owned fields, pieces and supply of ``me`` and of the other
    seat; ``turn`` holds the plies played, the passes in a row, whether ``me`` must pass, the
    ending, the winners and the resigned seats.
    """
    state = ArondaState.__new__(ArondaState)
    first, second = (mine, theirs) if me == 1 else (theirs, mine)
    state._variant = variant
    state._owned = [0, first[0], second[0]]
    state._pieces = [[], first[1], second[1]]
    state._supply = [0, first[2], second[2]]
    state._seat = me
    state._ply, state._passes, state._must_pass, state._ending, state._winners = turn[:5]
    state._resigned = turn[5]
    return state


def _take_back(state: ArondaState, field: int, before: _Before | None) -> None:
    """Take back the refused turn's first piece, on ``field``: the state before the turn.

    ``before`` is what the piece changed when it filled its field (None when it did not): the
    mover's owned fields, both seats' pieces and supplies just before the possession.
    """
    me = state._seat
    if before is not None:
        state._owned[me], state._pieces[me], state._pieces[3 - me] = before[:3]
        state._supply[me], state._supply[3 - me] = before[3:]
    state._pieces[me][field] -= 1
    state._supply[me] += 1
    state._ending, state._winners = "", ()
