"""Aronda: the rules engine of docs/rules/aronda.md behind the protocol of ``protocol.py``.

Board: the 25 fields in board order ``c, i1..i8, m1..m8, o1..o8``. A field's *code* is its
index in that order (``c`` = 0, ``ik`` = k, ``mk`` = 8 + k, ``ok`` = 16 + k). A set of fields
is an ``int`` bitmask with bit ``code`` set for each field in it.

Move: a whole turn, a plain ``tuple[int, ...]`` (``Move``):

- ``(f,)`` or ``(f, g)``: one or two placements, in the order they are made (``o1,o3`` is
  ``(17, 19)``, ``m2,m2`` is ``(10, 10)``);
- ``PASS == (-1,)`` and ``RESIGN == (-2,)``;
- a well-formed field token that names no field (``i9``, ``o0``) gets a code of 25 or more
  that keeps its text (:func:`field_code`); ``check`` reports it as ``NO_SUCH_FIELD``.
  Turns of three or more placements parse too; ``check`` reports ``WRONG_PLACEMENT_COUNT``.

State: :class:`ArondaState` is mutable (``play`` changes it in place, ``copy`` forks it), as
the protocol asks. Its ``check``/``play`` follow the rules text step by step and recompute the
chains from scratch; :meth:`ArondaEngine.replay` is an independent, incremental hot path over
local bitmasks. Tests hold the two to the same verdicts.

Choices where the rules leave room (each is tested):

- A placement is checked in the order of the conditions of §4.2: ``FIELD_OWNED``, then
  ``NOT_CONNECTED``, then ``NO_PIECES_LEFT`` (after ``NO_SUCH_FIELD``).
- A turn whose first piece wins the game (§6.1) but that names a second piece is
  ``WRONG_PLACEMENT_COUNT``: the ply itself is the winning one, the extra piece is what is
  wrong with it (``GAME_ALREADY_OVER`` is kept for plies after the last one).
- A two-piece turn whose second piece has no legal field reports the second placement's own
  reason (``NO_PIECES_LEFT``, ``FIELD_OWNED`` ...); a one-piece turn whose second piece *has*
  a legal field is ``WRONG_PLACEMENT_COUNT``.
- Seat 1's first turn with two pieces, an empty turn and a turn of three or more pieces are
  ``WRONG_PLACEMENT_COUNT`` before any placement is looked at.
- A seat with no legal field at the start of its turn (§4.3) loses at once: the state after the
  previous ply is already over (``ending == "blocked"``), with the other seat as winner.
- Events: ``possession-inside`` / ``possession-outside`` per placement in play order (the
  outside fields of one placement in board order), with ``count`` = placement pieces that went
  back to the supplies; ``pass``, ``resign``, ``turn-ended`` (a turn of one piece after seat
  1's first); ``end`` when the game is over after the ply, with ``seat`` = the winner (0 on a
  draw).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeAlias

from gamerec.recorder.errors import GamerecError, NotationError
from gamerec.recorder.syntax import aronda as syntax
from gamerec.validator.games.protocol import (
    BaseEngine,
    GameEvent,
    Illegal,
    IllegalMoveError,
    MoveSyntaxError,
    Position,
    ReplayOutcome,
    Site,
    VariantError,
    VariantValue,
    any_variant,
    digest_of,
    option_word,
    seats_of_bits,
)

# ---------------------------------------------------------------------------------------------
# Constants and metadata: the board of docs/rules/aronda.md §2
# ---------------------------------------------------------------------------------------------

#: The game's name as the GRN ``Game`` tag writes it.
NAME = "Aronda"
#: The rules text every message cites.
RULES = "docs/rules/aronda.md"

#: docs/rules/aronda.md §2, row by row: field, capacity, neighbours. The neighbour lists are
#: the rule.
FIELD_TABLE = """
c   4  i1 i2 i3 i4 i5 i6 i7 i8
i1  3  c i2 i8 m1 m2
i2  3  c i1 i3 m2 m3
i3  3  c i2 i4 m3 m4
i4  3  c i3 i5 m4 m5
i5  3  c i4 i6 m5 m6
i6  3  c i5 i7 m6 m7
i7  3  c i6 i8 m7 m8
i8  3  c i1 i7 m1 m8
m1  4  i1 i8 m2 m8 o1 o2 o8
m2  3  i1 i2 m1 m3 o2
m3  4  i2 i3 m2 m4 o2 o3 o4
m4  3  i3 i4 m3 m5 o4
m5  4  i4 i5 m4 m6 o4 o5 o6
m6  3  i5 i6 m5 m7 o6
m7  4  i6 i7 m6 m8 o6 o7 o8
m8  3  i7 i8 m1 m7 o8
o1  2  m1 o2 o8
o2  3  m1 m2 m3 o1 o3
o3  2  m3 o2 o4
o4  3  m3 m4 m5 o3 o5
o5  2  m5 o4 o6
o6  3  m5 m6 m7 o5 o7
o7  2  m7 o6 o8
o8  3  m1 m7 m8 o1 o7
"""


def _read_field_table() -> tuple[tuple[str, ...], tuple[int, ...], tuple[tuple[str, ...], ...]]:
    """Split :data:`FIELD_TABLE` into names, capacities and neighbour names, in table order."""
    rows = [line.split() for line in FIELD_TABLE.strip().splitlines()]
    names = tuple(row[0] for row in rows)
    capacities = tuple(int(row[1]) for row in rows)
    neighbours = tuple(tuple(row[2:]) for row in rows)
    return names, capacities, neighbours


_NAMES, _CAPACITIES, _NEIGHBOUR_NAMES = _read_field_table()

#: Field names in board order; a field's code is its index here.
FIELD_NAMES: tuple[str, ...] = _NAMES
#: The code of every field name.
FIELD_CODES: dict[str, int] = {name: code for code, name in enumerate(FIELD_NAMES)}
#: How many fields the board has.
FIELD_COUNT = len(FIELD_NAMES)
#: The capacity of each field, by code.
CAPACITY: tuple[int, ...] = _CAPACITIES
#: The neighbours of each field, by code, as codes in table order.
NEIGHBOURS: tuple[tuple[int, ...], ...] = tuple(
    tuple(FIELD_CODES[name] for name in row) for row in _NEIGHBOUR_NAMES
)
#: The neighbours of each field, by code, as a bitmask.
NEIGHBOUR_MASK: tuple[int, ...] = tuple(sum(1 << n for n in row) for row in NEIGHBOURS)
#: Every field of the board.
ALL_FIELDS = (1 << FIELD_COUNT) - 1
#: The edge: the outer ring o1..o8.
EDGE = sum(1 << FIELD_CODES[f"o{k}"] for k in range(1, 9))
#: Placement pieces each seat starts with (§3).
SUPPLY = 16
#: Fields that win the game (§6.1).
WINNING_FIELDS = 13
#: Seats at the table: Aronda is a two-seat game.
SEATS = 2

PASS_CODE = -1
RESIGN_CODE = -2
#: The move type: a whole turn (see the module docstring).
Move = tuple[int, ...]
PASS: Move = (PASS_CODE,)
RESIGN: Move = (RESIGN_CODE,)

#: Ways a game ends (:attr:`ArondaState.ending`); "" while it goes on.
ENDINGS: dict[str, str] = {
    "thirteen-fields": "a seat owns 13 fields (§6.1)",
    "blocked": "the seat to move has no legal field at the start of its turn (§4.3)",
    "second-piece": "the mover's second piece had no legal field under SecondPiece lose (§4.3)",
    "passes": "two passes in a row under Supply pass (§6.2)",
    "resignation": "the seat to move resigned (§7)",
}

REASON_CODES: dict[str, str] = {
    "NOT_YOUR_TURN": "the move is claimed by a seat that is not the seat to move",
    "GAME_ALREADY_OVER": "the game has already ended",
    "NO_SUCH_FIELD": "a placement names a field that is not on the board (e.g. i9, o0)",
    "FIELD_OWNED": "a placement goes on a field that a seat already owns",
    "NOT_CONNECTED": "a placement is neither on the edge nor next to the seat's chain",
    "NO_PIECES_LEFT": "a placement is made with an empty supply",
    "WRONG_PLACEMENT_COUNT": "a turn places the wrong number of pieces (1 first, else 2)",
    "PASS_NOT_ALLOWED": "pass where the rules do not oblige the seat to pass",
}

#: The sections of the rules text each reason code's sentences cite (tests check that they
#: exist and that every sentence cites only these).
REASON_SECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "NOT_YOUR_TURN": ("§4.1",),
    "GAME_ALREADY_OVER": ("§6",),
    "NO_SUCH_FIELD": ("§2",),
    "FIELD_OWNED": ("§4.2",),
    "NOT_CONNECTED": ("§4.2",),
    "NO_PIECES_LEFT": ("§4.2",),
    "WRONG_PLACEMENT_COUNT": ("§4.1", "§6.1"),
    "PASS_NOT_ALLOWED": ("§4.3",),
}

# Neighbour unions of many fields at once: a 25-bit mask is split into a low part of 13 bits
# and a high part of 12 bits, each looked up in one table, so the union of the neighbours of
# any set of fields costs two lookups (the hot path floods chains with it).
_LOW_BITS = 13
_LOW_MASK = (1 << _LOW_BITS) - 1


def _neighbour_union_table(first_code: int, width: int) -> tuple[int, ...]:
    """Neighbour unions of every subset of the ``width`` fields from ``first_code`` on."""
    table = [0] * (1 << width)
    for subset in range(1, 1 << width):
        lowest = subset & -subset
        table[subset] = (
            table[subset ^ lowest] | NEIGHBOUR_MASK[first_code + lowest.bit_length() - 1]
        )
    return tuple(table)


_AROUND_LOW = _neighbour_union_table(0, _LOW_BITS)
_AROUND_HIGH = _neighbour_union_table(_LOW_BITS, FIELD_COUNT - _LOW_BITS)


def around(fields: int) -> int:
    """The fields adjacent to at least one field of the mask ``fields``."""
    return _AROUND_LOW[fields & _LOW_MASK] | _AROUND_HIGH[fields >> _LOW_BITS]


def fields_in(fields: int) -> Iterator[int]:
    """The codes of the fields in the mask ``fields``, in board order."""
    while fields:
        lowest = fields & -fields
        yield lowest.bit_length() - 1
        fields ^= lowest


def take_from_outside(owned: int, unowned: int, order: Sequence[int] = range(FIELD_COUNT)) -> int:
    """The fields a seat owning ``owned`` takes from outside (§5 step 2), as a mask.

    Follows the rule literally: sweep the fields in ``order`` and take every field without an
    owner (in ``unowned``) of which the seat owns at least its capacity of neighbours, counting
    the fields taken earlier in the sweep; repeat until a whole sweep takes nothing. The result
    is the same for every ``order`` (the tests shuffle it), because taking is monotone.
    """
    taken = 0
    changed = True
    while changed:
        changed = False
        for field in order:
            bit = 1 << field
            if not unowned & bit or taken & bit:
                continue
            if (NEIGHBOUR_MASK[field] & (owned | taken)).bit_count() >= CAPACITY[field]:
                taken |= bit
                changed = True
    return taken


# ---------------------------------------------------------------------------------------------
# Variant
# ---------------------------------------------------------------------------------------------

SUPPLY_OPTIONS = ("strict", "pass")
SECOND_PIECE_OPTIONS = ("end", "lose")


@dataclass(frozen=True, slots=True)
class ArondaVariant:
    """The rule options of §8.1, with their defaults.

    Attributes:
        supply: ``"strict"`` (a seat without a legal field at the start of its turn loses) or
            ``"pass"`` (it passes when only its supply is empty). GRN tag ``Supply``.
        second_piece: ``"end"`` (a turn whose second piece has no legal field ends after one
            piece) or ``"lose"`` (the mover loses). GRN tag ``SecondPiece``.
        players: always 2.
    """

    supply: str = "strict"
    second_piece: str = "end"
    players: int = SEATS

    def __post_init__(self) -> None:
        """Reject impossible options.

        Raises:
            VariantError: an unknown ``supply`` or ``second_piece``, or players other than 2.
        """
        if self.supply not in SUPPLY_OPTIONS:
            raise VariantError(f"Aronda Supply must be strict or pass, not {self.supply!r}")
        if self.second_piece not in SECOND_PIECE_OPTIONS:
            raise VariantError(f"Aronda SecondPiece must be end or lose, not {self.second_piece!r}")
        if type(self.players) is not int or self.players != SEATS:
            raise VariantError(f"Aronda is played by 2 players, not {self.players!r}")


# ---------------------------------------------------------------------------------------------
# Reasons: one sentence per way a move is wrong, shared by check/play and replay
# ---------------------------------------------------------------------------------------------


def _placement_label(index: int, count: int) -> str:
    """How a message names the placement ``index`` (0-based) of a turn of ``count``."""
    if count == 1:
        return "placement"
    return ("first", "second", "third")[min(index, 2)] + " placement"


def _describe_field(code: int) -> str:
    """A field code as text for a message, even a code that is no field at all."""
    return field_name(code) if code >= 0 else f"<code {code}>"


def _game_over() -> Illegal:
    return Illegal("GAME_ALREADY_OVER", f"the game is already over ({RULES} §6)")


def _not_your_turn(claimed: int, to_move: int) -> Illegal:
    return Illegal(
        "NOT_YOUR_TURN", f"it is seat {to_move}'s turn, not seat {claimed}'s ({RULES} §4.1)"
    )


def _pass_not_allowed(seat: int, variant: ArondaVariant) -> Illegal:
    if variant.supply == "strict":
        why = "pass is never allowed under Supply strict"
    else:
        why = f"seat {seat} has pieces to place or a board that blocks it"
    return Illegal("PASS_NOT_ALLOWED", f"seat {seat} may not pass: {why} ({RULES} §4.3)")


def _wrong_count(count: int, first_turn: bool) -> Illegal:
    if first_turn:
        why = f"seat 1's first turn places exactly one piece, not {count}"
    else:
        why = f"a turn places one or two pieces, not {count}"
    return Illegal("WRONG_PLACEMENT_COUNT", f"{why} ({RULES} §4.1)")


def _turn_already_won(seat: int, field: int) -> Illegal:
    return Illegal(
        "WRONG_PLACEMENT_COUNT",
        f"seat {seat} won with 13 fields after first placement {field_name(field)}, so the "
        f"turn has no second placement ({RULES} §6.1)",
    )


def _second_piece_missing(seat: int, field: int, legal: int) -> Illegal:
    example = field_name(next(fields_in(legal)))
    return Illegal(
        "WRONG_PLACEMENT_COUNT",
        f"after placement {field_name(field)} seat {seat}'s second piece has a legal field "
        f"(e.g. {example}), so the turn places two pieces ({RULES} §4.1)",
    )


def _no_such_field(label: str, field: int) -> Illegal:
    name = _describe_field(field)
    return Illegal(
        "NO_SUCH_FIELD", f"{label} {name}: there is no field {name} on the board ({RULES} §2)"
    )


def _field_owned(label: str, field: int, owner: int) -> Illegal:
    name = field_name(field)
    return Illegal(
        "FIELD_OWNED", f"{label} {name}: field {name} is owned by seat {owner} ({RULES} §4.2)"
    )


def _not_connected(label: str, field: int, seat: int) -> Illegal:
    name = field_name(field)
    return Illegal(
        "NOT_CONNECTED",
        f"{label} {name}: field {name} is neither on the edge nor next to seat {seat}'s "
        f"chain of fields joined to the edge ({RULES} §4.2)",
    )


def _no_pieces_left(label: str, field: int, seat: int) -> Illegal:
    return Illegal(
        "NO_PIECES_LEFT",
        f"{label} {field_name(field)}: seat {seat} has no pieces left in its supply ({RULES} §4.2)",
    )


# ---------------------------------------------------------------------------------------------
# State
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Notation (notation.md, Aronda)
# ---------------------------------------------------------------------------------------------

_RINGS = "imo"
_OFF_BOARD_BASE = FIELD_COUNT


def field_code(name: str) -> int:
    """The code of a field token (``c``, ``i1``, ``o8``; ``i9`` gets an off-board code).

    Off-board tokens (a ring letter with index 0 or above 8) map one-to-one to codes from 25
    up, so :func:`field_name` gives the token back.

    Raises:
        MoveSyntaxError: the text is not a field token.
    """
    try:
        fields = syntax.parse_move(name.strip().lower())
    except NotationError:
        fields = ()
    if len(fields) != 1:
        raise MoveSyntaxError(f"{name!r} is not an Aronda field (c, i1..i8, m1..m8, o1..o8)")
    return _code_of_field(*fields[0])


def _code_of_field(ring: str, index: int) -> int:
    """The code of a field form (``("o", 1)``; the centre is ``("c", 0)``)."""
    if ring == "c":
        return FIELD_CODES["c"]
    if 1 <= index <= 8:
        return FIELD_CODES[f"{ring}{index}"]
    step = 0 if index == 0 else index - 8
    return _OFF_BOARD_BASE + 3 * step + _RINGS.index(ring)


def field_name(code: int) -> str:
    """The token of a field code (inverse of :func:`field_code`).

    Raises:
        ValueError: a negative code (those mean pass and resign, not fields).
    """
    if code < 0:
        raise ValueError(f"{code} is not a field code")
    if code < FIELD_COUNT:
        return FIELD_NAMES[code]
    step, ring = divmod(code - _OFF_BOARD_BASE, 3)
    return f"{_RINGS[ring]}{0 if step == 0 else step + 8}"


def _board_field(name: str) -> int:
    """The code of a field that is on the board.

    Raises:
        GamerecError: the name is not a field of the board.
    """
    code = FIELD_CODES.get(name.strip().lower(), -1)
    if code < 0:
        raise GamerecError(f"{name!r} is not a field of the Aronda board")
    return code


def parse_move(text: str) -> Move:
    """Parse a turn token: ``o1``, ``o1,o3``, ``m2,m2``, ``pass``, ``resign``.

    Case-insensitive, surrounding white space ignored; no space inside the token.

    Raises:
        MoveSyntaxError: the text is not an Aronda turn token.
    """
    token = text.strip().lower()
    if token == "pass":
        return PASS
    if token == "resign":
        return RESIGN
    try:
        fields = syntax.parse_move(token)
    except NotationError as error:
        raise MoveSyntaxError(str(error)) from None
    return tuple(_code_of_field(ring, index) for ring, index in fields)


def format_move(move: Move) -> str:
    """The canonical lower-case token of a turn.

    Raises:
        MoveSyntaxError: the tuple is no turn (empty, or pass/resign codes among placements).
    """
    if move == PASS:
        return "pass"
    if move == RESIGN:
        return "resign"
    if not move or min(move) < 0:
        raise MoveSyntaxError(f"{move!r} is not an Aronda turn")
    return ",".join(field_name(code) for code in move)


# ---------------------------------------------------------------------------------------------
# The fast replay: the validator's hot path
# ---------------------------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------------------------
# Registration
# ---------------------------------------------------------------------------------------------

_TAG_OPTIONS = {"Supply": "supply", "SecondPiece": "second_piece"}


class ArondaEngine(BaseEngine[ArondaVariant, Move, ArondaState]):
    """The Aronda engine of the registry (``gamerec.validator.games.engine("Aronda")``).

    Its own: the GRN tags of the variant. Random games and perft are ``BaseEngine``'s.
    """

    def __init__(self) -> None:
        """The Aronda engine (there is one, :data:`ENGINE`)."""
        super().__init__(
            name=NAME,
            rules=RULES,
            reason_codes=REASON_CODES,
            reason_sections=REASON_SECTIONS,
            variant_type=ArondaVariant,
            state_type=ArondaState,
            parse_move=parse_move,
            format_move=any_variant(format_move),
            replay=_replay,
        )

    def variant_from_values(self, values: Mapping[str, VariantValue]) -> ArondaVariant:
        """A variant from the options ``Supply``, ``SecondPiece`` (and ``Players``).

        Words are case-insensitive; a missing option takes the default; other names are ignored.

        Raises:
            VariantError: an unknown value, or ``Players`` other than 2.
        """
        options: dict[str, Any] = {}
        for tag, option in _TAG_OPTIONS.items():
            if tag in values:
                options[option] = option_word(values[tag])
        players = values.get("Players")
        if players is not None and option_word(players) != str(SEATS):
            written = players if isinstance(players, str) else str(players)
            raise VariantError(f"Aronda is played by 2 players, not {written!r}")
        return ArondaVariant(**options)

    def variant_tags(self, variant: ArondaVariant) -> dict[str, str]:
        """The ``Supply`` and ``SecondPiece`` tags of ``variant`` (always both)."""
        return {"Supply": variant.supply, "SecondPiece": variant.second_piece}


ENGINE = ArondaEngine()
