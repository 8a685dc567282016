"""A ONE position with the seat to move (docs/rules/one.md §4 - §7): :class:`OneState`.

Playing, scoring and pictures are here; the legality of moves is :class:`OneLegality`, which
``OneState`` inherits. It may import the modules of ``one`` but ``replay`` and ``engine``, and
``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import pairwise
from typing import Final

from gamerec.validator.games.one.board import (
    EMPTY,
    NAME,
    NO_POINT,
    RING_LETTERS,
    Board,
    _code,
    point_name,
)
from gamerec.validator.games.one.legality import OneLegality
from gamerec.validator.games.one.notation import Move, point_code
from gamerec.validator.games.one.variant import OneVariant
from gamerec.validator.games.protocol import (
    GameEvent,
    IllegalMoveError,
    Position,
    Site,
    VariantError,
    digest_of,
    rank_seats,
)

#: What a position's scoring makes at once: largest groups, scores and ranks, in seat order,
#: and the points' cells in board order as bytes (which the digest reads too).
_Scoring = tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...], bytes]
#: Cell values (0 for empty, else a seat) to the digits the digest writes for them.
_DIGITS: Final = bytes.maketrans(bytes(range(10)), b"0123456789")
#: Per seat, cell values to binary digits: "1" for that seat's stones, "0" for anything else.
_SEAT_DIGITS: Final = tuple(
    bytes(0x31 if value == seat else 0x30 for value in range(256)) for seat in range(7)
)


class OneState(OneLegality):
    """A ONE position with the seat to move; mutable (``play`` works in place).

    Seats are 1-based. Per-seat lists inside are indexed by seat (entry 0 unused).
    """

    __slots__ = (
        "_active",
        "_banned",
        "_board",
        "_captured",
        "_cells",
        "_ending",
        "_next",
        "_ply",
        "_resigned",
        "_scored",
        "_stones",
        "_supplies",
        "_to_move",
        "_variant",
    )

    def __init__(self, variant: OneVariant) -> None:
        """The start position of ``variant``: an empty board, full supplies, seat 1 to move."""
        board = variant.board
        seats = variant.players
        self._variant = variant
        self._board = board
        self._cells = list(board.cells)
        self._supplies = [0] + [variant.stones] * seats
        self._captured = [0] * (seats + 1)
        # _next[s]: the next seat after s that has not resigned (kept for resigned seats too).
        self._next = [0] + [seat % seats + 1 for seat in range(1, seats + 1)]
        self._active = seats
        self._resigned: list[int] = []
        self._to_move = 1
        self._ply = 0
        self._ending = False
        # largest_groups(), scores() and ranking() (and the cells as bytes), made together once
        # and remembered until the position changes: _end_ply (every ply) and every write
        # outside play() reset it.
        self._scored: _Scoring | None = None
        self._banned = NO_POINT
        self._stones = 0

    @classmethod
    def set_up(
        cls,
        variant: OneVariant,
        stones: Mapping[str, int],
        *,
        to_move: int = 1,
        supplies: Sequence[int] | None = None,
        captured: Sequence[int] | None = None,
    ) -> OneState:
        """A position built by hand, for tests and analysis; it need not be reachable.

        The position counts as ply 0 with no mirror ban, so under ``Mirror first`` the second
        ply played from it is restricted as ply 2 of a game is.

        Args:
            variant: the rules.
            stones: the seat on each occupied point, by point name (``{"c7": 1}``).
            to_move: the seat to move.
            supplies: per seat in seat order; default K minus the seat's stones on the board.
            captured: per seat in seat order; default all 0.

        Raises:
            VariantError: a point is not on the board, or a seat or count is out of range.
        """
        state = cls(variant)
        seats = variant.players
        for name, seat in stones.items():
            code = point_code(name)
            if not state._board.has_point(code) or not 1 <= seat <= seats:
                raise VariantError(f"cannot put a stone of seat {seat} on {name}")
            state._cells[code] = seat
            state._stones += 1
            state._scored = None
        if not 1 <= to_move <= seats:
            raise VariantError(f"seat {to_move} is not at a table of {seats}")
        placed = [sum(1 for s in stones.values() if s == seat) for seat in range(1, seats + 1)]
        default_supplies = [max(variant.stones - n, 0) for n in placed]
        for target, values in (
            (state._supplies, default_supplies if supplies is None else supplies),
            (state._captured, [0] * seats if captured is None else captured),
        ):
            if len(values) != seats or min(values) < 0:
                raise VariantError(f"need one count >= 0 per seat, not {list(values)}")
            target[1:] = values
        state._to_move = to_move
        return state

    # -- the protocol's read-only view ----------------------------------------------------

    @property
    def variant(self) -> OneVariant:
        """The rules of this game."""
        return self._variant

    @property
    def board(self) -> Board:
        """The board."""
        return self._board

    @property
    def seats(self) -> int:
        """The number of seats at the table (resigned seats included)."""
        return self._variant.players

    @property
    def to_move(self) -> int:
        """The seat to move; 0 when the game is over."""
        return self._to_move

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (§6.2, §7)."""
        return self._to_move == 0

    @property
    def ply(self) -> int:
        """The number of plies played so far."""
        return self._ply

    @property
    def supplies(self) -> tuple[int, ...]:
        """Stones left to place, per seat in seat order."""
        return tuple(self._supplies[1:])

    @property
    def captured(self) -> tuple[int, ...]:
        """Stones captured, per seat in seat order."""
        return tuple(self._captured[1:])

    @property
    def resigned(self) -> tuple[int, ...]:
        """The seats that have resigned, in the order they did."""
        return tuple(self._resigned)

    @property
    def ending(self) -> bool:
        """Whether some seat has placed its last stone: the round in progress is the last."""
        return self._ending

    @property
    def stones_on_board(self) -> int:
        """The number of stones on the board."""
        return self._stones

    def stone_at(self, name: str) -> int:
        """The seat whose stone stands on point ``name``, 0 when it is empty.

        Raises:
            MoveSyntaxError: ``name`` is not a point name.
            KeyError: the board has no such point.
        """
        code = point_code(name)
        if not self._board.has_point(code):
            raise KeyError(name)
        return self._cells[code]

    # -- playing --------------------------------------------------------------------------

    def play(self, move: Move) -> tuple[GameEvent, ...]:
        """Play ``move`` in place and return what it did.

        Events: ``capture`` (seat = the captor, where = the jumped points in jump order,
        count = how many), ``resign`` (the resigning seat), ``end`` (the game is over after
        this ply; seat = the seat that made it). A placement adds no event of its own.

        Raises:
            IllegalMoveError: ``check`` rejects the move; the state is unchanged.
        """
        illegal = self.check(move)
        if illegal is not None:
            raise IllegalMoveError(illegal)
        seat = self._to_move
        events: list[GameEvent] = []
        if not move:
            self._resign(seat)
            events.append(GameEvent("resign", seat))
        elif len(move) == 1:
            self._place(move[0], seat)
        else:
            jumped = self._capture(move, seat)
            events.append(GameEvent("capture", seat, tuple(map(point_name, jumped)), len(jumped)))
        if self._end_ply(seat):
            events.append(GameEvent("end", seat))
        return tuple(events)

    def _apply(self, move: Move) -> None:
        """Play a move known to be legal (from ``legal_moves``) without checking it."""
        seat = self._to_move
        if not move:
            self._resign(seat)
        elif len(move) == 1:
            self._place(move[0], seat)
        else:
            self._capture(move, seat)
        self._end_ply(seat)

    def _place(self, p: int, seat: int) -> None:
        self._cells[p] = seat
        self._supplies[seat] -= 1
        self._stones += 1
        if self._supplies[seat] == 0:
            self._ending = True  # §6.1
        mirror = self._variant.mirror
        if mirror == "every" or (mirror == "first" and self._ply == 0):
            self._banned = self._board.opposite[p]
        else:
            self._banned = NO_POINT

    def _capture(self, path: Move, seat: int) -> list[int]:
        cells = self._cells
        jumped = []
        cells[path[0]] = EMPTY
        for here, land in pairwise(path):
            over = self._board.jumped_between[here][land]
            cells[over] = EMPTY
            jumped.append(over)
        cells[path[-1]] = seat
        self._captured[seat] += len(jumped)
        self._stones -= len(jumped)
        self._banned = NO_POINT
        return jumped

    def _resign(self, seat: int) -> None:
        self._resigned.append(seat)
        self._active -= 1
        self._banned = NO_POINT
        seats = self.seats
        playing = [s for s in range(1, seats + 1) if s not in self._resigned]
        for s in range(1, seats + 1):
            self._next[s] = next((t for t in playing if t > s), playing[0])

    def _end_ply(self, seat: int) -> bool:
        """Pass the turn after ``seat``'s ply; return whether the game is now over (§6.2, §7)."""
        self._ply += 1
        self._scored = None
        following = self._next[seat]
        if self._active == 1 or (self._ending and following <= seat):
            self._to_move = 0
            return True
        self._to_move = following
        return False

    def decide(self, decision: Move) -> None:
        """Make one decision of ``legal_moves``: in this game, a whole ply (see ``play``)."""
        self.play(decision)

    def copy(self) -> OneState:
        """An independent copy of this state."""
        other = OneState.__new__(OneState)
        other._variant = self._variant
        other._board = self._board
        other._cells = self._cells.copy()
        other._supplies = self._supplies.copy()
        other._captured = self._captured.copy()
        other._next = self._next.copy()
        other._active = self._active
        other._resigned = self._resigned.copy()
        other._to_move = self._to_move
        other._ply = self._ply
        other._ending = self._ending
        other._banned = self._banned
        other._stones = self._stones
        other._scored = self._scored
        return other

    # -- scoring (§5, §6.3, §6.4, §7) -----------------------------------------------------

    def largest_groups(self) -> tuple[int, ...]:
        """largest(s) per seat in seat order: the size of its biggest group, 0 with no stone."""
        return (self._scored or self._score())[0]

    def scores(self) -> tuple[int, ...]:
        """score(s) = largest(s) + 2 x captured(s), every seat (resigned too), now (§6.3)."""
        return (self._scored or self._score())[1]

    def ranking(self) -> tuple[int, ...]:
        """Competition ranks per seat in seat order (§6.4, §7).

        Seats still playing are ranked by score, ties separated by ``Tiebreak``; resigned
        seats follow, the later resignation ranking higher. Before the end of the game this
        is the standing now.
        """
        return (self._scored or self._score())[2]

    def winners(self) -> tuple[int, ...]:
        """The seats ranked 1st once the game is over; ``()`` while it goes on."""
        if self._to_move:
            return ()
        ranks = (self._scored or self._score())[2]
        return tuple([seat for seat, rank in enumerate(ranks, 1) if rank == 1])

    def _score(self) -> _Scoring:
        """Make and remember largest groups, scores and ranks in one pass (§6.3, §6.4, §7)."""
        owners = bytes(self._board.on_points(self._cells))
        largest = self._find_largest_groups(owners)
        captured = self._captured
        seats = range(1, len(captured))
        scores = tuple([largest[seat] + 2 * captured[seat] for seat in seats])
        if self._variant.tiebreak == "largest-group":
            # (score, largest group) compared as one number: a group has at most size points.
            scale = self._board.size + 1
            keys = [scores[seat - 1] * scale + largest[seat] for seat in seats]
        else:
            keys = list(scores)
        scored = self._scored = (
            tuple(largest[1:]),
            scores,
            rank_seats(keys, self._resigned),
            owners,
        )
        return scored

    def _find_largest_groups(self, owners: bytes) -> list[int]:
        """largest(s) indexed by seat (entry 0 unused), from the points' cells in board order.

        A seat's stones not yet in a group are one int (:class:`GroupTables`). A group grows
        from the lowest of them: each stone that joins brings its neighbours still in the int,
        which leave it. Groups are taken until the stones left are no more than the largest
        group so far: no later group can be larger.
        """
        neighbours, places = self._board.group_tables()
        backwards = owners[::-1]  # int() reads the first binary digit as the highest bit
        largest = [0] * len(self._captured)
        for seat in range(1, len(largest)):
            stones = int(backwards.translate(_SEAT_DIGITS[seat]), 2)
            left = stones.bit_count()
            best = 0
            while left > best:
                lowest = stones & -stones
                stones ^= lowest
                joining = neighbours[lowest.bit_length() - 1] & stones
                if not joining:  # a lone stone, common enough to skip the list
                    left -= 1
                    best = best or 1
                    continue
                stones ^= joining
                group = [*places[joining]]  # the stones after the first
                for here in group:  # the list grows as the loop reads it
                    joining = neighbours[here] & stones
                    if joining:
                        stones ^= joining
                        group += places[joining]
                size = len(group) + 1
                left -= size
                if size > best:  # noqa: PLR1730 (no call per group)
                    best = size
            largest[seat] = best
        return largest

    # -- pictures -------------------------------------------------------------------------

    def position(self) -> Position:
        """A game-neutral snapshot: every point with its stone, supplies, captures, resigned."""
        board = self._board
        return Position(
            to_move=self._to_move,
            sites=tuple(map(Site, board.names, board.on_points(self._cells))),
            supplies=self.supplies,
            captured=self.captured,
            resigned=self.resigned,
        )

    def digest(self) -> str:
        """A blake2b digest (32 hex digits) of everything that decides the game's future.

        Covers the variant, every point, supplies, captures, the resignation order, the seat
        to move, the ``ending`` flag and the point the anti-mirror rule bans next; not the
        ply count. The digested text is those fields joined by ``|``, each point a digit.
        """
        banned = self._banned
        rest = "|{}|{}|{}|{}|{}|{}".format(
            ",".join(map(str, self._supplies[1:])),
            ",".join(map(str, self._captured[1:])),
            ",".join(map(str, self._resigned)),
            self._to_move,
            "1" if self._ending else "0",
            "-" if banned == NO_POINT else point_name(banned),
        )
        scored = self._scored  # when the scoring is remembered, so are the cells as bytes
        owners = scored[3] if scored else bytes(self._board.on_points(self._cells))
        points = owners.translate(_DIGITS)
        return digest_of(b"".join((_digest_head(self._variant), points, rest.encode("ascii"))))

    def diagram(self) -> str:
        """The board as text, one row per ring from ``a`` outwards.

        Each row lists the ring's points in index order: ``.`` for an empty point, else the
        seat number of its stone::

            a . . . . 1 . . . . .
            b . . . . . . . . . .
        """
        rows = []
        for ring, size in enumerate(self._board.rings):
            cells = (self._cells[_code(ring, i)] for i in range(1, size + 1))
            rows.append(" ".join([RING_LETTERS[ring], *(str(c) if c else "." for c in cells)]))
        return "\n".join(rows)

    def __repr__(self) -> str:
        """The variant, ply and seat to move, for debugging."""
        return f"OneState({self._variant!r}, ply={self._ply}, to_move={self._to_move})"


@lru_cache(maxsize=64)
def _digest_head(variant: OneVariant) -> bytes:
    """The start of a digested text that the variant alone decides, up to the points' ``|``."""
    board = variant.board.text()
    return f"{NAME}|{variant.players}|{board}|{variant.mirror}|{variant.tiebreak}|".encode("ascii")
