"""Every RPC of RecordService through a real server on 127.0.0.1: the answers are the library's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import grpc
import pytest
from google.rpc import error_details_pb2  # type: ignore[import-untyped]
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc
from grpc_status import rpc_status

from gamerec.recorder.codecs import Encoding, decode_record, encode_record, read_records
from gamerec.recorder.errors import RecordMalformedError
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.comparison import compare_records
from gamerec.validator.frames import replay
from gamerec.validator.judge import judge, score, validate
from gamerec.validator.service.work import READ_ENCODINGS
from tests.service.conftest import BROKEN, GAMES, INVALID, TEST_MAX_MESSAGE_BYTES, InProcessServer

ENCODING_OF_SUFFIX = {
    ".grn": spb.RECORD_ENCODING_GRN,
    ".json": spb.RECORD_ENCODING_JSON,
    ".pb": spb.RECORD_ENCODING_BINARY,
}


def only_record(path: Path) -> pb.GameRecord:
    (record,) = read_records(str(path))
    return record


def bad_request(error: grpc.RpcError) -> error_details_pb2.BadRequest:
    """The BadRequest detail of an INVALID_ARGUMENT error."""
    assert isinstance(error, grpc.Call)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT, error.details()
    status = rpc_status.from_call(error)
    assert status is not None
    (detail,) = status.details
    found = error_details_pb2.BadRequest()
    assert detail.Unpack(found)
    return found


def violation(error: grpc.RpcError) -> tuple[str, str]:
    (only,) = bad_request(error).field_violations
    return only.field, only.description


# -- Validate ---------------------------------------------------------------------------------


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_validate_a_complete_game_as_grn_bytes_gives_the_library_verdict(
    stub: sgrpc.RecordServiceStub, path: Path
) -> None:
    record = only_record(path)
    data = path.read_bytes()
    verdict = stub.Validate(spb.ValidateRequest(data=data, encoding=spb.RECORD_ENCODING_GRN))
    assert verdict.valid, list(verdict.errors)
    assert verdict == validate(record)
    assert verdict.plies_replayed == len(record.moves)


def test_validate_takes_a_message_or_sniffed_binary_or_json_alike(
    stub: sgrpc.RecordServiceStub,
) -> None:
    record = only_record(GAMES[0])
    expected = validate(record)
    as_message = stub.Validate(spb.ValidateRequest(record=record))
    as_binary = stub.Validate(spb.ValidateRequest(data=record.SerializeToString()))
    as_json = stub.Validate(spb.ValidateRequest(data=encode_record(record, Encoding.JSON)))
    assert as_message == as_binary == as_json == expected


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_validate_an_invalid_record_is_a_verdict_naming_its_code_and_ply(
    stub: sgrpc.RecordServiceStub, path: Path
) -> None:
    record = only_record(path)
    tags = record.metadata.extra_tags
    verdict = stub.Validate(spb.ValidateRequest(data=path.read_bytes()))
    assert not verdict.valid
    assert verdict.errors[0].code == tags["ExpectedCode"]
    assert verdict.errors[0].ply == int(tags["ExpectedPly"])
    assert verdict == validate(record)


# -- Replay -----------------------------------------------------------------------------------


@pytest.mark.parametrize("path", GAMES, ids=[p.stem for p in GAMES])
def test_replay_streams_one_frame_per_ply_equal_to_the_library_frames(
    stub: sgrpc.RecordServiceStub, path: Path
) -> None:
    record = only_record(path)
    frames = list(stub.Replay(spb.ReplayRequest(record=record)))
    assert len(frames) == len(record.moves)
    assert frames == list(replay(record))
    assert not any(frame.HasField("error") for frame in frames)


@pytest.mark.parametrize("path", INVALID, ids=[p.name for p in INVALID])
def test_replay_of_an_invalid_record_ends_with_a_frame_holding_the_finding(
    stub: sgrpc.RecordServiceStub, path: Path
) -> None:
    record = only_record(path)
    first = validate(record).errors[0]
    frames = list(stub.Replay(spb.ReplayRequest(record=record)))
    if first.ply == 0 and validate(record).status != vpb.GAME_STATUS_NOT_REPLAYED:
        # A finding about the claimed result: every ply is legal, so every frame is there.
        assert len(frames) == len(record.moves)
        assert not frames[-1].HasField("error")
        return
    *legal, last = frames
    assert [frame.ply for frame in legal] == list(range(1, first.ply))
    assert last.error == first
    assert (last.ply, last.seat, last.move) == (first.ply, first.seat, first.move)
    assert not last.HasField("position")


def test_replay_of_a_long_game_comes_whole_through_many_pieces(
    stub: sgrpc.RecordServiceStub, sowing_game: pb.GameRecord
) -> None:
    frames = list(stub.Replay(spb.ReplayRequest(record=sowing_game)))
    assert [frame.ply for frame in frames] == list(range(1, len(sowing_game.moves) + 1))
    assert frames[-1].digest == validate(sowing_game).final_digest
    expected = list(replay(sowing_game))
    for ply in (1, 64, 65, 192, 193, 1000, len(expected)):
        assert frames[ply - 1] == expected[ply - 1]


# -- Score, Adjudicate, Diff, Convert ---------------------------------------------------------


@pytest.mark.parametrize(
    "name", ["one-3p.grn", "ohwahree-3p-abandoned.grn", "aronda-timeout.grn", "oust-agreement.grn"]
)
def test_score_and_adjudicate_answer_what_the_library_answers(
    stub: sgrpc.RecordServiceStub, name: str
) -> None:
    record = only_record(GAMES[0].with_name(name))
    assert stub.Score(spb.ScoreRequest(record=record)) == score(record)
    ruling = stub.Adjudicate(spb.AdjudicateRequest(record=record))
    assert ruling == adjudicate(record)
    assert ruling.explanation


def test_adjudicate_voids_an_illegal_record(stub: sgrpc.RecordServiceStub) -> None:
    path = INVALID[0].with_name("one-landing-occupied.grn")
    ruling = stub.Adjudicate(spb.AdjudicateRequest(data=path.read_bytes()))
    assert ruling.decision == vpb.DECISION_VOID


def test_diff_of_two_versions_of_a_game_is_the_library_diff(
    stub: sgrpc.RecordServiceStub,
) -> None:
    left = only_record(GAMES[0].with_name("one-3p.grn"))
    right = pb.GameRecord()
    right.CopyFrom(left)
    right.metadata.event = "another event"
    del right.moves[30:]
    request = spb.DiffRequest(
        left=spb.RecordInput(data=encode_record(left, Encoding.GRN)),
        right=spb.RecordInput(record=right),
    )
    diff = stub.Diff(request)
    assert not diff.same
    assert diff == compare_records(left, right)
    assert diff.divergence.ply == 31
    same = stub.Diff(spb.DiffRequest(left=spb.RecordInput(record=left), right=request.left))
    assert same.same


def test_convert_writes_each_encoding_and_the_record_survives(
    stub: sgrpc.RecordServiceStub,
) -> None:
    record = only_record(GAMES[-1])
    for target, encoding in [
        (spb.RECORD_ENCODING_BINARY, Encoding.PB),
        (spb.RECORD_ENCODING_JSON, Encoding.JSON),
        (spb.RECORD_ENCODING_GRN, Encoding.GRN),
    ]:
        converted = stub.Convert(spb.ConvertRequest(record=record, target=target))
        assert converted.encoding == target
        assert decode_record(converted.data, encoding) == record


def test_convert_without_a_target_names_the_field(stub: sgrpc.RecordServiceStub) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        stub.Convert(spb.ConvertRequest(record=only_record(GAMES[0])))
    field, description = violation(raised.value)
    assert field == "target"
    assert "RECORD_ENCODING_BINARY" in description


# -- LegalMoves -------------------------------------------------------------------------------


def test_legal_moves_are_the_engines_at_the_asked_ply(stub: sgrpc.RecordServiceStub) -> None:
    record = only_record(GAMES[0].with_name("one-3p.grn"))
    answer = stub.LegalMoves(spb.LegalMovesRequest(record=record, ply=10))
    reached = pb.GameRecord(rules=record.rules, seats=record.seats, moves=record.moves[:10])
    judgement = judge(reached)
    assert judgement.state is not None and judgement.identity is not None
    engine, variant = judgement.identity.engine, judgement.identity.variant
    expected = [engine.format_move(variant, move) for move in judgement.state.legal_moves()]
    assert list(answer.moves) == expected
    assert answer.to_move == judgement.state.to_move == record.moves[10].seat
    assert answer.ply == 10 and not answer.game_over


def test_legal_moves_of_oust_list_placements_and_the_swap_of_the_pie_rule(
    stub: sgrpc.RecordServiceStub,
) -> None:
    record = only_record(GAMES[0].parent.parent / "valid" / "oust-e1-pie.grn")
    after_one = stub.LegalMoves(spb.LegalMovesRequest(record=record, ply=1))
    assert after_one.to_move == 2
    assert "swap" in after_one.moves and "g7" not in after_one.moves
    assert "h7" in after_one.moves
    at_start = stub.LegalMoves(spb.LegalMovesRequest(record=record, ply=0))
    assert "swap" not in at_start.moves and len(at_start.moves) == 127


def test_legal_moves_at_the_end_of_a_finished_game(stub: sgrpc.RecordServiceStub) -> None:
    answer = stub.LegalMoves(spb.LegalMovesRequest(record=only_record(GAMES[0])))
    assert answer.game_over and answer.to_move == 0 and not answer.moves


def test_legal_moves_after_an_illegal_ply_is_the_finding(stub: sgrpc.RecordServiceStub) -> None:
    record = only_record(INVALID[0].with_name("one-landing-occupied.grn"))
    answer = stub.LegalMoves(spb.LegalMovesRequest(record=record))
    assert answer.error.code == "LANDING_OCCUPIED" and answer.error.ply == 23
    assert answer.ply == 22 and not answer.moves


def test_legal_moves_past_the_end_names_the_ply_field(stub: sgrpc.RecordServiceStub) -> None:
    record = only_record(GAMES[0])
    with pytest.raises(grpc.RpcError) as raised:
        stub.LegalMoves(spb.LegalMovesRequest(record=record, ply=len(record.moves) + 1))
    field, description = violation(raised.value)
    assert field == "ply"
    assert description == (
        f"ply {len(record.moves) + 1} is past the end of the record ({len(record.moves)} plies)"
    )


# -- requests that cannot be processed --------------------------------------------------------


def test_malformed_grn_is_invalid_argument_naming_data_and_the_place(
    stub: sgrpc.RecordServiceStub,
) -> None:
    data = (BROKEN[0].parent / "bad-coordinate.grn").read_bytes()
    with pytest.raises(grpc.RpcError) as raised:
        stub.Validate(spb.ValidateRequest(data=data, encoding=spb.RECORD_ENCODING_GRN))
    field, description = violation(raised.value)
    assert field == "data"
    assert description == (
        "line 4, column 16: " + "move 'c7x': expected a ONE point such as c7 (a ring letter and an "
        "index) after 'c7x', found nothing"
    )


@pytest.mark.parametrize("path", BROKEN, ids=[p.name for p in BROKEN])
def test_every_broken_fixture_is_invalid_argument_with_the_decoders_words(
    stub: sgrpc.RecordServiceStub, path: Path
) -> None:
    data = path.read_bytes()
    encoding = ENCODING_OF_SUFFIX.get(path.suffix, spb.RECORD_ENCODING_UNSPECIFIED)
    with pytest.raises(RecordMalformedError) as decoding:
        decode_record(data, READ_ENCODINGS[encoding])
    with pytest.raises(grpc.RpcError) as raised:
        stub.Score(spb.ScoreRequest(data=data, encoding=encoding))
    field, description = violation(raised.value)
    assert field == "data"
    assert description.endswith(decoding.value.reason)
    assert decoding.value.where in description


def test_a_request_without_a_record_names_the_record_field(
    stub: sgrpc.RecordServiceStub,
) -> None:
    with pytest.raises(grpc.RpcError) as raised:
        stub.Validate(spb.ValidateRequest())
    assert violation(raised.value) == (
        "record",
        "the request holds no record: set record or data",
    )


def test_an_unknown_encoding_value_names_the_encoding_field(
    stub: sgrpc.RecordServiceStub,
) -> None:
    request = spb.ValidateRequest(data=b'[Game "ONE"]\n', encoding=9)  # type: ignore[arg-type]
    with pytest.raises(grpc.RpcError) as raised:
        stub.Validate(request)
    assert violation(raised.value) == ("encoding", "unknown record encoding 9")


def test_diff_names_the_side_whose_data_is_malformed(stub: sgrpc.RecordServiceStub) -> None:
    good = spb.RecordInput(record=only_record(GAMES[0]))
    bad = spb.RecordInput(data=b'[Game "ONE"]\n\n1. 7c', encoding=spb.RECORD_ENCODING_GRN)
    with pytest.raises(grpc.RpcError) as raised:
        stub.Diff(spb.DiffRequest(left=good, right=bad))
    field, description = violation(raised.value)
    assert field == "right.data" and "7c" in description
    with pytest.raises(grpc.RpcError) as missing:
        stub.Diff(spb.DiffRequest(left=good))
    assert violation(missing.value) == ("right", "the request holds no right record")


def test_a_record_message_past_a_decoders_limit_names_the_record_field(
    stub: sgrpc.RecordServiceStub,
) -> None:
    record = pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE))
    record.moves.extend(pb.Move() for _ in range(100_001))
    with pytest.raises(grpc.RpcError) as raised:
        stub.Validate(spb.ValidateRequest(record=record))
    assert violation(raised.value) == (
        "record",
        "the main line has 100,001 plies, more than the limit of 100,000 (limit plies)",
    )


def test_a_request_past_the_size_limit_is_resource_exhausted(
    stub: sgrpc.RecordServiceStub,
) -> None:
    record = pb.GameRecord(comment="x" * (TEST_MAX_MESSAGE_BYTES + 1))
    with pytest.raises(grpc.RpcError) as raised:
        stub.Validate(spb.ValidateRequest(record=record))
    assert isinstance(raised.value, grpc.Call)
    assert raised.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


def test_a_response_past_the_size_limit_is_resource_exhausted(
    stub: sgrpc.RecordServiceStub,
) -> None:
    # Fits as binary (0.7 MiB), but not once written as indented JSON.
    record = pb.GameRecord(rules=pb.Rules(game=pb.GAME_ONE))
    record.moves.extend(pb.Move(comment="y" * 20) for _ in range(30_000))
    request = spb.ConvertRequest(record=record, target=spb.RECORD_ENCODING_JSON)
    assert request.ByteSize() < TEST_MAX_MESSAGE_BYTES
    with pytest.raises(grpc.RpcError) as raised:
        stub.Convert(request)
    assert isinstance(raised.value, grpc.Call)
    assert raised.value.code() == grpc.StatusCode.RESOURCE_EXHAUSTED


# -- health, reflection, the call log ---------------------------------------------------------


def test_health_says_serving_for_the_server_and_the_record_service(
    channel: grpc.Channel,
) -> None:
    health: Any = health_pb2_grpc.HealthStub(channel)  # the stubs' stub has no methods
    for service in ("", "gamerec.v1.RecordService"):
        answer = health.Check(health_pb2.HealthCheckRequest(service=service))
        assert answer.status == health_pb2.HealthCheckResponse.SERVING


def test_reflection_lists_the_record_service(channel: grpc.Channel) -> None:
    reflection: Any = reflection_pb2_grpc.ServerReflectionStub(channel)
    request = reflection_pb2.ServerReflectionRequest(list_services="")
    (answer,) = reflection.ServerReflectionInfo(iter([request]))
    names = {service.name for service in answer.list_services_response.service}
    assert {"gamerec.v1.RecordService", "grpc.health.v1.Health"} <= names


def test_each_call_writes_one_json_log_line(
    stub: sgrpc.RecordServiceStub, server: InProcessServer
) -> None:
    before = len(server.log.calls("Score"))
    record = only_record(GAMES[0].with_name("one-3p.grn"))
    stub.Score(spb.ScoreRequest(record=record))
    with pytest.raises(grpc.RpcError):
        stub.Score(spb.ScoreRequest(data=b"\xff\xff"))
    lines = server.log.wait_for("Score", before + 2)[before:]
    assert len(lines) == 2
    ok, bad = lines
    assert ok["game"] == "ONE" and ok["plies"] == len(record.moves)
    assert (ok["verdict"], ok["status"]) == ("final", "OK")
    assert ok["peer"].startswith("ipv4:127.0.0.1:") and ok["duration_ms"] > 0
    assert bad["status"] == "INVALID_ARGUMENT" and bad["verdict"].startswith("data: ")
    assert (ok["role"], ok["who"]) == ("record", "")  # an open RecordService: anyone
    assert set(ok) == {
        "time",
        "level",
        "method",
        "peer",
        "role",
        "who",
        "game",
        "plies",
        "verdict",
        "status",
        "duration_ms",
    }
