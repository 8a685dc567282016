"""Deadlines and cancellation: checked inside long replays, in the library and the service."""

from __future__ import annotations

import asyncio
import re
import time
from itertools import islice
from pathlib import Path

import grpc
import pytest

from gamerec.recorder.codecs import read_records
from gamerec.recorder.errors import DeadlineExceededError
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.validator import deadline as deadline_module
from gamerec.validator.deadline import PLIES_PER_CHECK, PacedMoves
from gamerec.validator.frames import replay
from gamerec.validator.games import engine
from gamerec.validator.identity import identify
from gamerec.validator.judge import validate
from gamerec.validator.moves import reader_for
from gamerec.validator.service import work
from gamerec.validator.service.pool import WorkerPool
from tests.service.conftest import GAMES, InProcessServer

# -- the library --------------------------------------------------------------------------------


@pytest.mark.parametrize("game_file", ["one-3p", "aronda", "oust-side7", "ohwahree-3p"])
def test_every_engine_reads_its_moves_through_the_paced_list(game_file: str) -> None:
    (record,) = read_records(str(GAMES[0].with_name(f"{game_file}.grn")))
    identity = identify(record)
    read = reader_for(identity).engine_moves(record.moves)
    found = engine(identity.name)
    plain = found.replay(identity.variant, read.moves, read.seats)
    paced = found.replay(identity.variant, PacedMoves(read.moves, time.monotonic() + 60))
    assert (paced.plies, paced.state.digest()) == (plain.plies, plain.state.digest())
    with pytest.raises(DeadlineExceededError):
        found.replay(identity.variant, PacedMoves(read.moves, time.monotonic() - 1))


def test_a_deadline_stops_the_engine_replay_in_the_middle(
    long_sowing_game: pb.GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A clock that moves one second per look, so the stop does not depend on how long the
    # engine's tables take to build on a busy machine: the deadline passes at the sixth look
    # (the replay looks at the first move a few times, then at every 1,024th).
    identity = identify(long_sowing_game)
    moves = reader_for(identity).engine_moves(long_sowing_game.moves).moves
    monkeypatch.setattr(deadline_module, "time", TickingClock())
    with pytest.raises(DeadlineExceededError) as late:
        identity.engine.replay(identity.variant, PacedMoves(moves, 5.5))
    plies = int(late.value.done.split(" of ")[0].replace(",", ""))
    assert 0 < plies < len(moves) and plies % PLIES_PER_CHECK == 0


def test_validate_with_a_generous_deadline_is_the_plain_verdict(
    long_sowing_game: pb.GameRecord,
) -> None:
    verdict = validate(long_sowing_game, deadline=time.monotonic() + 120)
    assert verdict.valid and verdict == validate(long_sowing_game)
    with pytest.raises(DeadlineExceededError):
        validate(long_sowing_game, deadline=time.monotonic() + 0.01)


class TickingClock:
    """A monotonic clock that moves one second each time it is read (no real time involved)."""

    def __init__(self) -> None:
        self.now = 0.0

    def monotonic(self) -> float:
        self.now += 1.0
        return self.now


def test_replay_checks_its_deadline_between_frames(
    sowing_game: pb.GameRecord, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A fake clock, so the answer does not depend on how busy the machine is: the deadline
    # passes after a fixed number of looks at the clock, and frames come between the looks.
    clock = TickingClock()
    monkeypatch.setattr(deadline_module, "time", clock)
    frames = replay(sowing_game, deadline=20.5)
    produced = 0
    with pytest.raises(DeadlineExceededError):
        for _ in frames:
            produced += 1
    assert 0 < produced < len(sowing_game.moves)
    assert clock.now == 21.0  # it stopped at the first look past the deadline


@pytest.mark.parametrize("path", GAMES[::3], ids=[p.stem for p in GAMES[::3]])
def test_replay_from_a_later_ply_gives_the_same_frames(path: Path) -> None:
    (record,) = read_records(str(path))
    every = list(replay(record))
    for start in (1, len(every) // 2, len(every) - 1, len(every)):
        assert list(replay(record, start=start)) == every[start:]
        assert list(islice(replay(record, start=start), 5)) == every[start : start + 5]


# -- the worker jobs ----------------------------------------------------------------------------


def test_a_job_past_its_deadline_answers_deadline_exceeded_from_inside_the_replay(
    long_sowing_game: pb.GameRecord,
) -> None:
    request = spb.ValidateRequest(record=long_sowing_game).SerializeToString()
    answer = work.run_unary("Validate", request, time.monotonic() + 0.08)
    assert answer.status == work.DEADLINE_EXCEEDED
    assert re.fullmatch(r"deadline exceeded after [\d,]+ of 68,368 plies", answer.problem)


def test_a_long_grn_decode_stops_at_the_deadline() -> None:
    # 300,000 comments: seconds to decode on any machine; the job gives up at its deadline
    # instead of decoding on (and keeping a worker busy) after the caller stopped waiting.
    data = b'[Game "Oust"]\n\n1. g7 ' + b"{x}" * 300_000 + b" *\n"
    request = spb.ValidateRequest(data=data, encoding=spb.RECORD_ENCODING_GRN)
    answer = work.run_unary("Validate", request.SerializeToString(), time.monotonic() + 0.05)
    assert answer.status == work.DEADLINE_EXCEEDED
    expected = r"deadline exceeded after [\d,]+ tokens of a GRN record read"
    assert re.fullmatch(expected, answer.problem)


def test_runs_of_plain_plies_between_comments_still_look_at_the_deadline() -> None:
    # Each run of plain plies is read at once and the tokens restart after it: the clock is
    # looked at on every restart, so plies and comments in turn cannot slip past a deadline.
    plies = " ".join(f"{n}. {'g7' if n % 2 else 'h7'} {{x}}" for n in range(1, 200))
    data = f'[Game "Oust"]\n\n{plies} *\n'.encode()
    request = spb.ValidateRequest(data=data, encoding=spb.RECORD_ENCODING_GRN)
    answer = work.run_unary("Validate", request.SerializeToString(), time.monotonic() - 1)
    assert answer.status == work.DEADLINE_EXCEEDED
    assert re.fullmatch(
        r"deadline exceeded after [\d,]+ tokens of a GRN record read", answer.problem
    )


# -- through the server -------------------------------------------------------------------------


def test_a_tiny_deadline_on_a_long_record_is_deadline_exceeded_and_a_generous_one_is_judged(
    stub: sgrpc.RecordServiceStub, server: InProcessServer, long_sowing_game: pb.GameRecord
) -> None:
    request = spb.ValidateRequest(data=long_sowing_game.SerializeToString())
    before = len(server.log.calls("Validate"))
    with pytest.raises(grpc.RpcError) as raised:
        stub.Validate(request, timeout=0.05)
    assert isinstance(raised.value, grpc.Call)
    assert raised.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    verdict = stub.Validate(request, timeout=60)
    assert verdict.valid and verdict.plies_replayed == len(long_sowing_game.moves)
    late, judged = server.log.wait_for("Validate", before + 2)[before:]
    assert late["status"] == "DEADLINE_EXCEEDED" and judged["status"] == "OK"
    assert late["duration_ms"] < judged["duration_ms"]


def test_a_replay_stream_past_its_deadline_stops(
    stub: sgrpc.RecordServiceStub, server: InProcessServer, sowing_game: pb.GameRecord
) -> None:
    before = len(server.log.calls("Replay"))
    received = 0
    with pytest.raises(grpc.RpcError) as raised:
        for _ in stub.Replay(spb.ReplayRequest(record=sowing_game), timeout=0.15):
            received += 1
    assert isinstance(raised.value, grpc.Call)
    assert raised.value.code() == grpc.StatusCode.DEADLINE_EXCEEDED
    assert received < len(sowing_game.moves)
    # The server's side of the call ends a moment after the client's.
    (line,) = server.log.wait_for("Replay", before + 1)[before:]
    assert line["status"] == "DEADLINE_EXCEEDED" and line["plies"] < len(sowing_game.moves)


def test_a_cancelled_replay_stops_producing_frames(
    stub: sgrpc.RecordServiceStub, server: InProcessServer, long_sowing_game: pb.GameRecord
) -> None:
    # 68,368 frames take seconds to make: far more than the transport buffers ahead.
    before = len(server.log.calls("Replay"))
    stream = stub.Replay(spb.ReplayRequest(record=long_sowing_game))
    assert [next(stream).ply for _ in range(3)] == [1, 2, 3]
    stream.cancel()
    (line,) = server.log.wait_for("Replay", before + 1, timeout=30)[before:]
    assert line["status"] == "CANCELLED" and line["verdict"] == ""
    assert line["plies"] < len(long_sowing_game.moves) // 2


def test_a_cancelled_call_stops_waiting(
    stub: sgrpc.RecordServiceStub, server: InProcessServer, long_sowing_game: pb.GameRecord
) -> None:
    before = len(server.log.calls("Score"))
    future = stub.Score.future(spb.ScoreRequest(record=long_sowing_game))
    time.sleep(0.1)
    assert future.cancel()
    (line,) = server.log.wait_for("Score", before + 1)[before:]
    assert line["status"] == "CANCELLED"
    assert line["duration_ms"] < 5_000


def test_inline_and_worker_jobs_answer_alike(sowing_game: pb.GameRecord) -> None:
    request = spb.ValidateRequest(record=sowing_game).SerializeToString()

    async def both() -> tuple[work.Answer, work.Answer]:
        with WorkerPool(1, inline_bytes=0) as pooled:
            in_worker = await pooled.unary("Validate", request, None)
        with WorkerPool(1, inline_bytes=len(request)) as inline:
            on_loop = await inline.unary("Validate", request, None)
        return in_worker, on_loop

    in_worker, on_loop = asyncio.run(both())
    assert in_worker == on_loop
    assert in_worker.status == work.OK and in_worker.verdict == "valid"
