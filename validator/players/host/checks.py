"""What the host reads in an engine's words: pure functions, no process, no event loop.

The bounds of its output (:func:`_overflow`), its command line, the identity its handshake
gives, a move token and a ``pv`` made canonical, the sentence of its exit status. It imports
``recorder`` (errors, notation, syntax), ``players.faults``, ``players.lines``,
``players.search_info`` and the host's :mod:`~gamerec.validator.players.host.values`.
"""

from __future__ import annotations

import shlex
import signal
from collections.abc import Mapping, Sequence

from gamerec.recorder.errors import NotationError, excerpt
from gamerec.recorder.notation import format_action, parse_action
from gamerec.recorder.syntax import GameSyntax
from gamerec.validator.players.faults import EngineFailedError, EngineFault, FaultCode
from gamerec.validator.players.host.values import (
    EngineIdentity,
    EngineLimits,
    _Overflow,
    _RequestError,
)
from gamerec.validator.players.lines import PROTOCOL_VERSION
from gamerec.validator.players.search_info import SearchInfo


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
