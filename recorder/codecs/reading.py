"""Reading records: from a path, standard input or a stream, or one record from bytes.

:func:`read_records` and :func:`read_frames` read an input (its encoding said, taken from the
file name, or sniffed); :func:`decode_record` reads exactly one record held in memory.

May import the standard library, ``gamerec.v1`` and ``gamerec.recorder`` (``encoding``,
``errors``, ``limits``, ``raw``, ``codecs.sniffing``, ``codecs.framing``).
"""

from __future__ import annotations

import contextlib
import io
import os
import sys
from collections.abc import Iterator
from typing import BinaryIO, TypeAlias

from gamerec.recorder.codecs.framing import _FRAMERS
from gamerec.recorder.codecs.sniffing import _sniffed, sniff_encoding
from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.errors import EmptyInputError, RecordMalformedError
from gamerec.recorder.limits import Limits, resolved
from gamerec.recorder.raw import Frame
from gamerec.v1 import record_pb2 as pb

#: Where records come from or go: a path, ``"-"`` (standard input or output), or a binary
#: stream.
Source: TypeAlias = str | os.PathLike[str] | BinaryIO
_STDIN_NAME = "<stdin>"


def read_records(
    source: Source,
    encoding: Encoding | None = None,
    *,
    name: str | None = None,
    max_record_bytes: int | None = None,
    limits: Limits | None = None,
    allow_empty: bool = False,
) -> Iterator[pb.GameRecord]:
    """Read every record of a file, standard input or binary stream, one at a time.

    Args:
        source: a path, ``"-"`` for standard input, or a binary stream (left open).
        encoding: the encoding; None takes it from the file extension, else sniffs it.
        name: the source's name in errors (default: the path, ``<stdin>``, or the stream's
            ``name``).
        max_record_bytes: the largest record accepted (a ``.pb`` or ``.json`` file, a
            ``.pbs`` frame, a JSON line, a GRN record in characters); overrides
            ``limits.max_record_bytes``.
        limits: the limits every record is checked against (default ``DEFAULT_LIMITS``).
        allow_empty: an input that holds no record yields nothing (else it is an error).

    Raises:
        EmptyInputError: the input holds no record (and ``allow_empty`` is false).
        RecordMalformedError: the input cannot be decoded (source, place and reason given).
        LimitExceededError: a record exceeds a limit (the limit, the value and the place
            are named).
        OSError: the file cannot be opened or read.
    """
    for frame in read_frames(
        source,
        encoding,
        name=name,
        max_record_bytes=max_record_bytes,
        limits=limits,
        allow_empty=allow_empty,
    ):
        yield frame.parse()


def read_frames(
    source: Source,
    encoding: Encoding | None = None,
    *,
    name: str | None = None,
    max_record_bytes: int | None = None,
    limits: Limits | None = None,
    allow_empty: bool = False,
) -> Iterator[Frame]:
    """Read every record of an input as its raw bytes, one at a time, without decoding it.

    Cutting an input into records is cheap in every encoding (a ``.pbs`` length prefix, a
    JSON line, the tag that starts the next GRN record); :meth:`Frame.parse` decodes one,
    checks it against the limits (the frame carries them) and places any fault, so a batch
    job does the decoding in its worker processes. Arguments and errors as
    :func:`read_records`; a fault found while cutting (a broken length prefix, a record over
    the size limit) ends the input.
    """
    limits = resolved(limits, max_record_bytes)
    with contextlib.ExitStack() as stack:
        stream, label, path_encoding = _open_source(source, stack)
        label = name or label
        chosen = encoding or path_encoding
        if chosen is None:
            stream, chosen = _sniffed(stream, limits.max_record_bytes)
        found = False
        for frame in _FRAMERS[chosen](stream, label, limits):
            found = True
            yield frame
        if not found and not allow_empty:
            raise EmptyInputError(
                f"the input holds no record (.{chosen.value}: {_NOTHING[chosen.is_text]})",
                source=label,
            )


#: What an input that holds no record holds, text (True) or binary.
_NOTHING = {False: "no bytes", True: "no bytes, or only white space"}


def _open_source(
    source: Source, stack: contextlib.ExitStack
) -> tuple[BinaryIO, str, Encoding | None]:
    """The stream to read, its name, and the encoding its file name says."""
    if isinstance(source, str | os.PathLike):
        if os.fspath(source) == "-":
            return sys.stdin.buffer, _STDIN_NAME, None
        stream = stack.enter_context(open(source, "rb"))  # noqa: SIM115 -- closed by the stack
        return stream, os.fspath(source), encoding_for_path(source)
    label = getattr(source, "name", None)
    return source, label if isinstance(label, str) else "<stream>", None


def decode_record(
    data: bytes,
    encoding: Encoding | None = None,
    *,
    name: str = "<bytes>",
    max_record_bytes: int | None = None,
    limits: Limits | None = None,
    deadline: float | None = None,
) -> pb.GameRecord:
    """Decode exactly one record held in memory (the gRPC service's entry point).

    Args:
        data: the encoded record.
        encoding: the encoding; None sniffs it (:func:`sniff_encoding`).
        name: the source's name in errors.
        max_record_bytes: the largest record accepted (overrides ``limits``).
        limits: the limits the record is checked against (default ``DEFAULT_LIMITS``).
        deadline: a ``time.monotonic()`` time a long decode gives up at (None: none).

    Raises:
        RecordMalformedError: the bytes are not one record in that encoding.
        LimitExceededError: the record exceeds a limit.
        DeadlineExceededError: the deadline passed while the record was decoded.
    """
    limits = resolved(limits, max_record_bytes)
    maximum = limits.max_record_bytes
    chosen = encoding or sniff_encoding(data, at_end=True, max_record_bytes=maximum)
    frames = read_frames(io.BytesIO(data), chosen, name=name, limits=limits)
    first = next(frames).parse(deadline)
    if next(frames, None) is not None:
        raise RecordMalformedError("expected one record, found several", source=name)
    return first
