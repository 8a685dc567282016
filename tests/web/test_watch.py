"""Watch over HTTP/1.1 Connect streaming: a watcher that drops and reconnects misses nothing."""

from __future__ import annotations

import http.client
import socket
import time
from typing import Any

import orjson
from google.protobuf import json_format

from gamerec.validator.web.frames import envelope, read_frames
from tests.live.conftest import events_of
from tests.live.matches import request
from tests.web.conftest import TIMEOUT, WebServer, call


class Watcher:
    """One Watch stream over its own HTTP/1.1 connection, read frame by frame."""

    def __init__(self, base: str, match_id: str, from_event: int) -> None:
        body = orjson.dumps({"matchId": match_id, "fromEvent": from_event})
        self.connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=TIMEOUT)
        self.connection.request(
            "POST",
            "/gamerec.v1.MatchService/Watch",
            body=envelope(body),
            headers={"content-type": "application/connect+json"},
        )
        self.socket = self.connection.sock
        response = self.connection.getresponse()
        assert response.status == 200
        assert response.getheader("content-type") == "application/connect+json"
        self.frames = read_frames(response)

    def next_event(self) -> dict[str, Any]:
        frame = next(self.frames)
        assert not frame.ends, frame.data
        event: dict[str, Any] = orjson.loads(frame.data)
        return event

    def rest(self) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        events: list[dict[str, Any]] = []
        for frame in self.frames:
            if frame.ends:
                return events, orjson.loads(frame.data)
            events.append(orjson.loads(frame.data))
        raise AssertionError("the stream ended without its end frame")

    def drop(self) -> None:
        """Close the connection under the stream, as a page that loses its network does."""
        self.socket.shutdown(socket.SHUT_RDWR)
        self.socket.close()
        self.connection.close()


def test_a_watcher_that_drops_and_reconnects_gets_exactly_what_it_missed(web: WebServer) -> None:
    created = _created(web)
    match_id, tokens = created["matchId"], created["seatTokens"]
    watcher = Watcher(web.web, match_id, 0)
    seen = [watcher.next_event()]  # created
    for ply in (1, 2):
        _play(web, match_id, tokens[(ply - 1) % 2], ply)
        seen.append(watcher.next_event())
    watcher.drop()
    for ply in (3, 4, 5):  # played while the watcher is away
        _play(web, match_id, tokens[(ply - 1) % 2], ply)
    again = Watcher(web.web, match_id, seen[-1]["number"] + 1)
    seen += [again.next_event() for _ in range(3)]
    status, _ = call(web.web, "MatchService/Resign", {"matchId": match_id}, token=tokens[1])
    assert status == 200
    rest, end = again.rest()
    seen += rest
    assert end == {}
    numbers = [event["number"] for event in seen]
    assert numbers == list(range(1, len(seen) + 1))  # none missed, none twice
    assert seen == [json_format.MessageToDict(event) for event in events_of(web.address, match_id)]
    assert _watch_ended_as(web, "CANCELLED")  # the dropped stream's line


def _created(web: WebServer) -> dict[str, Any]:
    status, created = call(
        web.web, "MatchService/CreateMatch", json_format.MessageToDict(request("ONE", 2))
    )
    assert status == 200, created
    return created


def _play(web: WebServer, match_id: str, token: str, ply: int) -> None:
    """Play the first legal move of the seat to move."""
    status, state = call(web.web, "MatchService/GetMatch", {"matchId": match_id})
    assert status == 200, state
    text = state["legalMoves"][0]
    status, answer = call(
        web.web, "MatchService/Play", {"matchId": match_id, "ply": ply, "text": text}, token=token
    )
    assert status == 200 and "illegal" not in answer, answer


def _watch_ended_as(web: WebServer, status: str) -> bool:
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        if any(
            line.get("method") == "Watch" and line.get("status") == status
            for line in web.process.lines
        ):
            return True
        time.sleep(0.1)
    return False
