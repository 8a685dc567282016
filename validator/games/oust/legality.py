"""What an Oust position allows: legal placements and moves, and why a placement is illegal.

The second class of ``OustState`` (see ``oust.stones``).

May import: ``protocol``, ``oust.board``, ``oust.notation``, ``oust.reasons``, ``oust.groups``,
``oust.stones``.
"""

from __future__ import annotations

from gamerec.validator.games.oust.board import (
    RULES,
    _spread,
    cell_name,
    cells_of,
)
from gamerec.validator.games.oust.groups import _Effect, _Refusal
from gamerec.validator.games.oust.notation import (
    PASS,
    RESIGN,
    SWAP,
    Move,
)
from gamerec.validator.games.oust.reasons import (
    _group_text,
    _placement_label,
)
from gamerec.validator.games.oust.stones import _Stones
from gamerec.validator.games.protocol import (
    Illegal,
)


class _Legality(_Stones):
    """What an Oust position allows: legal placements and moves, and why a placement is not."""

    __slots__ = ()

    # -- legality ----------------------------------------------------------------------------

    def legal_placements(self) -> list[int]:
        """Every legal next placement of the seat to move, as cell codes in board order."""
        if self._over:
            return []
        mine, theirs = self._stones[self._seat], self._stones[3 - self._seat]
        empty = self._board.mask & ~(mine | theirs)
        near = _spread(mine)
        legal = empty & ~near
        candidates = empty & near
        neighbour_mask = self._board.neighbour_mask
        while candidates:
            low = candidates & -candidates
            candidates ^= low
            own = neighbour_mask[low.bit_length() - 1] & mine
            if self._groups.capture_effect(mine, theirs, low, own)[1]:
                legal |= low
        return cells_of(legal)

    def legal_moves(self) -> list[Move]:
        """The legal next decisions: each legal placement as ``(code,)``, then swap, then pass.

        At the start of a turn a listed capturing placement begins the turn (see the module
        docstring); in the middle of a turn only placements are listed. ``resign`` is legal
        while the game goes on and is not listed.
        """
        moves: list[Move] = [(code,) for code in self.legal_placements()]
        if not self._over and not self._turn:
            if self._swap_refusal() is None:
                moves.append(SWAP)
            if self._must_pass:
                moves.append(PASS)
        return moves

    def check_placement(self, code: int, seat: int | None = None) -> Illegal | None:
        """Why placing on ``code`` now, as the next placement of this turn, is illegal, or None."""
        refusal = self._refusal_before_move(seat)
        if refusal is not None:
            return refusal
        verdict = self._evaluate(code)
        if isinstance(verdict, _Refusal):
            number = len(self._turn) + 1
            return self._illegal_placement(verdict, number, number, code)
        return None

    def _refusal_before_move(self, seat: int | None) -> Illegal | None:
        if self._over:
            return Illegal("GAME_ALREADY_OVER", self._over_text())
        if seat is not None and seat != self._seat:
            return Illegal(
                "NOT_YOUR_TURN",
                f"seat {seat} is not to move: it is seat {self._seat}'s turn ({RULES} §4.2)",
            )
        return None

    def _over_text(self) -> str:
        if self._end == "resign":
            return f"the game is over: seat {self._resigned[0]} resigned ({RULES} §7)"
        if self._end == "blocked":
            return f"the game is over: neither seat has a legal placement ({RULES} §6.2)"
        return f"the game is over: seat {self._winner} removed the last enemy stone ({RULES} §6.1)"

    def _special_refusal(self, move: str) -> Illegal | None:
        if move == RESIGN:
            return None
        if move == PASS:
            return self._pass_refusal()
        if move == SWAP:
            return self._swap_refusal()
        raise ValueError(f"{move!r} is not an Oust move (pass, swap, resign or placements)")

    def _pass_refusal(self) -> Illegal | None:
        if self._turn:
            last = cell_name(self._turn[-1])
            return Illegal(
                "PASS_NOT_ALLOWED",
                f"pass: seat {self._seat} must place again after the capturing placement "
                f"{last} ({RULES} §4.2)",
            )
        if not self._must_pass:
            example = cell_name(self.legal_placements()[0])
            return Illegal(
                "PASS_NOT_ALLOWED",
                f"pass: seat {self._seat} has a legal placement (such as {example}) and may "
                f"not pass ({RULES} §4.3)",
            )
        return None

    def _swap_refusal(self) -> Illegal | None:
        if not self._variant.pie:
            reason = "the pie rule is off in this game"
        elif self._ply != 1 or self._turn:
            reason = f"it is legal only as ply 2, and this is ply {self._ply + 1}"
        else:
            return None
        return Illegal("SWAP_NOT_ALLOWED", f"swap: {reason} ({RULES} §4.4)")

    def _single_placement_refusal(self, code: int) -> Illegal | None:
        """The verdict on a one-placement (rest of a) turn, without copying the whole state."""
        verdict = self._evaluate(code)
        done = len(self._turn)
        if isinstance(verdict, _Refusal):
            return self._illegal_placement(verdict, done + 1, done + 1, code)
        if not verdict.removed:
            return None
        seat = self._seat
        mine = self._stones[seat] | verdict.group
        theirs = self._stones[3 - seat] & ~verdict.removed
        if not theirs:
            return None  # the winning capture ends the turn
        groups = self._groups.copy()
        groups.merge(code, verdict.group)
        if not groups.can_place(mine, theirs):
            return None  # no placement left: the turn ends (§4.2)
        return self._must_place_again(code)

    def _must_place_again(self, code: int) -> Illegal:
        return Illegal(
            "MUST_PLACE_AGAIN",
            f"the turn ends with the capturing placement {cell_name(code)}, but seat "
            f"{self._seat} has a legal placement left and must place again ({RULES} §4.2)",
        )

    def _evaluate(self, code: int) -> _Effect | _Refusal:
        """What placing a stone of the mover on ``code`` would do, or why it is illegal."""
        board = self._board
        bit = board.bit.get(code)
        if bit is None:
            return _Refusal("NO_SUCH_CELL", f"there is no such cell on the side-{board.side} board")
        mine, theirs = self._stones[self._seat], self._stones[3 - self._seat]
        if (mine | theirs) & bit:
            return _Refusal("OCCUPIED", "the cell is occupied")
        own = board.neighbour_mask[code] & mine
        if not own:
            return _Effect(bit, 0)
        new_group, removed, blocker = self._groups.capture_effect(mine, theirs, bit, own)
        size = new_group.bit_count()
        if blocker >= 0:
            enemy = self._groups.stones_of(blocker)
            return _Refusal(
                "ENEMY_NOT_SMALLER",
                f"it joins own stones into a group of {size} that touches the enemy group "
                f"{_group_text(board, enemy)} of {enemy.bit_count()}, which is not smaller",
            )
        if not removed:
            return _Refusal(
                "NO_ENEMY_CONTACT",
                f"it joins own stones into a group of {size} that touches no enemy group",
            )
        return _Effect(new_group, removed)

    def _illegal_placement(self, refusal: _Refusal, number: int, total: int, code: int) -> Illegal:
        label = _placement_label(number, total, code)
        blocked = ""
        if self._must_pass and not self._turn:
            blocked = f"; seat {self._seat} has no legal placement and must pass"
        section = "§2.1" if refusal.code == "NO_SUCH_CELL" else "§4.1"
        return Illegal(refusal.code, f"{label}: {refusal.reason}{blocked} ({RULES} {section})")
