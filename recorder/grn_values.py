r"""The text forms of GRN values: escaping, numbers, clocks and timestamps.

Escaping (the same in tag values and in comments):

- ``\\`` ``\"`` ``\{`` ``\}`` ``\[`` stand for the character after the backslash;
- ``\uXXXX`` (four hex digits) stands for a control character (Unicode category Cc:
  U+0000-001F, U+007F-009F) or a character with Unicode's White_Space property (U+0020,
  U+00A0, U+1680, U+2000-200A, U+2028, U+2029, U+202F, U+205F, U+3000); any other ``\uXXXX``
  is text as written (``\u0041`` stays six characters, so one character has one escape);
- a backslash before anything else is an ordinary character, so a person's ``C:\games``
  reads as written.

The writer escapes, in tag values: the backslash, the double quote and every control
character; in comments: the backslash, the closing brace, a ``[`` that starts one of the
commands the reader interprets (``[%clk``, ``[%ts``, ``[%seat``, ``[%seal``, in any case),
every control character except newline and tab, and white space at either end of the comment (the
reader strips unescaped white space at both ends, so ``{ a quiet start }`` means
``a quiet start``). So any string survives a write and a read.

Parse functions raise :class:`RecordMalformedError` without a place; the GRN reader adds the
line and column. Format functions raise :class:`EncodingError` for values with no text form.
"""

from __future__ import annotations

import datetime
import re
from functools import lru_cache
from typing import Final

from google.protobuf import duration_pb2, timestamp_pb2

from gamerec.recorder.errors import EncodingError, RecordMalformedError, excerpt
from gamerec.recorder.syntax.base import whole_number, whole_numbers
from gamerec.recorder.time_fields import (
    clock_seconds,
    fraction_nanos,
    time_bytes,
    time_bytes_of,
    utc_time,
)

UINT32_MAX = 2**32 - 1
INT32_MIN = -(2**31)
INT32_MAX = 2**31 - 1

# The ranges google.protobuf.Duration and Timestamp allow (their .proto comments).
DURATION_MAX_SECONDS = 315_576_000_000
TIMESTAMP_MIN_SECONDS = -62_135_596_800  # 0001-01-01T00:00:00Z
TIMESTAMP_MAX_SECONDS = 253_402_300_799  # 9999-12-31T23:59:59Z
NANOS_PER_SECOND = 1_000_000_000

_CONTROL = "\x00-\x1f\x7f-\x9f\u2028\u2029"
_TAG_SPECIALS = re.compile(f'[{_CONTROL}\\\\"]')
# A "[" is escaped only where it starts a command the reader gives a meaning to; other
# "[%...]" commands (annotation facts, other tools' commands) stay readable as they are.
_COMMENT_SPECIALS = re.compile(
    "[\\x00-\\x08\\x0b-\\x1f\\x7f-\\x9f\u2028\u2029\\\\}]|\\[(?=%(?i:clk|ts|seat|seal)(?![A-Za-z]))"
)
_SPACE_RUN = re.compile(r"\s")
_ESCAPE = re.compile(r"\\(u[0-9A-Fa-f]{4}|.)", re.DOTALL)
_QUOTED_BY_BACKSLASH = frozenset('\\"{}[')
# What a \uXXXX escape may stand for (docs/encodings.md "Escaping"): the control characters and
# Unicode's White_Space characters, listed here rather than taken from str.isspace, so the set
# does not move with Python's Unicode tables.
_U_ESCAPED = re.compile(
    "[\x00-\x1f\x7f-\x9f\x20\xa0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000]"
)

_EPOCH_ORDINAL = datetime.date(1970, 1, 1).toordinal()
_CLOCK = re.compile(r"(-?)([0-9]{1,12}):([0-9]{1,2}):([0-9]{1,2})(?:\.([0-9]{1,9}))?")
_TIMESTAMP = re.compile(
    r"([0-9]{4})-([0-9]{2})-([0-9]{2})[Tt]([0-9]{2}):([0-9]{2}):([0-9]{2})"
    r"(?:\.([0-9]{1,9}))?(?:([Zz])|([+-])([0-9]{2}):([0-9]{2}))"
)


def _u_escape(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def _backslash_or_u_escape(match: re.Match[str]) -> str:
    char = match.group()
    return "\\" + char if char in _QUOTED_BY_BACKSLASH else _u_escape(match)


def escape_tag_value(text: str) -> str:
    """Escape a tag value for writing between double quotes."""
    return _TAG_SPECIALS.sub(_backslash_or_u_escape, text)


def escape_comment(text: str) -> str:
    """Escape a comment for writing between braces (white space at the ends included)."""
    escaped = _COMMENT_SPECIALS.sub(_backslash_or_u_escape, text)
    # str.strip and the regex class \s agree on white space; a search for r"\s+\Z" would
    # take quadratic time on a comment with long runs of inner white space.
    body = escaped.lstrip()
    lead = escaped[: len(escaped) - len(body)]
    kept = body.rstrip()
    tail = body[len(kept) :]
    if not lead and not tail:
        return escaped
    return _SPACE_RUN.sub(_u_escape, lead) + kept + _SPACE_RUN.sub(_u_escape, tail)


def _unescape_one(match: re.Match[str]) -> str:
    body = match.group(1)
    if len(body) == 1:
        return body if body in _QUOTED_BY_BACKSLASH else match.group()
    char = chr(int(body[1:], 16))
    if _U_ESCAPED.match(char):
        return char
    return match.group()


def unescape(raw: str) -> str:
    """Undo the escaping of a tag value or a comment (see the module's rules)."""
    return _ESCAPE.sub(_unescape_one, raw) if "\\" in raw else raw


#: A whole number from 0 to 2^32 - 1, digits only (the same reading as a variant tag's).
parse_uint32 = whole_number


def parse_int32(text: str, what: str) -> int:
    """A whole number from -2^31 to 2^31 - 1, with an optional minus sign."""
    if not re.fullmatch(r"-?[0-9]{1,10}", text) or not INT32_MIN <= int(text) <= INT32_MAX:
        raise RecordMalformedError(f"expected {what} as a whole number, found {excerpt(text)}")
    return int(text)


#: Whole numbers joined by a separator (spaces around them allowed); empty text is [].
parse_uint32_list = whole_numbers


def json_fraction(nanos: int) -> str:
    """ProtoJSON's fraction: none, or 3, 6 or 9 digits."""
    if nanos == 0:
        return ""
    if nanos % 1_000_000 == 0:
        return f".{nanos // 1_000_000:03d}"
    if nanos % 1000 == 0:
        return f".{nanos // 1000:06d}"
    return f".{nanos:09d}"


def format_clock(clock: duration_pb2.Duration) -> str:
    """``h:mm:ss`` with a fraction when there is one, e.g. ``0:09:58.250``; ``-`` if negative.

    Raises:
        EncodingError: the duration is outside google.protobuf.Duration's range, or its
            seconds and nanos have different signs.
    """
    seconds, nanos = clock.seconds, clock.nanos
    if (
        abs(seconds) > DURATION_MAX_SECONDS
        or abs(nanos) >= NANOS_PER_SECOND
        or (seconds > 0 > nanos)
        or (seconds < 0 < nanos)
    ):
        raise EncodingError(f"clock {seconds}s {nanos}ns is not a valid duration")
    sign = "-" if seconds < 0 or nanos < 0 else ""
    hours, rest = divmod(abs(seconds), 3600)
    minutes, whole = divmod(rest, 60)
    return f"{sign}{hours}:{minutes:02d}:{whole:02d}{json_fraction(abs(nanos))}"


def parse_clock(text: str) -> duration_pb2.Duration:
    """Read ``h:mm:ss`` or ``h:mm:ss.fff`` (1 to 9 fraction digits, optional ``-``)."""
    match = _CLOCK.fullmatch(text)
    if match is None:
        raise RecordMalformedError(
            f"expected a clock such as 0:10:00 or 1:02:03.5, found {excerpt(text)}"
        )
    sign, hours, minutes, whole, fraction = match.groups()
    if int(minutes) > 59 or int(whole) > 59:
        raise RecordMalformedError(f"clock {excerpt(text)}: minutes and seconds must be below 60")
    seconds = clock_seconds(hours, minutes, whole)
    if seconds > DURATION_MAX_SECONDS:
        raise RecordMalformedError(f"clock {excerpt(text)} is longer than a duration can be")
    factor = -1 if sign else 1
    return duration_pb2.Duration(seconds=factor * seconds, nanos=factor * fraction_nanos(fraction))


def format_timestamp(stamp: timestamp_pb2.Timestamp) -> str:
    """RFC 3339 in UTC as ProtoJSON writes it: ``2026-11-29T20:15:03Z``, fraction if any.

    Raises:
        EncodingError: the time is outside 0001-01-01 .. 9999-12-31 or nanos are out of range.
    """
    seconds, nanos = stamp.seconds, stamp.nanos
    if not (TIMESTAMP_MIN_SECONDS <= seconds <= TIMESTAMP_MAX_SECONDS) or not (
        0 <= nanos < NANOS_PER_SECOND
    ):
        raise EncodingError(f"timestamp {seconds}s {nanos}ns is not a valid time")
    days, rest = divmod(seconds, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, whole = divmod(rest, 60)
    return f"{_day_text(days)}T{hours:02d}:{minutes:02d}:{whole:02d}{json_fraction(nanos)}Z"


@lru_cache(maxsize=1024)
def _day_text(days: int) -> str:
    """The date ``days`` after 1970-01-01, ``2026-11-29`` (a record's times share a few days)."""
    return datetime.date.fromordinal(_EPOCH_ORDINAL + days).isoformat()


def parse_timestamp(text: str) -> timestamp_pb2.Timestamp:
    """Read an RFC 3339 time (``Z`` or an offset such as ``+01:00``) as a UTC timestamp."""
    match = _TIMESTAMP.fullmatch(text)
    if match is None:
        raise RecordMalformedError(
            f"expected an RFC 3339 time such as 2026-11-29T20:15:03Z, found {excerpt(text)}"
        )
    year, month, day, hours, minutes, whole, fraction, _, sign, off_h, off_m = match.groups()
    try:
        date = datetime.date(int(year), int(month), int(day))
    except ValueError:
        raise RecordMalformedError(f"time {excerpt(text)} names no calendar day") from None
    if int(hours) > 23 or int(minutes) > 59 or int(whole) > 59:
        raise RecordMalformedError(f"time {excerpt(text)} names no time of day")
    offset = 0
    if sign:
        if int(off_h) > 23 or int(off_m) > 59:
            raise RecordMalformedError(f"time {excerpt(text)} has an impossible offset")
        offset = (1 if sign == "+" else -1) * (int(off_h) * 3600 + int(off_m) * 60)
    seconds = (date.toordinal() - _EPOCH_ORDINAL) * 86400 + clock_seconds(hours, minutes, whole)
    seconds -= offset
    if not TIMESTAMP_MIN_SECONDS <= seconds <= TIMESTAMP_MAX_SECONDS:
        raise RecordMalformedError(f"time {excerpt(text)} is outside years 0001 to 9999 in UTC")
    return timestamp_pb2.Timestamp(seconds=seconds, nanos=fraction_nanos(fraction))


#: A clock as writers write it: no sign, minutes and seconds below 60, at most 9,999,999 hours
#: (far within a Duration's 87,660,000).
WRITERS_CLOCK_TEXT: Final = r"([0-9]{1,7}):([0-5][0-9]):([0-5][0-9])(?:\.([0-9]{1,9}))?"
_WRITERS_CLOCK = re.compile(WRITERS_CLOCK_TEXT)


def clock_bytes(text: str) -> bytes:
    """``parse_clock(text).SerializeToString()``, without a message for a writer's clock.

    Raises:
        RecordMalformedError: as :func:`parse_clock`.
    """
    match = _WRITERS_CLOCK.fullmatch(text)
    if match is None:
        return parse_clock(text).SerializeToString()
    hours, minutes, whole, fraction = match.groups()
    return time_bytes_of(clock_seconds(hours, minutes, whole), fraction)


def timestamp_bytes(text: str) -> bytes:
    """``parse_timestamp(text).SerializeToString()``, without a message for a writer's time.

    Raises:
        RecordMalformedError: as :func:`parse_timestamp`.
    """
    found = utc_time(text)
    if found is None:
        return parse_timestamp(text).SerializeToString()
    return time_bytes(*found)
