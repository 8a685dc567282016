"""Oh-Wah-Ree's record syntax: sowings ``4``, ``4ccw``, ``4cw`` (notation.md), its variant tags.

Whether a pit exists and whether a direction is allowed are the referee's questions.
"""

from __future__ import annotations

import re
from typing import Final

from gamerec.recorder.errors import EncodingError, NotationError
from gamerec.recorder.syntax.base import (
    PLAYERS,
    GameSyntax,
    named_option,
    number,
    number_option,
    positive,
)
from gamerec.v1 import record_pb2 as pb

_PIT: Final = re.compile(r"([0-9]+)(ccw|cw)?")
DIRECTION_SUFFIXES: Final[dict[str, pb.SowDirection.ValueType]] = {
    "": pb.SOW_DIRECTION_UNSPECIFIED,
    "ccw": pb.SOW_DIRECTION_CCW,
    "cw": pb.SOW_DIRECTION_CW,
}
_SUFFIXES: Final = {direction: suffix for suffix, direction in DIRECTION_SUFFIXES.items()}
DIRECTIONS: Final = {"free": pb.OH_WAH_REE_DIRECTION_FREE, "ccw": pb.OH_WAH_REE_DIRECTION_CCW}


def parse_move(token: str) -> pb.OhWahReeMove:
    """``4``, ``4ccw``, ``4cw``, lower case.

    Raises:
        NotationError: not a pit number with an optional direction.
    """
    match = _PIT.fullmatch(token)
    if match is None:
        raise NotationError(
            f"move {token!r}: expected an Oh-Wah-Ree pit number with an optional direction, "
            "such as 4, 4ccw or 4cw"
        )
    digits, suffix = match.groups()
    pit = number(digits, token, "a pit number")
    return pb.OhWahReeMove(pit=pit, direction=DIRECTION_SUFFIXES[suffix or ""])


def format_move(move: pb.OhWahReeMove) -> str:
    """The canonical token of a sowing.

    Raises:
        EncodingError: pit 0, or a direction unknown to this version.
    """
    suffix = _SUFFIXES.get(move.direction)
    if suffix is None:
        raise EncodingError(f"sowing direction {move.direction} is unknown to this version")
    return f"{positive(move.pit, 'pit')}{suffix}"


SYNTAX: Final = GameSyntax(
    game=pb.GAME_OH_WAH_REE,
    name="Oh-Wah-Ree",
    aliases=("oh-wah-ree", "ohwahree", "oh_wah_ree"),
    action="oh_wah_ree",
    variant="oh_wah_ree",
    options=(
        PLAYERS,
        number_option("StonesPerPit", "stones_per_pit", "a stone count"),
        named_option("Direction", "direction", DIRECTIONS),
    ),
    parse_move=parse_move,
    format_move=format_move,
)
