"""The call log (one JSON line per call, the same whether it takes the direct way or logging),
and how a call ends when its status can no longer be sent."""

from __future__ import annotations

import asyncio
import io
import json
import logging
from collections.abc import Iterator
from datetime import UTC, datetime

import grpc
import grpc.aio
import pytest
from hypothesis import given
from hypothesis import strategies as st

from gamerec.validator.service.calls import (
    LOGGER,
    Call,
    JsonLines,
    JsonLinesHandler,
    log_to,
    timestamp,
)
from gamerec.validator.service.servicer import end_with
from gamerec.validator.service.work import Answer


@pytest.fixture
def clean_logger() -> Iterator[None]:
    """The service logger without handlers or filters, restored afterwards."""
    saved = (LOGGER.handlers[:], LOGGER.filters[:], LOGGER.level, LOGGER.propagate)
    LOGGER.handlers.clear()
    LOGGER.filters.clear()
    yield
    LOGGER.handlers[:], LOGGER.filters[:] = saved[0], saved[1]
    LOGGER.setLevel(saved[2])
    LOGGER.propagate = saved[3]


def a_call(status: str = "OK") -> Call:
    call = Call("Validate", "ipv4:127.0.0.1:4242")
    call.answered(Answer(status, b"", game="Oust", plies=12, verdict="valid"))
    return call


def lines(stream: io.StringIO) -> list[dict[str, object]]:
    return [json.loads(line) for line in stream.getvalue().splitlines()]


class Keep(logging.Handler):
    """Keeps what ``logging`` hands it, formatted as the service formats it."""

    def __init__(self) -> None:
        super().__init__()
        self.setFormatter(JsonLines())
        self.kept: list[dict[str, object]] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.kept.append(json.loads(self.format(record)))


@pytest.mark.usefixtures("clean_logger")
def test_a_call_line_written_directly_is_the_line_logging_writes() -> None:
    direct = io.StringIO()
    log_to(direct)
    a_call().write()
    a_call("INVALID_ARGUMENT").write()
    # A second handler makes every line go through logging, to both handlers.
    keep = Keep()
    LOGGER.addHandler(keep)
    a_call().write()
    first, warned, through_logging = lines(direct)
    assert keep.kept == [through_logging]
    assert list(first) == list(through_logging) == [
        "time", "level", "method", "peer", "role", "who", "game", "plies", "verdict", "status",
        "duration_ms",
    ]  # fmt: skip
    for line in (first, through_logging):
        assert {k: v for k, v in line.items() if k not in ("time", "duration_ms")} == {
            "level": "info",
            "method": "Validate",
            "peer": "ipv4:127.0.0.1:4242",
            "role": "",
            "who": "",
            "game": "Oust",
            "plies": 12,
            "verdict": "valid",
            "status": "OK",
        }
        assert isinstance(line["time"], str) and line["time"].endswith("+00:00")
    assert (warned["level"], warned["status"]) == ("warning", "INVALID_ARGUMENT")


@pytest.mark.usefixtures("clean_logger")
def test_filters_and_levels_are_honoured_on_the_direct_way() -> None:
    stream = io.StringIO()
    handler = log_to(stream)
    assert isinstance(handler, JsonLinesHandler)
    handler.setLevel(logging.WARNING)
    a_call().write()  # below the handler's level: not written
    a_call("DEADLINE_EXCEEDED").write()
    LOGGER.addFilter(lambda record: record.getMessage() != "Validate")
    a_call("CANCELLED").write()  # filtered out by the logger
    assert [line["status"] for line in lines(stream)] == ["DEADLINE_EXCEEDED"]


@pytest.mark.usefixtures("clean_logger")
def test_a_closed_stream_loses_the_line_without_failing_the_call() -> None:
    stream = io.StringIO()
    log_to(stream)
    stream.close()
    a_call().write()  # no exception


@given(seconds=st.floats(min_value=0, max_value=4e9, allow_nan=False))
def test_a_lines_time_is_datetimes_iso_text_to_the_millisecond(seconds: float) -> None:
    expected = datetime.fromtimestamp(seconds, UTC).isoformat(timespec="milliseconds")
    assert timestamp(seconds) == expected
    assert timestamp(seconds) == expected  # the remembered second gives the same text


@pytest.mark.usefixtures("clean_logger")
def test_a_handler_given_another_formatter_gets_the_line_through_logging() -> None:
    stream = io.StringIO()
    log_to(stream).setFormatter(logging.Formatter("%(levelname)s %(message)s"))
    a_call().write()
    assert stream.getvalue() == "INFO Validate\n"


def test_a_status_that_cannot_be_sent_ends_the_handler_as_a_cancelled_call() -> None:
    async def sent() -> None:
        raise grpc.aio.AbortError()

    async def too_late() -> None:  # what gRPC raises when the call ended first
        raise RuntimeError('Failed "execute_batch"')

    with pytest.raises(grpc.aio.AbortError):
        asyncio.run(end_with(sent()))
    with pytest.raises(asyncio.CancelledError):
        asyncio.run(end_with(too_late()))
