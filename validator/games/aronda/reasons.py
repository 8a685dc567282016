"""Why an Aronda move is wrong, and how a game ends.

The reason codes with the sections of the rules text they cite, the endings, and one sentence
per way a move is wrong, shared by ``check``/``play`` (``aronda.state``) and the fast replay
(``aronda.replay``), so that the two say the same.

May import: ``protocol``, ``aronda.board``, ``aronda.notation``, ``aronda.variant``.
"""

from __future__ import annotations

from typing import Final

from gamerec.validator.games.aronda.board import (
    RULES,
    fields_in,
)
from gamerec.validator.games.aronda.notation import (
    field_name,
)
from gamerec.validator.games.aronda.variant import (
    ArondaVariant,
)
from gamerec.validator.games.protocol import (
    Illegal,
)

#: Ways a game ends (:attr:`ArondaState.ending`); "" while it goes on.
ENDINGS: dict[str, str] = {
    "thirteen-fields": "a seat owns 13 fields (§6.1)",
    "blocked": "the seat to move has no legal field at the start of its turn (§4.3)",
    "second-piece": "the mover's second piece had no legal field under SecondPiece lose (§4.3)",
    "passes": "two passes in a row under Supply pass (§6.2)",
    "resignation": "the seat to move resigned (§7)",
}

REASON_CODES: dict[str, str] = {
    "NOT_YOUR_TURN": "the move is claimed by a seat that is not the seat to move",
    "GAME_ALREADY_OVER": "the game has already ended",
    "NO_SUCH_FIELD": "a placement names a field that is not on the board (e.g. i9, o0)",
    "FIELD_OWNED": "a placement goes on a field that a seat already owns",
    "NOT_CONNECTED": "a placement is neither on the edge nor next to the seat's chain",
    "NO_PIECES_LEFT": "a placement is made with an empty supply",
    "WRONG_PLACEMENT_COUNT": "a turn places the wrong number of pieces (1 first, else 2)",
    "PASS_NOT_ALLOWED": "pass where the rules do not oblige the seat to pass",
}

#: The sections of the rules text each reason code's sentences cite (tests check that they
#: exist and that every sentence cites only these).
REASON_SECTIONS: Final[dict[str, tuple[str, ...]]] = {
    "NOT_YOUR_TURN": ("§4.1",),
    "GAME_ALREADY_OVER": ("§6",),
    "NO_SUCH_FIELD": ("§2",),
    "FIELD_OWNED": ("§4.2",),
    "NOT_CONNECTED": ("§4.2",),
    "NO_PIECES_LEFT": ("§4.2",),
    "WRONG_PLACEMENT_COUNT": ("§4.1", "§6.1"),
    "PASS_NOT_ALLOWED": ("§4.3",),
}


def _placement_label(index: int, count: int) -> str:
    """How a message names the placement ``index`` (0-based) of a turn of ``count``."""
    if count == 1:
        return "placement"
    return ("first", "second", "third")[min(index, 2)] + " placement"


def _describe_field(code: int) -> str:
    """A field code as text for a message, even a code that is no field at all."""
    return field_name(code) if code >= 0 else f"<code {code}>"


def _game_over() -> Illegal:
    return Illegal("GAME_ALREADY_OVER", f"the game is already over ({RULES} §6)")


def _not_your_turn(claimed: int, to_move: int) -> Illegal:
    return Illegal(
        "NOT_YOUR_TURN", f"it is seat {to_move}'s turn, not seat {claimed}'s ({RULES} §4.1)"
    )


def _pass_not_allowed(seat: int, variant: ArondaVariant) -> Illegal:
    if variant.supply == "strict":
        why = "pass is never allowed under Supply strict"
    else:
        why = f"seat {seat} has pieces to place or a board that blocks it"
    return Illegal("PASS_NOT_ALLOWED", f"seat {seat} may not pass: {why} ({RULES} §4.3)")


def _wrong_count(count: int, first_turn: bool) -> Illegal:
    if first_turn:
        why = f"seat 1's first turn places exactly one piece, not {count}"
    else:
        why = f"a turn places one or two pieces, not {count}"
    return Illegal("WRONG_PLACEMENT_COUNT", f"{why} ({RULES} §4.1)")


def _turn_already_won(seat: int, field: int) -> Illegal:
    return Illegal(
        "WRONG_PLACEMENT_COUNT",
        f"seat {seat} won with 13 fields after first placement {field_name(field)}, so the "
        f"turn has no second placement ({RULES} §6.1)",
    )


def _second_piece_missing(seat: int, field: int, legal: int) -> Illegal:
    example = field_name(next(fields_in(legal)))
    return Illegal(
        "WRONG_PLACEMENT_COUNT",
        f"after placement {field_name(field)} seat {seat}'s second piece has a legal field "
        f"(e.g. {example}), so the turn places two pieces ({RULES} §4.1)",
    )


def _no_such_field(label: str, field: int) -> Illegal:
    name = _describe_field(field)
    return Illegal(
        "NO_SUCH_FIELD", f"{label} {name}: there is no field {name} on the board ({RULES} §2)"
    )


def _field_owned(label: str, field: int, owner: int) -> Illegal:
    name = field_name(field)
    return Illegal(
        "FIELD_OWNED", f"{label} {name}: field {name} is owned by seat {owner} ({RULES} §4.2)"
    )


def _not_connected(label: str, field: int, seat: int) -> Illegal:
    name = field_name(field)
    return Illegal(
        "NOT_CONNECTED",
        f"{label} {name}: field {name} is neither on the edge nor next to seat {seat}'s "
        f"chain of fields joined to the edge ({RULES} §4.2)",
    )


def _no_pieces_left(label: str, field: int, seat: int) -> Illegal:
    return Illegal(
        "NO_PIECES_LEFT",
        f"{label} {field_name(field)}: seat {seat} has no pieces left in its supply ({RULES} §4.2)",
    )
