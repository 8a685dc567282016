"""The web door carries the services: Validate, CreateMatch, Play and Watch over Connect JSON."""

from __future__ import annotations

import io
from pathlib import Path

import grpc
import orjson
import requests
from google.protobuf import json_format

from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import match_pb2_grpc as mgrpc
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as spb_grpc
from gamerec.validator.web.frames import envelope, read_frames
from tests.live.conftest import events_of
from tests.live.matches import request
from tests.web.conftest import TIMEOUT, WebServer, call, watch

ROOT = Path(__file__).resolve().parents[2]


def _json(message: object) -> dict[str, object]:
    return json_format.MessageToDict(message)  # type: ignore[arg-type]


def test_validate_answers_a_record_over_connect_json(web: WebServer) -> None:
    record = (ROOT / "fixtures/valid/aronda-e3-inside.json").read_bytes().decode()
    status, answer = call(web.web, "RecordService/Validate", {"record": _loads(record)})
    assert status == 200, answer
    assert answer["valid"] is True
    with grpc.insecure_channel(web.address) as channel:
        verdict = spb_grpc.RecordServiceStub(channel).Validate(
            json_format.ParseDict({"record": _loads(record)}, spb.ValidateRequest()), timeout=30
        )
    assert answer == _json(verdict)


def test_a_match_is_created_played_and_watched_over_connect_json(web: WebServer) -> None:
    status, created = call(web.web, "MatchService/CreateMatch", _json(request("ONE", 2)))
    assert status == 200, created
    match_id, tokens = created["matchId"], created["seatTokens"]
    assert len(tokens) == 2
    status, played = call(
        web.web,
        "MatchService/Play",
        {"matchId": match_id, "ply": 1, "text": "c7"},
        token=tokens[0],
    )
    assert status == 200, played
    assert [event["move"]["ply"] for event in played["events"]] == [1]
    status, answer = call(
        web.web,
        "MatchService/Play",
        {"matchId": match_id, "token": tokens[1], "ply": 2, "text": "d9"},
    )
    assert status == 200, answer
    status, resigned = call(web.web, "MatchService/Resign", {"matchId": match_id}, token=tokens[0])
    assert status == 200, resigned
    events, end = watch(web.web, {"matchId": match_id})
    assert end == {}
    on_grpc = [_json(event) for event in events_of(web.address, match_id)]
    assert events == on_grpc
    assert "created" in events[0] and "ended" in events[-1]


def _loads(text: str) -> dict[str, object]:
    value: dict[str, object] = orjson.loads(text)
    return value


def test_the_grpc_door_sees_the_web_doors_match(web: WebServer) -> None:
    status, created = call(web.web, "MatchService/CreateMatch", _json(request("Aronda", 2)))
    assert status == 200, created
    with grpc.insecure_channel(web.address) as channel:
        state = mgrpc.MatchServiceStub(channel).GetMatch(
            mpb.GetMatchRequest(match_id=created["matchId"]), timeout=30
        )
    assert state.match_id == created["matchId"]


def test_replay_streams_the_frames_grpc_streams(web: WebServer) -> None:
    data = (ROOT / "fixtures/invalid/aronda-field-owned.grn").read_bytes()
    asked = spb.ReplayRequest(data=data, encoding=spb.RECORD_ENCODING_GRN)
    answer = requests.post(
        f"{web.web}/gamerec.v1.RecordService/Replay",
        data=envelope(asked.SerializeToString()),
        headers={"content-type": "application/connect+proto"},
        timeout=TIMEOUT,
    )
    frames = list(read_frames(io.BytesIO(answer.content)))
    assert frames[-1].ends and orjson.loads(frames[-1].data) == {}
    with grpc.insecure_channel(web.address) as channel:
        expected = list(spb_grpc.RecordServiceStub(channel).Replay(asked, timeout=30))
    assert [frame.data for frame in frames[:-1]] == [f.SerializeToString() for f in expected]
    assert len(expected) == 6
