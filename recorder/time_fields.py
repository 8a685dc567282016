"""Duration and Timestamp as their bytes, written without a message, and a writer's UTC time.

A clock or a timestamp on every move of a record (live play writes both) costs a text reader a
message per move when the move is built as one; its bytes are two varints, which
:func:`time_bytes` gives (a Timestamp's are a Duration's: the same two fields), and the
move's field is written around them. :func:`utc_time` reads the one form of
RFC 3339 that writers use, ``2026-11-29T20:15:03.250Z``, as GRN and ProtoJSON read it.

Imports: the standard library, protobuf's Duration and ``recorder.wire`` only.
"""

from __future__ import annotations

import datetime
import re
from functools import lru_cache
from typing import Final

from google.protobuf import duration_pb2

from gamerec.recorder.wire import encode_varint

#: A time as writers write it: UTC (``Z``), a time of day that exists (the day is checked by
#: :func:`_day_start`). Every such time is within a Timestamp's years 0001 to 9999.
WRITERS_TIME_TEXT: Final = (
    r"([0-9]{4}-[0-9]{2}-[0-9]{2})T([01][0-9]|2[0-3]):([0-5][0-9]):([0-5][0-9])"
    r"(?:\.([0-9]{1,9}))?Z"
)
WRITERS_TIME: Final = re.compile(WRITERS_TIME_TEXT)
_EPOCH_ORDINAL: Final = datetime.date(1970, 1, 1).toordinal()


#: The field keys of ``Move.clock`` (field 11) and ``Move.timestamp`` (field 12).
_CLOCK_KEY: Final = b"\x5a"
_TIMESTAMP_KEY: Final = b"\x62"


def clock_field(body: bytes) -> bytes:
    """A move's ``clock`` field holding a Duration's bytes (present even when empty)."""
    return _CLOCK_KEY + encode_varint(len(body)) + body


def timestamp_field(body: bytes) -> bytes:
    """A move's ``timestamp`` field holding a Timestamp's bytes (present even when empty)."""
    return _TIMESTAMP_KEY + encode_varint(len(body)) + body


def clock_seconds(hours: str, minutes: str, whole: str) -> int:
    """The seconds of ``h:mm:ss`` from its digits (a clock's, or a time of day's)."""
    return int(hours) * 3600 + int(minutes) * 60 + int(whole)


def fraction_nanos(digits: str | None) -> int:
    """The nanoseconds of at most nine fraction digits (``25`` is 250,000,000; none is 0)."""
    return int(digits.ljust(9, "0")) if digits else 0


def utc_time(text: str) -> tuple[int, int] | None:
    """The Unix seconds and nanos of a writer's UTC time; None for any other text.

    None also for a day that does not exist (``2026-02-30``): the caller's own reader says
    why. For the texts it reads, the answer is that of GRN's ``parse_timestamp`` and of
    ProtoJSON's reading.
    """
    match = WRITERS_TIME.fullmatch(text)
    return None if match is None else utc_of_parts(*match.groups())


def utc_of_parts(
    day: str, hours: str, minutes: str, whole: str, fraction: str | None
) -> tuple[int, int] | None:
    """:func:`utc_time` of the parts :data:`WRITERS_TIME_TEXT`'s groups read; None: no such day."""
    start = _day_start(day)
    if start is None:
        return None
    return start + clock_seconds(hours, minutes, whole), fraction_nanos(fraction)


@lru_cache(maxsize=1024)
def _day_start(day: str) -> int | None:
    """The Unix seconds of a ``YYYY-MM-DD`` day's start, or None when there is no such day."""
    try:
        date = datetime.date(int(day[:4]), int(day[5:7]), int(day[8:10]))
    except ValueError:
        return None
    return (date.toordinal() - _EPOCH_ORDINAL) * 86400


def time_bytes(seconds: int, nanos: int) -> bytes:
    """A Duration's or Timestamp's bytes (the same fields): seconds (int64), nanos (int32).

    Written by protobuf's own encoder, in one C call: a Duration made for them is cheaper
    than writing the two varints in Python (a time's seconds take five bytes).
    """
    return _Duration(seconds=seconds, nanos=nanos).SerializeToString()


_Duration: Final = duration_pb2.Duration
