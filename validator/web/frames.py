"""A Connect stream's frames as lines of JSON (``python -m gamerec.validator.web.frames``).

A Connect server stream (Watch with ``application/connect+json``) is a run of frames: one flags
byte, a 4-byte big-endian length, then that many bytes of message. The last frame has flag
``0x02`` and holds the end of the stream: ``{}`` when it ended well, else ``{"error": {...}}``.
:func:`read_frames` splits a stream into them; run as a program it prints each message of a JSON
stream on one line (compact JSON) and the end as ``{"end": {...}}``, so a terminal (or jq) shows
a Watch;
``python -m gamerec.validator.web.frames wrap JSON`` writes a stream's request as its frame.
"""

from __future__ import annotations

import sys
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, Final

import orjson

#: The flag of the frame that ends a stream.
END_STREAM: Final = 0x02
#: The flag of a compressed frame.
COMPRESSED: Final = 0x01
#: The longest frame read (as the door's own limit of a message).
MAX_FRAME_BYTES: Final = 64 * 1024 * 1024


class FrameError(ValueError):
    """A stream that is not a run of Connect frames."""


@dataclass(frozen=True, slots=True)
class Frame:
    """One frame of a stream.

    Attributes:
        flags: its flags byte.
        data: its message.
    """

    flags: int
    data: bytes

    @property
    def ends(self) -> bool:
        """Whether it is the end of the stream."""
        return bool(self.flags & END_STREAM)


def read_frames(stream: BinaryIO) -> Iterator[Frame]:
    """The frames of ``stream``, up to its end.

    Raises:
        FrameError: a frame cut short, or longer than MAX_FRAME_BYTES.
    """
    offset = 0
    while True:
        head = stream.read(5)
        if not head:
            return
        if len(head) < 5:
            raise FrameError(f"byte {offset}: a frame's head is cut short")
        size = int.from_bytes(head[1:5], "big")
        if size > MAX_FRAME_BYTES:
            raise FrameError(f"byte {offset}: a frame of {size:,} bytes is too long")
        data = stream.read(size)
        if len(data) < size:
            raise FrameError(f"byte {offset}: a frame of {size:,} bytes is cut short")
        offset += 5 + size
        yield Frame(head[0], data)


def envelope(message: bytes, flags: int = 0) -> bytes:
    """One frame holding ``message`` (a stream's request is one such frame)."""
    return bytes([flags]) + len(message).to_bytes(4, "big") + message


def main(arguments: list[str] | None = None) -> int:
    """Print the frames of standard input (a JSON stream) as lines; 1 if it ended in error.

    ``wrap TEXT`` instead writes TEXT as one frame to standard output (the request of a
    stream, for ``curl --data-binary @-``).
    """
    arguments = sys.argv[1:] if arguments is None else arguments
    if arguments[:1] == ["wrap"] and len(arguments) == 2:
        sys.stdout.buffer.write(envelope(arguments[1].encode()))
        sys.stdout.buffer.flush()
        return 0
    if arguments:
        print("usage: python -m gamerec.validator.web.frames [wrap JSON]", file=sys.stderr)
        return 2
    status = 0
    try:
        for frame in read_frames(sys.stdin.buffer):
            if frame.flags & COMPRESSED:
                raise FrameError("a compressed frame (send no connect-accept-encoding)")
            message = orjson.loads(frame.data)
            if frame.ends:
                status = 1 if "error" in message else 0
                message = {"end": message}
            print(orjson.dumps(message).decode())
    except (FrameError, orjson.JSONDecodeError) as error:
        print(f"frames: {error}", file=sys.stderr)
        return 2
    except BrokenPipeError:  # the reader went away (| head): nothing more to say
        sys.stderr.close()
        return 1
    return status


if __name__ == "__main__":
    sys.exit(main())
