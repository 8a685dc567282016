"""The engine protocol's bounds on a line (docs/engine-protocol.md §2), and a reader within them.

Both sides bound what they read, so that neither can make the other hold more than a bounded
amount of memory: a host reads an engine's lines up to :data:`MAX_ENGINE_LINE_BYTES` (and
:data:`MAX_ANSWER_BYTES` for one request; ``host.EngineProcess``), an engine a host's up to
:data:`MAX_HOST_LINE_BYTES`. :func:`read_lines` reads a byte stream line by line within a
bound, in pieces: a longer line is never held whole, and comes out as :class:`Unreadable`
(so does a line that is not UTF-8), after which the reader goes on with the next line.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, Final

from gamerec.recorder.errors import excerpt

#: The longest line a host sends an engine, its newline not counted. ``position`` lists every
#: ply of the game: 100,000 plies (the most a record holds) of up to 20 bytes each fit.
MAX_HOST_LINE_BYTES: Final = 2 * 1024 * 1024
#: The longest line an engine may write, its newline not counted.
MAX_ENGINE_LINE_BYTES: Final = 16_384
#: All an engine may write for one request (its ``info`` lines and its answer).
MAX_ANSWER_BYTES: Final = 1024 * 1024
#: How much of the rest of a line too long is read at a time (and dropped).
_PIECE: Final = 65_536

#: Each bound as ``gamerec limits`` lists it: its name, its value and what it bounds.
BOUNDS: Final = (
    (
        "host-line-bytes",
        MAX_HOST_LINE_BYTES,
        "bytes of one line a host sends an engine (gamerec engine's input; a position of "
        "100,000 plies of 20 bytes fits); a longer one is answered with error",
    ),
    (
        "engine-line-bytes",
        MAX_ENGINE_LINE_BYTES,
        "bytes of one line an engine writes (an engine game's, a tournament's or gamerec "
        "bot's engine); past it: the fault LINE_TOO_LONG",
    ),
    (
        "engine-answer-bytes",
        MAX_ANSWER_BYTES,
        "bytes an engine writes for one request (its info lines and its answer); past it: "
        "the fault OUTPUT_FLOOD",
    ),
)


@dataclass(frozen=True, slots=True)
class Unreadable:
    """A line :func:`read_lines` did not take: ``reason`` says why, in a sentence."""

    reason: str


def read_lines(stream: BinaryIO, limit: int = MAX_HOST_LINE_BYTES) -> Iterator[str | Unreadable]:
    """The lines of ``stream`` (without their newline), each at most ``limit`` bytes.

    A line is held whole only up to ``limit`` bytes; the rest of a longer one is read in
    pieces of 64 KiB and dropped, so memory stays bounded whatever the input. A longer line,
    or one that is not UTF-8, comes out as :class:`Unreadable` in its place.
    """
    while line := stream.readline(limit + 1):
        if len(line) > limit and not line.endswith(b"\n"):
            yield _too_long(stream, line, limit)
            continue
        text = line.removesuffix(b"\n")
        try:
            yield text.decode("utf-8")
        except UnicodeDecodeError as error:
            yield Unreadable(f"the line is not UTF-8 (byte {error.start + 1}: {error.reason})")


def _too_long(stream: BinaryIO, first: bytes, limit: int) -> Unreadable:
    """Read the rest of a line too long, piece by piece, and say how long it was."""
    size, last = len(first), first[-1:]
    while last != b"\n":
        piece = stream.readline(_PIECE)
        if not piece:
            break
        size, last = size + len(piece), piece[-1:]
    size -= last == b"\n"
    begins = excerpt(first[:40].decode("utf-8", "replace"))
    return Unreadable(f"a line of {size:,} bytes, longer than {limit:,}, which begins {begins}")
