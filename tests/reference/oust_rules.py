"""Oust, from docs/rules/oust.md and notation.md alone: a plain second referee.

Cells are their names (``g7``); the state is a dict from cell to seat. Groups are found by flood
fill every time they are needed. A ply is a whole turn: placements joined by ``,``, or
``pass``, ``swap``, ``resign``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tests.reference.standing import Progress

LETTERS = "abcdefghijklmnopqrstuvwxyz"
CELL_TEXT = re.compile(r"([a-z])(\d+)")


@dataclass(frozen=True)
class OustRules:
    """The variant options of §8.1 (`Board` side, `Pie`)."""

    side: int = 7
    pie: bool = True


class OustBoard:
    """§2.1: the hex-hex board of side N, cells named letter (u) and number (v + 1)."""

    def __init__(self, side: int) -> None:
        """List every cell row by row, bottom row first, and their neighbours."""
        self.side = side
        self.cells: list[str] = []
        self.uv: dict[str, tuple[int, int]] = {}
        for v in range(2 * side - 1):
            for u in range(max(side - 1 - v, 0), min(3 * side - 3 - v, 2 * side - 2) + 1):
                name = f"{LETTERS[u]}{v + 1}"
                self.cells.append(name)
                self.uv[name] = (u, v)
        by_uv = {uv: name for name, uv in self.uv.items()}
        steps = ((-1, 0), (1, 0), (0, 1), (-1, 1), (0, -1), (1, -1))
        self.neighbours = {
            name: {by_uv[(u + du, v + dv)] for du, dv in steps if (u + du, v + dv) in by_uv}
            for name, (u, v) in self.uv.items()
        }

    def cell_named(self, text: str) -> str | None:
        """The canonical cell for ``text``, or None when it is not on the board."""
        found = CELL_TEXT.fullmatch(text)
        if not found:
            return None
        name = f"{found.group(1)}{int(found.group(2))}"
        return name if name in self.uv else None


class OustState(Progress):
    """An Oust game at the start of a turn (two seats)."""

    def __init__(self, rules: OustRules) -> None:
        """The empty board of §3; seat 1 places first."""
        self.rules = rules
        self.board = OustBoard(rules.side)
        self.stone_at: dict[str, int] = {}
        self.seat = 1
        self.plies = 0
        self.over = False
        self.winner = 0  # 0 with `over`: both seats blocked (§6.2)

    # -- the surface of ReferenceState ------------------------------------------------------

    def scores(self) -> tuple[int, int]:
        """§6.1 and §7: `1-0` or `0-1` for a decided game, `0-0` otherwise."""
        return (int(self.winner == 1), int(self.winner == 2))

    def ranking(self) -> tuple[int, ...]:
        """The winner first; both first while undecided or when both are blocked."""
        return {0: (1, 1), 1: (1, 2), 2: (2, 1)}[self.winner]

    def winners(self) -> tuple[int, ...]:
        """The winning seat, none while the game goes on or after §6.2."""
        return (self.winner,) if self.winner else ()

    def legal_tokens(self) -> set[str]:
        """The legal first placements of the turn, plus `swap` and `pass` where legal."""
        if self.over:
            return set()
        tokens = set(self.legal_placements(self.seat))
        if self.swap_allowed():
            tokens.add("swap")
        if self.pass_forced():
            tokens.add("pass")
        return tokens

    def legal_turns(self) -> set[str]:
        """Every whole legal turn token: each placement chain with its forced continuations."""
        if self.over:
            return set()
        turns: set[str] = set()
        if self.swap_allowed():
            turns.add("swap")
        if self.pass_forced():
            turns.add("pass")

        def extend(state: OustState, chain: list[str]) -> None:
            for cell in state.legal_placements(self.seat):
                after = state.copy()
                captured = after.place(cell)
                if captured and not after.opponent_beaten() and after.legal_placements(self.seat):
                    extend(after, [*chain, cell])
                else:
                    turns.add(",".join([*chain, cell]))

        extend(self, [])
        return turns

    def why_illegal(self, token: str) -> str | None:
        """Why the whole turn ``token`` may not be played now, or None."""
        if self.over:
            return "game over"
        text = token.strip().lower()
        if text == "resign":
            return None
        if text == "pass":
            return None if self.pass_forced() else "pass not allowed"
        if text == "swap":
            return None if self.swap_allowed() else "swap not allowed"
        return self.turn_refusal(text.split(","))

    def play(self, token: str) -> None:
        """Play a whole legal turn, then look at the next seat's turn start (§4.3, §6)."""
        reason = self.why_illegal(token)
        if reason is not None:
            raise ValueError(f"illegal Oust turn {token!r}: {reason}")
        text = token.strip().lower()
        mover = self.seat
        self.plies += 1
        if text == "resign":
            self.over, self.winner = True, 3 - mover
            return
        if text == "swap":
            # §4.4: the stone of ply 1 now belongs to seat 2; seat 1 places next.
            self.stone_at = dict.fromkeys(self.stone_at, 2)
        elif text != "pass":
            for cell in text.split(","):
                captured = self.place(self.board.cell_named(cell) or "")
                if captured and self.opponent_beaten():
                    self.over, self.winner = True, mover
                    return
        self.seat = 3 - mover
        if not self.legal_placements(1) and not self.legal_placements(2):
            self.over = True  # §6.2: both seats blocked, no winner

    def copy(self) -> OustState:
        """An independent copy."""
        twin = OustState.__new__(OustState)
        twin.rules, twin.board = self.rules, self.board
        twin.stone_at = dict(self.stone_at)
        twin.seat, twin.plies, twin.over, twin.winner = (
            self.seat,
            self.plies,
            self.over,
            self.winner,
        )
        return twin

    # -- rules --------------------------------------------------------------------------------

    def group_of(self, cell: str) -> set[str]:
        """§2.2: the stones of one seat joined to ``cell`` through neighbouring cells."""
        seat = self.stone_at[cell]
        group, frontier = {cell}, [cell]
        while frontier:
            for neighbour in self.board.neighbours[frontier.pop()]:
                if self.stone_at.get(neighbour) == seat and neighbour not in group:
                    group.add(neighbour)
                    frontier.append(neighbour)
        return group

    def all_groups(self) -> dict[str, frozenset[str]]:
        """Every stone's group (one flood fill per group), for one position."""
        groups: dict[str, frozenset[str]] = {}
        for cell in self.stone_at:
            if cell not in groups:
                group = frozenset(self.group_of(cell))
                groups.update(dict.fromkeys(group, group))
        return groups

    def placement_refusal(
        self, cell: str, seat: int, groups: dict[str, frozenset[str]] | None = None
    ) -> str | None:
        """§4.1: any empty cell is legal unless it joins own stones badly."""
        if cell in self.stone_at:
            return "occupied"
        own_neighbours = [n for n in self.board.neighbours[cell] if self.stone_at.get(n) == seat]
        if not own_neighbours:
            return None
        groups = self.all_groups() if groups is None else groups
        merged = {cell}
        for neighbour in own_neighbours:
            merged |= groups[neighbour]
        enemies = self.enemy_groups_touching(merged, seat, groups)
        if not enemies:
            return "no enemy contact"
        if any(len(group) >= len(merged) for group in enemies):
            return "enemy not smaller"
        return None

    def enemy_groups_touching(
        self, group: set[str], seat: int, groups: dict[str, frozenset[str]] | None = None
    ) -> list[frozenset[str]]:
        """The distinct enemy groups touching any stone of ``group`` (each counted once)."""
        found: list[frozenset[str]] = []
        for stone in group:
            for neighbour in self.board.neighbours[stone]:
                owner = self.stone_at.get(neighbour)
                if owner is not None and owner != seat and not any(neighbour in g for g in found):
                    known = groups.get(neighbour) if groups is not None else None
                    found.append(known or frozenset(self.group_of(neighbour)))
        return found

    def legal_placements(self, seat: int) -> list[str]:
        """Every cell where ``seat`` may place now."""
        groups = self.all_groups()
        return [c for c in self.board.cells if self.placement_refusal(c, seat, groups) is None]

    def place(self, cell: str) -> bool:
        """Place a stone of the seat to move; remove the enemy groups it beats (§4.1).

        Returns:
            Whether the placement was capturing.
        """
        seat = self.seat
        capturing = any(self.stone_at.get(n) == seat for n in self.board.neighbours[cell])
        self.stone_at[cell] = seat
        if capturing:
            for group in self.enemy_groups_touching(self.group_of(cell), seat):
                for stone in group:
                    del self.stone_at[stone]
        return capturing

    def opponent_beaten(self) -> bool:
        """§6.1: the opponent of the seat to move has no stone left (tested after a capture)."""
        return 3 - self.seat not in self.stone_at.values()

    def turn_refusal(self, cells: list[str]) -> str | None:
        """§4.2: every placement but the last captures; the last ends the turn by the rules."""
        trial = self.copy()
        for number, text in enumerate(cells, start=1):
            cell = trial.board.cell_named(text)
            if cell is None:
                return "no such cell"
            reason = trial.placement_refusal(cell, self.seat)
            if reason is not None:
                return reason
            captured = trial.place(cell)
            last = number == len(cells)
            turn_goes_on = captured and not trial.opponent_beaten()
            turn_goes_on = turn_goes_on and bool(trial.legal_placements(self.seat))
            if last and turn_goes_on:
                return "must place again"
            if not last and not turn_goes_on:
                return "turn already ended"
        return None

    def pass_forced(self) -> bool:
        """§4.3: no legal placement for the mover while the opponent has one."""
        return not self.legal_placements(self.seat) and bool(self.legal_placements(3 - self.seat))

    def swap_allowed(self) -> bool:
        """§4.4: only as ply 2, only with `Pie on`."""
        return self.rules.pie and self.plies == 1
