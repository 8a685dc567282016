"""The service under faults, each against a real server on 127.0.0.1: a worker process that
dies, a client that disconnects or cancels mid-call, a deadline that passes mid-replay, SIGTERM
with calls in flight, and records past each limit. Every test asserts the status code and the
message the client gets, and that the server goes on serving afterwards."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator

import grpc
import pytest

from gamerec.recorder.limits import DEFAULT_LIMITS
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.validator.judge import validate
from tests.robustness.test_limits import nested, one_record
from tests.service.conftest import ROOT, InProcessServer, ServeProcess


@pytest.fixture(scope="module")
def server() -> Iterator[InProcessServer]:
    """One worker process, every job in it, and room for records just past every limit."""
    running = InProcessServer(workers=1, max_message_bytes=16 * 1024 * 1024)
    yield running
    running.stop()


@pytest.fixture(scope="module")
def stub(server: InProcessServer) -> Iterator[sgrpc.RecordServiceStub]:
    with grpc.insecure_channel(server.address) as channel:
        yield sgrpc.RecordServiceStub(channel)


def failure(call: Callable[[], object]) -> grpc.Call:
    """The error a call ends with (it must end with one)."""
    with pytest.raises(grpc.RpcError) as raised:
        call()
    assert isinstance(raised.value, grpc.Call)
    return raised.value


def still_serving(stub: sgrpc.RecordServiceStub, record: pb.GameRecord) -> None:
    """The server answers a fresh call with the library's verdict."""
    assert stub.Validate(spb.ValidateRequest(record=record), timeout=60) == validate(record)


# -- a worker process that dies ----------------------------------------------------------------


def test_a_worker_killed_under_a_call_fails_it_unavailable_and_the_server_goes_on(
    server: InProcessServer,
    stub: sgrpc.RecordServiceStub,
    long_sowing_game: pb.GameRecord,
    sowing_game: pb.GameRecord,
) -> None:
    (victim,) = server.pool.pids
    running = stub.Validate.future(spb.ValidateRequest(record=long_sowing_game))
    end = time.monotonic() + 30
    while server.pool.running != (victim,) and time.monotonic() < end:
        time.sleep(0.005)
    # Judging the 68,368 plies takes the worker about half a second: it is under way.
    assert server.pool.running == (victim,) and not running.done()
    os.kill(victim, signal.SIGKILL)
    error = failure(running.result)
    assert error.code() == grpc.StatusCode.UNAVAILABLE
    assert error.details() == (
        f"Validate failed: worker process {victim} ended (exit code -9) while running a job; "
        "the server goes on with a new worker, so the call may be tried again"
    )
    (line,) = [c for c in server.log.wait_for("Validate", 1) if c["status"] == "UNAVAILABLE"]
    assert line["method"] == "Validate"
    assert server.pool.pids != (victim,)
    still_serving(stub, sowing_game)


# -- clients that go away ------------------------------------------------------------------------

CLIENT = """
import os, sys, grpc
from gamerec.v1 import record_pb2 as pb, service_pb2 as spb, service_pb2_grpc as sgrpc
record = pb.GameRecord.FromString(sys.stdin.buffer.read())
channel = grpc.insecure_channel(sys.argv[1])
stream = sgrpc.RecordServiceStub(channel).Replay(spb.ReplayRequest(record=record))
for _ in range(3):
    next(stream)
print("reading", flush=True)
sys.stdin.close()
os._exit(0)  # no cancel, no goodbye: the connection just drops
"""


def test_a_client_that_disconnects_mid_stream_is_logged_cancelled_and_the_server_goes_on(
    server: InProcessServer,
    stub: sgrpc.RecordServiceStub,
    long_sowing_game: pb.GameRecord,
    sowing_game: pb.GameRecord,
) -> None:
    before = len(server.log.calls("Replay"))
    client = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(CLIENT), server.address],
        input=long_sowing_game.SerializeToString(),
        capture_output=True,
        timeout=60,
        check=False,
        cwd=ROOT,
    )
    assert (client.returncode, client.stdout) == (0, b"reading\n"), client.stderr
    (line,) = server.log.wait_for("Replay", before + 1, timeout=30)[before:]
    assert line["status"] == "CANCELLED"
    assert line["plies"] < len(long_sowing_game.moves) // 4  # it stopped making frames
    still_serving(stub, sowing_game)


def test_a_client_that_cancels_mid_stream_gets_cancelled(
    server: InProcessServer, stub: sgrpc.RecordServiceStub, long_sowing_game: pb.GameRecord
) -> None:
    stream = stub.Replay(spb.ReplayRequest(record=long_sowing_game))
    assert [next(stream).ply for _ in range(5)] == [1, 2, 3, 4, 5]
    stream.cancel()
    error = failure(lambda: next(stream))
    assert error.code() == grpc.StatusCode.CANCELLED
    assert error.details() == "Locally cancelled by application!"


# -- deadlines -------------------------------------------------------------------------------------


def test_a_deadline_that_passes_mid_replay_stops_the_replay_on_the_server(
    server: InProcessServer, stub: sgrpc.RecordServiceStub, long_sowing_game: pb.GameRecord
) -> None:
    before = len(server.log.calls("Score"))
    error = failure(lambda: stub.Score(spb.ScoreRequest(record=long_sowing_game), timeout=0.2))
    assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    # The server's answer says how far its replay got, unless the client's own timer (which
    # fires at the same moment) ended the call first.
    total = f"of {len(long_sowing_game.moves):,} plies"
    assert total in error.details() or "Deadline Exceeded" in error.details()
    stub.Score(spb.ScoreRequest(record=long_sowing_game), timeout=60)
    late, whole = server.log.wait_for("Score", before + 2)[before:]
    assert (late["status"], whole["status"]) == ("DEADLINE_EXCEEDED", "OK")
    assert late["duration_ms"] < whole["duration_ms"]  # it gave up instead of finishing


def test_a_deadline_that_passes_mid_stream_ends_the_stream(
    stub: sgrpc.RecordServiceStub, long_sowing_game: pb.GameRecord
) -> None:
    # The reader takes at least a millisecond a frame, so the stream of tens of thousands of
    # frames cannot end before the deadline, and ten seconds leave a busy machine time for the
    # first frames.
    frames = 0

    def read_all() -> None:
        nonlocal frames
        for _ in stub.Replay(spb.ReplayRequest(record=long_sowing_game), timeout=10.0):
            frames += 1
            time.sleep(0.001)

    error = failure(read_all)
    assert error.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert 0 < frames < len(long_sowing_game.moves)


# -- SIGTERM with calls in flight ------------------------------------------------------------------


@pytest.mark.parametrize("processes", ["1", "2"])
def test_after_sigterm_calls_in_flight_finish_and_new_calls_are_refused(
    serve_process: Callable[..., ServeProcess], sowing_game: pb.GameRecord, processes: str
) -> None:
    server = serve_process("--processes", processes, "--workers", "1", "--grace", "60")
    with grpc.insecure_channel(server.address) as channel:
        stream = sgrpc.RecordServiceStub(channel).Replay(spb.ReplayRequest(record=sowing_game))
        assert next(stream).ply == 1  # under way, and held open by this slow reader
        server.process.send_signal(signal.SIGTERM)
        refused, answered = refusal_after_sigterm(server.address, sowing_game)
        # Refused at the door (no listener: UNAVAILABLE), or taken by gRPC while the server
        # was closing and cancelled unprocessed (CANCELLED), or, on a heavily loaded machine,
        # left waiting on a connection the closing server accepted until the call's own
        # deadline (DEADLINE_EXCEEDED); never judged in any case (the log, below).
        assert refused.code() in {
            grpc.StatusCode.UNAVAILABLE,
            grpc.StatusCode.CANCELLED,
            grpc.StatusCode.DEADLINE_EXCEEDED,
        }, (refused.code(), refused.details())
        if refused.code() == grpc.StatusCode.UNAVAILABLE:
            assert "failed to connect" in refused.details().lower()
        if refused.code() == grpc.StatusCode.CANCELLED:
            assert refused.details() == "CANCELLED"
        rest = sum(1 for _ in stream)
    assert 1 + rest == len(sowing_game.moves)
    assert server.process.wait(timeout=60) == 0
    events = [line["event"] for line in server.lines if "event" in line]
    assert events == ["listening", "stopping", "stopped"]
    (replayed,) = [line for line in server.lines if line.get("method") == "Replay"]
    assert replayed["status"] == "OK" and replayed["plies"] == len(sowing_game.moves)
    # Calls made before the server took in the signal were judged; the refused one was not.
    judged = [line["status"] for line in server.lines if line.get("method") == "Validate"]
    assert judged == ["OK"] * answered


def refusal_after_sigterm(address: str, record: pb.GameRecord) -> tuple[grpc.Call, int]:
    """The error of the first new call (each on a new channel) that the server refuses after
    SIGTERM, and how many were answered before it (those the signal had not yet reached)."""
    end = time.monotonic() + 30
    answered = 0
    while time.monotonic() < end:
        with grpc.insecure_channel(address) as channel:
            try:
                sgrpc.RecordServiceStub(channel).Validate(
                    spb.ValidateRequest(record=record), timeout=5
                )
                answered += 1
            except grpc.RpcError as error:
                assert isinstance(error, grpc.Call)
                return error, answered
        time.sleep(0.05)
    raise AssertionError("the server still took new calls 30 s after SIGTERM")


# -- records past each limit -------------------------------------------------------------------


def past_each_limit() -> dict[str, tuple[pb.GameRecord, str]]:
    """A record just past each default limit, and the words its refusal must hold."""
    limits = DEFAULT_LIMITS
    plies = one_record(1)
    plies.moves.extend(pb.Move() for _ in range(limits.max_plies))
    moves = one_record(1)
    moves.moves[0].variations.add().moves.extend(pb.Move() for _ in range(limits.max_moves))
    tags = one_record()
    for number in range(limits.max_tags + 1):
        tags.metadata.extra_tags[f"Tag{number}"] = "x"
    tag_chars = one_record()
    tag_chars.metadata.event = "E" * (limits.max_tag_chars + 1)
    seats = one_record()
    for number in range(limits.max_seats - 1):
        seats.seats.add(name=f"Seat {number}")
    comment = one_record()
    comment.moves[1].comment = "c" * (limits.max_comment_chars + 1)
    return {
        "plies": (plies, f"more than the limit of {limits.max_plies:,} (limit plies)"),
        "moves": (moves, f"more than the limit of {limits.max_moves:,} (limit moves)"),
        "variation-depth": (
            nested(limits.max_variation_depth + 1),
            f"more than the limit of {limits.max_variation_depth} (limit variation-depth)",
        ),
        "tags": (tags, f"more than the limit of {limits.max_tags:,} (limit tags)"),
        "tag-chars": (
            tag_chars,
            f"more than the limit of {limits.max_tag_chars:,} (limit tag-chars)",
        ),
        "seats": (seats, f"more than the limit of {limits.max_seats} (limit seats)"),
        "comment-chars": (
            comment,
            f"more than the limit of {limits.max_comment_chars:,} (limit comment-chars)",
        ),
    }


PAST = past_each_limit()


@pytest.mark.parametrize("form", ["data", "record"])
@pytest.mark.parametrize("limit", sorted(PAST))
def test_a_record_past_a_limit_is_invalid_argument_naming_the_limit(
    server: InProcessServer, limit: str, form: str
) -> None:
    record, words = PAST[limit]
    # Sent as bytes: a Python client cannot even build a request holding variations nested so
    # deep (protobuf refuses to copy it); a client in another language can.
    field = spb.ValidateRequest.DESCRIPTOR.fields_by_name[form].number
    payload = record.SerializeToString()
    request = encode_varint(field << 3 | 2) + encode_varint(len(payload)) + payload
    with grpc.insecure_channel(server.address) as channel:
        call: grpc.UnaryUnaryMultiCallable[bytes, bytes]
        call = channel.unary_unary("/gamerec.v1.RecordService/Validate")
        error = failure(lambda: call(request, timeout=60))
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    if limit == "variation-depth":
        words = "the limit variation-depth"
    assert words in error.details(), error.details()
