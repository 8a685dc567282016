"""Oust's position, ``OustState``: set-up, whole-turn enumeration, decisions and ``copy``.

The last class of ``OustState`` (see ``oust.stones`` for the others).

May import: ``protocol``, ``oust.board``, ``oust.notation``, ``oust.variant``, ``oust.turns``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import cast

from gamerec.validator.games.oust.board import (
    cell_name,
)
from gamerec.validator.games.oust.notation import (
    PASS,
    SWAP,
    Move,
    Turn,
)
from gamerec.validator.games.oust.turns import _Turns
from gamerec.validator.games.oust.variant import OustVariant


class OustState(_Turns):
    """An Oust position with the seat to move; mutable (see the package docstring).

    Besides the protocol's ``GameState`` methods it offers the placement-level API
    (:meth:`place`, :meth:`check_placement`, :meth:`legal_placements`, :attr:`in_turn`) and
    whole-turn enumeration (:meth:`legal_turns`, :meth:`count_turns`).
    """

    # Every slot is this class's own, not a base's: a slot read or written by name (getattr in
    # _take_over) checks the instance's class against the slot's, at once when they are one.
    __slots__ = (
        "_board",
        "_end",
        "_groups",
        "_must_pass",
        "_over",
        "_ply",
        "_resigned",
        "_seat",
        "_stones",
        "_turn",
        "_variant",
        "_winner",
    )

    @classmethod
    def with_stones(
        cls,
        variant: OustVariant,
        first: Iterable[int],
        second: Iterable[int],
        to_move: int = 1,
        ply: int = 2,
    ) -> OustState:
        """A position set up directly: the cells of seat 1 and seat 2 and the seat to move.

        ``ply`` is the number of plies taken to reach it (it matters only for ``swap``). The
        seat to move must pass, or the game is over, when the rules say so (§4.3, §6.2).

        Raises:
            ValueError: a cell off the board or given twice, or a seat other than 1 or 2.
        """
        state = cls(variant)
        if to_move not in (1, 2):
            raise ValueError(f"the seat to move must be 1 or 2, not {to_move}")
        for seat, codes in ((1, first), (2, second)):
            for code in codes:
                state._set_up_stone(seat, code)
        state._ply = ply
        state._begin_turn(to_move)
        return state

    def _set_up_stone(self, seat: int, code: int) -> None:
        bit = self._board.bit.get(code)
        if bit is None or (self._stones[1] | self._stones[2]) & bit:
            raise ValueError(f"cannot set up a stone on {cell_name(code)}: off board or taken")
        mine = self._stones[seat]
        self._stones[seat] = mine | bit
        own = self._board.neighbour_mask[code] & mine
        joined = bit
        while own:
            part = self._groups.stones_of((own & -own).bit_length() - 1)
            joined |= part
            own &= ~part
        self._groups.found(code, bit)
        self._groups.merge(code, joined)

    # -- whole turns -------------------------------------------------------------------------

    def legal_turns(self) -> Iterator[Move]:
        """Every legal complete turn from here (the rest of the turn when one is under way).

        Each placement sequence runs until the turn ends; ``swap`` and ``pass`` come last.
        """
        for move, _ in self.turn_children():
            yield move

    def turn_children(self) -> Iterator[tuple[Move, OustState]]:
        """Every legal complete turn with the state it leads to (perft's expansion)."""
        if self._over:
            return
        for code in self.legal_placements():
            child = self.copy()
            child._place_one(code)
            if child._turn:
                for rest, grandchild in child.turn_children():
                    yield (code, *cast(Turn, rest)), grandchild
            else:
                yield (code,), child
        if not self._turn:
            for special in (SWAP, PASS):
                if self._special_refusal(special) is None:
                    child = self.copy()
                    child._play_special(special, [])
                    yield special, child

    def count_turns(self) -> int:
        """The number of legal complete turns from here (what :meth:`legal_turns` yields)."""
        if self._over:
            return 0
        count = 0
        mine = self._stones[self._seat]
        neighbour_mask = self._board.neighbour_mask
        for code in self.legal_placements():
            if not neighbour_mask[code] & mine:
                count += 1
                continue
            child = self.copy()
            child._place_one(code)
            count += child.count_turns() if child._turn else 1
        if not self._turn:
            count += (self._swap_refusal() is None) + self._must_pass
        return count

    # -- results and snapshots ---------------------------------------------------------------

    def decide(self, decision: Move) -> None:
        """Make one decision of ``legal_moves``.

        A placement ``(code,)`` is placed as the next placement of the turn (:meth:`place`);
        ``swap`` and ``pass`` are played.
        """
        if isinstance(decision, tuple) and len(decision) == 1:
            self.place(decision[0])
        else:
            self.play(decision)

    def _take_over(self, other: OustState) -> None:
        for name in OustState.__slots__:
            setattr(self, name, getattr(other, name))

    def copy(self) -> OustState:
        """An independent copy of this state."""
        twin = OustState.__new__(OustState)
        twin._take_over(self)
        twin._stones = self._stones[:]
        twin._groups = self._groups.copy()
        twin._turn = self._turn[:]
        return twin
