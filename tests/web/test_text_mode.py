"""gRPC-Web's text mode: base64 bodies decoded and answered, a stream read as it is sent."""

from __future__ import annotations

import asyncio
import base64
import http.client
import itertools
from typing import Any

import pytest
from google.protobuf import json_format
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.v1 import match_pb2 as mpb
from gamerec.validator.web.frames import envelope
from gamerec.validator.web.text import (
    TextError,
    decode_text,
    text_limit,
    text_mode,
    whole_frames,
)
from tests.live.conftest import events_of
from tests.web.conftest import TIMEOUT, WebServer, call
from tests.web.test_parity import grpc_web_frames, text_body
from tests.web.test_watch import _created, _play


class TextWatcher:
    """A Watch in text mode over its own HTTP/1.1 connection, read as the server sends it."""

    def __init__(self, base: str, match_id: str) -> None:
        request = mpb.WatchRequest(match_id=match_id, from_event=0).SerializeToString()
        self.connection = http.client.HTTPConnection(base.removeprefix("http://"), timeout=TIMEOUT)
        self.connection.request(
            "POST",
            "/gamerec.v1.MatchService/Watch",
            body=base64.b64encode(envelope(request)),
            headers={"content-type": "application/grpc-web-text", "x-grpc-web": "1"},
        )
        self.response = self.connection.getresponse()
        assert self.response.status == 200
        assert self.response.getheader("content-type") == "application/grpc-web-text+proto"
        self.text = b""

    def messages(self) -> tuple[list[mpb.MatchEvent], dict[str, str]]:
        """What has come so far, read until it holds at least one more whole frame."""
        while True:
            self.text += self.response.read1()
            complete = self.text[: len(self.text) - len(self.text) % 4]
            data = text_body(complete) if complete else b""
            if whole_frames(data):
                messages, trailers = grpc_web_frames(data[: whole_frames(data)])
                return [mpb.MatchEvent.FromString(m) for m in messages], trailers


def test_a_watch_in_text_mode_gets_each_event_as_it_happens(web: WebServer) -> None:
    created = _created(web)
    match_id, tokens = created["matchId"], created["seatTokens"]
    watcher = TextWatcher(web.web, match_id)
    first, _ = watcher.messages()
    assert [event.number for event in first] == [1]  # sent before any move: not held back
    _play(web, match_id, tokens[0], 1)
    while len(seen := watcher.messages()[0]) < 2:
        pass
    assert seen[1].number == 2 and seen[1].WhichOneof("kind") == "move"
    status, _ = call(web.web, "MatchService/Resign", {"matchId": match_id}, token=tokens[1])
    assert status == 200
    while not (answer := watcher.messages())[1]:
        pass
    events, trailers = answer
    assert trailers["grpc-status"] == "0"
    reference = events_of(web.address, match_id)
    assert [json_format.MessageToDict(e) for e in events] == [
        json_format.MessageToDict(e) for e in reference
    ]


def test_runs_each_padded_on_their_own_are_read_one_after_another() -> None:
    pieces = [b"\x00\x00\x00\x00\x01A", b"BC", b"DEFG", b""]
    text = b"".join(base64.b64encode(piece) for piece in pieces)
    assert text.count(b"=") == 3  # padding inside the body, not only at its end
    assert decode_text(text) == b"".join(pieces)
    assert decode_text(b"") == b""


@pytest.mark.parametrize(
    ("text", "byte"),
    [
        (b"QUJD!", 4),  # not a base64 character
        (b"QUJ", 0),  # a group cut short, no padding
        (b"QUJDQQ", 4),
        (b"QQ==Q", 4),
        (b"QUJD\nQUJD", 4),  # no line breaks in gRPC-Web text
        (b"QQ===", 4),
    ],
)
def test_a_body_that_is_not_base64_runs_names_the_byte(text: bytes, byte: int) -> None:
    with pytest.raises(TextError, match=f"^byte {byte} of the body is not base64"):
        decode_text(text)


def test_the_text_limit_lets_exactly_the_base64_of_the_byte_limit_through() -> None:
    for limit in (1, 2, 3, 4, 100_000, 16 * 1024 * 1024):
        assert len(base64.b64encode(b"x" * limit)) == text_limit(limit)


def test_each_frame_of_an_answer_is_its_own_base64_however_the_body_was_cut() -> None:
    frames = [envelope(b"first message"), envelope(b""), envelope(b"x" * 70), b"\x80" + b"\0" * 4]
    body = b"".join(frames)
    cuts = [0, 3, 4, 18, 19, 30, 60, len(body)]

    async def service(scope: Any, receive: Any, send: Any) -> None:
        await send({"type": "http.response.start", "status": 200, "headers": []})
        for start, end in itertools.pairwise(cuts):
            await send({"type": "http.response.body", "body": body[start:end], "more_body": True})
        await send({"type": "http.response.body", "body": b"", "more_body": False})

    sent: list[dict[str, Any]] = []

    async def receive() -> dict[str, Any]:
        return {"type": "http.request", "body": base64.b64encode(b"\0" * 5), "more_body": False}

    async def send(message: Any) -> None:
        sent.append(message)

    async def refuse(*_: Any) -> None:
        raise AssertionError("refused")

    async def call() -> None:
        await text_mode(service, 100, refuse)({"headers": []}, receive, send)

    asyncio.run(call())
    pieces = [text_body(message["body"]) for message in sent[1:] if message["body"]]
    assert b"".join(pieces) == body
    assert all(whole_frames(piece) == len(piece) for piece in pieces)  # never half a frame
    assert len(pieces) >= 3  # sent as the frames became whole, not held to the end
    assert sent[-1]["more_body"] is False


@settings(max_examples=300, deadline=None)
@given(st.lists(st.binary(max_size=40), max_size=6))
def test_any_messages_encoded_each_on_its_own_decode_to_their_bytes(pieces: list[bytes]) -> None:
    text = b"".join(base64.b64encode(piece) for piece in pieces)
    assert decode_text(text) == b"".join(pieces)


@settings(max_examples=500, deadline=None)
@given(st.binary(max_size=64))
def test_any_body_decodes_or_is_refused_with_the_bad_byte_named(body: bytes) -> None:
    try:
        decode_text(body)
    except TextError as error:
        byte = int(str(error).split()[1])
        assert 0 <= byte <= len(body)


def test_a_client_that_goes_away_before_its_body_is_whole_makes_no_call() -> None:
    messages = iter(
        [
            {"type": "http.request", "body": b"QUJD", "more_body": True},
            {"type": "http.disconnect"},
        ]
    )
    sent: list[Any] = []

    async def receive() -> Any:
        return next(messages)

    async def send(message: Any) -> None:
        sent.append(message)

    async def service(*_: Any) -> None:
        raise AssertionError("called")

    async def refuse(*_: Any) -> None:
        raise AssertionError("refused")

    async def call() -> None:
        await text_mode(service, 100, refuse)({"headers": []}, receive, send)

    asyncio.run(call())
    assert sent == []
