"""Abstract Play's Oust on Abstract Play's own cell labels: a second referee for the codec.

Written from docs/formats.md ("Abstract Play's board and labels", "Abstract Play's Oust"),
which describes gameslib's ``HexTriGraph`` and ``OustGame`` (src/common/graphs/hextri.ts and
src/games/oust.ts): it never converts a label to a GRN cell, so a record that this referee
and gamerec's (on GRN cells) both accept, with the same winner, was converted right.

- The board of side N has 2N - 1 rows. Rows are lettered from the bottom (``a``); a cell is
  its row letter and its place in the row from the left, from 1. Row ``i`` (from 0 at the
  bottom) holds N + (N - 1) - |N - 1 - i| cells.
- A cell touches its left and right neighbours in its row, and two cells in each row beside
  it: where that row is the longer one, the cells at the same place and one place further;
  where it is the shorter one, the cells at the same place and one place before.
- A move is a comma-separated list of placements, or ``pass``. The rules are gameslib's
  ``validateMove`` (a move is refused when it is not ``valid``): a placement beside no own
  stone ends the move; one that joins own stones must make a group larger than every enemy
  group it touches, which are removed; after the last enemy stone is removed nothing more is
  placed; a move may end after a capture (gameslib marks it incomplete, not invalid).
  ``pass`` is refused while a placement is possible. After the move, the game ends when it
  is not the first move and the next player has no stone: the mover wins.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

ROW_LETTERS = "abcdefghijklmnopqrstuvwxyz"


class LabelledBoard:
    """Abstract Play's hex-hex board of side N, by its own labels."""

    def __init__(self, side: int) -> None:
        """Lay the rows out and join the neighbours."""
        self.side = side
        self.rows = 2 * side - 1
        self.labels: list[str] = []
        self.neighbours: dict[str, set[str]] = {}
        for row in range(self.rows):
            for place in range(1, self.width(row) + 1):
                label = self.label(row, place)
                self.labels.append(label)
                self.neighbours[label] = set()
        for row in range(self.rows):
            for place in range(1, self.width(row) + 1):
                here = self.label(row, place)
                if place > 1:
                    self._join(here, self.label(row, place - 1))
                if row + 1 < self.rows:
                    longer = self.width(row + 1) > self.width(row)
                    for other in (place, place + 1) if longer else (place - 1, place):
                        if 1 <= other <= self.width(row + 1):
                            self._join(here, self.label(row + 1, other))

    def width(self, row: int) -> int:
        """How many cells row ``row`` (0 = bottom) holds."""
        return 2 * self.side - 1 - abs(self.side - 1 - row)

    @staticmethod
    def label(row: int, place: int) -> str:
        """The label of the ``place``-th cell (from 1, from the left) of row ``row``."""
        return f"{ROW_LETTERS[row]}{place}"

    def _join(self, a: str, b: str) -> None:
        self.neighbours[a].add(b)
        self.neighbours[b].add(a)


class MoveRefusedError(Exception):
    """A move Abstract Play's Oust refuses; the message says why."""


@dataclass
class AbstractPlayOust:
    """An Abstract Play Oust game: the board, the player to move, the moves made."""

    side: int = 7
    board: dict[str, int] = field(default_factory=dict)
    player: int = 1
    moves: int = 0
    winner: int = 0

    def __post_init__(self) -> None:
        """Build the board."""
        self.cells = LabelledBoard(self.side)

    def group(self, start: str, stones: dict[str, int]) -> set[str]:
        """The group of ``start``'s owner in ``stones`` that holds ``start``."""
        owner = stones[start]
        found, todo = {start}, [start]
        while todo:
            for other in self.cells.neighbours[todo.pop()]:
                if stones.get(other) == owner and other not in found:
                    found.add(other)
                    todo.append(other)
        return found

    def placement(self, stones: dict[str, int], cell: str) -> set[str] | None:
        """The stones a placement removes (an empty set: none), or None when it is refused."""
        if cell not in self.cells.neighbours or cell in stones:
            return None
        me = self.player
        if not any(stones.get(other) == me for other in self.cells.neighbours[cell]):
            return set()
        after = {**stones, cell: me}
        mine = self.group(cell, after)
        enemies: list[set[str]] = []
        for stone in mine:
            for other in self.cells.neighbours[stone]:
                if after.get(other) == 3 - me and not any(other in g for g in enemies):
                    enemies.append(self.group(other, after))
        if not enemies or any(len(enemy) >= len(mine) for enemy in enemies):
            return None
        return set().union(*enemies)

    def can_place(self) -> bool:
        """Whether the player to move has any placement."""
        return any(self.placement(self.board, cell) is not None for cell in self.cells.labels)

    def play(self, move: str) -> None:
        """Make one move (a turn), as gameslib's ``move`` does after ``validateMove``.

        Raises:
            MoveRefusedError: the move is not valid.
        """
        if self.winner:
            raise MoveRefusedError("the game is over")
        text = "".join(move.split()).lower()
        if text == "pass":
            if self.can_place():
                raise MoveRefusedError("pass while a placement is possible")
        else:
            self._placements(text.split(","))
        self.moves += 1
        self.player = 3 - self.player
        if self.moves > 1 and not any(owner == self.player for owner in self.board.values()):
            self.winner = 3 - self.player

    def _placements(self, cells: list[str]) -> None:
        stones = dict(self.board)
        me = self.player
        for number, cell in enumerate(cells, start=1):
            removed = self.placement(stones, cell)
            if removed is None:
                raise MoveRefusedError(f"placement {number} ({cell}) is illegal")
            stones[cell] = me
            for stone in removed:
                del stones[stone]
            enemy_left = any(owner == 3 - me for owner in stones.values())
            last = number == len(cells)
            if not removed and not last:
                raise MoveRefusedError(
                    f"placement {number} ({cell}) captured nothing, yet more follow"
                )
            if removed and not enemy_left and not last and self.moves > 1:
                raise MoveRefusedError(f"the game was won at placement {number} ({cell})")
        self.board = stones

    def random_move(self, rng: random.Random) -> str:
        """A random legal move that places again after a capture while it can (gamerec's
        rule, which gameslib leaves to the player), or ``pass``."""
        stones = dict(self.board)
        placed: list[str] = []
        while True:
            options = [c for c in self.cells.labels if self.placement(stones, c) is not None]
            if not options:
                return ",".join(placed) or "pass"
            cell = rng.choice(options)
            removed = self.placement(stones, cell)
            assert removed is not None
            stones[cell] = self.player
            for stone in removed:
                del stones[stone]
            placed.append(cell)
            enemy_left = any(owner == 3 - self.player for owner in stones.values())
            if not removed or not enemy_left:
                return ",".join(placed)


def random_game(side: int, seed: int, limit: int = 2000) -> tuple[list[str], int]:
    """A random game played to its end: the moves and the winner."""
    rng = random.Random(seed)
    game = AbstractPlayOust(side)
    moves: list[str] = []
    while not game.winner and len(moves) < limit:
        move = game.random_move(rng)
        game.play(move)
        moves.append(move)
    return moves, game.winner
