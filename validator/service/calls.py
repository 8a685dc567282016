"""The service's log: one JSON line per call on standard error, through ``logging``.

A call's line holds ``method``, ``peer``, ``role`` and ``who`` (the caller as the gate
named it: a token file's name, ``seat N``; never a token), ``game``, ``plies``,
``verdict``, ``status`` and ``duration_ms``, and the call is counted in the metrics when
they are on; the server's own events (``listening``, ``stopping``, ``stopped``) are lines
of the same shape with an ``event`` field. Everything goes through the ``gamerec.service``
logger, so an application that embeds the server can route it elsewhere.
"""

from __future__ import annotations

import logging
import math
import sys
import time
from datetime import UTC, datetime
from typing import Any, Final, TextIO

import orjson

from gamerec.validator.service import metrics
from gamerec.validator.service.principal import PRINCIPAL, Principal
from gamerec.validator.service.work import Answer

#: The logger every line of the service goes through.
LOGGER: Final = logging.getLogger("gamerec.service")


class JsonLines(logging.Formatter):
    """Formats a log record as one compact JSON object: time, level, then its ``fields``."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one JSON line (``fields`` given as ``extra``, else the message)."""
        line: dict[str, Any] = {
            "time": timestamp(record.created),
            "level": record.levelname.lower(),
        }
        fields = getattr(record, "fields", None)
        line.update(fields if isinstance(fields, dict) else {"message": record.getMessage()})
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return orjson.dumps(line).decode()


#: The last whole second a line was written in, and its text (formatting it costs more than
#: the rest of a line's time, and a busy server writes many lines a second). One tuple, read
#: and replaced whole, so a thread never pairs one second with another's text.
_LAST_SECOND: list[tuple[float, str]] = [(-1.0, "")]


def timestamp(seconds: float) -> str:
    """A line's time (``time.time()``): UTC, ISO 8601, to the millisecond (truncated)."""
    # Rounded to the microsecond as datetime.fromtimestamp rounds it, so the text is its own.
    fraction, whole = math.modf(seconds)
    micros = round(fraction * 1_000_000)
    if micros >= 1_000_000:
        whole, micros = whole + 1, micros - 1_000_000
    last = _LAST_SECOND[0]
    if whole != last[0]:
        last = (whole, datetime.fromtimestamp(whole, UTC).strftime("%Y-%m-%dT%H:%M:%S"))
        _LAST_SECOND[0] = last
    return f"{last[1]}.{micros // 1000:03d}+00:00"


class JsonLinesHandler(logging.StreamHandler):  # type: ignore[type-arg]
    """Writes the service's lines to a stream as JSON lines (the handler :func:`log_to` adds).

    Besides the usual ``emit``, it writes a call's line straight from its fields
    (:meth:`write_fields`), without a ``LogRecord``: a call's line is written for every call,
    and going through ``logging`` cost the server process more than the rest of a short
    call's own work around the judging (measured: README "Performance").
    """

    def __init__(self, stream: TextIO) -> None:
        """Write to ``stream``."""
        super().__init__(stream)
        self.setFormatter(JsonLines())

    def write_fields(self, level: int, fields: dict[str, Any]) -> None:
        """Write one line of ``fields``, as :class:`JsonLines` formats a record of them."""
        word = _LEVEL_WORDS.get(level) or logging.getLevelName(level).lower()
        line = {"time": timestamp(time.time()), "level": word}
        line.update(fields)
        text = orjson.dumps(line).decode() + self.terminator
        try:
            with self.lock:  # type: ignore[union-attr]
                self.stream.write(text)
                self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: as logging, lose the line
            pass


#: The ``level`` of the lines calls are written at, as JsonLines writes it.
_LEVEL_WORDS: Final = {logging.INFO: "info", logging.WARNING: "warning"}


def log_to(stream: TextIO = sys.stderr) -> logging.Handler:
    """Send the service's lines to ``stream`` as JSON lines; return the handler."""
    handler = JsonLinesHandler(stream)
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.INFO)
    LOGGER.propagate = False
    return handler


def log_event(event: str, **fields: Any) -> None:
    """Log one event of the server's life (``listening``, ``stopping``, ``stopped``)."""
    LOGGER.info(event, extra={"fields": {"event": event, **fields}})


class Call:
    """The log line of one call, filled in as the call goes and written once at its end."""

    __slots__ = ("_started", "game", "method", "peer", "plies", "principal", "status", "verdict")

    def __init__(self, method: str, peer: str, principal: Principal | None = None) -> None:
        """Start timing a call of ``method`` from ``peer`` (by the call's principal)."""
        self._started = time.perf_counter()
        self.method = method
        self.peer = peer
        self.principal = principal or PRINCIPAL.get()
        self.game = ""
        self.plies = 0
        self.verdict = ""
        self.status = "OK"

    def answered(self, answer: Answer) -> None:
        """Take the game, plies, verdict and status from a job's answer."""
        self.game = answer.game or self.game
        self.plies += answer.plies
        problem = f"{answer.field}: {answer.problem}" if answer.field else answer.problem
        self.verdict = answer.verdict or problem
        self.status = answer.status

    def write(self) -> None:
        """Write the call's line."""
        seconds = time.perf_counter() - self._started
        duration_ms = round(seconds * 1000, 3)
        principal = self.principal
        fields = {
            "method": self.method,
            "peer": self.peer,
            # str(), not .value: the same text without the enum's property (every call).
            "role": str(principal.role) if principal is not None else "",
            "who": principal.name if principal is not None else "",
            "game": self.game,
            "plies": self.plies,
            "verdict": self.verdict,
            "status": self.status,
            "duration_ms": duration_ms,
        }
        metrics.call_ended(self.method, self.status, seconds)
        level = logging.INFO if self.status == "OK" else logging.WARNING
        handler = _sole_json_handler(level)
        if handler is None:
            LOGGER.log(level, self.method, extra={"fields": fields})
        else:
            handler.write_fields(level, fields)


def _sole_json_handler(level: int) -> JsonLinesHandler | None:
    """The logger's handler when a line at ``level`` may skip ``logging`` and go to it directly.

    That is when the line is enabled, the logger's only handler is a :class:`JsonLinesHandler`
    that takes the level and still formats with :class:`JsonLines`, and no filter is set on
    either: then the direct line is the one ``logging`` would write. Anything else (an
    application's own handlers, formatters or filters) gets the line through ``logging``.
    """
    handlers = LOGGER.handlers
    if len(handlers) != 1 or LOGGER.filters or not LOGGER.isEnabledFor(level):
        return None
    handler = handlers[0]
    if type(handler) is not JsonLinesHandler or handler.filters or level < handler.level:
        return None
    if type(handler.formatter) is not JsonLines:
        return None
    return handler
