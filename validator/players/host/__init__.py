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

The package's modules: ``values`` (limits, identity, answers), ``checks`` (pure readings of
what an engine wrote), ``channel`` (:class:`EnginePipes`: the process, its pipes, deadlines,
faults and stopping) and ``process`` (:class:`EngineProcess`: the protocol's requests).
"""

from __future__ import annotations

from gamerec.validator.players.host.channel import EnginePipes
from gamerec.validator.players.host.process import EngineProcess, running_engine
from gamerec.validator.players.host.values import (
    EngineIdentity,
    EngineLimits,
    EngineMove,
    EngineStoppedError,
    Transcript,
)

__all__ = [
    "EngineIdentity",
    "EngineLimits",
    "EngineMove",
    "EnginePipes",
    "EngineProcess",
    "EngineStoppedError",
    "Transcript",
    "running_engine",
]
