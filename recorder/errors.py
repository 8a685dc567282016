"""The error hierarchy shared by every layer of gamerec.

The library raises these; the CLI maps them to exit codes and the service to gRPC status
codes. Every error is a ``ValueError`` so that callers who only know the standard library can
still catch it. This module imports nothing, so even the pure rules engines can use it.
"""

from __future__ import annotations


class GamerecError(ValueError):
    """Base class of every error gamerec raises on purpose."""


class RecordMalformedError(GamerecError):
    """A record cannot be decoded: bad bytes, bad syntax, or a truncated file.

    Attributes:
        source: the file name (or ``"<stdin>"``, ``"<bytes>"``) the record came from.
        where: the place in the source: ``"line 3, column 7"`` or ``"byte 1042"``; empty when
            the whole source is at fault.
        reason: what was wrong and what was expected.
    """

    def __init__(self, reason: str, *, source: str = "", where: str = "") -> None:
        """Build the error and its one-line message ``source: where: reason``."""
        self.source = source
        self.where = where
        self.reason = reason
        super().__init__(": ".join(part for part in (source, where, reason) if part))


class EmptyInputError(RecordMalformedError):
    """An input holds no record at all (an empty file, or only blank lines).

    A gate that let such an input pass would pass a file truncated to nothing, so every
    command refuses it, naming the input.
    """


class LimitExceededError(RecordMalformedError):
    """A record or collection exceeds a configured limit (size, plies, tags, depth).

    Attributes:
        limit: the limit's name as ``--limit`` writes it (``plies``, ``record-bytes``); empty
            when the error comes from a bound that is not configurable.
        value: the value found (0 when unknown).
        maximum: the limit's value (0 when unknown).
    """

    def __init__(
        self,
        reason: str,
        *,
        source: str = "",
        where: str = "",
        limit: str = "",
        value: int = 0,
        maximum: int = 0,
    ) -> None:
        """Build the error; see :class:`RecordMalformedError` for the message."""
        super().__init__(reason, source=source, where=where)
        self.limit = limit
        self.value = value
        self.maximum = maximum


class NotationError(RecordMalformedError):
    """A move token does not follow the syntax of notation.md (``c0``, ``7c``, ``o1,``).

    A well-formed token that names a point missing from the record's board is not a
    notation error: it parses, and the validator reports the illegal move.
    """


class EncodingError(GamerecError):
    """Records cannot be written in the chosen encoding, or no encoding can be chosen.

    Raised for an output whose encoding cannot be told from its name, for several records
    sent to a one-record encoding (``.pb``, ``.json``), and for a record that GRN cannot hold
    (no game, a move of another game, an enum value this version does not know, an extra tag
    whose name is not a tag name).
    """


class DeadlineExceededError(GamerecError):
    """A job ran past the deadline its caller gave (a monotonic time, ``time.monotonic()``).

    Long replays check the deadline every few plies, so a job that can no longer answer in
    time stops instead of finishing work nobody waits for.

    Attributes:
        done: how far the job got, e.g. ``"4,096 of 68,368 plies"``.
    """

    def __init__(self, done: str = "") -> None:
        """Build the error and its message from how far the job got."""
        self.done = done
        super().__init__("deadline exceeded" + (f" after {done}" if done else ""))
