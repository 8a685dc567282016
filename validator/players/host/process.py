"""An engine process and the protocol's requests to it: :class:`EngineProcess`.

Starting and the handshake, what the engine said it is, ``newgame``, ``go``, ``ping``,
``gameover``, ``error`` and stopping; :func:`running_engine` for an ``async with`` block. The
pipes, deadlines and faults below the requests are :class:`EnginePipes`
(:mod:`~gamerec.validator.players.host.channel`). It imports ``recorder`` (errors, syntax),
``players`` modules below the host (``bounds``, ``clocks``, ``faults``, ``lines``,
``search_info``) and the host's ``values``, ``checks`` and ``channel``.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import AsyncIterator, Mapping, Sequence

from gamerec.recorder.errors import GamerecError, excerpt
from gamerec.recorder.syntax import GameSyntax, syntax_named
from gamerec.validator.players.bounds import MAX_HOST_LINE_BYTES
from gamerec.validator.players.clocks import ClockState
from gamerec.validator.players.faults import EngineFailedError, EngineFault, FaultCode
from gamerec.validator.players.host.channel import EnginePipes
from gamerec.validator.players.host.checks import (
    _canonical,
    _command_words,
    _identity_of,
    _with_readable_pv,
)
from gamerec.validator.players.host.values import (
    EngineIdentity,
    EngineLimits,
    EngineMove,
    Transcript,
    _RequestError,
)
from gamerec.validator.players.lines import (
    EngineError,
    GameOver,
    Go,
    Hello,
    HelloDone,
    HostError,
    Identity,
    Info,
    MoveAnswer,
    NewGame,
    Ping,
    Plays,
    Pong,
    Position,
    Ready,
    one_line,
)
from gamerec.validator.players.search_info import SearchInfo


class EngineProcess(EnginePipes):
    """One engine process and the conversation with it; build it with :meth:`start`."""

    def __init__(
        self,
        process: asyncio.subprocess.Process,
        command: tuple[str, ...],
        limits: EngineLimits,
        transcript: Transcript | None,
    ) -> None:
        """Wrap a started process (use :meth:`start`, which also shakes hands)."""
        super().__init__(process, command, limits, transcript)
        self._identity = EngineIdentity(name="")
        self._game: GameSyntax | None = None
        self._seat = 0
        self._pings = itertools.count(1)

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
