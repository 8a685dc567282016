"""Oh-Wah-Ree's fast replay, the validator's hot path: :func:`replay` on a packed integer.

The whole position (12 pits and the stores) is one integer, a fixed-width bit field per pit,
and each ply is played with precomputed sowing tables; anything out of the ordinary is handed
to :class:`OhWahReeState`, which gives the verdict. It may import the modules of ``ohwahree``
but ``engine``, and ``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Final, TypeAlias

from gamerec.validator.games.ohwahree.notation import Move, Sow
from gamerec.validator.games.ohwahree.pits import PIT_COUNT, _sowing_lap, pit_owners
from gamerec.validator.games.ohwahree.state import OhWahReeState
from gamerec.validator.games.ohwahree.variant import OhWahReeVariant
from gamerec.validator.games.protocol import Illegal, ReplayOutcome

#: Sowings of up to this many stones are tabulated for the fast replay; longer ones (only with
#: 12 or more stones per pit) go through the state class.
_TABLED_STONES: Final = 12 * (PIT_COUNT - 1)

# One capture step: (shift of the pit's field + 1, shift of the field, the multiplier that moves
# one stone from that field to the mover's store field).
_CaptureStep: TypeAlias = tuple[int, int, int]
# A sowing of n stones: (the change to the packed board, the capture steps from the last pit).
_SowingEntry: TypeAlias = tuple[int, tuple[_CaptureStep, ...]] | None
# A seat's move: (shift of the origin's field, the sowing entries by stone count).
_Action: TypeAlias = tuple[int, list[_SowingEntry]]


@dataclass(frozen=True, slots=True)
class _Tables:
    """Precomputed data of one variant for the packed-integer replay.

    The board is one integer: pit index p (0-based) is the bit field at ``p * width``, the store
    of seat k the field at ``(12 + k - 1) * width``. Every field is wide enough for all stones,
    so adding a sowing's precomputed change never carries from one field into the next.
    """

    width: int
    field: int
    start: int
    actions: tuple[dict[Hashable, _Action], ...]
    own_masks: tuple[int, ...]


@lru_cache(maxsize=32)
def _tables(variant: OhWahReeVariant) -> _Tables:
    """Build (once per variant) the fast replay's tables."""
    width = variant.total_stones.bit_length()
    field = (1 << width) - 1
    owners = pit_owners(variant.players)
    players = variant.players
    start = sum(variant.stones_per_pit << (index * width) for index in range(PIT_COUNT))
    actions: list[dict[Hashable, _Action]] = [{} for _ in range(players + 1)]
    for index, seat in enumerate(owners):
        for step, keys in _action_keys(variant, index + 1).items():
            action = (index * width, _sowing_entries(variant, width, owners, index, step))
            for key in keys:
                actions[seat][key] = action
    own_masks = [0] * (players + 1)
    for index, seat in enumerate(owners):
        own_masks[seat] |= field << (index * width)
    return _Tables(width, field, start, tuple(actions), tuple(own_masks))


def _action_keys(variant: OhWahReeVariant, pit: int) -> dict[int, tuple[Move, ...]]:
    """The legal move spellings of sowing ``pit``, by direction step."""
    if variant.direction_is_free:
        return {1: (Sow(pit, "ccw"),), -1: (Sow(pit, "cw"),)}
    return {1: (Sow(pit), Sow(pit, "ccw"))}


def _sowing_entries(
    variant: OhWahReeVariant, width: int, owners: tuple[int, ...], origin: int, step: int
) -> list[_SowingEntry]:
    """The board change and capture steps of sowing n stones from ``origin``, by n.

    Entry 0 is None: the fast replay stops there, since an empty pit cannot be sown.
    """
    seat = owners[origin]
    path = _sowing_lap(origin, step)
    store_unit = 1 << ((PIT_COUNT + seat - 1) * width)
    entries: list[_SowingEntry] = [None]
    for stones in range(1, min(variant.total_stones, _TABLED_STONES) + 1):
        laps, rest = divmod(stones, PIT_COUNT - 1)
        change = -stones << (origin * width)
        for order, index in enumerate(path):
            change += (laps + (order < rest)) << (index * width)
        chain: list[_CaptureStep] = []
        index = path[rest - 1]
        while owners[index] != seat:
            shift = index * width
            chain.append((shift + 1, shift, store_unit - (1 << shift)))
            index = (index - step) % PIT_COUNT
        entries.append((change, tuple(chain)))
    return entries


def _replay_two_seats(
    tables: _Tables, board: int, moves: Sequence[Move], start: int, stop: int
) -> tuple[int, int, bool]:
    """Play plies ``start..stop-1`` of a two-seat game on the packed board.

    Returns the number of plies played, the board, and whether the game ended. It stops early
    at a ply it cannot play (illegal, or out of its tables) for the caller to judge.
    """
    field = tables.field
    half_field = field >> 1
    seat = 1 + (start & 1)
    actions, actions_next = tables.actions[seat], tables.actions[3 - seat]
    mask_next, mask_after = tables.own_masks[3 - seat], tables.own_masks[seat]
    ply = start
    try:
        for ply in range(start, stop):
            # A missing key (not this seat's move), an empty pit (entry None) or a long sowing
            # (past the table) raises here, before the board changes.
            shift, entries = actions[moves[ply]]
            change, chain = entries[board >> shift & field]  # type: ignore[misc]
            board += change
            for pit_shift_up, pit_shift, unit in chain:
                if board >> pit_shift_up & half_field != 1:  # the pit holds neither 2 nor 3
                    break
                board += (board >> pit_shift & field) * unit
            if not board & mask_next:
                return ply + 1, board, True
            actions, actions_next = actions_next, actions
            mask_next, mask_after = mask_after, mask_next
    except (KeyError, IndexError, TypeError):
        return ply, board, False
    return stop, board, False


def _replay_many_seats(
    tables: _Tables,
    board: int,
    seat: int,
    skipped: int,
    *,
    following: Sequence[int],
    moves: Sequence[Move],
    start: int,
    claims: Sequence[int] | None,
) -> tuple[int, int, int, int]:
    """Play plies from ``start`` of a three- or four-seat game on the packed board.

    ``following[s]`` is the playing seat after seat s. Returns the number of plies played, the
    board, the seat to move (0 when the game ended) and the skip counter. It stops early at a
    ply it cannot play (illegal, a resignation, or out of its tables) for the caller to judge.
    """
    field = tables.field
    half_field = field >> 1
    actions = tables.actions
    own_masks = tables.own_masks
    ply = start
    try:
        for ply in range(start, len(moves)):
            if claims is not None and claims[ply] and claims[ply] != seat:
                return ply, board, seat, skipped
            shift, entries = actions[seat][moves[ply]]
            change, chain = entries[board >> shift & field]  # type: ignore[misc]
            board += change
            for pit_shift_up, pit_shift, unit in chain:
                if board >> pit_shift_up & half_field != 1:
                    break
                board += (board >> pit_shift & field) * unit
            skipped = 0
            seat = following[seat]
            while not board & own_masks[seat]:
                skipped += 1
                if skipped == 2:
                    return ply + 1, board, 0, skipped
                seat = following[seat]
    except (KeyError, IndexError, TypeError):
        return ply, board, seat, skipped
    return len(moves), board, seat, skipped


def _unpack_state(
    variant: OhWahReeVariant,
    tables: _Tables,
    board: int,
    *,
    to_move: int,
    skipped: int,
    resigned: Sequence[int],
    ply: int,
) -> OhWahReeState:
    """The state class's view of a packed board."""
    width, field = tables.width, tables.field
    fields = [board >> (index * width) & field for index in range(PIT_COUNT + variant.players)]
    return OhWahReeState._restore(
        variant,
        fields[:PIT_COUNT],
        fields[PIT_COUNT:],
        to_move=to_move,
        skipped=skipped,
        resigned=resigned,
        ply=ply,
    )


def _pack_board(tables: _Tables, state: OhWahReeState) -> int:
    """The packed board of a state's pits and stores."""
    fields = state.pits + state.stores
    return sum(stones << (index * tables.width) for index, stones in enumerate(fields))


def _following_seats(players: int, resigned: Sequence[int]) -> list[int]:
    """For each seat (index 1..players), the next seat in turn order that has not resigned."""
    following = [0] * (players + 1)
    for seat in range(1, players + 1):
        nxt = seat % players + 1
        while nxt in resigned:
            nxt = nxt % players + 1
        following[seat] = nxt
    return following


#: The claims a ply of seat 1 (even plies) and of seat 2 (odd plies) may state: its seat or 0.
_SEAT_ONE_CLAIMS: Final = frozenset({0, 1})
_SEAT_TWO_CLAIMS: Final = frozenset({0, 2})


def _first_wrong_claim_two_seats(claims: Sequence[int]) -> int:
    """The first ply whose claimed seat is not the one two seats take turns at, else the end."""
    # Every claim right (or unstated), the usual case, is seen by two set operations in C.
    if set(claims[0::2]) <= _SEAT_ONE_CLAIMS and set(claims[1::2]) <= _SEAT_TWO_CLAIMS:
        return len(claims)
    for ply, claim in enumerate(claims):
        if claim and claim != 1 + (ply & 1):
            return ply
    return len(claims)


def replay(
    variant: OhWahReeVariant, moves: Sequence[Move], seats: Sequence[int] | None = None
) -> ReplayOutcome:
    """Check and play ``moves`` from the start; stop at the first illegal ply (see Engine)."""
    tables = _tables(variant)
    total = len(moves)
    claims: list[int] | None = None
    if seats is not None:
        claims = [*seats[:total], *[0] * (total - len(seats))]
    # Two seats alternate until the end, so a wrong claim can be found before the replay.
    stop = total if claims is None else _first_wrong_claim_two_seats(claims)
    board, seat, skipped, ply = tables.start, 1, 0, 0
    resigned: list[int] = []
    while True:  # fast plies until one needs the state class, which judges (and plays) it
        if seat and variant.players == 2:
            ply, board, ended = _replay_two_seats(tables, board, moves, ply, stop)
            seat = 0 if ended else 1 + (ply & 1)
        elif seat:
            following = _following_seats(variant.players, resigned)
            ply, board, seat, skipped = _replay_many_seats(
                tables,
                board,
                seat,
                skipped,
                following=following,
                moves=moves,
                start=ply,
                claims=claims,
            )
        state = _unpack_state(
            variant, tables, board, to_move=seat, skipped=skipped, resigned=resigned, ply=ply
        )
        if ply == total:
            return _outcome(state, ply, None)
        claim = (claims[ply] or None) if claims is not None else None
        illegal = state.check(moves[ply], claim)
        if illegal is not None:
            return _outcome(state, ply, illegal)
        state.play(moves[ply])
        ply += 1
        board, seat, skipped = _pack_board(tables, state), state.to_move, state.skipped
        resigned = list(state.resigned)


def _outcome(state: OhWahReeState, plies: int, illegal: Illegal | None) -> ReplayOutcome:
    """Wrap a replay's result (the protocol types the state loosely)."""
    return ReplayOutcome(state, plies, illegal)
