"""The Oh-Wah-Ree rules engine: 2, 3 or 4 seats round a ring of 12 pits (docs/rules/ohwahree.md).

Moves (notation.md, Oh-Wah-Ree section). ``Move = Sow | Literal["resign"]``:

- :class:`Sow` ``(pit, direction)``: the pit as written and the direction suffix, ``None`` for
  a bare pit. ``4`` is ``Sow(4)``, ``4ccw`` is ``Sow(4, "ccw")``, ``4cw`` is ``Sow(4, "cw")``.
  A number that is not a pit (``13``, ``0``) is still a move: ``check`` says ``NOT_A_PIT``.
- :data:`RESIGN` (the string ``"resign"``): the seat to move resigns.

Directions: where the mover chooses (3 seats; 4 seats with ``Direction`` ``free``) the suffix is
required, and a bare pit is ``DIRECTION_REQUIRED``. Where every move is counter-clockwise (2
seats; 4 seats with ``Direction`` ``ccw``) the bare pit is the move; ``4ccw`` is accepted as the
same move (rules §4.1 says so for 4 seats; this engine treats 2 seats alike), and ``4cw`` is
``DIRECTION_NOT_ALLOWED``. ``legal_moves`` lists the canonical form only, and ``format_move``
writes it.

A game need not end: with 4 seats and ``Direction`` ``ccw``, three lone stones four pits apart
go round the ring for ever, every move forced (the rules have no repetition rule, §8.2). Such a
record is legal and unfinished; :func:`random_game` stops when it sees the cycle.

States are mutable (protocol.py): ``play`` changes the state in place. A position can also be
set up directly with :meth:`OhWahReeState.from_position`, as the worked examples E4-E6 are.

:meth:`OhWahReeEngine.replay` does not use the state class for ordinary plies: it keeps the
whole position (12 pits and the stores) packed in one integer, a fixed-width bit field per pit,
and plays each ply with precomputed sowing tables, so that a ply is a handful of integer
operations. Anything out of the ordinary (an illegal ply, a resignation, a sowing longer than the
tables) is handed to the state class, which gives the verdict.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from operator import add
from typing import Final, Literal, NamedTuple, TypeAlias, cast

from gamerec.recorder.errors import GamerecError, NotationError
from gamerec.recorder.syntax import ohwahree as syntax
from gamerec.validator.games.protocol import (
    BaseEngine,
    GameEvent,
    GameState,
    Illegal,
    IllegalMoveError,
    MoveSyntaxError,
    Position,
    ReplayOutcome,
    Site,
    VariantError,
    VariantValue,
    digest_of,
    option_number,
    option_word,
    rank_seats,
)

# ---------------------------------------------------------------------------------------------
# Constants and metadata
# ---------------------------------------------------------------------------------------------

#: The game's name as the GRN ``Game`` tag writes it.
NAME: Final = "Oh-Wah-Ree"
#: The rules text that messages cite.
RULES: Final = "docs/rules/ohwahree.md"

#: Pits on the ring, numbered 1..12 counter-clockwise (rules §2).
PIT_COUNT: Final = 12

#: A sowing direction: counter-clockwise (pit i to i+1) or clockwise (pit i to i-1).
SowDirection: TypeAlias = Literal["ccw", "cw"]

#: Pit-index step of one sowing step in each direction (ccw: pit i to i+1).
DIRECTION_STEP: Final[dict[str, int]] = {"ccw": 1, "cw": -1}

#: The ``Direction`` option values each table size allows (rules §8.1), the default first.
DIRECTION_RULES: Final[dict[int, tuple[str, ...]]] = {
    2: ("ccw",),
    3: ("free",),
    4: ("free", "ccw"),
}

#: Every reason code ``check`` returns, with a one-line description.
REASON_CODES: Final[dict[str, str]] = {
    "NOT_YOUR_TURN": "the move is claimed by a seat that is not the seat to move",
    "GAME_ALREADY_OVER": "the game has ended; no further move is possible",
    "NOT_A_PIT": "the pit number is not one of the pits 1 to 12",
    "NOT_YOUR_PIT": "the pit belongs to another seat",
    "EMPTY_PIT": "the pit holds no stone to sow",
    "DIRECTION_REQUIRED": "the mover chooses the direction here, so the move must name ccw or cw",
    "DIRECTION_NOT_ALLOWED": "the move names cw where every move is sown counter-clockwise",
}

#: The sections of the rules text each reason code's sentences cite (tests check that they
#: exist and that every sentence cites only these).
REASON_SECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "NOT_YOUR_TURN": ("§2", "§6"),
    "GAME_ALREADY_OVER": ("§6", "§7"),
    "NOT_A_PIT": ("§2",),
    "NOT_YOUR_PIT": ("§2",),
    "EMPTY_PIT": ("§4.1",),
    "DIRECTION_REQUIRED": ("§4.1",),
    "DIRECTION_NOT_ALLOWED": ("§4.1",),
}


@cache
def pit_owners(players: int) -> tuple[int, ...]:
    """The seat that owns each pit, for pits 1..12 in order (rules §2).

    Seat k owns the pits ((−(k−1)·m + j) mod 12) + 1 for j = 0..m−1, m = 12 / players.
    """
    per_seat = PIT_COUNT // players
    owners = [0] * PIT_COUNT
    for seat in range(1, players + 1):
        for j in range(per_seat):
            owners[(-(seat - 1) * per_seat + j) % PIT_COUNT] = seat
    return tuple(owners)


@cache
def _seat_pits(players: int) -> tuple[slice, ...]:
    """Per seat in seat order, its pits as a slice of the pit list (each seat's are adjacent)."""
    per_seat = PIT_COUNT // players
    return tuple(
        slice(start, start + per_seat)
        for start in ((-(seat - 1) * per_seat) % PIT_COUNT for seat in range(1, players + 1))
    )


def seat_pits(players: int, seat: int) -> tuple[int, ...]:
    """The pits (1-based, ascending) that ``seat`` owns at a table of ``players`` (rules §2)."""
    return tuple(pit for pit, owner in enumerate(pit_owners(players), 1) if owner == seat)


def _sowing_lap(origin: int, step: int) -> tuple[int, ...]:
    """The 11 other pit indices (0-based) in sowing order from ``origin``, one lap (rules §4.2)."""
    return tuple((origin + step * j) % PIT_COUNT for j in range(1, PIT_COUNT))


def last_pit(pit: int, direction: SowDirection, stones: int) -> int:
    """The pit (1-based) where the last of ``stones`` (at least 1) sown from ``pit`` lands.

    The origin is skipped on every lap, so the last stone lands in pit ``stones % 11`` of the
    lap of the 11 other pits (the 11th when that is 0) (rules §4.2).
    """
    path = _sowing_lap(pit - 1, DIRECTION_STEP[direction])
    return path[stones % (PIT_COUNT - 1) - 1] + 1


# ---------------------------------------------------------------------------------------------
# OhWahReeVariant
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class OhWahReeVariant:
    """The rule options of one game (rules §8.1); a zero / empty option takes its default.

    Attributes:
        players: 2, 3 or 4 seats (GRN ``Players``, required).
        stones_per_pit: stones in every pit at the start, at least 1 (GRN ``StonesPerPit``);
            0 stands for the default, 4 for 2 and 3 seats and 6 for 4 seats, and is replaced by
            that number on creation.
        direction: ``"ccw"`` (every move counter-clockwise) or ``"free"`` (the mover chooses)
            (GRN ``Direction``); 2 seats allow only ``ccw``, 3 seats only ``free``, 4 seats
            either. ``""`` stands for the default (``ccw`` for 2 seats, ``free`` for 3 and 4)
            and is replaced by it on creation.

    Raises:
        VariantError: on creation, for an impossible combination or a value of the wrong type.
    """

    players: int
    stones_per_pit: int = 0
    direction: str = ""

    def __post_init__(self) -> None:
        if type(self.players) is not int or self.players not in DIRECTION_RULES:
            raise VariantError(
                f"Oh-Wah-Ree is played by 2, 3 or 4 seats, not {self.players!r} ({RULES} §2)"
            )
        if type(self.stones_per_pit) is not int or self.stones_per_pit < 0:
            raise VariantError(
                f"stones per pit must be an integer of at least 1, not {self.stones_per_pit!r}"
                f" ({RULES} §8.1)"
            )
        if self.stones_per_pit == 0:
            object.__setattr__(self, "stones_per_pit", 6 if self.players == 4 else 4)
        allowed = DIRECTION_RULES[self.players]
        if self.direction == "":
            object.__setattr__(self, "direction", allowed[0])
        elif self.direction not in allowed:
            raise VariantError(
                f"Direction {self.direction!r} is not possible with {self.players} seats;"
                f" allowed: {', '.join(allowed)} ({RULES} §8.1)"
            )

    @property
    def total_stones(self) -> int:
        """The stones in play, 12 times the stones per pit (rules §3, §5)."""
        return PIT_COUNT * self.stones_per_pit

    @property
    def direction_is_free(self) -> bool:
        """Whether the mover chooses ccw or cw on each move (rules §4.1)."""
        return self.direction == "free"


# ---------------------------------------------------------------------------------------------
# Moves
# ---------------------------------------------------------------------------------------------


class Sow(NamedTuple):
    """Sow all stones of one pit (rules §4.1, §4.2): ``4``, ``4ccw`` or ``4cw``.

    Attributes:
        pit: the pit as written; 1..12 are on the board, any other number is ``NOT_A_PIT``.
        direction: ``"ccw"``, ``"cw"``, or None when the token names no direction.
    """

    pit: int
    direction: SowDirection | None = None


#: The seat to move resigns (rules §7).
RESIGN: Final = "resign"

#: One ply: a sowing, or the resignation of the seat to move.
Move: TypeAlias = Sow | Literal["resign"]


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


class PositionError(GamerecError):
    """A position given to :meth:`OhWahReeState.from_position` cannot occur under its variant."""


class OhWahReeState:
    """A position with the seat to move; ``play`` changes it in place (protocol.py).

    The state keeps the stones of pits 1..12, one store per seat, the seat to move (0 when the
    game is over), the counter of consecutive skipped seats (rules §6.2) and the resigned seats
    in the order they resigned.
    """

    __slots__ = (
        "_owners",
        "_pits",
        "_ply",
        "_resigned",
        "_skipped",
        "_stores",
        "_to_move",
        "_variant",
    )

    def __init__(self, variant: OhWahReeVariant) -> None:
        self._variant = variant
        self._owners = pit_owners(variant.players)
        self._pits = [variant.stones_per_pit] * PIT_COUNT
        self._stores = [0] * variant.players
        self._to_move = 1
        self._skipped = 0
        self._resigned: list[int] = []
        self._ply = 0

    @classmethod
    def from_position(
        cls,
        variant: OhWahReeVariant,
        pits: Sequence[int],
        stores: Sequence[int],
        to_move: int = 1,
        *,
        resigned: Sequence[int] = (),
        skipped: int = 0,
    ) -> OhWahReeState:
        """Set up a position directly (as the worked examples E4-E6 do) at ply 0.

        The turn of ``to_move`` then starts as any turn does (rules §6): a seat to move with no
        stones ends a two-seat game, and is skipped with three or four seats (``skipped`` is
        the counter of seats skipped just before, rules §6.2).

        Args:
            variant: the rules.
            pits: the stones in pits 1..12.
            stores: the captured stones of each seat, in seat order.
            to_move: the seat whose turn starts; it must not have resigned.
            resigned: the seats that have resigned, in the order they did (3 or 4 seats).
            skipped: 0 or 1 seats skipped since the last move (3 or 4 seats).

        Raises:
            PositionError: wrong lengths, negative counts, a total other than 12 times the
                stones per pit, or seats that cannot be as stated.
        """
        check_position(variant, pits, stores, to_move=to_move, resigned=resigned, skipped=skipped)
        state = cls._restore(
            variant, pits, stores, to_move=0, skipped=skipped, resigned=resigned, ply=0
        )
        state._start_turn(to_move, [])
        return state

    @classmethod
    def _restore(
        cls,
        variant: OhWahReeVariant,
        pits: Sequence[int],
        stores: Sequence[int],
        *,
        to_move: int,
        skipped: int,
        resigned: Sequence[int],
        ply: int,
    ) -> OhWahReeState:
        """Build a state from trusted parts, without any turn logic."""
        state = cls.__new__(cls)
        state._variant = variant
        state._owners = pit_owners(variant.players)
        state._pits = list(pits)
        state._stores = list(stores)
        state._to_move = to_move
        state._skipped = skipped
        state._resigned = list(resigned)
        state._ply = ply
        return state

    # -- protocol properties ------------------------------------------------------------------

    @property
    def variant(self) -> OhWahReeVariant:
        """The rules this game is played under."""
        return self._variant

    @property
    def seats(self) -> int:
        """The number of seats at the table, resigned seats included."""
        return self._variant.players

    @property
    def to_move(self) -> int:
        """The seat to move, 0 when the game is over."""
        return self._to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (rules §6.1, §6.2, §7)."""
        return self._to_move == 0

    @property
    def ply(self) -> int:
        """The number of plies played so far (a skipped seat writes no ply)."""
        return self._ply

    @property
    def pits(self) -> tuple[int, ...]:
        """The stones in pits 1..12."""
        return tuple(self._pits)

    @property
    def stores(self) -> tuple[int, ...]:
        """The captured stones of each seat, in seat order."""
        return tuple(self._stores)

    @property
    def skipped(self) -> int:
        """Consecutive seats skipped since the last move (rules §6.2; always 0 for 2 seats)."""
        return self._skipped

    @property
    def resigned(self) -> tuple[int, ...]:
        """The seats that have resigned, in the order they did."""
        return tuple(self._resigned)

    # -- moves --------------------------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal sowing of the seat to move, by pit, ccw before cw (never ``resign``)."""
        if self._to_move == 0:
            return []
        directions: tuple[SowDirection | None, ...] = (
            ("ccw", "cw") if self._variant.direction_is_free else (None,)
        )
        return [
            Sow(index + 1, direction)
            for index, owner in enumerate(self._owners)
            if owner == self._to_move and self._pits[index]
            for direction in directions
        ]

    def check(self, move: Move, seat: int | None = None) -> Illegal | None:
        """Why ``move`` is illegal here, or None (rules §4.1).

        The tests run in this order: game over, seat, pit on the board, direction, owner of
        the pit, stones in the pit. ``seat`` None means the move claims no seat.
        """
        if self._to_move == 0:
            return Illegal("GAME_ALREADY_OVER", f"the game is already over ({RULES} §6, §7)")
        if seat is not None and seat != self._to_move:
            return Illegal(
                "NOT_YOUR_TURN",
                f"seat {seat} is not to move, seat {self._to_move} is ({RULES} §2, §6)",
            )
        if move == RESIGN:
            return None
        pit, direction = move
        if not 1 <= pit <= PIT_COUNT:
            return Illegal("NOT_A_PIT", f"{pit} is not a pit: pits are 1 to 12 ({RULES} §2)")
        return self._check_direction(pit, direction) or self._check_pit(pit)

    def _check_direction(self, pit: int, direction: str | None) -> Illegal | None:
        """The verdict on the direction a sowing names, under the variant (rules §4.1)."""
        if self._variant.direction_is_free and direction is None:
            return Illegal(
                "DIRECTION_REQUIRED",
                f"move {pit} names no direction: write {pit}ccw or {pit}cw ({RULES} §4.1)",
            )
        if direction not in (None, "ccw") and not self._variant.direction_is_free:
            return Illegal(
                "DIRECTION_NOT_ALLOWED",
                f"pit {pit} must be sown counter-clockwise: {pit}{direction} is not allowed"
                f" ({RULES} §4.1)",
            )
        if direction not in (None, "ccw", "cw"):
            return Illegal(
                "DIRECTION_NOT_ALLOWED",
                f"{direction!r} is not a direction: use ccw or cw ({RULES} §4.1)",
            )
        return None

    def _check_pit(self, pit: int) -> Illegal | None:
        """The verdict on sowing pit ``pit`` (on the board) by the seat to move (rules §4.1)."""
        owner = self._owners[pit - 1]
        if owner != self._to_move:
            return Illegal(
                "NOT_YOUR_PIT",
                f"pit {pit} belongs to seat {owner}, not to seat {self._to_move} ({RULES} §2)",
            )
        if self._pits[pit - 1] == 0:
            return Illegal("EMPTY_PIT", f"pit {pit} is empty ({RULES} §4.1)")
        return None

    def play(self, move: Move) -> tuple[GameEvent, ...]:
        """Play a legal move in place and return what it did.

        Events: ``capture`` (the mover, the pits taken in capture order, the stones taken),
        ``resign``, ``skip`` (each seat passed over, rules §6.2) and ``end`` (seat 0).

        Raises:
            IllegalMoveError: ``check`` rejects the move; the state is unchanged.
        """
        illegal = self.check(move)
        if illegal is not None:
            raise IllegalMoveError(illegal)
        seat = self._to_move
        events: list[GameEvent] = []
        self._ply += 1
        if move == RESIGN:
            self._resign(seat, events)
            return tuple(events)
        pit, direction = move
        step = DIRECTION_STEP[direction or "ccw"]
        last = self._sow(pit - 1, step)
        self._capture_from(last, step, seat, events)
        self._skipped = 0
        self._start_turn(self._next_playing_seat(seat), events)
        return tuple(events)

    def _sow(self, origin: int, step: int) -> int:
        """Sow all stones of pit index ``origin``, skipping it on every lap; return the last pit.

        With n stones every other pit gets n // 11, and the first n % 11 pits of the lap one
        more (rules §4.2).
        """
        stones = self._pits[origin]
        self._pits[origin] = 0
        laps, rest = divmod(stones, PIT_COUNT - 1)
        path = _sowing_lap(origin, step)
        for order, index in enumerate(path):
            self._pits[index] += laps + (order < rest)
        return path[rest - 1]

    def _capture_from(self, last: int, step: int, seat: int, events: list[GameEvent]) -> None:
        """Take the opponents' pits of 2 or 3 from ``last`` backwards (rules §4.3)."""
        taken: list[str] = []
        stones = 0
        index = last
        while self._owners[index] != seat and self._pits[index] in (2, 3):
            stones += self._pits[index]
            self._pits[index] = 0
            taken.append(str(index + 1))
            index = (index - step) % PIT_COUNT
        if taken:
            self._stores[seat - 1] += stones
            events.append(GameEvent("capture", seat, tuple(taken), stones))

    def _resign(self, seat: int, events: list[GameEvent]) -> None:
        """``seat`` leaves the game; the next playing seat's turn starts (rules §7)."""
        self._resigned.append(seat)
        events.append(GameEvent("resign", seat))
        if self._variant.players - len(self._resigned) <= 1:
            self._end(events)
            return
        self._start_turn(self._next_playing_seat(seat), events)

    def _start_turn(self, seat: int, events: list[GameEvent]) -> None:
        """Start the turn of the playing seat ``seat``: the end tests of rules §6.1 and §6.2."""
        if self._variant.players == 2:
            if self._has_stones(seat):
                self._to_move = seat
            else:
                self._end(events)
            return
        while not self._has_stones(seat):
            self._skipped += 1
            events.append(GameEvent("skip", seat))
            if self._skipped == 2:
                self._end(events)
                return
            seat = self._next_playing_seat(seat)
        self._to_move = seat

    def _end(self, events: list[GameEvent]) -> None:
        """End the game."""
        self._to_move = 0
        events.append(GameEvent("end", 0))

    def _has_stones(self, seat: int) -> bool:
        """Whether any pit of ``seat`` holds a stone."""
        return any(
            stones for stones, owner in zip(self._pits, self._owners, strict=True) if owner == seat
        )

    def _next_playing_seat(self, seat: int) -> int:
        """The first seat after ``seat`` in turn order that has not resigned."""
        players = self._variant.players
        following = seat % players + 1
        while following in self._resigned:
            following = following % players + 1
        return following

    def decide(self, decision: Move) -> None:
        """Make one decision of ``legal_moves``: in this game, a whole ply (see ``play``)."""
        self.play(decision)

    def copy(self) -> OhWahReeState:
        """An independent copy of this state."""
        return OhWahReeState._restore(
            self._variant,
            self._pits,
            self._stores,
            to_move=self._to_move,
            skipped=self._skipped,
            resigned=self._resigned,
            ply=self._ply,
        )

    # -- results ------------------------------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """Each seat's store plus the stones in its own pits, in seat order (rules §6.3)."""
        pits, stores = self._pits, self._stores
        # store + sum(pits[own]) for each seat's store and own pits, in C
        return tuple(map(add, stores, map(sum, map(pits.__getitem__, _seat_pits(len(stores))))))

    def ranking(self) -> tuple[int, ...]:
        """Competition ranks in seat order (rules §6.3, §7).

        Playing seats rank by score, equal scores sharing a rank; resigned seats rank below
        them, the later resignation higher.
        """
        return rank_seats(self.scores(), self._resigned)

    def winners(self) -> tuple[int, ...]:
        """The seats ranked first once the game is over (a 2-seat draw: both); else ``()``."""
        if self._to_move != 0:
            return ()
        return tuple([seat for seat, rank in enumerate(self.ranking(), 1) if rank == 1])

    def position(self) -> Position:
        """A game-neutral snapshot: pits 1..12 with owner and ``(stones,)``, and the stores."""
        sites = tuple(
            Site(str(index + 1), owner, (stones,))
            for index, (stones, owner) in enumerate(zip(self._pits, self._owners, strict=True))
        )
        return Position(
            to_move=self._to_move,
            sites=sites,
            captured=tuple(self._stores),
            resigned=tuple(self._resigned),
        )

    def digest(self) -> str:
        """A blake2b hex digest of everything that decides the rest of the game and its ranking.

        That is the variant, the pits, the stores, the seat to move, the skip counter and the
        resignations in order; not the ply count, so move orders that meet give equal digests.
        """
        variant = self._variant
        text = ";".join(
            (
                "oh-wah-ree",
                f"{variant.players},{variant.stones_per_pit},{variant.direction}",
                ",".join(map(str, self._pits)),
                ",".join(map(str, self._stores)),
                str(self._to_move),
                str(self._skipped),
                ",".join(map(str, self._resigned)),
            )
        )
        return digest_of(text.encode("ascii"))

    def __repr__(self) -> str:
        return (
            f"OhWahReeState(players={self.seats}, pits={self._pits}, stores={self._stores},"
            f" to_move={self._to_move}, skipped={self._skipped}, resigned={self._resigned})"
        )


def check_position(
    variant: OhWahReeVariant,
    pits: Sequence[int],
    stores: Sequence[int],
    *,
    to_move: int,
    resigned: Sequence[int],
    skipped: int,
) -> None:
    """Raise :class:`PositionError` unless the parts can form a position of ``variant``."""
    players = variant.players
    if len(pits) != PIT_COUNT or len(stores) != players:
        raise PositionError(f"a position has 12 pits and {players} stores")
    if min(pits) < 0 or min(stores) < 0:
        raise PositionError("stone counts cannot be negative")
    if sum(pits) + sum(stores) != variant.total_stones:
        raise PositionError(
            f"pits and stores must hold {variant.total_stones} stones in all ({RULES} §5)"
        )
    seats = range(1, players + 1)
    if to_move not in seats or to_move in resigned:
        raise PositionError(f"seat {to_move} cannot be to move")
    if len(set(resigned)) != len(resigned) or not set(resigned) <= set(seats):
        raise PositionError("resigned seats must be distinct seats of the table")
    if players == 2 and (resigned or skipped):
        raise PositionError("a two-seat game has no resigned or skipped seats in play")
    if len(resigned) >= players - 1 or skipped not in (0, 1):
        raise PositionError("at least two seats play, and at most one seat was skipped")


# ---------------------------------------------------------------------------------------------
# Notation
# ---------------------------------------------------------------------------------------------


def parse_move(text: str) -> Move:
    """Parse ``4``, ``4ccw``, ``4cw`` or ``resign`` (case-insensitive, spaces around ignored).

    Raises:
        MoveSyntaxError: the text is not an Oh-Wah-Ree move token.
    """
    token = text.strip().lower()
    if token == RESIGN:
        return RESIGN
    try:
        pit, suffix = syntax.parse_move(token)
    except NotationError as error:
        raise MoveSyntaxError(str(error)) from None
    return Sow(pit, cast(SowDirection, suffix) if suffix else None)


def format_move(variant: OhWahReeVariant, move: Move) -> str:
    """The canonical token: the bare pit where every move is ccw, else pit plus direction."""
    if move == RESIGN:
        return RESIGN
    pit, direction = move
    if direction is None or (direction == "ccw" and not variant.direction_is_free):
        return str(pit)
    return f"{pit}{direction}"


# ---------------------------------------------------------------------------------------------
# Fast replay
# ---------------------------------------------------------------------------------------------

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


# ---------------------------------------------------------------------------------------------
# Random games
# ---------------------------------------------------------------------------------------------


def random_game(
    variant: OhWahReeVariant,
    rng: random.Random,
    choose: Callable[[GameState[Move], list[Move]], Move] | None = None,
) -> list[Move]:
    """A legal game to its end; ``choose`` picks each ply (default ``rng.choice``); no resigning.

    The one exception to "to its end": when every seat's move is forced and the position comes
    back, the game can never end (the rules have no repetition rule, §8.2; random games show it
    with 4 seats and ``Direction`` ``ccw``). The game is then returned unfinished, at the first
    repetition.
    """
    state = OhWahReeState(variant)
    plies: list[Move] = []
    forced_since_last_choice: set[str] = set()
    while not state.is_over:
        legal = state.legal_moves()
        if len(legal) > 1:
            forced_since_last_choice.clear()
        else:
            digest = state.digest()
            if digest in forced_since_last_choice:
                break
            forced_since_last_choice.add(digest)
        move = rng.choice(legal) if choose is None else choose(state, legal)
        state.play(move)
        plies.append(move)
    return plies


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------


class OhWahReeEngine(BaseEngine[OhWahReeVariant, Move, OhWahReeState]):
    """Oh-Wah-Ree behind the engine protocol of protocol.py.

    Its own: the GRN tags of the variant, move tokens that depend on the variant, and random
    games that stop at a forced cycle.
    """

    def __init__(self) -> None:
        """The Oh-Wah-Ree engine (there is one, :data:`ENGINE`)."""
        super().__init__(
            name=NAME,
            rules=RULES,
            reason_codes=REASON_CODES,
            reason_sections=REASON_SECTIONS,
            variant_type=OhWahReeVariant,
            state_type=OhWahReeState,
            parse_move=parse_move,
            format_move=format_move,
            replay=replay,
        )

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> OhWahReeVariant:
        """A variant from the options ``Players`` (required), ``StonesPerPit``, ``Direction``.

        Raises:
            VariantError: ``Players`` missing, or a value that is not possible.
        """
        if "Players" not in values:
            raise VariantError("an Oh-Wah-Ree record needs the Players tag")
        stones = values.get("StonesPerPit")
        return OhWahReeVariant(
            players=option_number("Players", values["Players"]),
            stones_per_pit=0 if stones is None else option_number("StonesPerPit", stones, least=1),
            direction=option_word(values.get("Direction", "")),
        )

    def variant_tags(self, variant: OhWahReeVariant) -> dict[str, str]:
        """The GRN tags of ``variant``, every option written out."""
        return {
            "Players": str(variant.players),
            "StonesPerPit": str(variant.stones_per_pit),
            "Direction": variant.direction,
        }

    def random_game(
        self,
        variant: OhWahReeVariant,
        rng: random.Random,
        choose: Callable[[GameState[Move], list[Move]], Move] | None = None,
    ) -> list[Move]:
        """A legal game, the same for the same seed (see :func:`random_game` for forced cycles)."""
        return random_game(variant, rng, choose)


#: The Oh-Wah-Ree engine, reached through ``gamerec.validator.games.engine("Oh-Wah-Ree")``.
ENGINE: Final = OhWahReeEngine()
