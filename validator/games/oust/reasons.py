"""Why an Oust move is wrong: the reason codes, the sections they cite, the words of messages.

May import: ``oust.board``.
"""

from __future__ import annotations

from typing import Final

from gamerec.validator.games.oust.board import (
    HexBoard,
    cell_name,
    cells_of,
)

REASON_CODES: dict[str, str] = {
    "NOT_YOUR_TURN": "the ply claims a seat that is not the seat to move",
    "GAME_ALREADY_OVER": "the game has ended (a win, a resignation, or both seats blocked)",
    "NO_SUCH_CELL": "a placement names a cell that is not on this board",
    "OCCUPIED": "a placement is on a cell that already holds a stone",
    "NO_ENEMY_CONTACT": "a placement joins own stones but the new group touches no enemy group",
    "ENEMY_NOT_SMALLER": "a placement joins own stones into a group that touches an enemy "
    "group of the same size or larger",
    "MUST_PLACE_AGAIN": "the turn ends with a capturing placement while a legal placement is left",
    "TURN_ALREADY_ENDED": "a placement follows a non-capturing placement, the winning capture, "
    "or a capture after which no placement was possible",
    "PASS_NOT_ALLOWED": "pass while the seat to move has a legal placement or must place again",
    "SWAP_NOT_ALLOWED": "swap other than as ply 2 with the pie rule on",
}

#: The sections of the rules text each reason code's sentences cite (tests check that they
#: exist and that every sentence cites only these).
REASON_SECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "NOT_YOUR_TURN": ("§4.2",),
    "GAME_ALREADY_OVER": ("§6.1", "§6.2", "§7"),
    "NO_SUCH_CELL": ("§2.1",),
    "OCCUPIED": ("§4.1",),
    "NO_ENEMY_CONTACT": ("§4.1",),
    "ENEMY_NOT_SMALLER": ("§4.1",),
    "MUST_PLACE_AGAIN": ("§4.2",),
    "TURN_ALREADY_ENDED": ("§4.2", "§6.1"),
    "PASS_NOT_ALLOWED": ("§4.2", "§4.3"),
    "SWAP_NOT_ALLOWED": ("§4.4",),
}


_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth")


def _ordinal(n: int) -> str:
    if n <= len(_ORDINALS):
        return _ORDINALS[n - 1]
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


def _group_text(board: HexBoard, stones: int) -> str:
    names = [cell_name(code) for code in cells_of(stones & board.mask)]
    shown = " ".join(names[:6])
    return shown + " ..." if len(names) > 6 else shown


def _require_turn(move: object) -> None:
    if not isinstance(move, tuple) or not move:
        raise ValueError(f"{move!r} is not an Oust move (pass, swap, resign or placements)")


def _placement_label(number: int, total: int, code: int) -> str:
    if total == 1:
        return f"placement {cell_name(code)}"
    return f"{_ordinal(number)} placement {cell_name(code)}"
