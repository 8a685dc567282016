"""A move's clock and timestamp, from their ProtoJSON texts straight to their fields' bytes.

A record with a clock and a timestamp on every move (live play writes both) has no move text
that recurs, so ``fast_read`` would convert every one of its moves whole. Instead such a move
is looked up without its times (its seat and action recur, and are remembered), and the
fields of its times are written after it from their texts (:func:`times_bytes`), as
ProtoJSON reads the texts writers write: ``598.250s`` and ``2026-11-29T20:15:03.250Z``. Any
other text of a time leaves the move to be converted whole, as before.

Imports: the standard library and ``gamerec.recorder.time_fields`` only.
"""

from __future__ import annotations

import re
from typing import Any, Final

from gamerec.recorder.time_fields import (
    WRITERS_TIME_TEXT,
    clock_field,
    time_bytes,
    time_bytes_of,
    timestamp_field,
    utc_time,
    writers_times_fields,
)

#: The keys of a move's clock and timestamp (their JSON names are their field names).
TIME_KEYS: Final = ("clock", "timestamp")
#: A clock as writers write it: whole seconds (at most 11 digits: within a Duration's range)
#: and at most 9 fraction digits, no sign. ProtoJSON reads the fraction as a float and rounds
#: it to nanoseconds, which for 9 digits or fewer is the digits themselves.
_WRITERS_CLOCK: Final = re.compile(r"([0-9]{1,11})(?:\.([0-9]{1,9}))?s")


#: The end of a move's text as orjson writes a writer's timed move: its clock, then its
#: timestamp, both in the forms above (texts without a quote or a backslash).
_TIMES_AT_END: Final = re.compile(
    r',"clock":"' + _WRITERS_CLOCK.pattern + r'","timestamp":"' + WRITERS_TIME_TEXT + '"'
)
_CLOCK_AT: Final = b',"clock":"'
#: Keys the rest of such a text must not hold: the times' own (it would give them twice) and
#: the variations (field 13, written after the times' fields 11 and 12).
_CLOCK_KEY: Final = b'"clock"'
_TIMESTAMP_KEY: Final = b'"timestamp"'
_VARIATIONS_KEY: Final = b'"variations"'


def cut_times(text: bytes) -> tuple[bytes, bytes] | None:
    """A move's text without the clock and timestamp at its end, and those times' fields.

    ``text`` ends with ``,"clock":"598.250s","timestamp":"2026-11-29T20:15:03.250Z"``, as
    orjson writes a writer's move: the rest is then the move without its times, and the fields
    are those :func:`times_bytes` gives. None for any other text, and when the rest holds a
    ``"clock"``, ``"timestamp"`` or ``"variations"`` (even inside a string: the caller then
    reads the whole text).
    """
    at = text.rfind(_CLOCK_AT)
    if at < 0 or not text.isascii():
        return None
    found = _TIMES_AT_END.fullmatch(text[at:].decode())
    rest = text[:at]
    if found is None or _CLOCK_KEY in rest or _TIMESTAMP_KEY in rest or _VARIATIONS_KEY in rest:
        return None
    whole, fraction, seconds, seconds_fraction = found.group(1, 2, 6, 7)
    fields = writers_times_fields(
        int(whole), fraction, found.string[found.start(3) : found.end(5)], seconds, seconds_fraction
    )
    return None if fields is None else (rest, fields)


def _clock_fields(whole: str, fraction: str | None) -> bytes:
    """The clock field of a writer's clock, from its whole seconds and fraction digits."""
    return clock_field(time_bytes_of(int(whole), fraction))


def times_bytes(mapping: dict[str, Any]) -> bytes | None:
    """The clock and timestamp fields of a move's mapping, after one another.

    A time of ``None`` (JSON ``null``) gives no field, as the message constructor skips it.
    None when a time is not a text writers write: the move is then converted whole.
    """
    clock, stamp = mapping.get("clock"), mapping.get("timestamp")
    fields = b""
    if clock is not None:
        found = _WRITERS_CLOCK.fullmatch(clock) if type(clock) is str else None
        if found is None:
            return None
        fields = _clock_fields(*found.groups())
    if stamp is not None:
        time = utc_time(stamp) if type(stamp) is str else None
        if time is None:
            return None
        fields += timestamp_field(time_bytes(*time))
    return fields
