"""An Oh-Wah-Ree position with the seat to move (docs/rules/ohwahree.md §4 - §7).

:class:`OhWahReeState` (legality, sowing, captures, turns and ends, results, pictures), the
reason codes its ``check`` returns, and the checks of a set-up position
(:func:`check_position`). It may import ``ohwahree.pits``, ``ohwahree.variant``,
``ohwahree.notation``, ``gamerec.recorder.errors`` and ``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import add
from typing import Final

from gamerec.recorder.errors import GamerecError
from gamerec.validator.games.ohwahree.notation import RESIGN, Move, Sow
from gamerec.validator.games.ohwahree.pits import (
    DIRECTION_STEP,
    PIT_COUNT,
    RULES,
    SowDirection,
    _seat_pits,
    _sowing_lap,
    pit_owners,
)
from gamerec.validator.games.ohwahree.variant import OhWahReeVariant
from gamerec.validator.games.protocol import (
    GameEvent,
    Illegal,
    IllegalMoveError,
    Position,
    Site,
    digest_of,
    rank_seats,
)

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


class PositionError(GamerecError):
    """A position given to :meth:`OhWahReeState.from_position` cannot occur under its variant."""


class OhWahReeState:
    """A position with the seat to move; ``play`` changes it in place (``protocol``).

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
