"""Both doors give the same answers: one table of requests, sent through every protocol.

Each request goes to the gRPC port with grpcio (the reference), then to the web port as gRPC
(grpcio over h2c), gRPC-Web and Connect with protobuf bodies (connectrpc's client), gRPC-Web's
text mode (base64, written here from its protocol) and Connect with JSON bodies (plain
HTTP/1.1). Every answer is reduced to its message, or to its status
code, message and google.rpc details (each detail's type and bytes), and all must be equal.
Only RetryInfo's delay, which is the time left when each call was refused, is set aside.
"""

from __future__ import annotations

import base64
import re
import urllib.parse
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc
import orjson
import pytest
import requests
from connectrpc.client import ConnectClientSync
from connectrpc.compat import google_protobuf_binary_codec
from connectrpc.errors import ConnectError
from connectrpc.method import IdempotencyLevel, MethodInfo, StreamType
from connectrpc.protocol import ProtocolType
from google.protobuf import json_format, message_factory
from google.protobuf.message import Message
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import service_pb2 as spb
from tests.live.matches import request
from tests.network.conftest import ADMIN, SPECTATOR, token_file
from tests.web.conftest import TIMEOUT, WebServer

ROOT = Path(__file__).resolve().parents[2]
RETRY_INFO = "google.rpc.RetryInfo"

#: An answer: ("OK", the message as a dict) or (code, message, ((detail type, bytes), ...)).
Answer = tuple[Any, ...]


@dataclass(frozen=True)
class Case:
    """One request of the table.

    Attributes:
        name: what it shows.
        method: ``Service/Method``.
        message: the request.
        token: sent as ``authorization: Bearer``; empty: none.
        expected: the code the gRPC door answers (``OK`` for an answer).
    """

    name: str
    method: str
    message: Message
    token: str
    expected: str


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WebServer]:
    folder = tmp_path_factory.mktemp("parity")
    admins = token_file(folder / "admins", f"ops {ADMIN}")
    spectators = token_file(folder / "spectators", f"fan {SPECTATOR}")
    started = WebServer(
        folder,
        *("--admin-tokens", str(admins), "--spectator-tokens", str(spectators)),
        *("--match-limit", "request-bytes=4096"),
    )
    yield started
    started.stop()


def _grpc_call(address: str, case: Case) -> Answer:
    service, method = case.method.split("/")
    kind = _output(case.method)
    with grpc.insecure_channel(address) as channel:
        call: grpc.UnaryUnaryMultiCallable[Message, Message] = channel.unary_unary(
            f"/gamerec.v1.{service}/{method}",
            request_serializer=lambda message: message.SerializeToString(),
            response_deserializer=kind.FromString,
        )
        metadata = (("authorization", f"Bearer {case.token}"),) if case.token else None
        try:
            answer = call(case.message, metadata=metadata, timeout=TIMEOUT)
        except grpc.RpcError as error:
            assert isinstance(error, grpc.Call)
            details: tuple[tuple[str, bytes], ...] = ()
            for key, value in error.trailing_metadata() or ():
                if key == "grpc-status-details-bin":
                    status = status_pb2.Status.FromString(value)
                    details = tuple(
                        (packed.type_url.rsplit("/", 1)[1], packed.value)
                        for packed in status.details
                    )
            return _refused(error.code().name, str(error.details()), details)
    return ("OK", json_format.MessageToDict(answer))


def _refused(code: str, message: str, details: tuple[tuple[str, bytes], ...]) -> Answer:
    """A refusal; each detail as its message (a map's bytes may come in any order)."""
    kept = tuple((kind, _detail(kind, value)) for kind, value in details if kind != RETRY_INFO)
    return (code.upper().replace("CANCELED", "CANCELLED"), message, kept)


def _detail(kind: str, value: bytes) -> dict[str, Any]:
    message = getattr(error_details_pb2, kind.rsplit(".", 1)[1]).FromString(value)
    return json_format.MessageToDict(message)


def _connect_json(base: str, case: Case) -> Answer:
    headers = {"content-type": "application/json"}
    if case.token:
        headers["authorization"] = f"Bearer {case.token}"
    answer = requests.post(
        f"{base}/gamerec.v1.{case.method}",
        data=orjson.dumps(json_format.MessageToDict(case.message)),
        headers=headers,
        timeout=TIMEOUT,
    )
    body = answer.json()
    if answer.status_code == 200:
        parsed = json_format.ParseDict(body, _output(case.method)())
        return ("OK", json_format.MessageToDict(parsed))
    details = tuple(
        (detail["type"], base64.b64decode(detail["value"] + "=" * (-len(detail["value"]) % 4)))
        for detail in body.get("details", ())
    )
    return _refused(body["code"], body["message"], details)


def _connectrpc(protocol: ProtocolType) -> Callable[[str, Case], Answer]:
    def send(base: str, case: Case) -> Answer:
        service, method = case.method.split("/")
        info = MethodInfo(
            name=method,
            service_name=f"gamerec.v1.{service}",
            input=type(case.message),
            output=_output(case.method),
            idempotency_level=IdempotencyLevel.UNKNOWN,
            stream_type=StreamType.UNARY,
        )
        headers = {"authorization": f"Bearer {case.token}"} if case.token else None
        with ConnectClientSync(
            base, codec=google_protobuf_binary_codec(), protocol=protocol, send_compression=None
        ) as client:
            try:
                answer = client.execute_unary(
                    request=case.message, method=info, headers=headers, timeout_ms=TIMEOUT * 1000
                )
            except ConnectError as error:
                details = tuple((d.type_name, d.message_bytes) for d in error.details)
                return _refused(error.code.value, error.message, details)
        return ("OK", json_format.MessageToDict(answer))

    return send


#: gRPC status numbers by name, as grpc-status carries them.
_STATUS_NAMES = {code.value[0]: code.name for code in grpc.StatusCode}


def _grpc_web_text(base: str, case: Case) -> Answer:
    """A call in gRPC-Web's text mode, written from its protocol (base64 frames, trailers)."""
    headers = {
        "content-type": "application/grpc-web-text",
        "accept": "application/grpc-web-text",
        "x-grpc-web": "1",
    }
    if case.token:
        headers["authorization"] = f"Bearer {case.token}"
    message = case.message.SerializeToString()
    answer = requests.post(
        f"{base}/gamerec.v1.{case.method}",
        data=base64.b64encode(b"\0" + len(message).to_bytes(4, "big") + message),
        headers=headers,
        timeout=TIMEOUT,
    )
    assert answer.status_code == 200, answer.text
    assert answer.headers["content-type"] == "application/grpc-web-text+proto"
    messages, trailers = grpc_web_frames(text_body(answer.content))
    trailers = {**trailers, **{k.lower(): v for k, v in answer.headers.items()}}
    code = int(trailers.get("grpc-status", "0"))
    if code == 0:
        assert len(messages) == 1
        return ("OK", json_format.MessageToDict(_output(case.method).FromString(messages[0])))
    details: tuple[tuple[str, bytes], ...] = ()
    if "grpc-status-details-bin" in trailers:
        packed = trailers["grpc-status-details-bin"]
        status = status_pb2.Status.FromString(base64.b64decode(packed + "=" * (-len(packed) % 4)))
        details = tuple((d.type_url.rsplit("/", 1)[1], d.value) for d in status.details)
    message_text = urllib.parse.unquote(trailers.get("grpc-message", ""))
    return _refused(_STATUS_NAMES[code], message_text, details)


def text_body(body: bytes) -> bytes:
    """A text-mode answer's bytes: its base64 runs (each padded on its own) decoded in turn."""
    runs = re.findall(rb"[A-Za-z0-9+/]+={0,2}", body)
    assert b"".join(runs) == body, body[:100]
    return b"".join(base64.b64decode(run) for run in runs)


def grpc_web_frames(data: bytes) -> tuple[list[bytes], dict[str, str]]:
    """The messages of a gRPC-Web answer and its trailers (the frame flagged 0x80)."""
    messages, trailers, at = [], {}, 0
    while at < len(data):
        flags, size = data[at], int.from_bytes(data[at + 1 : at + 5], "big")
        payload = data[at + 5 : at + 5 + size]
        assert len(payload) == size
        if flags & 0x80:
            for line in payload.decode().split("\r\n"):
                if line:
                    key, value = line.split(":", 1)
                    trailers[key.strip().lower()] = value.strip()
        else:
            messages.append(payload)
        at += 5 + size
    return messages, trailers


def _output(method: str) -> type[Message]:
    service, name = method.split("/")
    module = mpb if service == "MatchService" else spb
    descriptor = module.DESCRIPTOR.services_by_name[service].methods_by_name[name]
    kind: type[Message] = message_factory.GetMessageClass(descriptor.output_type)
    return kind


def _create(server: WebServer) -> mpb.CreateMatchResponse:
    with grpc.insecure_channel(server.address) as channel:
        call: grpc.UnaryUnaryMultiCallable[Message, mpb.CreateMatchResponse] = channel.unary_unary(
            "/gamerec.v1.MatchService/CreateMatch",
            request_serializer=lambda message: message.SerializeToString(),
            response_deserializer=mpb.CreateMatchResponse.FromString,
        )
        created: mpb.CreateMatchResponse = call(
            request("ONE", 2, keyed=False),
            metadata=(("authorization", f"Bearer {ADMIN}"),),
            timeout=TIMEOUT,
        )
        return created


def _table(server: WebServer) -> list[Case]:
    first, second = _create(server), _create(server)
    one, two = first.seat_tokens
    match = first.match_id
    record = json_format.Parse(
        (ROOT / "fixtures/valid/aronda-e3-inside.json").read_text(), spb.ValidateRequest().record
    )
    bad = (ROOT / "fixtures/invalid/aronda-field-owned.grn").read_bytes()

    def play(token: str, ply: int, text: str, match_id: str = match) -> mpb.PlayRequest:
        return mpb.PlayRequest(match_id=match_id, token=token, ply=ply, text=text)

    return [
        Case(
            "a valid record", "RecordService/Validate", spb.ValidateRequest(record=record), "", "OK"
        ),
        Case(
            "an illegal record (a verdict, not an error)",
            "RecordService/Validate",
            spb.ValidateRequest(data=bad, encoding=spb.RECORD_ENCODING_GRN),
            "",
            "OK",
        ),
        Case(
            "a record that cannot be read",
            "RecordService/Validate",
            spb.ValidateRequest(data=b"{not json", encoding=spb.RECORD_ENCODING_JSON),
            "",
            "INVALID_ARGUMENT",
        ),
        Case(
            "CreateMatch without a token",
            "MatchService/CreateMatch",
            request("ONE", 2),
            "",
            "UNAUTHENTICATED",
        ),
        Case(
            "a token no one has",
            "MatchService/CreateMatch",
            request("ONE", 2),
            "not-a-token-0123456789",
            "UNAUTHENTICATED",
        ),
        Case(
            "a spectator creating",
            "MatchService/CreateMatch",
            request("ONE", 2),
            SPECTATOR,
            "PERMISSION_DENIED",
        ),
        Case(
            "impossible rules",
            "MatchService/CreateMatch",
            mpb.CreateMatchRequest(rules=request("ONE", 2).rules, seats=request("ONE", 3).seats),
            ADMIN,
            "INVALID_ARGUMENT",
        ),
        Case(
            "a wrong seat token",
            "MatchService/Play",
            play("no-such-seat-token-012345", 1, "c7"),
            "",
            "UNAUTHENTICATED",
        ),
        Case(
            "the other seat's turn",
            "MatchService/Play",
            play(two, 1, "c7"),
            "",
            "FAILED_PRECONDITION",
        ),
        Case("a wrong ply", "MatchService/Play", play(one, 5, "c7"), "", "FAILED_PRECONDITION"),
        Case(
            "no move",
            "MatchService/Play",
            mpb.PlayRequest(match_id=match, token=one, ply=1),
            "",
            "INVALID_ARGUMENT",
        ),
        Case("an illegal move (a finding)", "MatchService/Play", play(one, 1, "z99"), "", "OK"),
        Case(
            "a seat in another match",
            "MatchService/Play",
            play(one, 1, "c7", second.match_id),
            "",
            "PERMISSION_DENIED",
        ),
        Case(
            "over the request-bytes limit",
            "MatchService/Play",
            play(one, 1, "c" * 5000),
            "",
            "RESOURCE_EXHAUSTED",
        ),
        Case(
            "a match that does not exist",
            "MatchService/GetMatch",
            mpb.GetMatchRequest(match_id="no-such-match"),
            "",
            "NOT_FOUND",
        ),
        Case(
            "a match's state",
            "MatchService/GetMatch",
            mpb.GetMatchRequest(match_id=match),
            "",
            "OK",
        ),
        Case(
            "a spectator's list",
            "MatchService/ListMatches",
            mpb.ListMatchesRequest(),
            SPECTATOR,
            "OK",
        ),
    ]


WAYS: dict[str, Callable[[str, Case], Answer]] = {
    "grpc on the web port": lambda base, case: _grpc_call(base.removeprefix("http://"), case),
    "grpc-web": _connectrpc(ProtocolType.GRPC_WEB),
    "grpc-web text mode": _grpc_web_text,
    "connect proto": _connectrpc(ProtocolType.CONNECT),
    "connect json": _connect_json,
}


def test_every_protocol_of_the_web_door_answers_as_the_grpc_door(server: WebServer) -> None:
    table = _table(server)
    for case in table:
        reference = _grpc_call(server.address, case)
        assert reference[0] == case.expected, (case.name, reference)
        for way, send in WAYS.items():
            assert send(server.web, case) == reference, (case.name, way)
