"""The error hierarchy shared by every layer of gamerec.

The library raises these; the CLI maps them to exit codes and the service to gRPC status
codes. Every error is a ``ValueError`` so that callers who only know the standard library can
still catch it. This module imports nothing, so even the pure rules engines can use it.
"""

from __future__ import annotations

#: The longest message an error keeps; a longer one is cut in the middle (see :func:`bounded`).
MAX_MESSAGE_CHARS = 1_000
#: How much of an input's text a message quotes (see :func:`excerpt`).
EXCERPT_CHARS = 40


def excerpt(text: str, limit: int = EXCERPT_CHARS, *, quoted: bool = True) -> str:
    """``text`` quoted as ``repr`` does, cut to ``limit`` characters with a marked end.

    Messages quote input through this, so a 1 MB token gives a short line:
    ``'g7777777777...' (1,000,001 characters)``; ``quoted=False`` leaves out the quotes
    (a finding's move field: ``g7,g7,...`` whole, or cut the same way).
    """
    show = repr if quoted else str
    if len(text) <= limit:
        return show(text)
    return f"{show(text[:limit])}... ({len(text):,} characters)"


def bounded(message: str, limit: int = MAX_MESSAGE_CHARS) -> str:
    """``message``, its middle cut out (and the cut marked) when it is longer than ``limit``."""
    if len(message) <= limit:
        return message
    keep = (limit - 40) // 2
    cut = len(message) - 2 * keep
    return f"{message[:keep]} [... {cut:,} characters cut ...] {message[-keep:]}"


class GamerecError(ValueError):
    """Base class of every error gamerec raises on purpose.

    Its message is bounded (:data:`MAX_MESSAGE_CHARS`): whatever an error quotes from its
    input, the line that reports it stays short.
    """

    def __init__(self, *args: object) -> None:
        """Build the error; a single text message longer than the bound is cut."""
        if len(args) == 1 and isinstance(args[0], str):
            args = (bounded(args[0]),)
        super().__init__(*args)


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
        self.source = bounded(source, EXCERPT_CHARS * 4)
        self.where = where
        self.reason = bounded(reason)
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
