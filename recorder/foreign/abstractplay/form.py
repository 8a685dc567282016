"""What Abstract Play's records and gamerec's reading and writing of them share.

The free tags this codec keeps, the endings gameslib writes as moves, the games the format
holds, and a few small helpers. May import the standard library, ``gamerec.v1`` and
``gamerec.recorder.syntax``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from gamerec.recorder.syntax import GAMES
from gamerec.recorder.syntax.foreign import AbstractPlayForm
from gamerec.v1 import record_pb2 as pb

EMBEDDED: Final = "gamerec"
#: The free tags this codec reads and writes.
GAME_ID_TAG: Final = "AbstractPlayGameId"
DATE_END_TAG: Final = "AbstractPlayDateEnd"
DATE_GENERATED_TAG: Final = "AbstractPlayDateGenerated"
UNRATED_TAG: Final = "AbstractPlayUnrated"
SCORES_TAG: Final = "AbstractPlayScores"
PATCH_TAG: Final = "AbstractPlayJSON"
#: The start time written for a record that has none (read back as none).
NO_START: Final = "1970-01-01T00:00:00.000Z"
#: Moves gameslib writes for a game that ended otherwise than by its rules.
ENDINGS: Final = {
    "timeout": pb.TERMINATION_TIMEOUT,
    "draw": pb.TERMINATION_AGREEMENT,
    "abandoned": pb.TERMINATION_ABANDONED,
}
_ENDING_OF: Final = {termination: move for move, termination in ENDINGS.items()}
#: Plies GRN and Abstract Play write alike.
_SAME: Final = ("pass", "resign")

Warn = Callable[[str], None]


def is_abstract_play(value: Any) -> bool:
    """Whether a JSON value is shaped as an Abstract Play record (an object with a header).

    No GameRecord field is called ``header``, so the test tells the two JSON formats apart.
    """
    return isinstance(value, dict) and "header" in value


def game_names() -> str:
    """The games Abstract Play's records can hold, for messages (``Oust``)."""
    return ", ".join(form.name for form in _forms())


def _forms() -> list[AbstractPlayForm]:
    return [syntax.abstract_play for syntax in GAMES if syntax.abstract_play is not None]


def _is_number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)


def _joined(where: str, path: str) -> str:
    return f"{where}, {path}" if where and path else where or path
