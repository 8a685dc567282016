"""The fuzz target of the engine protocol's line parsers (docs/engine-protocol.md).

The oracle, :func:`line_checked`: a line read the way a host reads what an engine writes
(bytes without the newline, UTF-8, a trailing carriage return dropped) is a message or a
``ProtocolError`` with a bounded sentence, never another exception; a message writes a line
that reads back as the same message. The same holds for an engine's reading of a host's line.
Bytes that are not UTF-8 never reach the parsers (the host refuses them first). The seeds are
the lines of a whole exchange, both ways.
"""

from __future__ import annotations

from gamerec.recorder.errors import MAX_MESSAGE_CHARS
from gamerec.validator.players.lines import ProtocolError, parse_engine_line, parse_host_line

#: Lines of both sides of the protocol, valid and nearly valid, to start mutating from.
SEED_LINES: tuple[bytes, ...] = (
    b"gep 1",
    b"id name Deep Thought 2",
    b"id author A. Programmer",
    b"game ONE 2 3 4",
    b"game Oh-Wah-Ree",
    b"gepok 1",
    b"newgame Game=ONE Players=3 Board=10,10,20,20 Mirror=none Tiebreak=shared Seat=2",
    b"newgame Game=Oust Players=2 Board=7 Pie=on TimeControl=300+3 Seat=1",
    b"ready",
    b"position c7 c8 d14 c7xc9xa5",
    b"go clock 295000,300000,288500 increment 3000 movetime 20000",
    b"go delay 5000 clock 1,2",
    b"info depth 12 score -35 nodes 10234 time 250 pv c8 d14 c7xc9",
    b"info score win 5 string a forced win\r",
    b"info score loss 3 depth 7",
    b"move e5,f5,k9",
    b"move 4ccw",
    b"ping 17",
    b"pong 17",
    b"error position: ply 3 'c9': OCCUPIED",
    b"gameover Result=31-24 Winner=1 Termination=normal",
    b"quit",
)


def line_checked(data: bytes) -> None:
    """Read ``data`` as one line both ways; fail on anything the contract does not allow."""
    try:
        line = data.decode().removesuffix("\r")
    except UnicodeDecodeError:
        return
    for parse in (parse_engine_line, parse_host_line):
        try:
            message = parse(line)
        except ProtocolError as error:
            assert 0 < len(str(error)) <= MAX_MESSAGE_CHARS, str(error)
            continue
        assert parse(message.line()) == message, (line, message)
