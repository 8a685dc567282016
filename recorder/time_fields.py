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
_DAY: Final = r"[0-9]{4}-[0-9]{2}-[0-9]{2}"
_HOUR: Final = r"[01][0-9]|2[0-3]"
_SIXTY: Final = r"[0-5][0-9]"
_FRACTION: Final = r"(?:\.([0-9]{1,9}))?"
WRITERS_TIME_TEXT: Final = f"({_DAY})T({_HOUR}):({_SIXTY}):({_SIXTY}){_FRACTION}Z"
#: The same texts, grouped as :func:`writers_times_fields` takes them: the minute (day, hours
#: and minutes: ``2026-11-29T20:15``), the seconds, the fraction.
WRITERS_TIME_BY_MINUTE_TEXT: Final = f"({_DAY}T(?:{_HOUR}):{_SIXTY}):({_SIXTY}){_FRACTION}Z"
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


def writers_times_fields(
    clock_seconds: int,
    clock_fraction: str | None,
    minute: str,
    whole: str,
    fraction: str | None,
) -> bytes | None:
    """A move's clock and timestamp fields, of a writer's clock and UTC time, after each other.

    The bytes of ``clock_field(time_bytes(clock_seconds, fraction_nanos(clock_fraction)))``
    then ``timestamp_field`` of the time's :func:`utc_of_parts`, written with fewer steps:
    live play puts both on every move. ``minute``: the time's text up to its minutes
    (``2026-11-29T20:15``, as :data:`WRITERS_TIME_TEXT` reads it); ``whole`` and
    ``fraction``: its seconds' digits. None when the day does not exist.
    """
    start = _MINUTE_STARTS.get(minute)
    if start is None:
        start = _minute_start(minute)
        if start is None:
            return None
    clock = time_bytes_of(clock_seconds, clock_fraction)
    stamp = time_bytes_of(start + int(whole), fraction)
    # Either body is at most 17 bytes (an int64 and an int32 varint, their keys): its
    # length is one byte.
    return b"".join(
        (_CLOCK_KEY, _LENGTHS[len(clock)], clock, _TIMESTAMP_KEY, _LENGTHS[len(stamp)], stamp)
    )


def time_bytes_of(seconds: int, fraction: str | None) -> bytes:
    """:func:`time_bytes` of ``seconds`` and the nanoseconds of ``fraction``'s digits.

    ``time_bytes(seconds, fraction_nanos(fraction))``, the fraction's field remembered and
    the seconds' written in Python for 1 to 2**35 - 1.
    """
    nanos = _NANOS_FIELDS.get(fraction)
    if nanos is None:
        nanos = time_bytes(0, fraction_nanos(fraction))  # the nanos field alone
        if len(_NANOS_FIELDS) >= NANOS_FIELDS_REMEMBERED:
            _NANOS_FIELDS.clear()
            _NANOS_FIELDS[None] = b""
        _NANOS_FIELDS[fraction] = nanos
    # 0 has no field; a negative time (before 1970) or one after 3058 goes to protobuf.
    if 0 < seconds < 0x800000000:
        return _seconds_field(seconds) + nanos
    return time_bytes(seconds, fraction_nanos(fraction))


def _seconds_field(seconds: int) -> bytes:
    """The ``seconds`` field (key 0x08, a varint) of 1 to 2**35 - 1 (clocks; years 1970-3058)."""
    if seconds < 0x80:
        return bytes((0x08, seconds))
    low = seconds & 0x7F | 0x80
    if seconds < 0x4000:
        return bytes((0x08, low, seconds >> 7))
    if seconds < 0x200000:
        return bytes((0x08, low, seconds >> 7 & 0x7F | 0x80, seconds >> 14))
    if seconds < 0x10000000:
        return bytes(
            (0x08, low, seconds >> 7 & 0x7F | 0x80, seconds >> 14 & 0x7F | 0x80, seconds >> 21)
        )
    return bytes(
        (
            0x08,
            low,
            seconds >> 7 & 0x7F | 0x80,
            seconds >> 14 & 0x7F | 0x80,
            seconds >> 21 & 0x7F | 0x80,
            seconds >> 28,
        )
    )


def _minute_start(minute: str) -> int | None:
    """The Unix seconds of a ``YYYY-MM-DDTHH:MM`` minute's start, remembered; None: no such day."""
    day = _day_start(minute[:10])
    if day is None:
        return None
    start = day + int(minute[11:13]) * 3600 + int(minute[14:16]) * 60
    if len(_MINUTE_STARTS) >= MINUTE_STARTS_REMEMBERED:
        _MINUTE_STARTS.clear()
    _MINUTE_STARTS[minute] = start
    return start


#: The nanos fields of fraction digits (a writer's milliseconds: 1,000 texts), and the minutes'
#: starts of times, remembered: each table at most this many entries, emptied when full.
NANOS_FIELDS_REMEMBERED: Final = 4096
MINUTE_STARTS_REMEMBERED: Final = 4096
_NANOS_FIELDS: dict[str | None, bytes] = {None: b""}
_MINUTE_STARTS: dict[str, int] = {}
#: A one-byte length of a field's body.
_LENGTHS: Final = tuple(bytes((length,)) for length in range(0x80))
