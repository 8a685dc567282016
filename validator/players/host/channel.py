"""The engine's process and pipes: reading, writing, deadlines, faults and stopping.

:class:`EnginePipes` is the part of :class:`~gamerec.validator.players.host.process.EngineProcess`
below the protocol's requests: two reader tasks keep the engine's standard output (bounded
lines, into a queue) and standard error (its last lines) read all the time; a request sends
its lines and takes the answers from the queue within a deadline; a failure becomes an
:class:`~gamerec.validator.players.faults.EngineFault`, and stopping goes ``quit``, SIGTERM,
SIGKILL to the process group. It imports ``recorder.errors``, ``players.faults``,
``players.lines`` and the host's ``values`` and ``checks``.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections import deque
from collections.abc import Coroutine
from typing import Any, Final, TypeVar

from gamerec.recorder.errors import excerpt
from gamerec.validator.players.faults import EngineFailedError, EngineFault, FaultCode
from gamerec.validator.players.host.checks import _exit_sentence, _overflow, _stderr_line
from gamerec.validator.players.host.values import (
    EngineLimits,
    EngineStoppedError,
    Transcript,
    _Overflow,
    _RequestError,
)
from gamerec.validator.players.lines import (
    EngineMessage,
    HostError,
    InfoError,
    ProtocolError,
    is_blank,
    one_line,
    parse_engine_line,
)

#: Bytes read from a pipe at a time.
_CHUNK: Final = 65_536
#: How long the host waits for an exit status once the engine's output has ended.
_EXIT_WAIT_S: Final = 2.0
#: How long the host waits for the reader tasks to see the end of the pipes after an exit.
_PIPES_WAIT_S: Final = 1.0
#: How long the host tries to tell a failing engine why before it stops it.
_TELL_WAIT_S: Final = 0.2

T = TypeVar("T")


class EnginePipes:
    """An engine process and its pipes, below the protocol's requests (see the module)."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        command: tuple[str, ...],
        limits: EngineLimits,
        transcript: Transcript | None,
    ) -> None:
        """Wrap a started process and start reading its output and its errors."""
        self._process = process
        self._command = command
        self._limits = limits
        self._transcript = transcript
        self._lines: asyncio.Queue[bytes | _Overflow | None] = asyncio.Queue()
        self._received = 0
        self._stderr: deque[str] = deque(maxlen=limits.stderr_lines)
        self._fault: EngineFault | None = None
        self._stopping: asyncio.Task[int | None] | None = None
        self._readers = (
            asyncio.ensure_future(self._pump_output()),
            asyncio.ensure_future(self._pump_errors()),
        )

    def stderr_tail(self) -> tuple[str, ...]:
        """The last lines of its standard error, each cut short."""
        return tuple(self._stderr)

    # -- stopping ------------------------------------------------------------------------------

    async def _shut_down(self, *, polite: bool) -> int | None:
        if self._stopping is None:
            self._stopping = asyncio.ensure_future(self._end_process(polite))
        return await asyncio.shield(self._stopping)

    async def _end_process(self, polite: bool) -> int | None:
        process = self._process
        if polite and process.returncode is None:
            with contextlib.suppress(Exception):
                async with asyncio.timeout(_TELL_WAIT_S):
                    await self._write(["quit"])
        self._close_input()
        if not await self._exits_within(self._limits.quit_grace_s if polite else 0):
            self._signal_group(signal.SIGTERM)
            if not await self._exits_within(self._limits.terminate_grace_s):
                self._signal_group(signal.SIGKILL)
                await process.wait()
        self._signal_group(signal.SIGKILL)  # whatever the engine started and left behind
        await self._close_pipes()
        return process.returncode

    def _close_input(self) -> None:
        stdin = self._process.stdin
        if stdin is not None and not stdin.is_closing():
            with contextlib.suppress(OSError):
                stdin.close()

    async def _exits_within(self, seconds: float) -> bool:
        if self._process.returncode is not None:
            return True
        if seconds <= 0:
            return False
        try:
            await asyncio.wait_for(self._process.wait(), seconds)
        except TimeoutError:
            return False
        return True

    def _signal_group(self, number: signal.Signals) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._process.pid, number)

    async def _close_pipes(self) -> None:
        """Wait for the readers to see the pipes end; close them if a stray process holds them."""
        _, pending = await asyncio.wait(self._readers, timeout=_PIPES_WAIT_S)
        if pending:
            transport = getattr(self._process, "_transport", None)  # no public way to close
            if transport is not None:
                transport.close()
            for task in pending:
                task.cancel()
        await asyncio.gather(*self._readers, return_exceptions=True)
        stdin = self._process.stdin
        if stdin is not None:
            with contextlib.suppress(OSError, ConnectionError):
                await stdin.wait_closed()

    # -- the conversation ----------------------------------------------------------------------

    async def _guarded(self, phase: str, ply: int, request: Coroutine[Any, Any, T]) -> T:
        """Run a request; turn a failure into a fault (stopping the engine where it must).

        A request cancelled half way leaves the engine out of step (it may still answer), so
        the engine is stopped before the cancellation goes on.
        """
        try:
            return await request
        except asyncio.CancelledError:
            await asyncio.shield(self._shut_down(polite=False))
            raise
        except _RequestError as failure:
            status = await self._exit_status() if failure.code is FaultCode.EXITED else None
            if not failure.code.recoverable:
                await self._tell(f"{failure.code.value}: {failure.message}")
                await self._shut_down(polite=False)
            fault = self._fault_of(failure, phase, ply, status)
            if not failure.code.recoverable:
                self._fault = fault
            raise EngineFailedError(fault) from None

    def _fault_of(
        self, failure: _RequestError, phase: str, ply: int, status: int | None
    ) -> EngineFault:
        message, exit_status, signal_name = failure.message, None, ""
        if failure.code is FaultCode.EXITED:
            message, exit_status, signal_name = _exit_sentence(status)
        return EngineFault(
            code=failure.code,
            message=message,
            phase=phase,
            ply=ply,
            exit_status=exit_status,
            signal=signal_name,
            stderr_tail=self.stderr_tail(),
            line=excerpt(failure.line, 80, quoted=False) if failure.line else "",
        )

    async def _exit_status(self) -> int | None:
        """The exit status once the output has ended (None: it still runs)."""
        if not await self._exits_within(_EXIT_WAIT_S):
            return None
        await asyncio.wait({self._readers[1]}, timeout=_PIPES_WAIT_S)  # its last words
        return self._process.returncode

    async def _tell(self, reason: str) -> None:
        """Tell a failing engine why, if it still listens (best effort, briefly)."""
        if self._process.returncode is not None:
            return
        with contextlib.suppress(Exception):
            async with asyncio.timeout(_TELL_WAIT_S):
                await self._write([HostError(one_line(reason)).line()])

    def _check_running(self) -> None:
        if self._fault is not None:
            raise EngineStoppedError(f"the engine was stopped after {self._fault.describe()}")
        if self._stopping is not None:
            raise EngineStoppedError("the engine was stopped")

    def _deadline(self, seconds: float) -> float:
        return asyncio.get_running_loop().time() + seconds

    async def _send(self, lines: list[str], deadline: float | None, patience: str) -> None:
        self._received = 0
        try:
            async with asyncio.timeout_at(deadline):
                await self._write(lines)
        except TimeoutError:
            raise _RequestError(
                FaultCode.TIMEOUT, f"the engine did not read its input within {patience}"
            ) from None
        except (BrokenPipeError, ConnectionResetError):
            raise _RequestError(FaultCode.EXITED, "") from None

    async def _write(self, lines: list[str]) -> None:
        stdin = self._process.stdin
        assert stdin is not None
        if self._transcript is not None:
            for line in lines:
                self._transcript("host", line)
        stdin.write("".join(f"{line}\n" for line in lines).encode())  # one write, one wake-up
        await stdin.drain()

    async def _message(
        self, deadline: float | None, patience: str, warnings: list[str] | None = None
    ) -> tuple[EngineMessage, str]:
        """The next message and its line; ``info`` lines that do not parse go to ``warnings``."""
        while True:
            line = await self._next_line(deadline, patience)
            try:
                return parse_engine_line(line), line
            except InfoError as error:
                if warnings is None:
                    raise _RequestError(
                        FaultCode.PROTOCOL, f"{error} in {excerpt(line)}", line
                    ) from None
                warnings.append(f"an info line was ignored: {error}")
            except ProtocolError as error:
                raise _RequestError(
                    FaultCode.PROTOCOL, f"{error} in {excerpt(line)}", line
                ) from None

    async def _next_line(self, deadline: float | None, patience: str) -> str:
        while True:
            try:
                async with asyncio.timeout_at(deadline):
                    item = await self._lines.get()
            except TimeoutError:
                raise _RequestError(FaultCode.TIMEOUT, f"no answer within {patience}") from None
            line = self._line_of(item)
            if not is_blank(line):
                return line

    def _line_of(self, item: bytes | _Overflow | None) -> str:
        if item is None:
            self._lines.put_nowait(None)  # the end stays the end for whoever asks next
            raise _RequestError(FaultCode.EXITED, "")
        if isinstance(item, _Overflow):
            raise _RequestError(item.code, item.message, item.line)
        try:
            line = item.decode()
        except UnicodeDecodeError as error:
            raise _RequestError(
                FaultCode.PROTOCOL,
                f"a line that is not UTF-8 text (byte {error.start + 1}): {excerpt(repr(item))}",
                repr(item),
            ) from None
        line = line.removesuffix("\r")
        if self._transcript is not None:
            self._transcript("engine", line)
        return line

    async def _drain_unasked(self) -> None:
        """Lines the engine wrote when nothing was asked: ``info`` is dropped, else a fault."""
        while not self._lines.empty():
            line = self._line_of(self._lines.get_nowait())
            if is_blank(line) or line.split(maxsplit=1)[0] == "info":
                continue
            raise _RequestError(
                FaultCode.PROTOCOL, f"a line nobody asked for: {excerpt(line)}", line
            )

    # -- the pipes -----------------------------------------------------------------------------

    async def _pump_output(self) -> None:
        """Read standard output into lines for the queue, within the bounds; None at the end."""
        stream = self._process.stdout
        assert stream is not None
        limits = self._limits
        pending = b""
        overflowing = False
        with contextlib.suppress(OSError, ValueError):
            while chunk := await stream.read(_CHUNK):
                if overflowing:
                    continue  # read to the end, so the engine never blocks on a full pipe
                self._received += len(chunk)
                *lines, pending = (pending + chunk).split(b"\n")
                overflow = _overflow(lines, pending, self._received, limits)
                for line in lines:
                    if overflow is not None and len(line) > limits.max_line_bytes:
                        break
                    self._lines.put_nowait(line)
                if overflow is not None:
                    self._lines.put_nowait(overflow)
                    overflowing = True
        if pending and not overflowing:
            self._lines.put_nowait(pending)  # a last line without its newline
        self._lines.put_nowait(None)

    async def _pump_errors(self) -> None:
        """Keep the last lines of standard error, each cut short; read it to its end."""
        stream = self._process.stderr
        assert stream is not None
        pending = b""
        with contextlib.suppress(OSError, ValueError):
            while chunk := await stream.read(_CHUNK):
                *lines, pending = (pending + chunk).split(b"\n")
                for line in lines[-self._limits.stderr_lines :]:
                    self._stderr.append(_stderr_line(line))
                pending = pending[: self._limits.max_line_bytes]
        if pending:
            self._stderr.append(_stderr_line(pending))
