"""Run an engine as a child process and talk to it: the host side of docs/engine-protocol.md.

::

    async with running_engine("./mybot --level 3") as bot:        # started, handshake done
        await bot.new_game("Oust", {"Players": "2", "Board": "7"}, seat=2)
        answer = await bot.go(["g7"], ClockState(move_limit_ms=5_000))
        answer.token, answer.info.comment()                       # 'e5', '[%eval 12] ...'

The command line is split as a POSIX shell would (``shlex``) and run without a shell, in a
session of its own, so that stopping it reaches every process it started. Each request has a
deadline (the handshake's, a reply's, or the seat's time from the :class:`ClockState` plus a
margin for the pipes); every line the engine writes is bounded in length, and so is all it
writes for one request. Whatever goes wrong raises :class:`EngineFailedError` with a typed
:class:`EngineFault`: the code, a sentence that quotes the offending line (cut short), the exit
status or signal, and the last lines of the engine's standard error. After a fault that
leaves the engine out of step (see :attr:`FaultCode.recoverable`) the host stops the process
before it raises, so no fault leaves a process behind. :meth:`EngineProcess.stop` asks the
engine to ``quit``, then terminates its process group, then kills it, and waits for it:
no zombie, no open pipe.

Why asyncio: the live match service is an asyncio server, and a tournament runs many engines
at once; each engine here costs two small reader tasks instead of threads, a deadline is
``asyncio.timeout_at``, and stopping is cancellation. The engines' own standard output and
error are read all the time (so an engine never blocks on a full pipe), into a queue the
requests take their answers from.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import shlex
import signal
from collections import deque
from collections.abc import AsyncIterator, Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from gamerec.recorder.errors import GamerecError, NotationError, excerpt
from gamerec.recorder.notation import format_action, parse_action
from gamerec.recorder.syntax import GameSyntax, syntax_named
from gamerec.validator.players.bounds import (
    MAX_ANSWER_BYTES,
    MAX_ENGINE_LINE_BYTES,
    MAX_HOST_LINE_BYTES,
)
from gamerec.validator.players.clocks import ClockState
from gamerec.validator.players.faults import EngineFailedError, EngineFault, FaultCode
from gamerec.validator.players.lines import (
    PROTOCOL_VERSION,
    EngineError,
    EngineMessage,
    GameOver,
    Go,
    Hello,
    HelloDone,
    HostError,
    Identity,
    Info,
    InfoError,
    MoveAnswer,
    NewGame,
    Ping,
    Plays,
    Pong,
    Position,
    ProtocolError,
    Ready,
    is_blank,
    one_line,
    parse_engine_line,
)
from gamerec.validator.players.search_info import SearchInfo

#: Bytes read from a pipe at a time.
_CHUNK: Final = 65_536
#: How long the host waits for an exit status once the engine's output has ended.
_EXIT_WAIT_S: Final = 2.0
#: How long the host waits for the reader tasks to see the end of the pipes after an exit.
_PIPES_WAIT_S: Final = 1.0
#: How long the host tries to tell a failing engine why before it stops it.
_TELL_WAIT_S: Final = 0.2

T = TypeVar("T")

#: Who wrote a transcript line: ``host`` or ``engine``.
Transcript = Callable[[str, str], None]


@dataclass(frozen=True, slots=True)
class EngineLimits:
    """The deadlines and bounds a host holds an engine to.

    Attributes:
        handshake_s: seconds from the start of the process to ``gepok``.
        reply_s: seconds for ``ready`` after ``newgame`` and for ``pong`` after ``ping``.
        margin_ms: added to a seat's time before a move counts as late (the pipes' latency
            and the operating system's scheduling; cutechess-cli's ``timemargin``).
        max_line_bytes: the longest line an engine may write (its newline not counted).
        max_answer_bytes: all an engine may write for one request (a move and its ``info``).
        stderr_lines: how many of the last lines of standard error a fault keeps.
        quit_grace_s: seconds an engine has to exit after ``quit`` before it is terminated.
        terminate_grace_s: seconds after SIGTERM before SIGKILL.
    """

    handshake_s: float = 10.0
    reply_s: float = 10.0
    margin_ms: int = 200
    max_line_bytes: int = MAX_ENGINE_LINE_BYTES
    max_answer_bytes: int = MAX_ANSWER_BYTES
    stderr_lines: int = 12
    quit_grace_s: float = 2.0
    terminate_grace_s: float = 2.0


@dataclass(frozen=True, slots=True)
class EngineIdentity:
    """Who the engine said it is in the handshake.

    Attributes:
        name: ``id name`` (required; the record names the seat after it).
        author: ``id author``, or ``""``.
        version: ``id version``, or ``""``.
        protocol: the protocol version both sides speak.
        games: the games it plays, by canonical name, each with its seat counts (empty: every
            count the game allows), in the order it named them.
        unknown_games: games it named that this gamerec does not know (ignored).
    """

    name: str
    author: str = ""
    version: str = ""
    protocol: int = PROTOCOL_VERSION
    games: tuple[tuple[str, tuple[int, ...]], ...] = ()
    unknown_games: tuple[str, ...] = ()

    def plays(self, game: str, seats: int) -> bool:
        """Whether the engine said it plays ``game`` (canonical name) with ``seats`` seats."""
        return any(name == game and (not counts or seats in counts) for name, counts in self.games)

    def games_text(self) -> str:
        """``ONE (2, 3), Oust``: the games it plays, for messages."""
        return ", ".join(
            f"{name} ({', '.join(map(str, counts))})" if counts else name
            for name, counts in self.games
        )


@dataclass(frozen=True, slots=True)
class EngineMove:
    """An engine's answer to ``go``.

    Attributes:
        token: the move, as the canonical GRN token of the game (docs/notation.md).
        info: its ``info`` lines merged (the comment the referee writes: ``info.comment()``).
        elapsed_s: seconds from the request to the answer, by the host's monotonic clock.
        warnings: what the host ignored on the way (malformed ``info`` lines, an unreadable
            ``pv``), one sentence each.
    """

    token: str
    info: SearchInfo
    elapsed_s: float
    warnings: tuple[str, ...] = ()


class EngineStoppedError(GamerecError):
    """A request to an engine that was stopped (by :meth:`EngineProcess.stop` or a fault)."""


class _RequestError(Exception):
    """A fault found inside a request, before the host has dealt with the process."""

    def __init__(self, code: FaultCode, message: str, line: str = "") -> None:
        self.code = code
        self.message = message
        self.line = line
        super().__init__(message)


@dataclass(frozen=True, slots=True)
class _Overflow:
    """What the output reader puts in the queue instead of a line it would not read."""

    code: FaultCode
    message: str
    line: str


class EngineProcess:
    """One engine process and the conversation with it; build it with :meth:`start`."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        command: tuple[str, ...],
        limits: EngineLimits,
        transcript: Transcript | None,
    ) -> None:
        """Wrap a started process (use :meth:`start`, which also shakes hands)."""
        self._process = process
        self._command = command
        self._limits = limits
        self._transcript = transcript
        self._lines: asyncio.Queue[bytes | _Overflow | None] = asyncio.Queue()
        self._received = 0
        self._stderr: deque[str] = deque(maxlen=limits.stderr_lines)
        self._identity = EngineIdentity(name="")
        self._game: GameSyntax | None = None
        self._seat = 0
        self._pings = itertools.count(1)
        self._fault: EngineFault | None = None
        self._stopping: asyncio.Task[int | None] | None = None
        self._readers = (
            asyncio.ensure_future(self._pump_output()),
            asyncio.ensure_future(self._pump_errors()),
        )

    # -- starting ------------------------------------------------------------------------------

    @classmethod
    async def start(
        cls,
        command: str | Sequence[str],
        *,
        limits: EngineLimits | None = None,
        transcript: Transcript | None = None,
        cwd: str | None = None,
        env: Mapping[str, str] | None = None,
    ) -> EngineProcess:
        """Start an engine and shake hands with it.

        Args:
            command: the command line (split by ``shlex``, run without a shell) or its words.
            limits: deadlines and bounds (default :class:`EngineLimits`).
            transcript: called with (``host`` or ``engine``, line) for every line exchanged.
            cwd: the engine's working folder.
            env: the engine's environment (default: this process's).

        Raises:
            EngineFailedError: ``ENGINE_NOT_STARTED``, or a fault of the handshake (the
                process is stopped first).
        """
        limits = limits or EngineLimits()
        words = _command_words(command)
        try:
            process = await asyncio.create_subprocess_exec(
                *words,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
                cwd=cwd,
                env=None if env is None else dict(env),
                start_new_session=True,
            )
        except OSError as error:
            reason = error.strerror or str(error)
            fault = EngineFault(
                FaultCode.NOT_STARTED, f"cannot run {excerpt(words[0])}: {reason}", "start"
            )
            raise EngineFailedError(fault) from None
        engine = cls(process, words, limits, transcript)
        await engine._guarded("handshake", 0, engine._handshake())
        return engine

    async def _handshake(self) -> None:
        deadline = self._deadline(self._limits.handshake_s)
        patience = f"the handshake deadline of {self._limits.handshake_s:g} s"
        await self._send([Hello().line()], deadline, patience)
        found: dict[str, str] = {}
        games: list[tuple[str, tuple[int, ...]]] = []
        unknown: list[str] = []
        while True:
            message, line = await self._message(deadline, patience)
            if isinstance(message, Identity):
                found[message.key] = message.text
            elif isinstance(message, Plays):
                syntax = syntax_named(message.game)
                if syntax is None:
                    unknown.append(message.game)
                else:
                    games.append((syntax.name, message.seats))
            elif isinstance(message, HelloDone):
                self._identity = _identity_of(found, games, unknown, message.version)
                return
            elif isinstance(message, EngineError):
                raise _RequestError(FaultCode.PROTOCOL, f"the engine refused the handshake: {line}")
            else:
                raise _RequestError(
                    FaultCode.PROTOCOL,
                    f"{excerpt(line)} is not a handshake message (id, game, gepok)",
                    line,
                )

    # -- what is known of it -------------------------------------------------------------------

    @property
    def identity(self) -> EngineIdentity:
        """Who the engine said it is."""
        return self._identity

    @property
    def command(self) -> tuple[str, ...]:
        """The command line's words."""
        return self._command

    @property
    def pid(self) -> int:
        """The process id (also its process group's id)."""
        return self._process.pid

    @property
    def running(self) -> bool:
        """Whether the host still talks to it (not stopped, no fault that stopped it)."""
        return self._stopping is None and self._fault is None

    @property
    def fault(self) -> EngineFault | None:
        """The fault that stopped it, if one did."""
        return self._fault

    def stderr_tail(self) -> tuple[str, ...]:
        """The last lines of its standard error, each cut short."""
        return tuple(self._stderr)

    # -- requests ------------------------------------------------------------------------------

    async def new_game(
        self, game: str, variant: Mapping[str, str], seat: int, *, time_control: str = ""
    ) -> None:
        """Start a new game: ``newgame``, then wait for ``ready``.

        Args:
            game: the game, in any spelling.
            variant: its GRN variant tags, ``Players`` included (every tag is sent, so the
                engine never needs a default).
            seat: the engine's seat (1-based).
            time_control: the record's ``TimeControl`` tag, if the game has one.

        Raises:
            EngineFailedError: ``GAME_REFUSED`` (it does not play this game, seat count or
                variant: nothing else changes), or a fault of the exchange.
            GamerecError: an unknown game, or ``Players`` missing (the caller's mistake).
        """
        self._check_running()
        syntax = syntax_named(game)
        if syntax is None or "Players" not in variant:
            raise GamerecError(f"new_game needs a known game and its Players tag: {game!r}")
        command = NewGame.of(syntax.name, variant, seat, time_control)
        await self._guarded("newgame", 0, self._new_game(syntax, command))

    async def _new_game(self, syntax: GameSyntax, command: NewGame) -> None:
        if not self._identity.plays(syntax.name, command.players):
            raise _RequestError(
                FaultCode.REFUSED,
                f"the engine does not play {syntax.name} with {command.players} seats "
                f"(it plays {self._identity.games_text()})",
            )
        await self._drain_unasked()
        deadline = self._deadline(self._limits.reply_s)
        patience = f"{self._limits.reply_s:g} s for ready"
        await self._send([command.line()], deadline, patience)
        message, line = await self._message(deadline, patience)
        if isinstance(message, EngineError):
            raise _RequestError(FaultCode.REFUSED, f"the engine refused the game: {message.text}")
        if not isinstance(message, Ready):
            raise _RequestError(
                FaultCode.PROTOCOL, f"expected ready after newgame, got {excerpt(line)}", line
            )
        self._game, self._seat = syntax, command.seat

    async def go(self, moves: Sequence[str], clock: ClockState) -> EngineMove:
        """Ask for the move after ``moves``: ``position``, ``go``, then ``info``... ``move``.

        Args:
            moves: every ply so far, as GRN move tokens.
            clock: the clocks now; the engine has its seat's budget plus the margin.

        Returns:
            The move (a well-formed token of the game; its legality is the referee's
            business) with its search information.

        Raises:
            EngineFailedError: ``ENGINE_TIMEOUT``, ``MALFORMED_MOVE``, ``ENGINE_ERROR``, or
                any other fault of the exchange.
            GamerecError: no game was started (the caller's mistake), or the position is
                longer than a host line may be (``bounds.MAX_HOST_LINE_BYTES``).
        """
        self._check_running()
        if self._game is None:
            raise GamerecError("go before new_game: start a game first")
        size = len("position") + sum(len(move.encode()) + 1 for move in moves)
        if size > MAX_HOST_LINE_BYTES:
            raise GamerecError(
                f"the position of {len(moves):,} plies takes {size:,} bytes, more than a host "
                f"line may ({MAX_HOST_LINE_BYTES:,}; docs/engine-protocol.md §2): no engine "
                "can be asked"
            )
        return await self._guarded("go", len(moves) + 1, self._go(self._game, moves, clock))

    async def _go(self, game: GameSyntax, moves: Sequence[str], clock: ClockState) -> EngineMove:
        budget = clock.budget_ms(self._seat)
        margin = self._limits.margin_ms
        seconds = None if budget is None else (budget + margin) / 1000
        patience = "no time limit" if budget is None else f"{budget} ms and a margin of {margin}"
        await self._drain_unasked()
        loop = asyncio.get_running_loop()
        started = loop.time()
        deadline = None if seconds is None else started + seconds
        await self._send([Position(tuple(moves)).line(), Go(clock).line()], deadline, patience)
        info = SearchInfo()
        warnings: list[str] = []
        while True:
            message, line = await self._message(deadline, patience, warnings)
            if isinstance(message, Info):
                info = info.merged(message.info)
            elif isinstance(message, MoveAnswer):
                token = _canonical(game, message.token, line)
                info = _with_readable_pv(game, info, warnings)
                return EngineMove(token, info, loop.time() - started, tuple(warnings))
            elif isinstance(message, EngineError):
                raise _RequestError(FaultCode.ENGINE_ERROR, f"the engine answered: {message.text}")
            else:
                raise _RequestError(
                    FaultCode.PROTOCOL, f"expected info or move after go, got {excerpt(line)}", line
                )

    async def ping(self) -> float:
        """``ping``, then wait for the matching ``pong``; return the round trip in seconds.

        Raises:
            EngineFailedError: no ``pong`` in time, another answer, or any other fault.
        """
        self._check_running()
        return await self._guarded("ping", 0, self._ping())

    async def _ping(self) -> float:
        await self._drain_unasked()
        token = str(next(self._pings))
        loop = asyncio.get_running_loop()
        started = loop.time()
        deadline = self._deadline(self._limits.reply_s)
        patience = f"{self._limits.reply_s:g} s for pong"
        await self._send([Ping(token).line()], deadline, patience)
        message, line = await self._message(deadline, patience)
        if message != Pong(token):
            raise _RequestError(
                FaultCode.PROTOCOL, f"expected pong {token} after ping, got {excerpt(line)}", line
            )
        return loop.time() - started

    async def game_over(self, result: str, winners: Sequence[int], termination: str) -> None:
        """Tell the engine the game ended (``gameover``; no answer is expected).

        Raises:
            EngineFailedError: the engine is gone (or fails to read in time).
        """
        self._check_running()
        line = GameOver.of(result, winners, termination).line()
        deadline = self._deadline(self._limits.reply_s)
        await self._guarded("gameover", 0, self._send([line], deadline, "reading gameover"))

    async def refuse(self, reason: str) -> None:
        """Tell the engine its last answer was refused (``error``), e.g. before it tries again.

        Raises:
            EngineFailedError: the engine is gone (or fails to read in time).
        """
        self._check_running()
        line = HostError(one_line(reason) or "refused").line()
        deadline = self._deadline(self._limits.reply_s)
        await self._guarded("error", 0, self._send([line], deadline, "reading error"))

    # -- stopping ------------------------------------------------------------------------------

    async def stop(self) -> int | None:
        """Stop the engine: ``quit``, then SIGTERM, then SIGKILL to its process group; reap it.

        Safe to call any number of times, also after a fault (which already stopped it).

        Returns:
            The exit status (negative: the signal that ended it), as asyncio reports it.
        """
        return await self._shut_down(polite=True)

    async def __aenter__(self) -> EngineProcess:
        """The engine itself; leaving the block stops it."""
        return self

    async def __aexit__(self, *_: object) -> None:
        """Stop the engine."""
        await self.stop()

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


def _overflow(
    lines: list[bytes], pending: bytes, received: int, limits: EngineLimits
) -> _Overflow | None:
    """The first bound this output breaks: a line too long, or too much for one request."""
    for line in (*lines, pending):
        if len(line) > limits.max_line_bytes:
            return _Overflow(
                FaultCode.LINE_TOO_LONG,
                f"a line longer than {limits.max_line_bytes:,} bytes, which begins "
                f"{excerpt(line[:60].decode(errors='replace'))}",
                line[:80].decode(errors="replace"),
            )
    if received > limits.max_answer_bytes:
        return _Overflow(
            FaultCode.FLOOD,
            f"more than {limits.max_answer_bytes:,} bytes of output for one request",
            "",
        )
    return None


def _stderr_line(raw: bytes) -> str:
    return excerpt(raw.decode(errors="replace").rstrip("\r"), 160, quoted=False)


def _command_words(command: str | Sequence[str]) -> tuple[str, ...]:
    """The words of a command line, split as a POSIX shell splits them (no shell runs)."""
    try:
        words = tuple(shlex.split(command) if isinstance(command, str) else command)
    except ValueError as error:
        text = command if isinstance(command, str) else " ".join(command)
        reason = f"cannot read the command line {excerpt(text)}: {error}"
        fault = EngineFault(FaultCode.NOT_STARTED, reason, "start")
        raise EngineFailedError(fault) from None
    if not words:
        raise EngineFailedError(EngineFault(FaultCode.NOT_STARTED, "the command is empty", "start"))
    return words


def _identity_of(
    found: Mapping[str, str],
    games: list[tuple[str, tuple[int, ...]]],
    unknown: list[str],
    version: int,
) -> EngineIdentity:
    """The identity the handshake gave, or the failure that it is not enough."""
    if version > PROTOCOL_VERSION:
        raise _RequestError(
            FaultCode.PROTOCOL,
            f"the engine speaks protocol version {version}; this host speaks {PROTOCOL_VERSION}",
        )
    if "name" not in found:
        raise _RequestError(FaultCode.PROTOCOL, "the handshake ended (gepok) without id name")
    if not games:
        named = f" (it named only {', '.join(map(excerpt, unknown))})" if unknown else ""
        raise _RequestError(FaultCode.PROTOCOL, f"the engine named no game gamerec knows{named}")
    return EngineIdentity(
        name=found["name"],
        author=found.get("author", ""),
        version=found.get("version", ""),
        protocol=version,
        games=tuple(games),
        unknown_games=tuple(unknown),
    )


def _canonical(game: GameSyntax, token: str, line: str) -> str:
    """The canonical token of an answered move, or ``MALFORMED_MOVE``."""
    try:
        return format_action(parse_action(game.game, token), game.game)
    except NotationError as error:
        raise _RequestError(
            FaultCode.MALFORMED_MOVE,
            f"the answer {excerpt(token)} is not a move token of {game.name}: {error}",
            line,
        ) from None


def _with_readable_pv(game: GameSyntax, info: SearchInfo, warnings: list[str]) -> SearchInfo:
    """The info with its pv in canonical tokens, or without a pv that has a foreign token."""
    tokens = []
    for token in info.pv:
        try:
            tokens.append(format_action(parse_action(game.game, token), game.game))
        except NotationError:
            warnings.append(f"the pv was left out: {excerpt(token)} is not a move of {game.name}")
            return SearchInfo(info.score, info.depth, info.nodes, info.time_ms, (), info.text)
    return SearchInfo(info.score, info.depth, info.nodes, info.time_ms, tuple(tokens), info.text)


def _exit_sentence(status: int | None) -> tuple[str, int | None, str]:
    """(sentence, exit status, signal name) of an engine whose output ended."""
    if status is None:
        return "the engine closed its standard output but kept running", None, ""
    if status < 0:
        try:
            name = signal.Signals(-status).name
        except ValueError:
            name = f"signal {-status}"
        return f"the engine was killed by {name}", None, name
    return f"the engine exited with status {status}", status, ""


@contextlib.asynccontextmanager
async def running_engine(
    command: str | Sequence[str],
    *,
    limits: EngineLimits | None = None,
    transcript: Transcript | None = None,
    cwd: str | None = None,
    env: Mapping[str, str] | None = None,
) -> AsyncIterator[EngineProcess]:
    """An engine started and shaken hands with for the block, stopped after it (see ``start``).

    Raises:
        EngineFailedError: it could not start, or the handshake failed.
    """
    engine = await EngineProcess.start(
        command, limits=limits, transcript=transcript, cwd=cwd, env=env
    )
    try:
        yield engine
    finally:
        await engine.stop()
