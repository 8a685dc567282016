"""The worker pool: jobs over pipes, dead workers replaced, bugs reported, cancellation."""

from __future__ import annotations

import asyncio
import os
import signal

import pytest

from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.judge import validate
from gamerec.validator.service import work
from gamerec.validator.service.pool import JobFailedError, WorkerLostError, WorkerPool


def validate_request(record: pb.GameRecord) -> bytes:
    return spb.ValidateRequest(record=record).SerializeToString()


def test_many_jobs_at_once_get_their_own_answers(sowing_game: pb.GameRecord) -> None:
    records = [
        pb.GameRecord(rules=sowing_game.rules, moves=sowing_game.moves[:n]) for n in range(1, 40)
    ]

    async def run_all() -> list[work.Answer]:
        with WorkerPool(2, inline_bytes=0) as pool:
            return await asyncio.gather(
                *(pool.unary("Validate", validate_request(record), None) for record in records)
            )

    answers = asyncio.run(run_all())
    for record, answer in zip(records, answers, strict=True):
        assert answer.status == work.OK
        assert vpb.Verdict.FromString(answer.payload) == validate(record)


def test_a_worker_that_dies_fails_its_call_and_is_replaced(
    long_sowing_game: pb.GameRecord, sowing_game: pb.GameRecord
) -> None:
    async def scenario() -> tuple[BaseException | None, work.Answer, tuple[int, ...], int]:
        with WorkerPool(1, inline_bytes=0) as pool:
            (victim,) = pool.pids
            running = asyncio.ensure_future(
                pool.unary("Validate", validate_request(long_sowing_game), None)
            )
            await asyncio.sleep(0.2)  # the job is under way in the worker
            os.kill(victim, signal.SIGKILL)
            failure = None
            try:
                await running
            except WorkerLostError as error:
                failure = error
            after = await pool.unary("Validate", validate_request(sowing_game), None)
            return failure, after, pool.pids, victim

    failure, after, pids, victim = asyncio.run(scenario())
    assert isinstance(failure, WorkerLostError) and str(victim) in str(failure)
    assert after.status == work.OK and after.verdict == "valid"
    assert len(pids) == 1 and pids != (victim,)


def test_a_job_that_raises_fails_its_call_with_the_workers_traceback() -> None:
    async def scenario() -> tuple[str, work.Answer]:
        with WorkerPool(1, inline_bytes=0) as pool:
            with pytest.raises(JobFailedError) as failed:
                await pool.unary("NoSuchMethod", b"any request", None)
            after = await pool.unary("Validate", validate_request(pb.GameRecord()), None)
            return str(failed.value), after

    message, after = asyncio.run(scenario())
    assert "KeyError: 'NoSuchMethod'" in message and "Traceback" in message
    assert after.status == work.OK  # the worker goes on


def test_a_cancelled_waiting_job_is_dropped_and_the_pool_goes_on(
    long_sowing_game: pb.GameRecord, sowing_game: pb.GameRecord
) -> None:
    async def scenario() -> tuple[bool, work.Answer, work.Answer]:
        with WorkerPool(1, inline_bytes=0) as pool:
            busy = asyncio.ensure_future(
                pool.unary("Validate", validate_request(long_sowing_game), None)
            )
            waiting = asyncio.ensure_future(
                pool.unary("Validate", validate_request(long_sowing_game), None)
            )
            await asyncio.sleep(0.05)
            waiting.cancel()
            first = await busy
            after = await pool.unary("Validate", validate_request(sowing_game), None)
            return waiting.cancelled(), first, after

    cancelled, first, after = asyncio.run(scenario())
    assert cancelled
    assert first.verdict == "valid" and first.plies == len(long_sowing_game.moves)
    assert after.status == work.OK and after.plies == len(sowing_game.moves)


def test_closing_the_pool_ends_every_worker() -> None:
    pool = WorkerPool(2)
    pids = pool.pids
    pool.close()
    for pid in pids:
        with pytest.raises(ProcessLookupError):
            os.kill(pid, 0)
