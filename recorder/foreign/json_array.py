"""A JSON array of records cut into one frame per item, read in chunks (constant memory).

Abstract Play publishes and users keep many game records as one JSON array. The array is cut
without parsing it: a scan of its strings and brackets finds where each item (an object)
begins and ends, and each item's bytes become a frame, parsed where the work is done like a
JSON Lines record. Only the item being cut is held, so the file may be far larger than
memory, and the nesting is bounded (:data:`MAX_DEPTH`): a hundred megabytes of ``[[[[...``
fails at its 65th byte, not after reading it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import BinaryIO, Final

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import EmptyInputError, RecordMalformedError
from gamerec.recorder.limits import Limits, exceeded
from gamerec.recorder.raw import Frame

#: The deepest nesting of arrays and objects accepted, the array itself included (an
#: Abstract Play record nests six deep).
MAX_DEPTH: Final = 64
#: How much is read at a time.
CHUNK_BYTES: Final = 1 << 20

#: A whole string, a bracket, or a quote whose string the buffer does not yet close.
_TOKEN: Final = re.compile(rb'"(?:[^"\\]|\\.)*"|[\[\]{}]|"', re.DOTALL)
_SPACE: Final = re.compile(rb"[ \t\r\n]*")
_GAP: Final = re.compile(rb"[ \t\r\n]*,?[ \t\r\n]*")


class _Cutter:
    """The state of a cut: the buffer, where the current item starts, the nesting."""

    def __init__(self, stream: BinaryIO, source: str, limits: Limits) -> None:
        self.stream = stream
        self.source = source
        self.limits = limits
        self.buffer = b""
        self.offset = 0  # the input's byte offset of buffer[0]
        self.at_end = False

    def fault(self, position: int, reason: str) -> RecordMalformedError:
        return RecordMalformedError(
            reason, source=self.source, where=f"byte {self.offset + position}"
        )

    def more(self, keep_from: int) -> int:
        """Drop the buffer before ``keep_from``, read a chunk; return the shift applied."""
        self.buffer = self.buffer[keep_from:]
        self.offset += keep_from
        chunk = self.stream.read(CHUNK_BYTES)
        if not chunk:
            self.at_end = True
        self.buffer += chunk
        return keep_from


def array_frames(stream: BinaryIO, source: str, limits: Limits) -> Iterator[Frame]:
    """One frame per object of a JSON array (the array's ``[`` first, after white space).

    Raises:
        RecordMalformedError: no array, an item that is not an object, nesting deeper than
            :data:`MAX_DEPTH`, text after the array, or a truncated file (the byte named).
        LimitExceededError: an item longer than the record-bytes limit.
        EmptyInputError: an empty array.
    """
    cut = _Cutter(stream, source, limits)
    cut.more(0)
    position = _SPACE.match(cut.buffer).end()  # type: ignore[union-attr]
    if cut.buffer[position : position + 1] == b"\xef":
        position += 3 if cut.buffer.startswith(b"\xef\xbb\xbf", position) else 0
        position = _SPACE.match(cut.buffer, position).end()  # type: ignore[union-attr]
    if cut.buffer[position : position + 1] != b"[":
        raise cut.fault(position, "expected a JSON array of records ([ ... ])")
    number = 0
    position += 1
    while True:
        position, item = _next_item(cut, position, number)
        if item is None:
            break
        number += 1
        start, end = item
        yield Frame(
            cut.buffer[start:end],
            source,
            where=f"record {number} at byte {cut.offset + start}",
            base=cut.offset + start,
            limits=limits,
            encoding=Encoding.ABSTRACT_PLAY,
        )
        position = end
    if number == 0:
        raise EmptyInputError("the JSON array holds no record", source=source)


def _next_item(cut: _Cutter, position: int, number: int) -> tuple[int, tuple[int, int] | None]:
    """Skip to the next item; return the position and its span, or None after the ``]``."""
    while True:
        gap = _GAP.match(cut.buffer, position)
        assert gap is not None
        stop = gap.end()
        if stop == len(cut.buffer) and not cut.at_end:
            position -= cut.more(position)
            continue
        comma = b"," in cut.buffer[position:stop]
        char = cut.buffer[stop : stop + 1]
        if char == b"]" and not comma:
            _check_the_end(cut, stop + 1)
            return stop + 1, None
        if not char:
            raise cut.fault(stop, "the file ends inside the array (truncated?)")
        if char != b"{" or comma != (number > 0):
            expected = "an object (a record)" if comma or number == 0 else "',' or ']'"
            raise cut.fault(stop, f"record {number + 1}: expected {expected}, found {char!r}")
        start, end = _item_span(cut, stop, number + 1)
        return end, (start, end)


def _item_span(cut: _Cutter, start: int, number: int) -> tuple[int, int]:
    """The span of the object starting at ``start``, in the buffer as it is on return.

    The buffer is trimmed to begin at the object when more must be read.
    """
    depth = 1  # the array
    position = start
    while True:
        for token in _TOKEN.finditer(cut.buffer, position):
            text = token.group()
            if text == b'"':  # a string the buffer does not close yet
                position = token.start()
                break
            position = token.end()
            if text[0] == 0x22:
                continue
            depth += 1 if text in (b"[", b"{") else -1
            if depth > MAX_DEPTH:
                raise cut.fault(token.start(), f"JSON nested deeper than {MAX_DEPTH} levels")
            if depth == 1:
                _check_size(cut, start, token.end(), number)
                return start, token.end()
        else:
            position = len(cut.buffer)
        _check_size(cut, start, position, number)
        if cut.at_end:
            raise cut.fault(position, f"record {number}: the file ends inside it (truncated?)")
        shift = cut.more(start)
        start -= shift
        position -= shift


def _check_size(cut: _Cutter, start: int, end: int, number: int) -> None:
    """Refuse an item longer than the record-bytes limit (``end`` is where the cut is)."""
    maximum = cut.limits.max_record_bytes
    if end - start > maximum:
        raise exceeded(
            "max_record_bytes",
            f"record {number}: at least ",
            end - start,
            "bytes",
            maximum,
            source=cut.source,
            where=f"byte {cut.offset + start}",
        )


def _check_the_end(cut: _Cutter, position: int) -> None:
    while True:
        rest = _SPACE.match(cut.buffer, position)
        assert rest is not None
        if rest.end() < len(cut.buffer):
            raise cut.fault(rest.end(), "text after the array's closing ]")
        if cut.at_end:
            return
        cut.more(len(cut.buffer))
        position = 0
