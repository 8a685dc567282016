"""The host side of the engine protocol against engines that misbehave on purpose.

Every way an engine can fail gives its precise fault (code, phase, ply, sentence, exit status
or signal, last standard error), and no process, zombie or pipe is left behind: each scenario
runs in its own event loop and checks the descriptors of this process before and after, and
that every process it started (the engine and what the engine started) is gone.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from gamerec.validator.players.clocks import ClockState
from gamerec.validator.players.faults import EngineFailedError, EngineFault, FaultCode
from gamerec.validator.players.host import (
    EngineLimits,
    EngineProcess,
    EngineStoppedError,
    running_engine,
)
from tests.players.engines import HELLO, is_reaped, policy, run_clean, scripted, stops_running

QUICK = EngineLimits(handshake_s=10.0, reply_s=10.0, quit_grace_s=1.0, terminate_grace_s=1.0)
ONE = {"Players": "2", "Board": "6,6"}
SHORT_MOVE = ClockState(move_limit_ms=300)
LONG_MOVE = ClockState(move_limit_ms=30_000)


async def _fails_to_start(command: list[str] | str, limits: EngineLimits = QUICK) -> EngineFault:
    with pytest.raises(EngineFailedError) as caught:
        await EngineProcess.start(command, limits=limits)
    return caught.value.fault


async def _fails_at_go(
    command: list[str], clock: ClockState = LONG_MOVE
) -> tuple[EngineFault, int]:
    engine = await EngineProcess.start(command, limits=QUICK)
    try:
        await engine.new_game("ONE", ONE, 1)
        with pytest.raises(EngineFailedError) as caught:
            await engine.go(["a3", "a4"], clock)
    finally:
        await engine.stop()
    return caught.value.fault, engine.pid


def test_the_handshake_gives_who_the_engine_is_and_it_answers_ping() -> None:
    async def scenario() -> tuple[int, int | None]:
        async with running_engine(policy("greedy", seed=3)) as engine:
            identity = engine.identity
            assert identity.name == "gamerec greedy (seed 3)"
            assert identity.author == "the gamerec authors"
            assert identity.protocol == 1
            assert identity.games == (
                ("ONE", ()),
                ("Aronda", ()),
                ("Oust", ()),
                ("Oh-Wah-Ree", ()),
            )
            assert identity.plays("Oust", 2)
            assert await engine.ping() > 0
            pid = engine.pid
        return pid, await engine.stop()

    pid, status = run_clean(scenario)
    assert status == 0  # it left on quit, by itself
    assert is_reaped(pid)


@pytest.mark.parametrize(
    ("command", "message"),
    [
        ("/no/such/engine --fast", "cannot run '/no/such/engine': No such file or directory"),
        ("", "the command is empty"),
        ("./engine 'unclosed", 'cannot read the command line "./engine \'unclosed": No closing'),
    ],
)
def test_an_engine_that_cannot_start_is_not_started(command: str, message: str) -> None:
    fault = run_clean(lambda: _fails_to_start(command))
    assert fault.code is FaultCode.NOT_STARTED
    assert fault.phase == "start"
    assert fault.message.startswith(message)


def test_an_engine_that_exits_during_the_handshake_says_its_status_and_last_words() -> None:
    script = 'read -r line; printf "id name quitter\\n"; echo "no licence found" >&2; exit 5'
    fault = run_clean(lambda: _fails_to_start(["sh", "-c", script]))
    assert fault.code is FaultCode.EXITED
    assert (fault.phase, fault.exit_status, fault.signal) == ("handshake", 5, "")
    assert fault.message == "the engine exited with status 5"
    assert fault.stderr_tail == ("no licence found",)
    assert fault.describe() == (
        "ENGINE_EXITED during handshake: the engine exited with status 5; "
        "its last standard error: 'no licence found'"
    )


def test_an_engine_that_hangs_in_the_handshake_times_out_and_is_stopped_with_its_children(
    tmp_path: Path,
) -> None:
    child = tmp_path / "child"
    script = f"read -r line; sleep 30 & echo $! > {child}; wait"
    limits = EngineLimits(handshake_s=0.5, terminate_grace_s=1.0)
    fault = run_clean(lambda: _fails_to_start(["sh", "-c", script], limits))
    assert fault.code is FaultCode.TIMEOUT
    assert fault.phase == "handshake"
    assert fault.message == "no answer within the handshake deadline of 0.5 s"
    assert stops_running(int(child.read_text()))


@pytest.mark.parametrize(
    ("hello", "message"),
    [
        (
            'read -r line; printf "hello there\\n"',
            "unknown message 'hello' in 'hello there'",
        ),
        (
            'read -r line; printf "id name x\\ngame ONE\\ngepok 2\\n"',
            "the engine speaks protocol version 2; this host speaks 1",
        ),
        (
            'read -r line; printf "game ONE\\ngepok 1\\n"',
            "the handshake ended (gepok) without id name",
        ),
        (
            'read -r line; printf "id name x\\ngame Chess\\ngame Go 2\\ngepok 1\\n"',
            "the engine named no game gamerec knows (it named only 'Chess', 'Go')",
        ),
        (
            'read -r line; printf "id name x\\nready\\n"',
            "'ready' is not a handshake message (id, game, gepok)",
        ),
    ],
)
def test_a_handshake_that_breaks_the_protocol_is_a_protocol_error(hello: str, message: str) -> None:
    fault = run_clean(lambda: _fails_to_start(scripted(hello=hello)))
    assert fault.code is FaultCode.PROTOCOL
    assert fault.phase == "handshake"
    assert fault.message == message


def test_an_engine_that_crashes_on_go_says_its_status_and_stderr() -> None:
    crash = 'printf "Traceback (most recent call last):\\nZeroDivisionError\\n" >&2; exit 3'
    fault, pid = run_clean(lambda: _fails_at_go(scripted(crash)))
    assert fault.code is FaultCode.EXITED
    assert (fault.phase, fault.ply, fault.exit_status) == ("go", 3, 3)
    assert fault.stderr_tail == ("Traceback (most recent call last):", "ZeroDivisionError")
    assert fault.describe().startswith(
        "ENGINE_EXITED during go on ply 3: the engine exited with status 3; its last standard "
        "error: 'Traceback (most recent call last):' | 'ZeroDivisionError'"
    )
    assert is_reaped(pid)


def test_an_engine_killed_by_a_signal_is_named_by_the_signal() -> None:
    fault, pid = run_clean(lambda: _fails_at_go(scripted("kill -SEGV $$")))
    assert fault.code is FaultCode.EXITED
    assert (fault.signal, fault.exit_status) == ("SIGSEGV", None)
    assert fault.message == "the engine was killed by SIGSEGV"
    assert is_reaped(pid)


def test_an_engine_that_hangs_on_go_times_out_and_is_stopped_with_its_children(
    tmp_path: Path,
) -> None:
    child = tmp_path / "child"
    hang = f"sleep 30 & echo $! > {child}; wait"
    fault, pid = run_clean(lambda: _fails_at_go(scripted(hang), SHORT_MOVE))
    assert fault.code is FaultCode.TIMEOUT
    assert (fault.phase, fault.ply) == ("go", 3)
    assert fault.message == "no answer within 300 ms and a margin of 200"
    assert is_reaped(pid)
    assert stops_running(int(child.read_text()))


def test_an_engine_that_ignores_quit_and_sigterm_is_killed() -> None:
    stubborn = f"trap '' TERM; {HELLO}; while :; do sleep 0.1; done"
    limits = EngineLimits(quit_grace_s=0.2, terminate_grace_s=0.2)

    async def scenario() -> tuple[int, int | None]:
        engine = await EngineProcess.start(["sh", "-c", stubborn], limits=limits)
        return engine.pid, await engine.stop()

    pid, status = run_clean(scenario)
    assert status == -9
    assert is_reaped(pid)


@pytest.mark.parametrize(
    ("answer", "message", "line"),
    [
        (
            'printf "bestmove e2e4\\n"',
            "unknown message 'bestmove' in 'bestmove e2e4'",
            "bestmove e2e4",
        ),
        ('printf "ready\\n"', "expected info or move after go, got 'ready'", "ready"),
        (
            'printf "move \\377\\n"',
            "a line that is not UTF-8 text (byte 6): \"b'move \\\\xff'\"",
            "b'move \\xff'",
        ),
    ],
)
def test_an_engine_that_answers_garbage_is_a_protocol_error(
    answer: str, message: str, line: str
) -> None:
    fault, pid = run_clean(lambda: _fails_at_go(scripted(answer)))
    assert fault.code is FaultCode.PROTOCOL
    assert (fault.phase, fault.message, fault.line) == ("go", message, line)
    assert is_reaped(pid)


def test_an_engine_that_floods_its_output_is_stopped() -> None:
    limits = EngineLimits(max_answer_bytes=65_536)

    async def scenario() -> tuple[EngineFault, int]:
        engine = await EngineProcess.start(scripted('yes "info string flood"'), limits=limits)
        await engine.new_game("ONE", ONE, 1)
        with pytest.raises(EngineFailedError) as caught:
            await engine.go([], LONG_MOVE)
        assert not engine.running
        return caught.value.fault, engine.pid

    fault, pid = run_clean(scenario)
    assert fault.code is FaultCode.FLOOD
    assert fault.message == "more than 65,536 bytes of output for one request"
    assert is_reaped(pid)


def test_a_line_longer_than_the_bound_is_refused_before_its_end() -> None:
    endless = "head -c 100000 /dev/zero | tr '\\0' a; echo"
    fault, pid = run_clean(lambda: _fails_at_go(scripted(endless)))
    assert fault.code is FaultCode.LINE_TOO_LONG
    assert fault.message.startswith("a line longer than 16,384 bytes, which begins 'aaaa")
    assert fault.line == "a" * 80
    assert is_reaped(pid)


def test_an_engine_that_closes_its_output_but_runs_on_is_stopped() -> None:
    fault, pid = run_clean(lambda: _fails_at_go(scripted("exec >&-; sleep 30")))
    assert fault.code is FaultCode.EXITED
    assert fault.message == "the engine closed its standard output but kept running"
    assert is_reaped(pid)


def test_a_line_nobody_asked_for_is_a_protocol_error_at_the_next_request() -> None:
    async def scenario() -> EngineFault:
        engine = await EngineProcess.start(scripted(on_newgame='printf "ready\\npong 7\\n"'))
        await engine.new_game("ONE", ONE, 1)
        with pytest.raises(EngineFailedError) as caught:
            await engine.go([], LONG_MOVE)
        return caught.value.fault

    fault = run_clean(scenario)
    assert fault.code is FaultCode.PROTOCOL
    assert fault.message == "a line nobody asked for: 'pong 7'"


def test_recoverable_faults_leave_the_engine_in_step() -> None:
    async def scenario() -> list[EngineFault]:
        faults = []
        answers = 'n=$((n+1)); [ $n = 1 ] && printf "move zz9\\n" || printf "error lost\\n"'
        refuse = (
            'case "$line" in *Players=3*) printf "error 2 seats only\\n";; '
            '*) printf "ready\\n";; esac'
        )
        async with running_engine(scripted(answers, on_newgame=refuse)) as engine:
            for request in (
                engine.new_game("Oust", {"Players": "2"}, 1),
                engine.new_game("ONE", {"Players": "3"}, 1),
            ):
                with pytest.raises(EngineFailedError) as caught:
                    await request
                faults.append(caught.value.fault)
            await engine.new_game("ONE", ONE, 1)
            for moves in (["a3", "a4"], ["a5", "a6"]):
                with pytest.raises(EngineFailedError) as caught:
                    await engine.go(moves, LONG_MOVE)
                faults.append(caught.value.fault)
            await engine.refuse("zz9 is no move")
            assert engine.running
            assert await engine.ping() > 0
        return faults

    undeclared, refused, malformed, error = run_clean(scenario)
    assert (undeclared.code, undeclared.phase) == (FaultCode.REFUSED, "newgame")
    assert (
        undeclared.message
        == "the engine does not play Oust with 2 seats (it plays ONE, Oh-Wah-Ree)"
    )
    assert (refused.code, refused.message) == (
        FaultCode.REFUSED,
        "the engine refused the game: 2 seats only",
    )
    assert (malformed.code, malformed.ply) == (FaultCode.MALFORMED_MOVE, 3)
    assert malformed.message.startswith("the answer 'zz9' is not a move token of ONE: ")
    assert malformed.line == "move zz9"
    assert (error.code, error.message) == (FaultCode.ENGINE_ERROR, "the engine answered: lost")


def test_info_lines_are_merged_and_a_bad_one_is_a_warning() -> None:
    answer = (
        'printf "info depth x\\ninfo depth 2 score 10 nodes 7\\ninfo depth 3 pv a1 zz\\n'
        'info string looks good\\nmove A1\\n"'
    )
    transcript: list[tuple[str, str]] = []

    async def scenario() -> tuple[str, str, tuple[str, ...]]:
        engine = await EngineProcess.start(
            scripted(answer), transcript=lambda who, line: transcript.append((who, line))
        )
        async with engine:
            await engine.new_game("ONE", ONE, 2, time_control="60+1")
            move = await engine.go(["a3"], ClockState((60_000, 59_000), increment_ms=1_000))
        return move.token, move.info.comment(), move.warnings

    token, comment, warnings = run_clean(scenario)
    assert token == "a1"
    assert comment == "looks good [%eval 10,3] [%nodes 7]"
    assert warnings == (
        "an info line was ignored: info depth must be a whole number, not 'x'",
        "the pv was left out: 'zz' is not a move of ONE",
    )
    assert transcript[:2] == [("host", "gep 1"), ("engine", "id name scripted")]
    assert ("host", "newgame Game=ONE Players=2 Board=6,6 TimeControl=60+1 Seat=2") in transcript
    assert transcript[-8:-5] == [
        ("host", "position a3"),
        ("host", "go clock 60000,59000 increment 1000"),
        ("engine", "info depth x"),
    ]
    assert transcript[-1] == ("host", "quit")


def test_a_stopped_engine_refuses_every_request() -> None:
    async def scenario() -> None:
        engine = await EngineProcess.start(scripted())
        await engine.stop()
        assert await engine.stop() == 0  # again: nothing more to do
        with pytest.raises(EngineStoppedError, match="the engine was stopped"):
            await engine.new_game("ONE", ONE, 1)

    run_clean(scenario)


def test_many_engines_start_and_stop_at_once_without_a_trace() -> None:
    async def scenario() -> list[int]:
        engines = await asyncio.gather(*(EngineProcess.start(scripted()) for _ in range(8)))
        await asyncio.gather(*(engine.stop() for engine in engines))
        return [engine.pid for engine in engines]

    pids = run_clean(scenario)
    assert all(is_reaped(pid) for pid in pids)


def test_a_cancelled_request_stops_the_engine() -> None:
    async def scenario() -> tuple[int, bool]:
        engine = await EngineProcess.start(scripted("sleep 30"), limits=QUICK)
        await engine.new_game("ONE", ONE, 1)
        thinking = asyncio.ensure_future(engine.go([], LONG_MOVE))
        await asyncio.sleep(0)  # the request is under way
        thinking.cancel()
        with pytest.raises(asyncio.CancelledError):
            await thinking
        return engine.pid, engine.running

    pid, running = run_clean(scenario)
    assert not running
    assert is_reaped(pid)
