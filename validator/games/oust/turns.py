"""Checking and playing Oust turns and single placements (docs/rules/oust.md §4, §6, §7).

The third class of ``OustState`` (see ``oust.stones``): ``check``, ``play``, ``place`` and the
turn's bookkeeping (a turn goes on after a capture, a forced pass, the end).

May import: ``protocol``, ``oust.board``, ``oust.notation``, ``oust.reasons``, ``oust.groups``,
``oust.legality``.
"""

from __future__ import annotations

from gamerec.validator.games.oust.board import (
    RULES,
    cell_name,
    cells_of,
)
from gamerec.validator.games.oust.groups import _Effect, _Refusal
from gamerec.validator.games.oust.legality import _Legality
from gamerec.validator.games.oust.notation import (
    RESIGN,
    SWAP,
    Move,
    Turn,
)
from gamerec.validator.games.oust.reasons import (
    _placement_label,
    _require_turn,
)
from gamerec.validator.games.protocol import (
    GameEvent,
    Illegal,
    IllegalMoveError,
)


class _Turns(_Legality):
    """Checking and playing whole turns and single placements on an Oust position."""

    __slots__ = ()

    def check(self, move: Move, seat: int | None = None) -> Illegal | None:
        """Why the turn ``move`` (the rest of the turn when one is under way) is illegal, or None.

        Raises:
            ValueError: ``move`` is not an Oust move value (an empty tuple, another string).
        """
        refusal = self._refusal_before_move(seat)
        if refusal is not None:
            return refusal
        if isinstance(move, str):
            return self._special_refusal(move)
        _require_turn(move)
        if len(move) == 1:
            return self._single_placement_refusal(move[0])
        return self.copy()._run_placements(move, None)

    # -- playing -----------------------------------------------------------------------------

    def play(self, move: Move) -> tuple[GameEvent, ...]:
        """Play the turn ``move`` (the rest of the turn when one is under way) in place.

        Returns:
            The events: ``capture`` per capturing placement (the removed cells),
            ``turn-ended`` when a capture left no legal placement, ``pass``, ``swap``,
            ``resign``, and ``end`` (seat = the winner, 0 for none) when the game ends.

        Raises:
            IllegalMoveError: ``check`` rejects the move; the state is unchanged.
        """
        refusal = self._refusal_before_move(None)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        events: list[GameEvent] = []
        if isinstance(move, str):
            refusal = self._special_refusal(move)
            if refusal is not None:
                raise IllegalMoveError(refusal)
            self._play_special(move, events)
            return tuple(events)
        _require_turn(move)
        scratch = self.copy()
        refusal = scratch._run_placements(move, events)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        self._take_over(scratch)
        return tuple(events)

    def place(self, code: int) -> bool:
        """Make one placement of the seat to move, as the next placement of its turn.

        Returns:
            True when the turn goes on (a capture, and the mover has a legal placement left:
            it must place again); False when the turn is over (the next seat is to move, or
            the game has ended).

        Raises:
            IllegalMoveError: the placement is illegal now; the state is unchanged.
        """
        refusal = self._refusal_before_move(None) or self._place_one(code)
        if refusal is not None:
            raise IllegalMoveError(refusal)
        return bool(self._turn)

    def _place_one(self, code: int) -> Illegal | None:
        verdict = self._evaluate(code)
        if isinstance(verdict, _Refusal):
            number = len(self._turn) + 1
            return self._illegal_placement(verdict, number, number, code)
        self._apply(code, verdict)
        self._after_placement(code, verdict, None)
        return None

    def _run_placements(self, move: Turn, events: list[GameEvent] | None) -> Illegal | None:
        """Play the placements of the whole (rest of the) turn ``move`` on this state.

        Stops at the first illegal placement and returns why; the state is then half played,
        so callers run this on a copy.
        """
        done = len(self._turn)
        total = done + len(move)
        previous: _Effect | None = None
        for index, code in enumerate(move):
            number = done + index + 1
            if previous is not None and not self._turn:
                return self._turn_already_ended(move[index - 1], previous, number, total, code)
            verdict = self._evaluate(code)
            if isinstance(verdict, _Refusal):
                return self._illegal_placement(verdict, number, total, code)
            self._apply(code, verdict)
            self._after_placement(code, verdict, events)
            previous = verdict
        if self._turn:  # the last placement captured and a legal placement is left
            return self._must_place_again(move[-1])
        return None

    def _turn_already_ended(
        self, previous: int, effect: _Effect, number: int, total: int, code: int
    ) -> Illegal:
        before = cell_name(previous)
        if not effect.removed:
            why = f"the turn ended with the non-capturing placement {before} ({RULES} §4.2)"
        elif self._end == "capture":
            why = f"the game ended when {before} removed the last enemy stone ({RULES} §6.1)"
        else:
            why = (
                f"the turn ended after the capturing placement {before} because no legal "
                f"placement was left ({RULES} §4.2)"
            )
        return Illegal("TURN_ALREADY_ENDED", f"{_placement_label(number, total, code)}: {why}")

    def _apply(self, code: int, effect: _Effect) -> None:
        seat = self._seat
        bit = self._board.bit[code]
        self._stones[seat] |= bit
        if not effect.removed:
            self._groups.found(code, bit)
            return
        self._stones[3 - seat] &= ~effect.removed
        self._groups.merge(code, effect.group)

    def _after_placement(self, code: int, effect: _Effect, events: list[GameEvent] | None) -> None:
        """Decide whether the turn goes on after a placement (docs/rules/oust.md §4.2, §6.1)."""
        seat = self._seat
        if effect.removed and events is not None:
            removed = tuple(cell_name(cell) for cell in cells_of(effect.removed))
            events.append(GameEvent("capture", seat, removed, len(removed)))
        if not effect.removed:
            self._end_turn(events)
        elif not self._stones[3 - seat]:
            self._finish(seat, "capture", events)
        elif self._can_place_now(seat):
            self._turn.append(code)
        else:
            if events is not None:
                events.append(GameEvent("turn-ended", seat, (cell_name(code),)))
            self._end_turn(events)

    def _can_place_now(self, seat: int) -> bool:
        mine, theirs = self._stones[seat], self._stones[3 - seat]
        return self._groups.can_place(mine, theirs)

    def _end_turn(self, events: list[GameEvent] | None) -> None:
        self._ply += 1
        self._turn = []
        self._begin_turn(3 - self._seat)
        if self._over and events is not None:
            events.append(GameEvent("end", 0))

    def _begin_turn(self, seat: int) -> None:
        """Start ``seat``'s turn: a normal turn, a forced pass (§4.3), or both blocked (§6.2)."""
        self._seat = seat
        self._turn = []
        self._must_pass = not self._can_place_now(seat)
        if self._must_pass and not self._can_place_now(3 - seat):
            self._over, self._end = True, "blocked"

    def _finish(self, winner: int, end: str, events: list[GameEvent] | None) -> None:
        self._ply += 1
        self._turn = []
        self._over, self._winner, self._end = True, winner, end
        if events is not None:
            events.append(GameEvent("end", winner))

    def _play_special(self, move: str, events: list[GameEvent]) -> None:
        seat = self._seat
        if move == RESIGN:
            self._resigned = (seat,)
            events.append(GameEvent("resign", seat))
            self._finish(3 - seat, "resign", events)
            return
        if move == SWAP:
            moved = self._stones[1]
            self._stones[1], self._stones[2] = 0, moved
            events.append(GameEvent("swap", 2, tuple(cell_name(c) for c in cells_of(moved))))
            self._ply += 1
            self._begin_turn(1)
            return
        events.append(GameEvent("pass", seat))
        self._end_turn(events)
