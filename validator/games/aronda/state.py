"""Aronda's position, ``ArondaState``: the rules text step by step (see the package docstring).

Mutable (``play`` changes it in place, ``copy`` forks it); ``check``/``play`` recompute the
chains from scratch, independently of the fast replay (``aronda.replay``).

May import: ``protocol``, ``recorder.errors``, ``aronda.board``, ``aronda.notation``,
``aronda.variant``, ``aronda.reasons``.
"""

from __future__ import annotations

from collections.abc import Mapping

from gamerec.recorder.errors import GamerecError
from gamerec.validator.games.aronda.board import (
    ALL_FIELDS,
    CAPACITY,
    EDGE,
    FIELD_COUNT,
    FIELD_NAMES,
    NEIGHBOUR_MASK,
    SEATS,
    SUPPLY,
    WINNING_FIELDS,
    around,
    fields_in,
    take_from_outside,
)
from gamerec.validator.games.aronda.notation import (
    PASS,
    RESIGN,
    Move,
    _board_field,
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
from gamerec.validator.games.aronda.variant import (
    SECOND_PIECE_OPTIONS,
    SUPPLY_OPTIONS,
    ArondaVariant,
)
from gamerec.validator.games.protocol import (
    GameEvent,
    Illegal,
    IllegalMoveError,
    Position,
    Site,
    digest_of,
    seats_of_bits,
)


class ArondaState:
    """An Aronda position with the seat to move; mutable (see the module docstring).

    Seat-indexed lists have a dummy entry at index 0 so that seats index them directly.
    """

    __slots__ = (
        "_ending",
        "_must_pass",
        "_owned",
        "_passes",
        "_pieces",
        "_ply",
        "_resigned",
        "_seat",
        "_supply",
        "_variant",
        "_winners",
    )

    def __init__(self, variant: ArondaVariant) -> None:
        """The start position under ``variant``: empty board, 16 pieces each, seat 1 to move."""
        self._variant = variant
        self._owned = [0, 0, 0]
        self._pieces = [[], [0] * FIELD_COUNT, [0] * FIELD_COUNT]
        self._supply = [0, SUPPLY, SUPPLY]
        self._seat = 1
        self._ply = 0
        self._passes = 0
        self._must_pass = False
        self._ending = ""
        self._winners: tuple[int, ...] = ()
        self._resigned: tuple[int, ...] = ()

    @classmethod
    def arranged(
        cls,
        variant: ArondaVariant,
        owners: Mapping[str, int],
        pieces: Mapping[str, tuple[int, int]],
        to_move: int = 1,
        ply: int = 2,
    ) -> ArondaState:
        """A position given field by field, for analysis and tests.

        Args:
            variant: the rule options.
            owners: field name -> owning seat, for the owned fields.
            pieces: field name -> (pieces of seat 1, pieces of seat 2), for fields with pieces.
            to_move: the seat whose turn starts now.
            ply: plies played so far; 0 means seat 1's single-piece first turn.

        The start-of-turn rule (§4.3) is applied: the result may already be over.

        Raises:
            GamerecError: a position the rules can never reach in this form (a field owned and
                holding pieces, a seat with capacity pieces on a field, more than 16 pieces,
                a field one seat should have taken from outside, 13 owned fields).
        """
        state = cls(variant)
        for name, seat in owners.items():
            if seat not in (1, 2):
                raise GamerecError(f"impossible Aronda position: no seat {seat} to own {name}")
            state._owned[seat] |= 1 << _board_field(name)
        for name, counts in pieces.items():
            code = _board_field(name)
            for seat, count in zip((1, 2), counts, strict=True):
                state._pieces[seat][code] = count
        for seat in (1, 2):
            state._supply[seat] = SUPPLY - sum(state._pieces[seat])
        state._seat = to_move
        state._ply = ply
        problem = state._arrangement_problem()
        if problem:
            raise GamerecError(f"impossible Aronda position: {problem}")
        state._begin_turn()
        return state

    def _arrangement_problem(self) -> str:
        """Why the fields of an arranged position break an invariant of §3 and §5, or ""."""
        problems = []
        if self._owned[1] & self._owned[2]:
            problems.append("a field is owned by both seats")
        if self._seat not in (1, 2) or self._ply < 0 or (self._ply == 0 and self._seat != 1):
            problems.append("seat to move and ply do not fit")
        for seat in (1, 2):
            if self._supply[seat] < 0:
                problems.append(f"seat {seat} has more than {SUPPLY} pieces on the board")
            if self._owned[seat].bit_count() >= WINNING_FIELDS:
                problems.append(f"seat {seat} owns 13 fields, the game is over")
            if take_from_outside(self._owned[seat], self._unowned()):
                problems.append(f"seat {seat} would own more fields from outside")
            for code, count in enumerate(self._pieces[seat]):
                owned = (self._owned[1] | self._owned[2]) >> code & 1
                if count < 0 or count >= CAPACITY[code] or (count and owned):
                    problems.append(
                        f"seat {seat} cannot have {count} pieces on {FIELD_NAMES[code]}"
                    )
        return problems[0] if problems else ""

    # -- the protocol's properties --------------------------------------------------------------

    @property
    def variant(self) -> ArondaVariant:
        """The rule options of this game."""
        return self._variant

    @property
    def seats(self) -> int:
        """Always 2."""
        return SEATS

    @property
    def to_move(self) -> int:
        """The seat to move; 0 when the game is over."""
        return 0 if self._ending else self._seat

    @property
    def is_over(self) -> bool:
        """Whether the game has ended (see :attr:`ending`)."""
        return bool(self._ending)

    @property
    def ply(self) -> int:
        """Plies played so far."""
        return self._ply

    @property
    def ending(self) -> str:
        """How the game ended, a key of :data:`ENDINGS`; "" while it goes on."""
        return self._ending

    @property
    def must_pass(self) -> bool:
        """Whether the seat to move must pass (Supply pass, empty supply, §4.3)."""
        return self._must_pass

    def supply(self, seat: int) -> int:
        """The pieces ``seat`` still has to place."""
        return self._supply[seat]

    def owned(self, seat: int) -> int:
        """The fields ``seat`` owns, as a mask."""
        return self._owned[seat]

    def pieces(self, seat: int, field: int) -> int:
        """How many pieces ``seat`` has on ``field`` (a code)."""
        return self._pieces[seat][field]

    # -- the rules: access (§4.2) ---------------------------------------------------------------

    def _unowned(self) -> int:
        return ALL_FIELDS & ~(self._owned[1] | self._owned[2])

    def _marked(self, seat: int) -> int:
        """marked(s) of §4.2: fields holding a piece of ``seat`` or owned by it."""
        marked = self._owned[seat]
        for code, count in enumerate(self._pieces[seat]):
            if count:
                marked |= 1 << code
        return marked

    def chain(self, seat: int) -> int:
        """The marked fields joined to a marked edge field through marked ones (§4.2 chain)."""
        marked = self._marked(seat)
        chain = marked & EDGE
        while True:
            grown = (chain | around(chain)) & marked
            if grown == chain:
                return chain
            chain = grown

    def access(self, seat: int) -> int:
        """Fields without an owner on the edge or next to chain(seat) (§4.2, 1 and 2)."""
        return self._unowned() & (EDGE | around(self.chain(seat)))

    def legal_field_mask(self, seat: int | None = None) -> int:
        """Where a piece of ``seat`` (default: the seat to move) may go now, as a mask."""
        seat = self._seat if seat is None else seat
        if self._ending or not self._supply[seat]:
            return 0
        return self.access(seat)

    def legal_fields(self) -> list[str]:
        """The fields the seat to move may place its next piece on, in board order."""
        return [FIELD_NAMES[code] for code in fields_in(self.legal_field_mask())]

    def _placement_fault(self, seat: int, field: int, label: str) -> Illegal | None:
        """Why a piece of ``seat`` may not go on ``field`` now (§4.2), or None."""
        if not 0 <= field < FIELD_COUNT:
            return _no_such_field(label, field)
        bit = 1 << field
        for owner in (1, 2):
            if self._owned[owner] & bit:
                return _field_owned(label, field, owner)
        if not bit & EDGE and not NEIGHBOUR_MASK[field] & self.chain(seat):
            return _not_connected(label, field, seat)
        if not self._supply[seat]:
            return _no_pieces_left(label, field, seat)
        return None

    # -- the rules: effects of one piece (§5) ---------------------------------------------------

    def _place(self, seat: int, field: int) -> list[GameEvent]:
        """Put a piece of ``seat`` on ``field`` and resolve it completely (§5, §6.1)."""
        events = []
        self._pieces[seat][field] += 1
        self._supply[seat] -= 1
        if self._pieces[seat][field] == CAPACITY[field]:
            events.append(self._take(seat, 1 << field, "possession-inside"))
            # Step 2 can only find something after step 1 took a field: the from-outside
            # condition depends on the seat's owned fields alone, and the previous piece left
            # no field meeting it (§5, "only the seat that placed can gain fields").
            outside = take_from_outside(self._owned[seat], self._unowned())
            if outside:
                events.append(self._take(seat, outside, "possession-outside"))
            if self._owned[seat].bit_count() >= WINNING_FIELDS:
                self._finish("thirteen-fields", (seat,))
        return events

    def _take(self, seat: int, fields: int, kind: str) -> GameEvent:
        """``seat`` takes ``fields``: their pieces go back to their owners' supplies (§5.3)."""
        returned = 0
        for code in fields_in(fields):
            for owner in (1, 2):
                returned += self._pieces[owner][code]
                self._supply[owner] += self._pieces[owner][code]
                self._pieces[owner][code] = 0
        self._owned[seat] |= fields
        where = tuple(FIELD_NAMES[code] for code in fields_in(fields))
        return GameEvent(kind, seat, where, returned)

    # -- the rules: turns and the end (§4, §6, §7) ----------------------------------------------

    def _finish(self, ending: str, winners: tuple[int, ...]) -> None:
        self._ending = ending
        self._winners = winners
        self._must_pass = False

    def _begin_turn(self) -> None:
        """Apply §4.3 at the start of a turn: the seat to move plays, must pass, or has lost."""
        seat = self._seat
        access = self.access(seat)
        if access and self._supply[seat]:
            self._must_pass = False
        elif access and self._variant.supply == "pass":
            self._must_pass = True
        else:
            self._finish("blocked", (3 - seat,))

    def _end_ply(self, events: list[GameEvent]) -> tuple[GameEvent, ...]:
        """Count the ply, hand the turn over (or report the end) and return the events."""
        self._ply += 1
        if not self._ending:
            self._seat = 3 - self._seat
            self._begin_turn()
        if self._ending:
            winner = self._winners[0] if len(self._winners) == 1 else 0
            events.append(GameEvent("end", winner))
        return tuple(events)

    def _resolve(self, move: Move) -> Illegal | tuple[GameEvent, ...]:
        """Play ``move`` on this state, or say why it is illegal (the state is then spoiled)."""
        seat = self._seat
        if move == RESIGN:
            self._resigned = (seat,)
            self._finish("resignation", (3 - seat,))
            return self._end_ply([GameEvent("resign", seat)])
        if move == PASS:
            return self._resolve_pass(seat)
        return self._resolve_placements(seat, move)

    def _resolve_placements(self, seat: int, move: Move) -> Illegal | tuple[GameEvent, ...]:
        """Place the pieces of a turn one by one (§4.1), each resolved completely (§5)."""
        count = len(move)
        first_turn = self._ply == 0
        if count == 0 or count > 2 or (first_turn and count != 1):
            return _wrong_count(count, first_turn)
        events: list[GameEvent] = []
        for index, field in enumerate(move):
            if self._ending:
                return _turn_already_won(seat, move[0])
            fault = self._placement_fault(seat, field, _placement_label(index, count))
            if fault:
                return fault
            events += self._place(seat, field)
        if count == 1 and not first_turn and not self._ending:
            second = self.legal_field_mask(seat)
            if second:
                return _second_piece_missing(seat, move[0], second)
            if self._variant.second_piece == "lose":
                self._finish("second-piece", (3 - seat,))
            else:
                events.append(GameEvent("turn-ended", seat, (FIELD_NAMES[move[0]],)))
        self._passes = 0
        return self._end_ply(events)

    def _resolve_pass(self, seat: int) -> Illegal | tuple[GameEvent, ...]:
        if not self._must_pass:
            return _pass_not_allowed(seat, self._variant)
        self._passes += 1
        if self._passes >= 2:
            self._finish("passes", self._leaders())
        return self._end_ply([GameEvent("pass", seat)])

    def _leaders(self) -> tuple[int, ...]:
        """The seats owning the most fields."""
        scores = self.scores()
        return tuple(seat for seat in (1, 2) if scores[seat - 1] == max(scores))

    # -- the protocol's methods -----------------------------------------------------------------

    def legal_moves(self) -> list[Move]:
        """Every legal turn, in board order of the first then the second piece.

        ``pass`` when the seat must pass; ``resign`` is legal but not listed.
        """
        if self._ending:
            return []
        if self._must_pass:
            return [PASS]
        seat = self._seat
        moves: list[Move] = []
        for first in fields_in(self.legal_field_mask()):
            if self._ply == 0:
                moves.append((first,))
                continue
            after = self.copy()
            after._place(seat, first)
            second = 0 if after._ending else after.legal_field_mask(seat)
            if second:
                moves.extend((first, field) for field in fields_in(second))
            else:
                moves.append((first,))
        return moves

    def check(self, move: Move, seat: int | None = None) -> Illegal | None:
        """Why ``move`` is illegal here (by ``seat`` when given), or None.

        Order: GAME_ALREADY_OVER, NOT_YOUR_TURN, then the turn (see the module docstring).
        """
        if self._ending:
            return _game_over()
        if seat is not None and seat != self._seat:
            return _not_your_turn(seat, self._seat)
        outcome = self.copy()._resolve(move)
        return outcome if isinstance(outcome, Illegal) else None

    def play(self, move: Move) -> tuple[GameEvent, ...]:
        """Play ``move`` in place and return its events.

        Raises:
            IllegalMoveError: ``check`` rejects the move; the state is unchanged.
        """
        if self._ending:
            raise IllegalMoveError(_game_over())
        after = self.copy()
        outcome = after._resolve(move)
        if isinstance(outcome, Illegal):
            raise IllegalMoveError(outcome)
        for name in ArondaState.__slots__:
            setattr(self, name, getattr(after, name))
        return outcome

    def decide(self, decision: Move) -> None:
        """Make one decision of ``legal_moves``: in this game, a whole ply (see ``play``)."""
        self.play(decision)

    def copy(self) -> ArondaState:
        """An independent copy."""
        twin = ArondaState.__new__(ArondaState)
        twin._variant = self._variant
        twin._owned = self._owned[:]
        twin._pieces = [[], self._pieces[1][:], self._pieces[2][:]]
        twin._supply = self._supply[:]
        twin._seat = self._seat
        twin._ply = self._ply
        twin._passes = self._passes
        twin._must_pass = self._must_pass
        twin._ending = self._ending
        twin._winners = self._winners
        twin._resigned = self._resigned
        return twin

    def scores(self) -> tuple[int, ...]:
        """Fields owned by each seat (§6.3)."""
        return (self._owned[1].bit_count(), self._owned[2].bit_count())

    def ranking(self) -> tuple[int, ...]:
        """Winners rank 1 and the other seat 2 at the end; before it, the standing by fields."""
        if self._ending:
            return tuple(1 if seat in self._winners else 2 for seat in (1, 2))
        scores = self.scores()
        return tuple(1 + sum(other > score for other in scores) for score in scores)

    def winners(self) -> tuple[int, ...]:
        """The winning seats (both on a draw); empty while the game goes on."""
        return self._winners

    def position(self) -> Position:
        """The protocol's snapshot: owners, pieces per seat, supplies, resigned seat."""
        pieces = zip(self._pieces[1], self._pieces[2], strict=True)
        sites = tuple(map(Site, FIELD_NAMES, self._owners(), pieces))
        supplies = (self._supply[1], self._supply[2])
        return Position(self.to_move, sites, supplies, (), self._resigned)

    def _owners(self) -> bytes:
        """The seat that owns each field (0 for none), by code."""
        return seats_of_bits(self._owned[1], self._owned[2], FIELD_COUNT)

    def digest(self) -> str:
        """blake2b over the variant, every field, supplies, seat to move and the turn counters.

        The digested bytes: ``aronda/1``, the variant's two options (their index), per field
        its owner then seat 1's and seat 2's pieces on it, the supplies, the seat to move,
        whether no ply was made yet, the passes, the must-pass flag, the winners (a bit per
        seat) and the resigned seat (0 for none).
        """
        variant = self._variant
        fields = bytearray(3 * FIELD_COUNT)
        fields[0::3] = self._owners()
        fields[1::3] = bytes(self._pieces[1])
        fields[2::3] = bytes(self._pieces[2])
        resigned = self._resigned
        rest = (
            self._supply[1],
            self._supply[2],
            self.to_move,
            self._ply == 0,
            self._passes,
            self._must_pass,
            sum(1 << seat for seat in self._winners),
            resigned[0] if resigned else 0,
        )
        options = (
            SUPPLY_OPTIONS.index(variant.supply),
            SECOND_PIECE_OPTIONS.index(variant.second_piece),
        )
        return digest_of(b"".join((b"aronda/1", bytes(options), fields, bytes(rest))))

    def __repr__(self) -> str:
        """A short text: ply, seat to move or ending, scores and supplies."""
        status = f"ended {self._ending}" if self._ending else f"seat {self._seat} to move"
        return (
            f"<ArondaState ply {self._ply}, {status}, fields {self.scores()}, "
            f"supplies ({self._supply[1]}, {self._supply[2]})>"
        )
