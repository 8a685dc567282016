"""The service's log: one JSON line per call on standard error, through ``logging``.

A call's line holds ``method``, ``peer``, ``game``, ``plies``, ``verdict``, ``status`` and
``duration_ms``; the server's own events (``listening``, ``stopping``, ``stopped``) are lines
of the same shape with an ``event`` field. Everything goes through the ``gamerec.service``
logger, so an application that embeds the server can route it elsewhere.
"""

from __future__ import annotations

import logging
import sys
import time
from datetime import UTC, datetime
from typing import Any, Final, TextIO

import orjson

from validator.service.work import Answer

#: The logger every line of the service goes through.
LOGGER: Final = logging.getLogger("gamerec.service")


class JsonLines(logging.Formatter):
    """Formats a log record as one compact JSON object: time, level, then its ``fields``."""

    def format(self, record: logging.LogRecord) -> str:
        """The record as one JSON line (``fields`` given as ``extra``, else the message)."""
        line: dict[str, Any] = {
            "time": datetime.fromtimestamp(record.created, UTC).isoformat(timespec="milliseconds"),
            "level": record.levelname.lower(),
        }
        fields = getattr(record, "fields", None)
        line.update(fields if isinstance(fields, dict) else {"message": record.getMessage()})
        if record.exc_info:
            line["error"] = self.formatException(record.exc_info)
        return orjson.dumps(line).decode()


def log_to(stream: TextIO = sys.stderr) -> logging.Handler:
    """Send the service's lines to ``stream`` as JSON lines; return the handler."""
    handler = logging.StreamHandler(stream)
    handler.setFormatter(JsonLines())
    LOGGER.addHandler(handler)
    LOGGER.setLevel(logging.INFO)
    LOGGER.propagate = False
    return handler


def log_event(event: str, **fields: Any) -> None:
    """Log one event of the server's life (``listening``, ``stopping``, ``stopped``)."""
    LOGGER.info(event, extra={"fields": {"event": event, **fields}})


class Call:
    """The log line of one call, filled in as the call goes and written once at its end."""

    __slots__ = ("_started", "game", "method", "peer", "plies", "status", "verdict")

    def __init__(self, method: str, peer: str) -> None:
        """Start timing a call of ``method`` from ``peer``."""
        self._started = time.perf_counter()
        self.method = method
        self.peer = peer
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
        duration_ms = round((time.perf_counter() - self._started) * 1000, 3)
        fields = {
            "method": self.method,
            "peer": self.peer,
            "game": self.game,
            "plies": self.plies,
            "verdict": self.verdict,
            "status": self.status,
            "duration_ms": duration_ms,
        }
        level = logging.INFO if self.status == "OK" else logging.WARNING
        LOGGER.log(level, self.method, extra={"fields": fields})
