"""Oh-Wah-Ree, from docs/rules/ohwahree.md and notation.md alone: a plain second referee.

Pits are the numbers 1..12 in a dict; sowing drops one stone at a time, step by step round the
ring; the capture walks back one pit at a time. A ply is a sowing (``4``, ``4ccw``, ``4cw``) or
``resign``; skipped turns are not plies.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.reference.standing import Progress, ranks_from_keys

PITS = tuple(range(1, 13))
SOWING_TEXT = re.compile(r"(\d+)(ccw|cw)?")


@dataclass(frozen=True)
class OhWahReeRules:
    """`Players`, `StonesPerPit` and `Direction` (§8.1): `ccw` or `free`."""

    players: int
    stones_per_pit: int
    direction: str


def default_rules(players: int) -> OhWahReeRules:
    """§3 and §8.1 defaults: 4 stones for 2 and 3 seats, 6 for 4; ccw only for 2 seats."""
    return OhWahReeRules(players, 6 if players == 4 else 4, "ccw" if players == 2 else "free")


def pits_of(seat: int, players: int) -> list[int]:
    """§2: seat k owns the pits ((-(k-1)*m + j) mod 12) + 1 for j = 0..m-1."""
    m = 12 // players
    return sorted(((-(seat - 1) * m + j) % 12) + 1 for j in range(m))


def step(pit: int, direction: str) -> int:
    """One step round the ring: ccw from i to i+1 (12 to 1), cw from i to i-1 (1 to 12)."""
    return pit % 12 + 1 if direction == "ccw" else (pit - 2) % 12 + 1


def against(direction: str) -> str:
    """The direction opposite ``direction``."""
    return "cw" if direction == "ccw" else "ccw"


class OhWahReeState(Progress):
    """An Oh-Wah-Ree game in progress."""

    def __init__(self, rules: OhWahReeRules) -> None:
        """§3: S stones in every pit, empty stores, seat 1 to move."""
        self.rules = rules
        self.stones = dict.fromkeys(PITS, rules.stones_per_pit)
        self.store = dict.fromkeys(self.seat_numbers(), 0)
        self.owner = {pit: s for s in self.seat_numbers() for pit in pits_of(s, rules.players)}
        self.resigned: list[int] = []
        self.skips_in_a_row = 0
        self.seat = 1
        self.plies = 0
        self.over = False

    # -- the surface of ReferenceState ------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """§6.3: the store plus the stones left in the seat's own pits."""
        return tuple(
            self.store[s] + sum(self.stones[p] for p in pits_of(s, self.rules.players))
            for s in self.seat_numbers()
        )

    def ranking(self) -> tuple[int, ...]:
        """§6.3 and §7: playing seats by score, ties shared; resigned seats below."""
        playing = [s for s in self.seat_numbers() if s not in self.resigned]
        scores = self.scores()
        ranks = ranks_from_keys(playing, {s: (scores[s - 1],) for s in playing}, self.resigned)
        return tuple(ranks[s] for s in self.seat_numbers())

    def winners(self) -> tuple[int, ...]:
        """The seats ranked first at the end; none before."""
        if not self.over:
            return ()
        return tuple(s for s, r in zip(self.seat_numbers(), self.ranking(), strict=True) if r == 1)

    def legal_tokens(self) -> set[str]:
        """Every legal sowing, in canonical text."""
        if self.over:
            return set()
        pits = [p for p in pits_of(self.seat, self.rules.players) if self.stones[p] > 0]
        if self.rules.direction == "ccw":
            return {str(p) for p in pits}
        return {f"{p}{d}" for p in pits for d in ("ccw", "cw")}

    def why_illegal(self, token: str) -> str | None:
        """Why ``token`` may not be played now (the reference's own words), or None."""
        if self.over:
            return "game over"
        text = token.strip().lower()
        if text == "resign":
            return None
        found = SOWING_TEXT.fullmatch(text)
        if not found:
            return "not an Oh-Wah-Ree move"
        return self.sowing_refusal(int(found.group(1)), found.group(2))

    def sowing_refusal(self, pit: int, direction: str | None) -> str | None:
        """§4.1: an own pit holding a stone, with the direction the variant asks for."""
        if pit not in PITS:
            return "not a pit"
        if self.owner[pit] != self.seat:
            return "not your pit"
        if self.stones[pit] == 0:
            return "empty pit"
        if self.rules.direction == "free" and direction is None:
            return "direction required"
        if self.rules.direction == "ccw" and direction == "cw":
            return "direction not allowed"
        return None

    def play(self, token: str) -> None:
        """Play a legal ply, then find the next seat that can move (§6.1, §6.2, §7)."""
        reason = self.why_illegal(token)
        if reason is not None:
            raise ValueError(f"illegal Oh-Wah-Ree move {token!r}: {reason}")
        text = token.strip().lower()
        mover = self.seat
        self.plies += 1
        if text == "resign":
            self.resign(mover)
            return
        found = SOWING_TEXT.fullmatch(text)
        assert found is not None
        self.sow_and_capture(int(found.group(1)), found.group(2) or "ccw")
        self.skips_in_a_row = 0
        self.find_next_seat(mover)

    def copy(self) -> OhWahReeState:
        """An independent copy."""
        twin = OhWahReeState.__new__(OhWahReeState)
        twin.__dict__.update(self.__dict__)
        twin.stones = dict(self.stones)
        twin.store = dict(self.store)
        twin.resigned = list(self.resigned)
        return twin

    def set_up(self, stones: list[int], stores: list[int], seat: int) -> None:
        """Put a position directly (the worked examples E4 to E6 do)."""
        self.stones = dict(zip(PITS, stones, strict=True))
        self.store = dict(zip(self.seat_numbers(), stores, strict=True))
        self.seat = seat

    # -- rules --------------------------------------------------------------------------------

    def seat_numbers(self) -> range:
        """Seats 1..N."""
        return range(1, self.rules.players + 1)

    def has_stones(self, seat: int) -> bool:
        """Whether any pit of the seat holds a stone."""
        return any(self.stones[p] for p in pits_of(seat, self.rules.players))

    def next_playing_seat(self, after: int) -> int:
        """Turns go seat 1, 2, ..., N, 1, ...; resigned seats leave the order (§7)."""
        seat = after
        for _ in range(self.rules.players):
            seat = seat % self.rules.players + 1
            if seat not in self.resigned:
                return seat
        return after

    def sow_and_capture(self, origin: int, direction: str) -> None:
        """§4.2 sowing, skipping the origin on every lap, then the §4.3 capture walk."""
        hand = self.stones[origin]
        self.stones[origin] = 0
        pit = origin
        while hand:
            pit = step(pit, direction)
            if pit == origin:
                continue
            self.stones[pit] += 1
            hand -= 1
        while self.owner[pit] != self.seat and self.stones[pit] in (2, 3):
            self.store[self.seat] += self.stones[pit]
            self.stones[pit] = 0
            pit = step(pit, against(direction))

    def find_next_seat(self, mover: int) -> None:
        """§6.1 (two seats: an empty seat to move ends the game) and §6.2 (skips)."""
        candidate = self.next_playing_seat(mover)
        if self.rules.players == 2:
            self.seat = candidate
            self.over = not self.has_stones(candidate)
            return
        while not self.has_stones(candidate):
            self.skips_in_a_row += 1
            if self.skips_in_a_row == 2:
                self.over = True
                return
            candidate = self.next_playing_seat(candidate)
        self.seat = candidate

    def resign(self, mover: int) -> None:
        """§7: two seats end at once; with more, the seat leaves the turn order."""
        self.resigned.append(mover)
        playing = [s for s in self.seat_numbers() if s not in self.resigned]
        if self.rules.players == 2 or len(playing) == 1:
            self.over = True
            return
        self.find_next_seat(mover)
