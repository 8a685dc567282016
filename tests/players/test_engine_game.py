"""Whole games between engine processes, refereed ply by ply: every record validates.

The built-in policies play every game and seat count as ``gamerec engine`` processes (six
processes, started once, play eleven games one after another); engines that crash, hang,
answer garbage or an illegal move forfeit with the termination docs/engine-protocol.md gives,
and the records still validate.
"""

from __future__ import annotations

import asyncio

import pytest

from gamerec.recorder.codecs import Encoding, decode_record, encode_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.judge import validate
from gamerec.validator.players.engine_game import EngineGame, play_engine_game
from gamerec.validator.players.faults import FaultCode
from gamerec.validator.players.host import EngineProcess
from tests.players.engines import is_reaped, policy, run_clean, scripted

#: Seeds of four random engines whose game of Oh-Wah-Ree (4 seats, Direction ccw) runs into a
#: cycle of forced moves at ply 175 (found by replaying the seats' choices in-process).
CYCLING_SEEDS = (60, 61, 62, 63)

# (game, variant, seats by engine: r = random (by CYCLING_SEEDS), g = greedy)
MATRIX: tuple[tuple[str, dict[str, str], str], ...] = (
    ("ONE", {"Players": "2"}, "g0 r0"),
    ("ONE", {"Players": "3"}, "r0 g0 r1"),
    ("ONE", {"Players": "4"}, "g0 r0 g1 r1"),
    ("ONE", {"Players": "5"}, "r0 g0 r1 g1 r2"),
    ("ONE", {"Players": "6"}, "g0 r0 g1 r1 r2 r3"),
    ("Aronda", {}, "r0 g0"),
    ("Oust", {}, "g0 r0"),
    ("Oh-Wah-Ree", {"Players": "2"}, "r0 g1"),
    ("Oh-Wah-Ree", {"Players": "3"}, "g0 r0 g1"),
    ("Oh-Wah-Ree", {"Players": "4"}, "r0 g0 r1 g1"),
    ("Oh-Wah-Ree", {"Players": "4", "Direction": "ccw"}, "r0 r1 r2 r3"),
)


def _round_trips(record: pb.GameRecord) -> bool:
    return decode_record(encode_record(record, Encoding.GRN), Encoding.GRN) == record


def test_the_built_in_policies_play_every_game_and_seat_count() -> None:
    async def scenario() -> list[EngineGame]:
        commands = [policy("random", seed) for seed in CYCLING_SEEDS]
        commands += [policy("greedy", seed) for seed in (1, 2)]
        started = await asyncio.gather(*(EngineProcess.start(command) for command in commands))
        pool = {f"r{index}": engine for index, engine in enumerate(started[:4])}
        pool |= {f"g{index}": engine for index, engine in enumerate(started[4:])}
        try:
            return [
                await play_engine_game(
                    [pool[seat] for seat in seats.split()], game, variant, event="matrix"
                )
                for game, variant, seats in MATRIX
            ]
        finally:
            await asyncio.gather(*(engine.stop() for engine in started))

    played = run_clean(scenario)
    for (game, variant, seats), outcome in zip(MATRIX, played, strict=True):
        record = outcome.record
        verdict = validate(record)
        assert verdict.valid, (game, variant, list(verdict.errors))
        assert outcome.forfeit is None and _round_trips(record)
        names = [seat.name for seat in record.seats]
        assert names == [
            f"gamerec {'greedy' if seat[0] == 'g' else 'random'} (seed "
            f"{CYCLING_SEEDS[int(seat[1])] if seat[0] == 'r' else int(seat[1]) + 1})"
            for seat in seats.split()
        ]
        greedy = {index + 1 for index, seat in enumerate(seats.split()) if seat[0] == "g"}
        for move in record.moves:
            assert ("[%eval " in move.comment) == (move.seat in greedy), (game, move)
        if outcome.stopped:
            continue
        assert verdict.status == vpb.GAME_STATUS_FINISHED
        assert record.result.termination == pb.TERMINATION_NORMAL
        assert list(record.result.scores.values) == list(verdict.result.scores)
    cycling = played[-1]
    assert cycling.stopped == (
        "Stopped by the referee after ply 175: the position came back and every ply since was "
        "forced, so the game would repeat for ever."
    )
    assert cycling.record.result.termination == pb.TERMINATION_ADJUDICATED
    assert not cycling.record.result.winners
    assert cycling.record.comment == cycling.stopped


def _forfeit_game(
    commands: list[list[str]], variant: dict[str, str], move_time_ms: int = 20_000
) -> tuple[EngineGame, list[int], list[bool]]:
    async def scenario() -> tuple[EngineGame, list[int], list[bool]]:
        engines = await asyncio.gather(*(EngineProcess.start(command) for command in commands))
        try:
            played = await play_engine_game(engines, "ONE", variant, move_time_ms=move_time_ms)
            running = [engine.running for engine in engines]
        finally:
            await asyncio.gather(*(engine.stop() for engine in engines))
        return played, [engine.pid for engine in engines], running

    return run_clean(scenario)


SMALL = {"Players": "2", "Board": "6,6"}


def test_an_illegal_move_forfeits_by_adjudication_and_the_engine_keeps_running() -> None:
    played, pids, running = _forfeit_game(
        [scripted('printf "move a1\\n"'), scripted('printf "move a2\\n"')], SMALL
    )
    forfeit = played.forfeit
    assert forfeit is not None
    assert (forfeit.seat, forfeit.ply, forfeit.termination) == (1, 3, "adjudicated")
    assert (forfeit.fault.code, forfeit.fault.reason) == (FaultCode.ILLEGAL_MOVE, "OCCUPIED")
    record = played.record
    assert [move.seat for move in record.moves] == [1, 2]
    assert record.result.termination == pb.TERMINATION_ADJUDICATED
    assert list(record.result.winners) == [2]
    assert record.comment.startswith(
        "Seat 1 (scripted) forfeits at ply 3: ILLEGAL_MOVE during go on ply 3: the move a1 is "
        "illegal: OCCUPIED: "
    )
    assert validate(record).valid
    assert running == [True, True]  # an illegal move leaves the engine in step
    assert all(is_reaped(pid) for pid in pids)


def test_an_engine_that_crashes_abandons_the_game() -> None:
    played, pids, running = _forfeit_game(
        [scripted('printf "move a1\\n"'), scripted('echo "out of memory" >&2; exit 9')], SMALL
    )
    forfeit = played.forfeit
    assert forfeit is not None
    assert (forfeit.seat, forfeit.ply, forfeit.termination) == (2, 2, "abandoned")
    assert (forfeit.fault.exit_status, forfeit.fault.stderr_tail) == (9, ("out of memory",))
    assert played.record.result.termination == pb.TERMINATION_ABANDONED
    assert list(played.record.result.winners) == [1]
    assert validate(played.record).valid
    assert running == [True, False]
    assert all(is_reaped(pid) for pid in pids)


def test_an_engine_that_hangs_loses_on_time_and_adjudication_agrees() -> None:
    played, pids, _ = _forfeit_game(
        [scripted("sleep 30"), scripted('printf "move a2\\n"')], SMALL, move_time_ms=300
    )
    forfeit = played.forfeit
    assert forfeit is not None
    assert (forfeit.seat, forfeit.ply, forfeit.termination) == (1, 1, "timeout")
    assert forfeit.fault.code is FaultCode.TIMEOUT
    record = played.record
    assert (len(record.moves), record.result.termination) == (0, pb.TERMINATION_TIMEOUT)
    verdict = validate(record)
    assert verdict.valid
    assert list(verdict.result.winners) == list(record.result.winners) == [2]  # as claimed
    ruling = adjudicate(record)
    assert ruling.decision == vpb.DECISION_CONFIRMED
    assert list(ruling.result.winners) == [2]
    assert all(is_reaped(pid) for pid in pids)


def test_garbage_forfeits_by_adjudication() -> None:
    played, _, running = _forfeit_game(
        [scripted('printf "move a1\\n"'), scripted('printf "I resign, good game\\n"')], SMALL
    )
    assert played.forfeit is not None
    assert played.forfeit.fault.code is FaultCode.PROTOCOL
    assert played.record.result.termination == pb.TERMINATION_ADJUDICATED
    assert list(played.record.result.winners) == [1]
    assert running == [True, False]


def test_with_three_seats_the_others_keep_the_standing_of_the_position() -> None:
    played, _, _ = _forfeit_game(
        [
            scripted('printf "move a1\\n"'),
            scripted('printf "move a3\\n"'),
            scripted("exit 1"),
        ],
        {"Players": "3", "Board": "6,6"},
    )
    assert played.forfeit is not None and played.forfeit.seat == 3
    record = played.record
    assert list(record.result.winners) == [1, 2]  # one stone each: a shared lead
    assert record.result.termination == pb.TERMINATION_ABANDONED
    assert validate(record).valid


def test_an_engine_that_does_not_play_the_variant_forfeits_before_the_first_ply() -> None:
    refuse = 'printf "error 6,6 boards only\\n"'
    played, _, running = _forfeit_game(
        [scripted(), scripted(on_newgame=refuse)], {"Players": "2", "Board": "10,10"}
    )
    forfeit = played.forfeit
    assert forfeit is not None
    assert (forfeit.seat, forfeit.ply, forfeit.fault.code) == (2, 0, FaultCode.REFUSED)
    assert forfeit.sentence() == (
        "Seat 2 (scripted) forfeits before the first ply: GAME_REFUSED during newgame: the "
        "engine refused the game: 6,6 boards only"
    )
    assert validate(played.record).valid
    assert running == [True, True]


def test_the_referee_stops_a_game_at_the_ply_limit() -> None:
    async def scenario() -> EngineGame:
        engines = await asyncio.gather(*(EngineProcess.start(policy()) for _ in range(2)))
        try:
            return await play_engine_game(engines, "ONE", SMALL, max_plies=4)
        finally:
            await asyncio.gather(*(engine.stop() for engine in engines))

    played = run_clean(scenario)
    assert played.stopped == "Stopped by the referee after ply 4: the game's limit of 4."
    assert len(played.record.moves) == 4
    assert played.record.result.termination == pb.TERMINATION_ADJUDICATED
    assert validate(played.record).valid


def test_one_process_per_seat() -> None:
    async def scenario() -> None:
        engine = await EngineProcess.start(scripted())
        try:
            with pytest.raises(ValueError, match="every seat needs an engine process of its own"):
                await play_engine_game([engine, engine], "ONE", SMALL)
            with pytest.raises(ValueError, match="the game has 2 seats, but 1 players were given"):
                await play_engine_game([engine], "ONE", SMALL)
        finally:
            await engine.stop()

    run_clean(scenario)
