"""Which ONE moves are legal and why not (docs/rules/one.md §4): reason codes, :class:`OneLegality`.

:class:`OneLegality` holds the legality half of :class:`~gamerec.validator.games.one.state.OneState`
(``check`` and its faults, ``legal_moves`` and the capture chains); ``OneState`` inherits it and
holds the position's fields. It may import ``one.board``, ``one.notation``, ``one.variant`` and
``gamerec.validator.games.protocol``.
"""

from __future__ import annotations

from typing import Final

from gamerec.validator.games.one.board import EMPTY, NO_POINT, RULES, Board, point_name
from gamerec.validator.games.one.notation import Move, format_move
from gamerec.validator.games.one.variant import OneVariant
from gamerec.validator.games.protocol import Illegal

#: Every reason code ``check`` can return, with a one-line description.
REASON_CODES: Final[dict[str, str]] = {
    "NOT_YOUR_TURN": "the ply is claimed by a seat that is not the seat to move",
    "GAME_ALREADY_OVER": "the game has ended; no ply may follow",
    "NO_SUCH_POINT": "a point of the move is not on this board",
    "OCCUPIED": "a placement on a point that holds a stone",
    "NO_STONES_LEFT": "a placement by a seat whose supply is empty",
    "MIRROR": "a placement opposite the previous one, forbidden by the Mirror option",
    "NOT_YOUR_STONE": "a capture starts on a point without a stone of the mover",
    "NOT_A_JUMP": "a landing point is not two points beyond along one line",
    "JUMP_OVER_EMPTY": "a jump passes over an empty point",
    "CAPTURE_OVER_OWN_STONE": "a jump passes over a stone of the mover",
    "LANDING_OCCUPIED": "a jump lands on a point that holds a stone",
}
#: The sections of the rules text each reason code's sentences cite (tests check that they
#: exist and that every sentence cites only these).
REASON_SECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "NOT_YOUR_TURN": ("§4",),
    "GAME_ALREADY_OVER": ("§6.2",),
    "NO_SUCH_POINT": ("§2.1",),
    "OCCUPIED": ("§4.1",),
    "NO_STONES_LEFT": ("§4.1",),
    "MIRROR": ("§4.1",),
    "NOT_YOUR_STONE": ("§4.2",),
    "NOT_A_JUMP": ("§2.1", "§4.2"),
    "JUMP_OVER_EMPTY": ("§4.2",),
    "CAPTURE_OVER_OWN_STONE": ("§4.2",),
    "LANDING_OCCUPIED": ("§4.2",),
}


class OneLegality:
    """The legality of moves in a ONE position: the methods ``OneState`` inherits for it.

    It keeps no data of its own: the fields below are ``OneState``'s (its ``__slots__``).
    """

    __slots__ = ()

    _banned: int
    _board: Board
    _cells: list[int]
    _stones: int
    _supplies: list[int]
    _to_move: int
    _variant: OneVariant

    def check(self, move: Move, seat: int | None = None) -> Illegal | None:
        """Return why ``move`` is illegal here, or None when it is legal.

        The order of the tests fixes which code a move with several faults gets: game over,
        wrong seat, a point not on the board (any point of the token), then the clauses of
        §4.1 (placement) or §4.2 (capture, jump by jump) in the rules' order.
        """
        if self._to_move == 0:
            return Illegal("GAME_ALREADY_OVER", f"the game is already over ({RULES} §6.2)")
        if seat is not None and seat != self._to_move:
            return Illegal(
                "NOT_YOUR_TURN",
                f"seat {seat} cannot play {format_move(move)}: it is seat {self._to_move}'s "
                f"turn ({RULES} §4)",
            )
        if not move:
            return None
        for p in move:
            if not self._board.has_point(p):
                return Illegal(
                    "NO_SUCH_POINT",
                    f"point {point_name(p)} is not on the board {self._board.text()} "
                    f"({RULES} §2.1)",
                )
        if len(move) == 1:
            return self._placement_fault(move[0])
        return self._capture_fault(move)

    def _placement_fault(self, p: int) -> Illegal | None:
        seat = self._to_move
        if self._cells[p] != EMPTY:
            return Illegal("OCCUPIED", f"point {point_name(p)} is occupied ({RULES} §4.1)")
        if self._supplies[seat] < 1:
            return Illegal(
                "NO_STONES_LEFT",
                f"seat {seat} has no stone left to place on {point_name(p)} ({RULES} §4.1)",
            )
        if p == self._banned and not self._mirror_exception():
            return Illegal(
                "MIRROR",
                f"{point_name(p)} is opposite {point_name(self._board.opposite[p])}, placed at "
                f"the previous ply (Mirror {self._variant.mirror}, {RULES} §4.1)",
            )
        return None

    def _mirror_exception(self) -> bool:
        """Under ``every`` the banned point is allowed when it is the only empty point."""
        return self._variant.mirror == "every" and self._board.size - self._stones == 1

    def _capture_fault(self, path: Move) -> Illegal | None:
        seat = self._to_move
        cells = self._cells
        start = path[0]
        if cells[start] != seat:
            return Illegal(
                "NOT_YOUR_STONE",
                f"capture start {point_name(start)} holds no stone of seat {seat} ({RULES} §4.2)",
            )
        removed: list[tuple[int, int]] = []
        cells[start] = EMPTY  # the stone leaves its start point; it may land there again
        try:
            here = start
            for land in path[1:]:
                fault = self._jump_fault(here, land)
                if fault is not None:
                    return fault
                over = self._board.jumped_between[here][land]
                removed.append((over, cells[over]))
                cells[over] = EMPTY
                here = land
            return None
        finally:
            for over, owner in removed:
                cells[over] = owner
            cells[start] = seat

    def _jump_fault(self, here: int, land: int) -> Illegal | None:
        """Why one jump from ``here`` to ``land`` is illegal now (§4.2 clauses 1-3)."""
        jump = f"{point_name(here)}x{point_name(land)}"
        over = self._board.jumped_between[here].get(land)
        if over is None:
            return Illegal(
                "NOT_A_JUMP",
                f"{jump} is not a jump: {point_name(land)} is not two points beyond "
                f"{point_name(here)} along one line ({RULES} §2.1, §4.2)",
            )
        owner = self._cells[over]
        if owner == EMPTY:
            return Illegal(
                "JUMP_OVER_EMPTY",
                f"jump {jump} passes over the empty point {point_name(over)} ({RULES} §4.2)",
            )
        if owner == self._to_move:
            return Illegal(
                "CAPTURE_OVER_OWN_STONE",
                f"jump {jump} passes over {point_name(over)}, the mover's own stone ({RULES} §4.2)",
            )
        if self._cells[land] != EMPTY:
            return Illegal(
                "LANDING_OCCUPIED",
                f"landing point {point_name(land)} is occupied ({RULES} §4.2)",
            )
        return None

    def legal_moves(self) -> list[Move]:
        """Every legal placement (board order), then every capture chain; ``[]`` when over.

        A capture chain and each shorter chain that stops earlier are different moves.
        ``resign`` is always legal while the game goes on and is not listed.
        """
        seat = self._to_move
        if seat == 0:
            return []
        moves: list[Move] = []
        if self._supplies[seat] > 0:
            cells = self._cells
            banned = NO_POINT if self._mirror_exception() else self._banned
            moves = [(p,) for p in self._board.points if cells[p] == EMPTY and p != banned]
        for p in self._board.points:
            if self._cells[p] == seat:
                moves.extend(self._captures_from(p, seat))
        return moves

    def _captures_from(self, start: int, seat: int) -> list[Move]:
        """Every capture chain of the stone on ``start`` (depth first, in jump-table order)."""
        cells = self._cells
        jumps = self._board.jumps
        found: list[Move] = []
        path = [start]
        removed: list[tuple[int, int]] = []
        pending = [iter(jumps[start])]
        cells[start] = EMPTY
        while pending:
            for over, land in pending[-1]:
                owner = cells[over]
                if owner > 0 and owner != seat and cells[land] == EMPTY:
                    cells[over] = EMPTY
                    removed.append((over, owner))
                    path.append(land)
                    found.append(tuple(path))
                    pending.append(iter(jumps[land]))
                    break
            else:
                pending.pop()
                if pending:  # back out of the jump that led here
                    over, owner = removed.pop()
                    cells[over] = owner
                    path.pop()
        cells[start] = seat
        return found
