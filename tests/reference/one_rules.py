"""ONE, from docs/rules/one.md and notation.md alone: a plain second referee.

Points are their names (``c7``); the board is a list of lines (rings closed, spokes open) and
everything else (adjacency, jump triples) is read off those lines, as §2.1 asks. The state is a
dict from point to seat. Moves are the text tokens of notation.md.
"""

from __future__ import annotations

import itertools
import re
from dataclasses import dataclass

from tests.reference.standing import Progress, ranks_from_keys

RING_LETTERS = "abcdefghijklmnopqrstuvwxyz"
POINT_TEXT = re.compile(r"([a-z])(\d+)")


@dataclass(frozen=True)
class OneRules:
    """The variant options of §8.1 (`Players`, `Board`, `Mirror`, `Tiebreak`)."""

    players: int
    rings: tuple[int, ...] = (10, 10, 20, 20)
    mirror: str = "first"
    tiebreak: str = "shared"


class OneBoard:
    """§2.1: points and lines; adjacency and jump triples come from the lines alone."""

    def __init__(self, rings: tuple[int, ...]) -> None:
        """Build the points, the ring lines and the spokes of ``rings`` (innermost first)."""
        self.rings = rings
        self.points = [
            f"{RING_LETTERS[r]}{i}" for r, size in enumerate(rings) for i in range(1, size + 1)
        ]
        self.ring_lines = [
            [f"{RING_LETTERS[r]}{i}" for i in range(1, size + 1)] for r, size in enumerate(rings)
        ]
        self.spokes = self._spokes()
        self.adjacent = self._adjacency()
        self.jumps = self._jump_triples()

    def _spokes(self) -> list[list[str]]:
        """The radial lines: each starts at a point with no inward link and runs outwards."""
        spokes = []
        for r, size in enumerate(self.rings):
            for i in range(1, size + 1):
                has_inward_link = r > 0 and (i - 1) % (size // self.rings[r - 1]) == 0
                if has_inward_link:
                    continue
                spoke, index = [], i
                for outer in range(r, len(self.rings)):
                    if outer > r:
                        index = (index - 1) * (self.rings[outer] // self.rings[outer - 1]) + 1
                    spoke.append(f"{RING_LETTERS[outer]}{index}")
                spokes.append(spoke)
        return spokes

    def _adjacency(self) -> dict[str, set[str]]:
        """Two points are adjacent when they follow each other on a line (§2.1)."""
        adjacent: dict[str, set[str]] = {p: set() for p in self.points}
        for ring in self.ring_lines:
            for k, point in enumerate(ring):
                following = ring[(k + 1) % len(ring)]
                adjacent[point].add(following)
                adjacent[following].add(point)
        for spoke in self.spokes:
            for inner, outer in itertools.pairwise(spoke):
                adjacent[inner].add(outer)
                adjacent[outer].add(inner)
        return adjacent

    def _jump_triples(self) -> dict[tuple[str, str], str]:
        """(p, t) -> q for every jump triple (p, q, t): three consecutive points on one line."""
        triples: dict[tuple[str, str], str] = {}
        lines = [(ring, True) for ring in self.ring_lines] + [(s, False) for s in self.spokes]
        for line, closed in lines:
            count = len(line)
            middles = range(count) if closed else range(1, count - 1)
            for k in middles:
                before, middle, after = line[k - 1], line[k], line[(k + 1) % count]
                for p, t in ((before, after), (after, before)):
                    assert triples.get((p, t), middle) == middle, "p and t fix q (§2.1)"
                    triples[(p, t)] = middle
        return triples

    def opposite(self, point: str) -> str | None:
        """The point a half turn away, on rings of even size only (§2.1)."""
        ring, index = RING_LETTERS.index(point[0]), int(point[1:])
        size = self.rings[ring]
        if size % 2:
            return None
        return f"{point[0]}{((index - 1 + size // 2) % size) + 1}"

    def point_named(self, text: str) -> str | None:
        """The canonical point for ``text``, or None when no such point exists on the board."""
        found = POINT_TEXT.fullmatch(text)
        if not found:
            return None
        ring = RING_LETTERS.index(found.group(1))
        index = int(found.group(2))
        if ring >= len(self.rings) or not 1 <= index <= self.rings[ring]:
            return None
        return f"{found.group(1)}{index}"


class OneState(Progress):
    """A ONE game in progress: the board, supplies, captures, turn order and end flag."""

    def __init__(self, rules: OneRules) -> None:
        """The start position of §3: empty board, floor(P/N) stones each."""
        self.rules = rules
        self.board = OneBoard(rules.rings)
        seats = range(1, rules.players + 1)
        self.stone_at: dict[str, int] = {}
        self.supply = {s: len(self.board.points) // rules.players for s in seats}
        self.captured = dict.fromkeys(seats, 0)
        self.resigned: list[int] = []
        self.placed_at_ply: dict[int, str] = {}
        self.ending = False
        self.over = False
        self.seat = 1
        self.plies = 0

    # -- the surface of ReferenceState ------------------------------------------------------

    def scores(self) -> tuple[int, ...]:
        """§6.3: largest group plus two per captured stone, resigned seats included."""
        return tuple(self.largest(s) + 2 * self.captured[s] for s in self.seat_numbers())

    def ranking(self) -> tuple[int, ...]:
        """§6.4 and §7: playing seats by score (and the tiebreak), resigned seats below."""
        playing = [s for s in self.seat_numbers() if s not in self.resigned]
        scores = self.scores()
        key: dict[int, tuple[int, ...]] = {}
        for s in playing:
            tiebreak = self.largest(s) if self.rules.tiebreak == "largest-group" else 0
            key[s] = (scores[s - 1], tiebreak)
        ranks = ranks_from_keys(playing, key, self.resigned)
        return tuple(ranks[s] for s in self.seat_numbers())

    def winners(self) -> tuple[int, ...]:
        """The seats ranked first at the end; none before."""
        if not self.over:
            return ()
        return tuple(
            s for s, rank in zip(self.seat_numbers(), self.ranking(), strict=True) if rank == 1
        )

    def legal_tokens(self) -> set[str]:
        """Every legal placement and every capture chain (each shorter chain too); no resign."""
        if self.over:
            return set()
        tokens = {p for p in self.board.points if self.placement_refusal(p) is None}
        for start in [p for p, s in self.stone_at.items() if s == self.seat]:
            tokens |= self.capture_chains(start)
        return tokens

    def why_illegal(self, token: str) -> str | None:
        """Why ``token`` may not be played now (the reference's own words), or None."""
        if self.over:
            return "game over"
        text = token.strip().lower()
        if text == "resign":
            return None
        if "x" in text:
            return self.capture_refusal(text.split("x"))
        point = self.board.point_named(text)
        if point is None:
            return "no such point" if POINT_TEXT.fullmatch(text) else "not a ONE move"
        return self.placement_refusal(point)

    def play(self, token: str) -> None:
        """Play ``token`` (which must be legal) and apply the end rules of §6.2 and §7."""
        reason = self.why_illegal(token)
        if reason is not None:
            raise ValueError(f"illegal ONE move {token!r}: {reason}")
        text = token.strip().lower()
        mover = self.seat
        self.plies += 1
        if text == "resign":
            self.resign(mover)
            return
        if "x" in text:
            self.capture([p for p in (self.board.point_named(t) for t in text.split("x")) if p])
        else:
            self.place(self.board.point_named(text) or "")
        self.pass_turn_on(mover)

    def copy(self) -> OneState:
        """An independent copy (the board is shared: it never changes)."""
        twin = OneState.__new__(OneState)
        twin.__dict__.update(self.__dict__)
        twin.stone_at = dict(self.stone_at)
        twin.supply = dict(self.supply)
        twin.captured = dict(self.captured)
        twin.resigned = list(self.resigned)
        twin.placed_at_ply = dict(self.placed_at_ply)
        return twin

    # -- rules --------------------------------------------------------------------------------

    def seat_numbers(self) -> range:
        """Seats 1..N."""
        return range(1, self.rules.players + 1)

    def next_playing_seat(self, after: int) -> int:
        """§4: the next seat in seat order, wrapping, that has not resigned."""
        seat = after
        for _ in range(self.rules.players):
            seat = seat % self.rules.players + 1
            if seat not in self.resigned:
                return seat
        return after

    def pass_turn_on(self, mover: int) -> None:
        """§6.2 round completion: with `ending` set, the game ends when the turn would wrap."""
        following = self.next_playing_seat(mover)
        if self.ending and following <= mover:
            self.over = True
        else:
            self.seat = following

    def resign(self, mover: int) -> None:
        """§7: two seats end at once; with more, the seat leaves the turn order."""
        self.resigned.append(mover)
        playing = [s for s in self.seat_numbers() if s not in self.resigned]
        if self.rules.players == 2 or len(playing) == 1:
            self.over = True
            return
        self.pass_turn_on(mover)

    def empty_points(self) -> list[str]:
        """Points with no stone."""
        return [p for p in self.board.points if p not in self.stone_at]

    def placement_refusal(self, point: str) -> str | None:
        """§4.1: the point is empty, the supply not, and the Mirror option allows it."""
        if point in self.stone_at:
            return "occupied"
        if self.supply[self.seat] < 1:
            return "no stones left"
        if self.mirror_forbids(point):
            return "mirror"
        return None

    def mirror_forbids(self, point: str) -> bool:
        """§4.1.3: the anti-mirror rule of the `Mirror` option."""
        this_ply = self.plies + 1
        if self.rules.mirror == "first":
            first = self.placed_at_ply.get(1)
            return this_ply == 2 and first is not None and self.board.opposite(first) == point
        if self.rules.mirror == "every":
            previous = self.placed_at_ply.get(this_ply - 1)
            if previous is None or self.board.opposite(previous) != point:
                return False
            return self.empty_points() != [point]
        return False

    def capture_refusal(self, parts: list[str]) -> str | None:
        """§4.2: the stone on p0 is the mover's and every jump is legal after the ones before."""
        points = [self.board.point_named(part) for part in parts]
        if len(points) < 2:
            return "not a capture"
        if any(p is None for p in points):
            return "no such point"
        path = [p for p in points if p is not None]
        if self.stone_at.get(path[0]) != self.seat:
            return "not your stone"
        stones = dict(self.stone_at)
        for start, landing in itertools.pairwise(path):
            reason = self.jump_refusal(stones, start, landing)
            if reason is not None:
                return reason
            del stones[self.board.jumps[(start, landing)]]
            stones[landing] = stones.pop(start)
        return None

    def jump_refusal(self, stones: dict[str, int], start: str, landing: str) -> str | None:
        """One jump, checked in the position the earlier jumps left (§4.2 items 1-3)."""
        jumped = self.board.jumps.get((start, landing))
        if jumped is None:
            return "not a jump"
        if jumped not in stones:
            return "jump over empty"
        if stones[jumped] == self.seat:
            return "jump over own stone"
        if landing in stones:
            return "landing occupied"
        return None

    def capture_chains(self, start: str) -> set[str]:
        """Every capture token that starts on ``start``: each jump sequence and its prefixes."""
        found: set[str] = set()

        def extend(stones: dict[str, int], path: list[str]) -> None:
            here = path[-1]
            for (p, landing), jumped in self.board.jumps.items():
                if p != here or self.jump_refusal(stones, here, landing) is not None:
                    continue
                after = dict(stones)
                del after[jumped]
                after[landing] = after.pop(here)
                found.add("x".join([*path, landing]))
                extend(after, [*path, landing])

        extend(dict(self.stone_at), [start])
        return found

    def place(self, point: str) -> None:
        """§4.1 effect, and §6.1: emptying the supply sets `ending`."""
        self.stone_at[point] = self.seat
        self.supply[self.seat] -= 1
        self.placed_at_ply[self.plies] = point
        if self.supply[self.seat] == 0:
            self.ending = True

    def capture(self, path: list[str]) -> None:
        """§4.2 effect: each jumped stone leaves at once and counts for the mover."""
        for start, landing in itertools.pairwise(path):
            del self.stone_at[self.board.jumps[(start, landing)]]
            self.captured[self.seat] += 1
            self.stone_at[landing] = self.stone_at.pop(start)

    def largest(self, seat: int) -> int:
        """§5: the size of the seat's biggest group, by flood fill over adjacent points."""
        unseen = {p for p, s in self.stone_at.items() if s == seat}
        best = 0
        while unseen:
            frontier = [unseen.pop()]
            size = 0
            while frontier:
                point = frontier.pop()
                size += 1
                for neighbour in self.board.adjacent[point]:
                    if neighbour in unseen:
                        unseen.remove(neighbour)
                        frontier.append(neighbour)
            best = max(best, size)
        return best
