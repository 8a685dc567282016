"""The engine protocol's bounds on a line: held in bounded memory on both sides.

A line over its bound is a fault of the protocol: ``gamerec engine`` answers ``error`` and
reads on (in pieces, never holding the line whole), a host stops the engine with
``LINE_TOO_LONG``, and a host never sends a line over the engines' bound. Memory is measured
(tracemalloc in this process, the peak resident size of a child process), never time.
"""

from __future__ import annotations

import io
import subprocess
import threading
import tracemalloc
from collections.abc import Callable, Iterator
from typing import Any

import pytest

from gamerec.recorder.errors import GamerecError
from gamerec.validator.players.bounds import MAX_HOST_LINE_BYTES, Unreadable, read_lines
from gamerec.validator.players.clocks import ClockState
from gamerec.validator.players.faults import EngineFailedError, FaultCode
from gamerec.validator.players.host import EngineProcess
from gamerec.validator.players.policy_engine import PolicyEngine, serve
from tests.players.engines import policy, run_clean, scripted

MIB = 1024 * 1024


class Generated(io.RawIOBase):
    """A stream of ``head``, then ``size`` bytes of ``fill``, then ``tail``, made as read."""

    def __init__(self, head: bytes, fill: bytes, size: int, tail: bytes) -> None:
        self.parts: Iterator[bytes] = iter([head, *self._filling(fill, size), tail])
        self.left = b""

    @staticmethod
    def _filling(fill: bytes, size: int) -> Iterator[bytes]:
        block = fill * (65_536 // len(fill))
        while size > 0:
            yield block[:size]
            size -= len(block)

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: Any) -> int:
        while not self.left:
            part = next(self.parts, None)
            if part is None:
                return 0
            self.left = part
        size = min(len(buffer), len(self.left))
        buffer[:size] = self.left[:size]
        self.left = self.left[size:]
        return size


def peak_of(work: Callable[[], object]) -> tuple[object, int]:
    """What ``work`` returns, and the most memory it held at once (tracemalloc)."""
    tracemalloc.start()
    try:
        result = work()
        return result, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_huge_line_is_read_in_pieces_and_the_next_line_still_comes() -> None:
    size = 64 * MIB
    stream = io.BufferedReader(Generated(b"position ", b"4 ", size, b"\nping b\n"))
    lines, peak = peak_of(lambda: list(read_lines(stream)))
    assert lines == [
        Unreadable(
            f"a line of {size + 9:,} bytes, longer than 2,097,152, which begins "
            "'position 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4 4'"
        ),
        "ping b",
    ]
    assert peak < 3 * MAX_HOST_LINE_BYTES, f"{peak:,} bytes held for a line of {size:,}"


def test_a_line_of_the_bound_is_read_and_one_byte_more_is_not() -> None:
    limit = 100
    exact = b"a" * limit
    stream = io.BytesIO(exact + b"\n" + exact + b"b\n" + b"\xff\xfe\n" + b"last")
    assert list(read_lines(stream, limit)) == [
        exact.decode(),
        Unreadable(f"a line of 101 bytes, longer than 100, which begins '{'a' * 40}'"),
        Unreadable("the line is not UTF-8 (byte 1: invalid start byte)"),
        "last",
    ]
    endless = io.BytesIO(exact + b"bb")  # over the bound and no newline before the end
    assert list(read_lines(endless, limit)) == [
        Unreadable(f"a line of 102 bytes, longer than 100, which begins '{'a' * 40}'")
    ]


def test_the_engine_answers_a_line_too_long_with_error_and_goes_on() -> None:
    written: list[str] = []
    stream = io.BufferedReader(Generated(b"ping a\nposition ", b"c7 ", 8 * MIB, b"\nping b\n"))
    _, peak = peak_of(lambda: serve("random", 1, read_lines(stream), written.append))
    assert written == [
        "pong a\n",
        f"error a line of {8 * MIB + 9:,} bytes, longer than 2,097,152, which begins "
        "'position c7 c7 c7 c7 c7 c7 c7 c7 c7 c7 c'\n",
        "pong b\n",
    ]
    assert peak < 3 * MAX_HOST_LINE_BYTES
    too_long = "position " + "4 " * (MAX_HOST_LINE_BYTES // 2)
    assert PolicyEngine("random").answer(too_long) == [
        f"error a line of {len(too_long):,} bytes, longer than 2,097,152"
    ]


def test_a_position_of_the_most_plies_a_line_holds_costs_a_few_bytes_a_word() -> None:
    player = PolicyEngine("random")
    player.answer("gep 1")
    player.answer("newgame Game=Oh-Wah-Ree Players=2 Seat=2")
    line = "position " + "10 " * ((MAX_HOST_LINE_BYTES - 9) // 3)
    answers, peak = peak_of(lambda: player.answer(line))
    assert answers == [
        "error position: ply 1 '10': NOT_YOUR_PIT: pit 10 belongs to seat 2, not to seat 1 "
        "(docs/rules/ohwahree.md §2)"
    ]
    words = line.count(" ")
    assert peak < 6 * len(line) + 24 * words, f"{peak:,} bytes for a line of {len(line):,}"


def _peak_resident_bytes(pid: int) -> int:
    """The peak resident size of a live process since its exec (``VmHWM``, Linux).

    Not ``wait4``'s ``ru_maxrss``: Linux carries the forking process's peak across exec into
    it, so under a large pytest worker the child seemed to hold what its parent did.
    """
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    raise AssertionError("no VmHWM line")


def test_gamerec_engine_stays_small_on_a_huge_line() -> None:
    """The process's peak resident size while it still runs; it used to be ~73x the line."""
    size = 32 * MIB
    child = subprocess.Popen(
        policy(), stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE
    )
    assert child.stdin is not None and child.stdout is not None

    def feed() -> None:
        assert child.stdin is not None
        child.stdin.write(b"ping a\nposition ")
        block = b"4 " * 32_768
        for _ in range(size // len(block)):
            child.stdin.write(block)
        child.stdin.write(b"\nping b\n")
        child.stdin.flush()

    writer = threading.Thread(target=feed, daemon=True)
    writer.start()
    answers = [child.stdout.readline().decode().rstrip("\n") for _ in range(3)]
    writer.join(timeout=60)
    peak = _peak_resident_bytes(child.pid)
    _, errors = child.communicate(b"quit\n", timeout=60)
    assert child.returncode == 0, errors
    assert answers[0] == "pong a"
    assert answers[1].startswith(f"error a line of {size + 9:,} bytes")
    assert answers[2] == "pong b"
    assert peak < 200 * MIB, f"peak resident {peak:,} bytes"


def test_a_host_stops_an_engine_whose_huge_line_it_never_holds() -> None:
    endless = "head -c 67108864 /dev/zero | tr '\\0' a; echo"

    async def scenario() -> tuple[Any, int]:
        engine = await EngineProcess.start(scripted(endless))
        try:
            await engine.new_game("ONE", {"Players": "2", "Board": "6,6"}, 1)
            tracemalloc.start()
            with pytest.raises(EngineFailedError) as caught:
                await engine.go([], ClockState(move_limit_ms=60_000))
            peak = tracemalloc.get_traced_memory()[1]
            tracemalloc.stop()
        finally:
            await engine.stop()
        return caught.value.fault, peak

    fault, peak = run_clean(scenario)
    assert fault.code is FaultCode.LINE_TOO_LONG
    assert peak < 4 * MIB, f"{peak:,} bytes held"


def test_a_host_refuses_to_send_a_position_longer_than_an_engine_reads() -> None:
    async def scenario() -> str:
        engine = await EngineProcess.start(policy())
        try:
            await engine.new_game("Oh-Wah-Ree", {"Players": "2"}, 1)
            with pytest.raises(GamerecError) as refused:
                await engine.go(["12"] * (MAX_HOST_LINE_BYTES // 3 + 1), ClockState())
            assert engine.running  # nothing was sent: the engine is as it was
            return str(refused.value)
        finally:
            await engine.stop()

    assert run_clean(scenario) == (
        "the position of 699,051 plies takes 2,097,161 bytes, more than a host line may "
        "(2,097,152; docs/engine-protocol.md §2): no engine can be asked"
    )
