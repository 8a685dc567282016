"""The lines of the engine protocol (docs/engine-protocol.md), read and written both ways.

Pure text: no process, no game rules. Every message is a frozen dataclass whose ``line()``
writes it (without the newline); :func:`parse_host_line` reads what a host sends an engine,
:func:`parse_engine_line` what an engine answers. Both raise :class:`ProtocolError` with a
sentence that names the problem and quotes the line (cut short) for anything that is not a
message of the protocol's version 1; a malformed ``info`` line raises :class:`InfoError`, its
subclass, because the host treats it as a warning rather than a fault.

The grammar, in short (the document is the contract):

- a line is UTF-8 text without control characters (a tab separates like a space); words are
  separated by runs of spaces and tabs; keywords are lower case; blank lines mean nothing;
- host to engine: ``gep V``, ``newgame Tag=Value ...``, ``position [MOVE ...]``,
  ``go [clock T1,T2,...] [increment MS] [delay MS] [bronstein MS] [movetime MS]``,
  ``ping WORD``, ``error TEXT``, ``gameover Tag=Value ...``, ``quit``;
- engine to host: ``id name|author|version TEXT``, ``game NAME [SEATS ...]``, ``gepok V``,
  ``ready``, ``info FIELD ...``, ``move MOVE``, ``pong WORD``, ``error TEXT``.

The package's modules: ``text`` (the characters, words, numbers and tags of one line, the
errors), ``host_commands`` (host to engine) and ``engine_messages`` (engine to host).
"""

from __future__ import annotations

from gamerec.validator.players.lines.engine_messages import (
    EngineError,
    EngineMessage,
    HelloDone,
    Identity,
    Info,
    MoveAnswer,
    Plays,
    Pong,
    Ready,
    parse_engine_line,
)
from gamerec.validator.players.lines.host_commands import (
    GameOver,
    Go,
    Hello,
    HostCommand,
    HostError,
    NewGame,
    Ping,
    Position,
    Quit,
    parse_host_line,
)
from gamerec.validator.players.lines.text import (
    MAX_DIGITS,
    NEWGAME_REQUIRED,
    NOT_VARIANT,
    PROTOCOL_VERSION,
    InfoError,
    ProtocolError,
    is_blank,
    one_line,
)

__all__ = [
    "MAX_DIGITS",
    "NEWGAME_REQUIRED",
    "NOT_VARIANT",
    "PROTOCOL_VERSION",
    "EngineError",
    "EngineMessage",
    "GameOver",
    "Go",
    "Hello",
    "HelloDone",
    "HostCommand",
    "HostError",
    "Identity",
    "Info",
    "InfoError",
    "MoveAnswer",
    "NewGame",
    "Ping",
    "Plays",
    "Pong",
    "Position",
    "ProtocolError",
    "Quit",
    "Ready",
    "is_blank",
    "one_line",
    "parse_engine_line",
    "parse_host_line",
]
