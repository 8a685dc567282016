"""What can go wrong with an engine, as typed outcomes a referee turns into a ruling.

Every way an engine can fail its seat is an :class:`EngineFault` with a stable code (a
:class:`FaultCode`, API like the rules' reason codes), one sentence that says what happened
(bounded, quoting the engine's words through ``excerpt``), the phase of the conversation, and
what the process left behind: its exit status or signal and the last lines of its standard
error. The host raises :class:`EngineFailedError` carrying the fault; the caller decides what
it costs (the local engine game: the seat forfeits the game).
"""

from __future__ import annotations

import enum
from dataclasses import dataclass

from gamerec.recorder.errors import GamerecError, bounded, excerpt


class FaultCode(enum.StrEnum):
    """Why an engine failed its seat (docs/engine-protocol.md, "Faults")."""

    NOT_STARTED = "ENGINE_NOT_STARTED"
    """The command could not be started (no such file, not executable, a bad command line)."""
    EXITED = "ENGINE_EXITED"
    """The engine exited, was killed by a signal, or closed its output."""
    TIMEOUT = "ENGINE_TIMEOUT"
    """No answer in time: past the handshake deadline, or past the seat's time for a move."""
    PROTOCOL = "PROTOCOL_ERROR"
    """A line that is not a message of the protocol, or a message out of turn."""
    LINE_TOO_LONG = "LINE_TOO_LONG"
    """A line longer than the host reads."""
    FLOOD = "OUTPUT_FLOOD"
    """More output for one request than the host reads."""
    REFUSED = "GAME_REFUSED"
    """The engine does not play the game, its variant or its seat count, or answered error."""
    ENGINE_ERROR = "ENGINE_ERROR"
    """The engine answered ``go`` with ``error`` instead of a move."""
    MALFORMED_MOVE = "MALFORMED_MOVE"
    """The answer is not a move token of the game (docs/notation.md)."""
    ILLEGAL_MOVE = "ILLEGAL_MOVE"
    """The move is a token of the game that its rules refuse here (the referee finds it)."""

    @property
    def recoverable(self) -> bool:
        """Whether the engine is still in step with its host after this fault.

        After a refused game, an ``error`` answer, a malformed or an illegal move the engine
        has answered as the protocol says, so the host keeps it (for the next game, or for
        another try where the match allows one). After any other fault the host cannot know
        what the engine will say next, so it stops the process at once.
        """
        return self in _RECOVERABLE


_RECOVERABLE = frozenset(
    {FaultCode.REFUSED, FaultCode.ENGINE_ERROR, FaultCode.MALFORMED_MOVE, FaultCode.ILLEGAL_MOVE}
)


@dataclass(frozen=True, slots=True)
class EngineFault:
    """One engine's failure, with everything a log line or a ruling needs.

    Attributes:
        code: why (see :class:`FaultCode`).
        message: one sentence that says what happened, bounded in size.
        phase: the request under way: ``start``, ``handshake``, ``newgame``, ``go``,
            ``ping`` or ``gameover``.
        ply: for ``go``, the ply the engine was asked to play (1-based); else 0.
        exit_status: the process's exit status, when it exited by itself.
        signal: the signal that killed it (``SIGSEGV``), when one did.
        stderr_tail: the last lines of its standard error, each cut short.
        line: the offending line from the engine, cut short (``""`` when none).
        reason: for an illegal move, the rules' reason code (``OCCUPIED``); else ``""``.
    """

    code: FaultCode
    message: str
    phase: str
    ply: int = 0
    exit_status: int | None = None
    signal: str = ""
    stderr_tail: tuple[str, ...] = ()
    line: str = ""
    reason: str = ""

    def describe(self) -> str:
        """The fault in one sentence, with the process's last words: for logs and records."""
        where = f" on ply {self.ply}" if self.ply else ""
        text = f"{self.code.value} during {self.phase}{where}: {self.message}"
        if self.stderr_tail:
            tail = " | ".join(excerpt(line) for line in self.stderr_tail)
            text += f"; its last standard error: {tail}"
        return bounded(text)


class EngineFailedError(GamerecError):
    """An engine failed its seat; :attr:`fault` says how."""

    def __init__(self, fault: EngineFault) -> None:
        """Wrap the fault; the message is :meth:`EngineFault.describe`."""
        self.fault = fault
        super().__init__(fault.describe())
