"""Oh-Wah-Ree's record syntax: sowings ``4``, ``4ccw``, ``4cw`` (notation.md), its variant tags.

Move form: ``(pit, direction)``, the direction ``""`` when the token names none, else
``"ccw"`` or ``"cw"``. Whether a pit exists (``0`` and ``13`` parse) and whether a direction
is allowed are the referee's questions.
"""

from __future__ import annotations

import re
from typing import Any, Final

from gamerec.recorder.errors import EncodingError, NotationError, excerpt
from gamerec.recorder.syntax.base import (
    PLAYERS,
    GameSyntax,
    enum_name,
    named_option,
    number,
    number_option,
)

#: An Oh-Wah-Ree move form: ``(pit, direction)`` (``4cw`` is ``(4, "cw")``).
Sowing = tuple[int, str]

_PIT: Final = re.compile(r"([0-9]+)(ccw|cw)?")
#: The sowing direction of each suffix in the record schema.
DIRECTION_NAMES: Final = {
    "": "SOW_DIRECTION_UNSPECIFIED",
    "ccw": "SOW_DIRECTION_CCW",
    "cw": "SOW_DIRECTION_CW",
}
_SUFFIXES: Final = {name: suffix for suffix, name in DIRECTION_NAMES.items()}


def parse_move(token: str) -> Sowing:
    """``4``, ``4ccw``, ``4cw``, lower case.

    Raises:
        NotationError: not a pit number with an optional direction.
    """
    match = _PIT.fullmatch(token)
    if match is None:
        raise NotationError(
            f"move {excerpt(token)}: expected an Oh-Wah-Ree pit number with an optional direction, "
            "such as 4, 4ccw or 4cw"
        )
    digits, suffix = match.groups()
    return number(digits, token, "a pit number"), suffix or ""


def message_of(sowing: Sowing) -> dict[str, Any]:
    """The fields of an ``OhWahReeMove`` for a move form."""
    pit, direction = sowing
    return {"pit": pit, "direction": DIRECTION_NAMES[direction]}


def format_move(move: Any) -> str:
    """The canonical token of an ``OhWahReeMove``.

    Raises:
        EncodingError: a direction unknown to this version.
    """
    suffix = _SUFFIXES.get(enum_name("SowDirection", move.direction))
    if suffix is None:
        raise EncodingError(f"sowing direction {move.direction} is unknown to this version")
    return f"{move.pit}{suffix}"


SYNTAX: Final = GameSyntax(
    enum="GAME_OH_WAH_REE",
    name="Oh-Wah-Ree",
    aliases=("oh-wah-ree", "ohwahree", "oh_wah_ree"),
    action="oh_wah_ree",
    variant="oh_wah_ree",
    options=(
        PLAYERS,
        number_option("StonesPerPit", "stones_per_pit", "a stone count"),
        named_option(
            "Direction",
            "direction",
            "OhWahReeDirection",
            {"free": "OH_WAH_REE_DIRECTION_FREE", "ccw": "OH_WAH_REE_DIRECTION_CCW"},
        ),
    ),
    parse_move=parse_move,
    message_of=message_of,
    format_move=format_move,
)
