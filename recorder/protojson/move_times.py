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
    clock_field,
    fraction_nanos,
    time_bytes,
    timestamp_field,
    utc_time,
)

#: The keys of a move's clock and timestamp (their JSON names are their field names).
TIME_KEYS: Final = ("clock", "timestamp")
#: A clock as writers write it: whole seconds (at most 11 digits: within a Duration's range)
#: and at most 9 fraction digits, no sign. ProtoJSON reads the fraction as a float and rounds
#: it to nanoseconds, which for 9 digits or fewer is the digits themselves.
_WRITERS_CLOCK: Final = re.compile(r"([0-9]{1,11})(?:\.([0-9]{1,9}))?s")


def times_bytes(mapping: dict[str, Any]) -> bytes | None:
    """The clock and timestamp fields of a move's mapping, after one another.

    A time of ``None`` (JSON ``null``) gives no field, as the message constructor skips it.
    None when a time is not a text writers write: the move is then converted whole.
    """
    clock, stamp = mapping.get("clock"), mapping.get("timestamp")
    fields = b""
    if clock is not None:
        body = _clock_body(clock)
        if body is None:
            return None
        fields = clock_field(body)
    if stamp is not None:
        found = utc_time(stamp) if type(stamp) is str else None
        if found is None:
            return None
        fields += timestamp_field(time_bytes(*found))
    return fields


def _clock_body(value: Any) -> bytes | None:
    """A writer's clock text as a Duration's bytes, or None for any other value."""
    match = _WRITERS_CLOCK.fullmatch(value) if type(value) is str else None
    if match is None:
        return None
    whole, fraction = match.groups()
    return time_bytes(int(whole), fraction_nanos(fraction))
