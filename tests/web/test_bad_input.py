"""What bad input gets at the web door: a clear Connect error, and nothing changed."""

from __future__ import annotations

import base64
import http.client
import socket
import time
from collections.abc import Iterator
from typing import Any

import orjson
import pytest
import requests
from google.protobuf import json_format
from google.rpc import error_details_pb2  # type: ignore[import-untyped]

from bench.procfs import process_tree, rss_kib
from gamerec.validator.web.app import CONTENT_TYPES
from gamerec.validator.web.frames import envelope
from tests.live.matches import request
from tests.web.conftest import TIMEOUT, WebServer, call

ALLOWED = "https://allowed.example"
MAX_BODY = 100_000
IDLE_SECONDS = 1.0


@pytest.fixture(scope="module")
def door(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    server = WebServer(
        tmp_path_factory.mktemp("bad"),
        *("--max-message-bytes", str(MAX_BODY), "--web-allow-origin", ALLOWED),
        *("--web-idle-timeout", str(IDLE_SECONDS)),
    )
    yield server
    server.stop()


def _post(
    door: WebServer, method: str, body: bytes, content_type: str = "application/json", **more: Any
) -> requests.Response:
    headers = {"content-type": content_type, **more.pop("headers", {})}
    return requests.post(
        f"{door.web}/gamerec.v1.{method}", data=body, headers=headers, timeout=TIMEOUT, **more
    )


def _matches(door: WebServer) -> int:
    status, listed = call(door.web, "MatchService/ListMatches", {})
    assert status == 200, listed
    return len(listed.get("matches", []))


def _field_of(answer: dict[str, Any]) -> str:
    """The field a refusal's google.rpc.BadRequest names."""
    for detail in answer.get("details", ()):
        if detail["type"] == "google.rpc.BadRequest":
            value = base64.b64decode(detail["value"] + "=" * (-len(detail["value"]) % 4))
            violation = error_details_pb2.BadRequest.FromString(value).field_violations[0]
            return str(violation.field)
    raise AssertionError(f"no BadRequest in {answer}")


def _create_body(**extra: Any) -> dict[str, Any]:
    return {**json_format.MessageToDict(request("ONE", 2)), **extra}


def test_a_body_over_the_limit_is_refused_before_it_is_read(door: WebServer) -> None:
    before = _matches(door)
    answer = _post(door, "MatchService/CreateMatch", b"{" + b" " * MAX_BODY + b"}")
    assert answer.status_code == 429
    body = answer.json()
    assert body["code"] == "resource_exhausted"
    assert f"{MAX_BODY:,}" in body["message"] and "--max-message-bytes" in body["message"]
    assert _matches(door) == before


def test_a_body_over_the_limit_in_chunks_is_cut_off(door: WebServer) -> None:
    def chunks() -> Iterator[bytes]:
        yield b'{"rules": {}, "event": "'
        for _ in range(MAX_BODY // 1000 + 2):
            yield b"x" * 1000
        yield b'"}'

    before = _matches(door)
    answer = _post(door, "MatchService/CreateMatch", chunks())  # type: ignore[arg-type]
    assert answer.json()["code"] == "resource_exhausted", answer.text
    assert str(MAX_BODY) in answer.json()["message"]
    assert _matches(door) == before


def test_a_text_mode_body_over_the_limit_is_refused_whole_or_in_chunks(door: WebServer) -> None:
    message = pb_create(event="x" * MAX_BODY)
    text = base64.b64encode(envelope(message))
    text_headers = {"content-type": "application/grpc-web-text", "x-grpc-web": "1"}
    before = _matches(door)
    whole = _post(door, "MatchService/CreateMatch", text, text_headers["content-type"])
    assert whole.status_code == 429 and whole.json()["code"] == "resource_exhausted"
    assert "in base64" in whole.json()["message"]

    def chunks() -> Iterator[bytes]:
        for at in range(0, len(text), 4096):
            yield text[at : at + 4096]

    body: Any = chunks()  # requests sends a generator in chunks
    chunked = _post(door, "MatchService/CreateMatch", body, headers=text_headers)
    assert chunked.status_code == 429, chunked.text
    assert f"{MAX_BODY:,} bytes once decoded" in chunked.json()["message"]
    assert _matches(door) == before


def test_a_text_mode_body_that_is_not_base64_is_refused_naming_the_byte(door: WebServer) -> None:
    text = base64.b64encode(envelope(pb_create()))
    before = _matches(door)
    wrong = ((b"!" + text, 0), (text[:8] + b"*" + text[8:], 8), (text + b"QUJ", len(text)))
    for body, byte in wrong:
        answer = _post(door, "MatchService/CreateMatch", body, "application/grpc-web-text")
        assert answer.status_code == 400
        assert answer.json() == {
            "code": "invalid_argument",
            "message": f"byte {byte} of the body is not base64 (gRPC-Web text mode)",
        }
    assert _matches(door) == before


def pb_create(**fields: Any) -> bytes:
    """A CreateMatch request as protobuf bytes, with ``fields`` changed."""
    made = request("ONE", 2)
    for name, value in fields.items():
        setattr(made, name, value)
    return made.SerializeToString()


def test_a_body_that_is_not_json_is_refused(door: WebServer) -> None:
    answer = _post(door, "MatchService/CreateMatch", b'{"rules": ')
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_argument"
    assert answer.json()["message"].startswith("the body is not JSON")


def test_a_body_that_is_not_the_message_is_refused(door: WebServer) -> None:
    before = _matches(door)
    answer = _post(door, "MatchService/CreateMatch", b"\xff\xff\xff", "application/proto")
    assert answer.status_code == 400
    assert answer.json()["code"] == "invalid_argument"
    assert "not a CreateMatchRequest" in answer.json()["message"]
    answer = _post(door, "MatchService/CreateMatch", b"[1, 2]")
    assert answer.json()["code"] == "invalid_argument"
    assert "not a JSON object of gamerec.v1.CreateMatchRequest" in answer.json()["message"]
    assert _matches(door) == before


def test_a_content_type_the_door_does_not_speak_is_refused_naming_those_it_does(
    door: WebServer,
) -> None:
    before = _matches(door)
    body = orjson.dumps(_create_body())
    for content_type in ("text/plain", "application/x-www-form-urlencoded", ""):
        answer = _post(door, "MatchService/CreateMatch", body, content_type)
        assert answer.status_code == 415, content_type
        assert answer.json()["code"] == "invalid_argument"
        assert "application/json" in answer.json()["message"]
    assert _matches(door) == before


def test_grpc_over_http_1_is_refused_with_the_protocols_that_work(door: WebServer) -> None:
    answer = _post(door, "MatchService/ListMatches", envelope(b""), "application/grpc")
    assert answer.json()["code"] == "invalid_argument"
    assert "gRPC-Web or Connect" in answer.json()["message"]


def test_an_unknown_field_is_refused_naming_it(door: WebServer) -> None:
    before = _matches(door)
    for body, field in (
        (_create_body(bogus=1), "bogus"),
        (_create_body(rules={"game": "GAME_ONE", "colour": "red"}), "rules.colour"),
    ):
        answer = _post(door, "MatchService/CreateMatch", orjson.dumps(body))
        assert answer.status_code == 400
        refused = answer.json()
        assert refused["code"] == "invalid_argument"
        assert refused["message"].startswith(f"{field}: no such field")
        assert _field_of(refused) == field
    assert _matches(door) == before


def test_a_key_given_twice_is_refused_naming_it(door: WebServer) -> None:
    before = _matches(door)
    twice = b'{"seats": [{"name": "a"}, {"name": "b", "name": "c"}], "event": "x"}'
    answer = _post(door, "MatchService/CreateMatch", twice)
    refused = answer.json()
    assert refused["code"] == "invalid_argument"
    assert _field_of(refused) == "seats[1].name"
    assert "given twice" in refused["message"]
    both = b'{"matchId": "a", "match_id": "b"}'
    refused = _post(door, "MatchService/GetMatch", both).json()
    assert refused["code"] == "invalid_argument"
    assert _field_of(refused) == "matchId"
    assert "'matchId' and 'match_id'" in refused["message"]
    assert _matches(door) == before


def test_a_move_for_another_seat_is_refused_and_changes_nothing(door: WebServer) -> None:
    status, created = call(door.web, "MatchService/CreateMatch", _create_body())
    assert status == 200
    match_id, tokens = created["matchId"], created["seatTokens"]
    status, other = call(door.web, "MatchService/CreateMatch", _create_body())
    assert status == 200
    _, before = call(door.web, "MatchService/GetMatch", {"matchId": match_id})
    move = {"matchId": match_id, "ply": 1, "text": before["legalMoves"][0]}
    status, refused = call(door.web, "MatchService/Play", move, token=tokens[1])
    assert (status, refused["code"]) == (400, "failed_precondition")
    assert refused["message"] == "it is seat 1's turn, not seat 2's (ply 1)"
    status, refused = call(door.web, "MatchService/Play", move, token=other["seatTokens"][0])
    assert (status, refused["code"]) == (403, "permission_denied")
    assert refused["message"] == "a seat's token acts only in its own match"
    _, after = call(door.web, "MatchService/GetMatch", {"matchId": match_id})
    assert after == before


def test_a_page_of_another_origin_is_refused_and_an_allowed_one_served(door: WebServer) -> None:
    before = _matches(door)
    body = orjson.dumps(_create_body())
    refused = _post(
        door, "MatchService/CreateMatch", body, headers={"origin": "https://evil.example"}
    )
    assert refused.status_code == 403
    assert refused.json()["code"] == "permission_denied"
    assert "'https://evil.example'" in refused.json()["message"]
    assert "access-control-allow-origin" not in refused.headers
    assert _matches(door) == before
    preflight = requests.options(
        f"{door.web}/gamerec.v1.MatchService/CreateMatch",
        headers={
            "origin": "https://evil.example",
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type",
        },
        timeout=TIMEOUT,
    )
    assert preflight.status_code == 403
    assert "access-control-allow-origin" not in preflight.headers
    preflight = requests.options(
        f"{door.web}/gamerec.v1.MatchService/CreateMatch",
        headers={
            "origin": ALLOWED,
            "access-control-request-method": "POST",
            "access-control-request-headers": "content-type, authorization",
        },
        timeout=TIMEOUT,
    )
    assert preflight.status_code == 204
    assert preflight.headers["access-control-allow-origin"] == ALLOWED
    allowed = preflight.headers["access-control-allow-headers"]
    assert "content-type" in allowed and "authorization" in allowed
    answer = _post(door, "MatchService/ListMatches", b"{}", headers={"origin": ALLOWED})
    assert answer.status_code == 200
    assert answer.headers["access-control-allow-origin"] == ALLOWED
    assert "grpc-status-details-bin" in answer.headers["access-control-expose-headers"]
    upper = _post(door, "MatchService/ListMatches", b"{}", headers={"origin": ALLOWED.upper()})
    assert upper.status_code == 200  # an origin's scheme and host have no case
    same = _post(door, "MatchService/ListMatches", b"{}", headers={"origin": door.web})
    assert same.status_code == 200  # the door's own pages
    assert "access-control-allow-origin" not in same.headers


def test_thousands_of_idle_connections_are_closed_and_the_door_serves_meanwhile(
    door: WebServer,
) -> None:
    host, port = door.web.removeprefix("http://").split(":")
    idle = []
    for number in range(2000):
        connection = socket.create_connection((host, int(port)), timeout=TIMEOUT)
        if number % 2:  # a request head that never ends (a slow client), or nothing at all
            connection.sendall(b"POST /gamerec.v1.MatchService/ListMatches HTTP/1.1\r\nHost: x\r\n")
        idle.append(connection)
    try:
        assert _matches(door) >= 0  # served while they wait
        deadline = time.monotonic() + IDLE_SECONDS + TIMEOUT
        for connection in idle:
            connection.settimeout(max(0.1, deadline - time.monotonic()))
            while connection.recv(4096):  # nothing, or a 408 for the unfinished head; then
                pass  # the end: closed by the server (a timeout here fails the test)
    finally:
        for connection in idle:
            connection.close()
    assert _matches(door) >= 0


def test_a_stream_that_is_never_read_holds_no_more_than_its_socket(door: WebServer) -> None:
    status, created = call(door.web, "MatchService/CreateMatch", _create_body())
    assert status == 200
    match_id, tokens = created["matchId"], created["seatTokens"]
    host, port = door.web.removeprefix("http://").split(":")
    unread = []
    for _ in range(6):
        connection = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
        connection.request(
            "POST",
            "/gamerec.v1.MatchService/Watch",
            body=envelope(orjson.dumps({"matchId": match_id})),
            headers={"content-type": "application/connect+json"},
        )
        unread.append(connection)  # its answer is never read
    before = _server_kib(door)
    ply = 0
    while True:
        _, state = call(door.web, "MatchService/GetMatch", {"matchId": match_id})
        if state.get("status") != "MATCH_STATUS_ACTIVE" or ply >= 120:
            break
        ply += 1
        move = {"matchId": match_id, "ply": ply, "text": state["legalMoves"][0]}
        status, answer = call(door.web, "MatchService/Play", move, token=tokens[(ply - 1) % 2])
        assert status == 200, answer
    grown = _server_kib(door) - before
    assert grown < 32 * 1024, grown  # KiB: no queue grows with the unread events
    for connection in unread:
        connection.close()


def _server_kib(door: WebServer) -> int:
    return sum(rss_kib(pid) for pid in process_tree(door.process.process.pid))


def test_a_refusal_before_any_handler_still_writes_its_call_line(door: WebServer) -> None:
    _post(door, "MatchService/Resign", b"{}", "text/html")
    _post(door, "MatchService/Abort", b'{"matchId": "x", "sneaky": 1}')
    _post(door, "MatchService/OfferDraw", b"{}", headers={"origin": "https://evil.example"})
    refusals = {
        line["method"]: (line["status"], line["verdict"], line["peer"])
        for line in _lines(door, {"Resign", "Abort", "OfferDraw"})
    }
    assert refusals["Resign"][:2] == (
        "INVALID_ARGUMENT",
        "the content type 'text/html' is not one this door speaks: " + ", ".join(CONTENT_TYPES),
    )
    assert refusals["Abort"][:2] == (
        "INVALID_ARGUMENT",
        "sneaky: no such field in gamerec.v1.AbortRequest (unknown fields are refused)",
    )
    assert refusals["OfferDraw"][0] == "PERMISSION_DENIED"
    assert all(peer.startswith("ipv4:127.0.0.1:") for _, _, peer in refusals.values())


def _lines(door: WebServer, methods: set[str]) -> list[dict[str, Any]]:
    end = time.monotonic() + TIMEOUT
    while time.monotonic() < end:
        found = [line for line in door.process.lines if line.get("method") in methods]
        if len(found) == len(methods):
            return found
        time.sleep(0.05)
    raise AssertionError(f"no call lines of {methods}")


def test_the_static_files_are_served_and_nothing_outside_their_folder(door: WebServer) -> None:
    host, port = door.web.removeprefix("http://").split(":")
    answers = {}
    for path in ("/", "/index.html", "/../../pyproject.toml", "/%2e%2e/%2e%2e/pyproject.toml",
                 "/..%2f..%2fpyproject.toml", "/no-such-file.js"):  # fmt: skip
        connection = http.client.HTTPConnection(host, int(port), timeout=TIMEOUT)
        connection.request("GET", path)
        answer = connection.getresponse()
        answers[path] = (answer.status, answer.getheader("content-type"), answer.read())
        connection.close()
    assert answers["/"][:2] == (200, "text/html; charset=utf-8")
    assert answers["/"] == answers["/index.html"]
    for path in list(answers)[2:]:
        status, kind, body = answers[path]
        assert (status, kind) == (404, "application/json"), path
        assert orjson.loads(body)["code"] == "not_found"
