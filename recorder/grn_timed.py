"""GRN's run of timed plies: a move text of plies with a writer's seat, clock and time.

Live play writes every ply so: ``12. c7 {[%seat 2] [%clk 0:09:58.250] [%ts
2026-11-29T20:15:03.250Z]}``, and no two plies' texts are the same. :func:`timed_run` reads
such a move text, from a ply to the end of the record, in one ``findall``: each ply is its
seat's ply (looked up, or read and kept, as ``grn_plies.plain_ply_bytes`` keeps any ply) and
its times' fields (``time_fields.writers_times_fields``), the bytes the ply-by-ply reading
gives (``grn_plies``' timed plies). Any other text gives None, and the reader reads the run
as before, which places any error.

Imports: the standard library and ``gamerec.recorder``'s ``grn_lexer``, ``grn_plies``,
``grn_values``, ``notation``, ``time_fields`` and ``wire``.
"""

from __future__ import annotations

import re
from functools import cache

from gamerec.recorder.grn_lexer import GLYPH_PATTERN
from gamerec.recorder.grn_plies import PLY_BYTES, entry, numbered, plain_ply_bytes
from gamerec.recorder.grn_values import WRITERS_CLOCK_TEXT
from gamerec.recorder.notation import GameValue
from gamerec.recorder.time_fields import (
    WRITERS_TIME_BY_MINUTE_TEXT,
    clock_seconds,
    writers_times_fields,
)
from gamerec.recorder.wire import field_body

#: One timed ply, as ``grn_lexer.PLAIN_PLY`` and ``grn_plies``' timed comment read it, in
#: groups: its number; its move, glyph and seat command (the text of its seat's ply, less the
#: comment's closing brace); the clock's hours, minutes, seconds, fraction; the time's day,
#: hours and minutes (one group), seconds, fraction.
_TIMED_PLY = (
    r"\s*+([0-9]+)\.\s*+"
    r"([A-Za-z0-9,]++(?!-[0-9]|(?<=[0-9])\.)(?:" + GLYPH_PATTERN + r")?"
    r"\s*+\{\[%seat [0-9]{1,9}\])"
    r" \[%clk " + WRITERS_CLOCK_TEXT + r"\] \[%ts " + WRITERS_TIME_BY_MINUTE_TEXT + r"\]\}"
)


@cache
def timed_plies() -> re.Pattern[str]:
    """The timed plies from a place on, for ``findall`` (compiled when first read).

    ``findall`` gives a ply's groups, then (once or twice) a tuple whose number is ``""``
    and whose last item is the first character after the plies (``""``: only white space
    follows); the rest of the text is skipped in one step.
    """
    return re.compile(r"(?:" + _TIMED_PLY + r"|\s*+(.?).*)", re.DOTALL)


def timed_run(
    text: str, start: int, first: int, room: int, *, key: bytes, game: GameValue
) -> list[bytes] | None:
    """The bytes of the plies of ``text`` from ``start`` if it holds nothing else but timed plies.

    The plies are numbered ``first``, ``first + 1``... as written (no leading zero), at most
    ``room`` of them, and only white space follows the last. None for any other text, a time
    on a day that does not exist, or a ply that does not read.
    """
    plies = timed_plies().findall(text, start)
    numbers = tuple([ply[0] for ply in plies])
    count = numbers.index("")  # the first tuple after the plies
    if not 0 < count <= room or plies[count][-1] or numbered(numbers[:count], first) != count:
        return None
    known = PLY_BYTES.setdefault((key, game), {})
    read = []
    for ply_parts in plies[:count]:
        _, seated, hours, minutes, whole, fraction, minute, seconds, seconds_fraction, _ = ply_parts
        fields = writers_times_fields(
            clock_seconds(hours, minutes, whole),
            fraction,
            minute,
            seconds,
            seconds_fraction,
        )
        if fields is None:
            return None
        ply = known.get(seated + "}")
        if ply is None:
            alone = plain_ply_bytes([seated + "}"], known, key, game, 0)
            if not alone:
                return None
            ply = alone[0]
        read.append(entry(key, field_body(ply) + fields))
    return read
