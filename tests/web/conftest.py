"""A real ``gamerec serve --matches --web`` and plain HTTP clients of its web door."""

from __future__ import annotations

import io
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
import requests

from gamerec.validator.web.frames import envelope, read_frames
from tests.live.conftest import LiveServer

#: Seconds any one HTTP request of a test may take (a busy 2-core machine).
TIMEOUT = 60


class WebServer(LiveServer):
    """``gamerec serve --matches DB --test-clock FILE --web 0`` in its own process."""

    def __init__(self, folder: Path, *arguments: str, processes: int = 1) -> None:
        super().__init__(folder, "--web", "0", *arguments, processes=processes)

    @property
    def web(self) -> str:
        """The web door's base URL (``http://127.0.0.1:PORT``)."""
        return str(self.process.lines[0]["web"])


@pytest.fixture(scope="module")
def web(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    """One server with a web door for a module (small limits the tests reach)."""
    server = WebServer(
        tmp_path_factory.mktemp("web"),
        *("--match-limit", "watchers=8", "--match-limit", "request-bytes=4096"),
    )
    yield server
    server.stop()


def call(
    base: str,
    method: str,
    body: dict[str, Any],
    *,
    token: str = "",
    headers: dict[str, str] | None = None,
) -> tuple[int, dict[str, Any]]:
    """A unary Connect call with a JSON body: the HTTP status and the JSON answer."""
    sent = {"content-type": "application/json", **(headers or {})}
    if token:
        sent["authorization"] = f"Bearer {token}"
    answer = requests.post(
        f"{base}/gamerec.v1.{method}", data=orjson.dumps(body), headers=sent, timeout=TIMEOUT
    )
    return answer.status_code, answer.json()


def watch(base: str, body: dict[str, Any]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """A Watch over Connect streaming with JSON: every event, and the end of the stream."""
    answer = requests.post(
        f"{base}/gamerec.v1.MatchService/Watch",
        data=envelope(orjson.dumps(body)),
        headers={"content-type": "application/connect+json"},
        timeout=TIMEOUT,
    )
    assert answer.status_code == 200, answer.text
    events, end = [], {}
    for frame in read_frames(io.BytesIO(answer.content)):
        if frame.ends:
            end = orjson.loads(frame.data)
        else:
            events.append(orjson.loads(frame.data))
    return events, end
