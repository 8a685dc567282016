"""The values a host hands out and holds an engine to, and the failures of a request.

:class:`EngineLimits` (deadlines and bounds), :class:`EngineIdentity` (the handshake's answer),
:class:`EngineMove` (an answer to ``go``), :class:`EngineStoppedError`, and the two private
values the host's reader and requests pass between them. Pure data: it imports only
``recorder.errors`` and ``players`` modules below the host (``bounds``, ``faults``, ``lines``,
``search_info``).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from gamerec.recorder.errors import GamerecError
from gamerec.validator.players.bounds import MAX_ANSWER_BYTES, MAX_ENGINE_LINE_BYTES
from gamerec.validator.players.faults import FaultCode
from gamerec.validator.players.lines import PROTOCOL_VERSION
from gamerec.validator.players.search_info import SearchInfo

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
