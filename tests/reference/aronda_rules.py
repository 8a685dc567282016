"""Aronda, from docs/rules/aronda.md and notation.md alone: a plain second referee.

Fields are their names (``m5``). The neighbour table of §2 is written out literally below; a
test checks it against the formula version of the same section. The state is two dicts: the
owner of each field and the pieces of each seat on it.
"""

from __future__ import annotations

from dataclasses import dataclass

from tests.reference.standing import Progress, ranks_from_keys

# §2, the table: field -> (capacity, neighbours).
FIELDS: dict[str, tuple[int, str]] = {
    "c": (4, "i1 i2 i3 i4 i5 i6 i7 i8"),
    "i1": (3, "c i2 i8 m1 m2"),
    "i2": (3, "c i1 i3 m2 m3"),
    "i3": (3, "c i2 i4 m3 m4"),
    "i4": (3, "c i3 i5 m4 m5"),
    "i5": (3, "c i4 i6 m5 m6"),
    "i6": (3, "c i5 i7 m6 m7"),
    "i7": (3, "c i6 i8 m7 m8"),
    "i8": (3, "c i1 i7 m1 m8"),
    "m1": (4, "i1 i8 m2 m8 o1 o2 o8"),
    "m2": (3, "i1 i2 m1 m3 o2"),
    "m3": (4, "i2 i3 m2 m4 o2 o3 o4"),
    "m4": (3, "i3 i4 m3 m5 o4"),
    "m5": (4, "i4 i5 m4 m6 o4 o5 o6"),
    "m6": (3, "i5 i6 m5 m7 o6"),
    "m7": (4, "i6 i7 m6 m8 o6 o7 o8"),
    "m8": (3, "i7 i8 m1 m7 o8"),
    "o1": (2, "m1 o2 o8"),
    "o2": (3, "m1 m2 m3 o1 o3"),
    "o3": (2, "m3 o2 o4"),
    "o4": (3, "m3 m4 m5 o3 o5"),
    "o5": (2, "m5 o4 o6"),
    "o6": (3, "m5 m6 m7 o5 o7"),
    "o7": (2, "m7 o6 o8"),
    "o8": (3, "m1 m7 m8 o1 o7"),
}
CAPACITY = {field: cap for field, (cap, _) in FIELDS.items()}
NEIGHBOURS = {field: set(names.split()) for field, (_, names) in FIELDS.items()}
EDGE = {f"o{k}" for k in range(1, 9)}
PIECES_PER_SEAT = 16
FIELDS_TO_WIN = 13


@dataclass(frozen=True)
class ArondaRules:
    """The variant options of §8.1 (`Supply`, `SecondPiece`)."""

    supply: str = "strict"
    second_piece: str = "end"


class ArondaState(Progress):
    """An Aronda game in progress (two seats, §3)."""

    def __init__(self, rules: ArondaRules) -> None:
        """The empty board of §3: no owner, no pieces, 16 pieces in each supply."""
        self.rules = rules
        self.owner: dict[str, int] = {}
        self.pieces: dict[str, dict[int, int]] = {f: {1: 0, 2: 0} for f in FIELDS}
        self.seat = 1
        self.plies = 0
        self.last_was_pass = False
        self.over = False
        self.winner = 0  # 0 with `over`: a draw (§6.2, two passes with equal counts)
        self.resigned = 0

    # -- the surface of ReferenceState ------------------------------------------------------

    def scores(self) -> tuple[int, int]:
        """§6.3: the number of fields each seat owns."""
        owned = list(self.owner.values())
        return (owned.count(1), owned.count(2))

    def ranking(self) -> tuple[int, ...]:
        """The winner first (a draw shares); before the end, the standing by fields owned."""
        if self.over:
            if self.winner == 0:
                return (1, 1)
            return (1, 2) if self.winner == 1 else (2, 1)
        scores = self.scores()
        ranks = ranks_from_keys([1, 2], {1: (scores[0],), 2: (scores[1],)}, [])
        return (ranks[1], ranks[2])

    def winners(self) -> tuple[int, ...]:
        """The winner, both seats on a draw, nobody before the end."""
        if not self.over:
            return ()
        return (1, 2) if self.winner == 0 else (self.winner,)

    def legal_tokens(self) -> set[str]:
        """Every legal turn: single pieces where §4.1 allows one, ordered pairs, `pass`."""
        if self.over:
            return set()
        if self.must_pass():
            return {"pass"}
        tokens: set[str] = set()
        for first in self.legal_fields(self.seat):
            after = self.copy()
            after.place_piece(first)
            if self.plies == 0 or after.over or not after.legal_fields(self.seat):
                tokens.add(first)
                continue
            tokens |= {f"{first},{second}" for second in after.legal_fields(self.seat)}
        return tokens

    def why_illegal(self, token: str) -> str | None:
        """Why ``token`` may not be played now (the reference's own words), or None."""
        if self.over:
            return "game over"
        text = token.strip().lower()
        if text == "resign":
            return None
        if text == "pass":
            return None if self.must_pass() else "pass not allowed"
        return self.turn_refusal(text.split(","))

    def turn_refusal(self, fields: list[str]) -> str | None:
        """§4.1: one piece on the first turn, else two, each checked after the one before."""
        if len(fields) > 2:
            return "too many pieces"
        if len(fields) == 2 and self.plies == 0:
            return "the first turn places one piece"
        trial = self.copy()
        for field in fields:
            if trial.over:
                return "the game ended after the first piece"
            reason = trial.piece_refusal(field, self.seat)
            if reason is not None:
                return reason
            trial.place_piece(field)
        cut_short = len(fields) == 1 and self.plies > 0 and not trial.over
        if cut_short and trial.legal_fields(self.seat):
            return "a second piece is legal and required"
        return None

    def play(self, token: str) -> None:
        """Play a legal turn, then look at the next seat's turn start (§4.3, §6)."""
        reason = self.why_illegal(token)
        if reason is not None:
            raise ValueError(f"illegal Aronda turn {token!r}: {reason}")
        text = token.strip().lower()
        mover = self.seat
        self.plies += 1
        if text == "resign":
            self.resigned = mover
            self.end_with_winner(3 - mover)
            return
        if text == "pass":
            if self.last_was_pass:
                self.end_by_count()
                return
            self.last_was_pass = True
        else:
            self.last_was_pass = False
            self.play_pieces(text.split(","), mover)
        if not self.over:
            self.seat = 3 - mover
            self.start_turn()

    def copy(self) -> ArondaState:
        """An independent copy."""
        twin = ArondaState(self.rules)
        twin.owner = dict(self.owner)
        twin.pieces = {f: dict(p) for f, p in self.pieces.items()}
        twin.seat, twin.plies, twin.last_was_pass = self.seat, self.plies, self.last_was_pass
        twin.over, twin.winner, twin.resigned = self.over, self.winner, self.resigned
        return twin

    # -- rules --------------------------------------------------------------------------------

    def supply(self, seat: int) -> int:
        """§3: 16 minus the seat's pieces on the board."""
        return PIECES_PER_SEAT - sum(p[seat] for p in self.pieces.values())

    def marked(self, seat: int) -> set[str]:
        """§4.2: fields holding a piece of the seat or owned by it."""
        return {f for f in FIELDS if self.pieces[f][seat] > 0 or self.owner.get(f) == seat}

    def chain(self, seat: int) -> set[str]:
        """§4.2: marked fields reachable from a marked edge field through marked fields."""
        marked = self.marked(seat)
        reached = marked & EDGE
        frontier = list(reached)
        while frontier:
            field = frontier.pop()
            for neighbour in NEIGHBOURS[field]:
                if neighbour in marked and neighbour not in reached:
                    reached.add(neighbour)
                    frontier.append(neighbour)
        return reached

    def piece_refusal(
        self, field: str, seat: int, supply_needed: bool = True, chain: set[str] | None = None
    ) -> str | None:
        """§4.2 items 1-3 for one piece of ``seat`` on ``field`` (``chain`` if known)."""
        if field not in FIELDS:
            return "no such field"
        if field in self.owner:
            return "field owned"
        chain = self.chain(seat) if chain is None else chain
        if field not in EDGE and not NEIGHBOURS[field] & chain:
            return "not connected"
        if supply_needed and self.supply(seat) < 1:
            return "no pieces left"
        return None

    def legal_fields(self, seat: int, supply_needed: bool = True) -> list[str]:
        """Every field where one piece of ``seat`` may go now."""
        chain = self.chain(seat)
        return [f for f in FIELDS if self.piece_refusal(f, seat, supply_needed, chain) is None]

    def must_pass(self) -> bool:
        """§4.3 under `Supply pass`: blocked only because the supply is empty."""
        if self.rules.supply != "pass" or self.legal_fields(self.seat):
            return False
        return bool(self.legal_fields(self.seat, supply_needed=False))

    def start_turn(self) -> None:
        """§4.3 and §6.2: a seat with no legal field at the start of its turn loses,
        unless `Supply pass` obliges it to pass."""
        if self.legal_fields(self.seat) or self.must_pass():
            return
        self.end_with_winner(3 - self.seat)

    def play_pieces(self, fields: list[str], mover: int) -> None:
        """The pieces of one turn, then §4.3 for a turn cut short after one piece."""
        for field in fields:
            self.place_piece(field)
            if self.over:
                return
        second_missing = len(fields) == 1 and self.plies > 1
        if second_missing and self.rules.second_piece == "lose":
            self.end_with_winner(3 - mover)

    def place_piece(self, field: str) -> None:
        """§5 for one piece of the seat to move, then the 13-field end of §6.1."""
        seat = self.seat
        self.pieces[field][seat] += 1
        if self.pieces[field][seat] == CAPACITY[field]:
            self.take(field, seat)
        self.take_from_outside(seat)
        assert not self.outside_takes(3 - seat), "§5: only the placing seat gains fields"
        if self.scores()[seat - 1] >= FIELDS_TO_WIN:
            self.end_with_winner(seat)

    def outside_takes(self, seat: int) -> list[str]:
        """§5.2: fields without owner of which ``seat`` owns at least capacity neighbours."""
        return [
            f
            for f in FIELDS
            if f not in self.owner
            and sum(1 for n in NEIGHBOURS[f] if self.owner.get(n) == seat) >= CAPACITY[f]
        ]

    def take_from_outside(self, seat: int) -> None:
        """§5.2: repeat until nothing changes (the full closure)."""
        while fields := self.outside_takes(seat):
            for field in fields:
                self.take(field, seat)

    def take(self, field: str, seat: int) -> None:
        """§5.3: every piece on the field goes home; the field is owned for good."""
        self.pieces[field] = {1: 0, 2: 0}
        self.owner[field] = seat

    def end_with_winner(self, seat: int) -> None:
        """The game is over and ``seat`` wins."""
        self.over = True
        self.winner = seat

    def end_by_count(self) -> None:
        """§6.2: after two passes in a row the seat owning more fields wins; equal is a draw."""
        first, second = self.scores()
        self.end_with_winner(1 if first > second else 2 if second > first else 0)
