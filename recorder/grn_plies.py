"""A GRN ply's bytes: its move serialized as its parent message holds it, built and kept.

The reader (``gamerec.recorder.grn``) keeps every plain ply (move token, glyph, and the seat,
clock and timestamp commands a writer puts in its comment) as bytes: the field key of the
line's ``moves``, the length, and the move's fields in the order of their numbers, exactly as
``Move.SerializeToString()`` writes them. A line's plies
are then parsed into their parent in one call, and a judge keys the moves by the same bytes
(``grn.read_grn_main_line``). Tokens and plies recur across an archive, so what is built is
kept, in tables bounded whatever the input.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from typing import Final, TypeGuard, cast

from google.protobuf.descriptor import Descriptor

from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.grn_lexer import PLY_PARTS
from gamerec.recorder.grn_seal import ply_seal_bytes
from gamerec.recorder.grn_values import (
    WRITERS_CLOCK_TEXT,
    clock_bytes,
    parse_uint32,
    timestamp_bytes,
)
from gamerec.recorder.grn_writer import GLYPHS
from gamerec.recorder.notation import GameValue, parse_action
from gamerec.recorder.syntax import syntax_of
from gamerec.recorder.time_fields import (
    WRITERS_TIME_TEXT,
    clock_field,
    clock_seconds,
    timestamp_field,
    writers_times_fields,
)
from gamerec.recorder.wire import encode_varint, field_body
from gamerec.v1 import record_pb2 as pb

#: The field keys of ``Move.seat`` (field 1, varint), ``Move.glyph`` (field 10, varint) and
#: ``Move.comment`` (field 9, length-delimited; the clock's and timestamp's: ``time_fields``).
_MOVE_SEAT_KEY = b"\x08"
_MOVE_GLYPH_KEY = b"\x50"
_MOVE_COMMENT_KEY = b"\x4a"
#: A ply without commands.
_NO_COMMANDS: Final[frozenset[str]] = frozenset()
#: The field keys of ``GameRecord.moves`` (field 5) and ``Variation.moves`` (field 1).
RECORD_MOVES: Final = b"\x2a"
#: The field key of ``GameRecord.seats`` (field 3).
RECORD_SEATS: Final = b"\x1a"
VARIATION_MOVES: Final = b"\x0a"

#: The glyph of each glyph's text (``!?``).
GLYPHS_BY_TEXT: Final = {text: glyph for glyph, text in GLYPHS.items() if text}
#: Each glyph's ``glyph`` field.
_GLYPH_FIELDS = {text: _MOVE_GLYPH_KEY + bytes([glyph]) for text, glyph in GLYPHS_BY_TEXT.items()}

#: Per game, once known: the field of ``Move`` of its own action and that field's key when
#: its turns are lists of parts written joined by ``,`` (``e5,f5,k9``), else None.
_JOINED_ACTIONS: dict[GameValue, tuple[str, bytes] | None] = {}
#: The longest token (and part of a turn) whose bytes are kept: tables bounded in memory.
_TOKEN_CHARS_KEPT: Final = 64


def entry(key: bytes, body: bytes) -> bytes:
    """A length-delimited field: its key, the length of ``body``, ``body``."""
    return key + encode_varint(len(body)) + body


def action_bytes(game: GameValue, token: str) -> bytes:
    """A move token's action, serialized: ``parse_action(game, token).SerializeToString()``.

    Tokens recur and building the message costs the most, so a short token's bytes are kept.
    A turn of several parts seen for the first time is put together from its parts' bytes,
    kept apart (an Oust archive holds thousands of distinct turns of a few dozen cells).

    Raises:
        NotationError: the token is not a move of the game.
    """
    if len(token) <= _TOKEN_CHARS_KEPT:
        return _kept_action_bytes(game, token)
    return _action_bytes(game, token)


def _action_bytes(game: GameValue, token: str) -> bytes:
    if "," in token and token.isascii() and token.replace(",", "").isalnum():
        joined = _joined_action_bytes(game, token.split(","))
        if joined is not None:
            return joined
    return parse_action(game, token).SerializeToString()


_kept_action_bytes = lru_cache(maxsize=32768)(_action_bytes)


def _joined_action_bytes(game: GameValue, parts: list[str]) -> bytes | None:
    """A turn's action from its parts' bytes, or None when that is not known to be the same.

    The same bytes as :func:`parse_action`'s when the game's turns are lists of parts joined
    by ``,`` (:func:`_joined_action`): the turn's message is then its parts' entries in
    order, each part's bytes are its own one-part message. None when a part does not read
    alone (the whole token is read, for its error) or the game's turns are no such lists.
    """
    bodies = [_part_body(game, part) if len(part) <= _TOKEN_CHARS_KEPT else None for part in parts]
    joined = _joined_action(game, parts[0]) if bodies[0] is not None else None
    if joined is None or None in bodies:
        return None
    return entry(joined[1], b"".join(cast(list[bytes], bodies)))


def _joined_action(game: GameValue, part: str) -> tuple[str, bytes] | None:
    """The game's action field and key if its turns are lists of parts joined by ``,``.

    Found once per game from its syntax: the action's message has one field, a list of
    messages, and the syntax writes a turn of a part twice as the part, ``,``, the part, and
    reads that back as the same turn (``part`` reads alone as one entry).
    """
    if game in _JOINED_ACTIONS:
        return _JOINED_ACTIONS[game]
    syntax = syntax_of(game)
    if syntax is None:
        return None
    field = pb.Move.DESCRIPTOR.fields_by_name[syntax.action]
    found = None
    if _is_a_list(field.message_type):
        twice = parse_action(game, part)
        written = syntax.format_move(getattr(twice, syntax.action))
        entries = getattr(getattr(twice, syntax.action), field.message_type.fields[0].name)
        entries.extend(list(entries))
        if (
            syntax.format_move(getattr(twice, syntax.action)) == f"{written},{written}"
            and parse_action(game, f"{written},{written}") == twice
        ):
            found = (syntax.action, bytes([field.number << 3 | 2]))
    _JOINED_ACTIONS[game] = found
    return found


def _is_a_list(message: Descriptor | None) -> TypeGuard[Descriptor]:
    """Whether a message has one field, a list of messages."""
    if message is None or len(message.fields) != 1:
        return False
    only = message.fields[0]
    return bool(only.is_repeated) and only.message_type is not None


@lru_cache(maxsize=4096)
def _part_body(game: GameValue, part: str) -> bytes | None:
    """The bytes of a one-part turn's message (one entry of its list), or None.

    None when the part is not a move of the game alone (``pass`` reads as another action).
    """
    syntax = syntax_of(game)
    try:
        move = parse_action(game, part)
    except RecordMalformedError:
        return None
    if syntax is None or move.WhichOneof("action") != syntax.action:
        return None
    body: bytes = getattr(move, syntax.action).SerializeToString()
    return body


def parse_ply_bytes(data: bytes) -> pb.Move:
    """The move of one kept ply's bytes (its field key and length first)."""
    return pb.Variation.FromString(VARIATION_MOVES + data[1:]).moves[0]


def _ply_bytes(
    key: bytes,
    game: GameValue,
    token: str,
    seat: str | None,
    glyph: str,
    *,
    comment: bytes = b"",
    times: bytes = b"",
) -> bytes:
    """A plain ply (move token, seat command, glyph) as its parent holds it: key, length, move.

    The move's bytes are its seat field, its action's, ``comment`` (its comment field), its
    glyph field and ``times`` (its clock and timestamp fields, :func:`command_fields`): the
    fields in the order of their numbers, exactly as ``Move.SerializeToString()`` writes them
    (a judge keys the moves it has read by these bytes, ``grn.read_grn_main_line``), so a move
    not seen before costs its action only (the reader keeps the plies it made,
    :data:`PLY_BYTES`).

    Raises:
        RecordMalformedError: the token is not a move of the game, or the seat is not one.
    """
    body = action_bytes(game, token) + comment
    if seat is not None:
        body = _seat_field(seat) + body
    if glyph:
        body += _GLYPH_FIELDS[glyph]
    return entry(key, body + times)


def command_fields(commands: str) -> tuple[str | None, bytes]:
    """The seat's argument and the clock and timestamp fields a plain ply's commands give.

    ``commands`` is ``grn_lexer.PLY_PARTS``' third part; the seat's argument is None without
    a seat command. ``[%clk]`` and ``[%ts]`` are read by the readers the token-by-token path uses
    (``parse_clock``, ``parse_timestamp``), and a field set by a command is present even when
    its value is zero, as there.

    Raises:
        RecordMalformedError: a command given twice, or an argument the command refuses.
    """
    written = _WRITERS_COMMANDS.fullmatch(commands)
    if written is not None:
        found = _written_fields(written)
        if found is not None:
            return found
    arguments: dict[str, str] = {}
    for command in commands[2:-1].split("] [%"):
        name, _, argument = command.partition(" ")
        if name not in _MOVE_COMMANDS:  # a seal entry is the reader's (run_seals), not the move's
            raise RecordMalformedError(f"[%{name}] is not a command of the move")
        if name in arguments:
            raise RecordMalformedError(f"this move already has a [%{name}] command")
        arguments[name] = argument
    times = b""
    clock = arguments.get("clk")
    if clock is not None:
        times = clock_field(clock_bytes(clock))
    stamp = arguments.get("ts")
    if stamp is not None:
        times += timestamp_field(timestamp_bytes(stamp))
    return arguments.get("seat"), times


#: The three commands as a writer writes them, in its order and forms: a seat, a clock of
#: ``grn_values.clock_bytes``' writers' form and a UTC time (``time_fields.WRITERS_TIME``),
#: read in one match.
_WRITERS_COMMANDS: Final = re.compile(
    r"\[%seat ([0-9]{1,9})\] \[%clk "
    + WRITERS_CLOCK_TEXT
    + r"\] \[%ts "
    + WRITERS_TIME_TEXT
    + r"\]"
)


def _written_fields(found: re.Match[str]) -> tuple[str, bytes] | None:
    """:func:`command_fields` of a writer's three commands, from their match.

    ``found``: a match of :data:`_WRITERS_COMMANDS`' groups (seat; clock's hours, minutes,
    seconds, fraction; time's day, hours, minutes, seconds, fraction). None when the time's day
    does not exist (the general reading then refuses it).
    """
    seat, hours, minutes, whole, fraction = found.group(1, 2, 3, 4, 5)
    fields = writers_times_fields(
        clock_seconds(hours, minutes, whole),
        fraction,
        found.string[found.start(6) : found.end(8)],
        *found.group(9, 10),
    )
    return None if fields is None else (seat, fields)


#: The commands whose values are the move's fields.
_MOVE_COMMANDS: Final = frozenset({"seat", "clk", "ts"})
#: Where a ply's seal entry starts in its rest (the run admits it last among the commands).
_SEAL_OPENING: Final = "[%seal "


def run_seals(rests: Sequence[str], unsealed: int) -> tuple[list[str], list[bytes]]:
    """The rests of a run's plies without their seal entries, and those entries' bytes.

    ``rests`` are the plies' rests (``grn_lexer.PLAIN_PLY``) up to where the run may read;
    ``unsealed`` is how many plies of the line before the run have no entry (the line's
    moves less the record's entries so far), or -1 when no ply of the run may carry one (a
    variation, or a record without a ``Seal`` tag). Entries must be those of plies 1, 2, ...
    in turn, as the token-by-token reader requires (``grn_reader.RecordReader._ply_seal``), so
    the plies that carry one are the first of the run, and only when ``unsealed`` is 0. Each
    entry is read by ``grn_seal.ply_seal_bytes``, as that reader reads it. A rest without its
    entry is the text of the same ply without that command, so that its move is looked up as
    any ply's. The lists stop before the first ply with an entry out of turn or an entry the
    reader refuses (that ply is left to the token-by-token reading, which places the error).
    """
    stripped: list[str] = []
    seals: list[bytes] = []
    for rest in rests:
        start = rest.find(_SEAL_OPENING)
        if start < 0:
            stripped.append(rest)
            continue
        if unsealed or len(seals) != len(stripped):
            break
        try:
            seals.append(ply_seal_bytes(rest[start + len(_SEAL_OPENING) : -2]))
        except RecordMalformedError:
            break
        # After another command, the entry goes with the space before it; alone, its comment
        # goes with the white space before that.
        before = rest[: start - 1]
        stripped.append(before + "}" if rest[start - 1] == " " else before.rstrip())
    return stripped, seals


def command_names(rest: str) -> frozenset[str]:
    """The names of the commands a plain ply's rest (``grn_lexer.PLAIN_PLY``) gives."""
    start = rest.rfind("{[%")  # a comment of words holds no bracket
    if start < 0:
        return _NO_COMMANDS
    commands = rest[start + 3 : -2]
    return frozenset(command.partition(" ")[0] for command in commands.split("] [%"))


@lru_cache(maxsize=256)
def _seat_field(argument: str) -> bytes:
    """The ``seat`` field of a move (field 1, a varint) for a seat command's argument."""
    number = seat_number(argument)
    return _MOVE_SEAT_KEY + encode_varint(number) if number else b""


@lru_cache(maxsize=256)
def seat_number(argument: str) -> int:
    """The seat number of a seat command's argument.

    Raises:
        RecordMalformedError: not a whole number within uint32.
    """
    return parse_uint32(argument, "a seat number")


#: The text of the ply numbers up to a few thousand, to compare a run's numbers at once.
_PLY_NUMBERS: Final = tuple(str(number) for number in range(4096))
#: Plain plies read, by line key and game: the rest of the ply's text (move, glyph, seat
#: command, as ``grn_lexer.PLAIN_PLY`` gives it) to its bytes. Bounded whatever the input: at
#: most eight tables (two keys, four games), each emptied when it holds 16,384 plies, each
#: ply's text at most 32 characters (a longer one is not kept): a few megabytes at most.
PLY_BYTES: dict[tuple[bytes, GameValue], dict[str, bytes]] = {}
PLY_BYTES_ENTRIES: Final = 16384
PLY_TEXT_KEPT: Final = 32


def _keep(known: dict[str, bytes], text: str, ply: bytes) -> None:
    """Keep a ply read by its text, within the bounds of its table (a long text is not kept)."""
    if len(text) <= PLY_TEXT_KEPT:
        if len(known) >= PLY_BYTES_ENTRIES:
            known.clear()
        known[text] = ply


def numbered(numbers: Sequence[str], first: int) -> int:
    """How many of a run's ply numbers, from the first, are ``first``, ``first + 1``, ..."""
    last = first + len(numbers)
    if last <= len(_PLY_NUMBERS):
        expected: Sequence[str] = _PLY_NUMBERS[first:last]
    else:
        expected = tuple(map(str, range(first, last)))
    if numbers == expected:
        return len(numbers)
    return next(read for read, (a, b) in enumerate(zip(numbers, expected, strict=True)) if a != b)


def plain_ply_bytes(
    rests: Sequence[str], known: dict[str, bytes], key: bytes, game: GameValue, max_comment: int
) -> list[bytes]:
    """The bytes of a run's plies, from their texts, as far as they are moves of the game.

    A ply not found in ``known`` is read and kept there (only those are read one by one:
    the others are looked up at once), but for a ply with a comment of words, whose length is
    checked against ``max_comment`` (the comment-chars limit) each time. The run stops at a
    token that is not a move of the game, or a comment over the limit (the token-by-token
    reading places the error).
    """
    kept: list[bytes | None] = list(map(known.get, rests))
    if None in kept:
        with_words = WORDS_PLY_BYTES.setdefault((key, game), {})
        for index in [index for index, ply in enumerate(kept) if ply is None]:
            rest = rests[index]
            ply = known.get(rest)  # read already if it came earlier in this run
            if ply is None:
                said = with_words.get(rest)
                # A comment over the limit is read again below, which stops the run there.
                ply = said[0] if said is not None and said[1] <= max_comment else None
            if ply is None:
                ply = _timed_ply(rest, known, key, game, max_comment)
            if ply is None:
                move, glyph, words, commands = PLY_PARTS.fullmatch(rest).groups()  # type: ignore[union-attr]
                try:
                    seat, times = command_fields(commands) if commands else (None, b"")
                    comment = _comment_field(words, max_comment) if words else b""
                    ply = _ply_bytes(
                        key, game, move, seat, glyph or "", comment=comment, times=times
                    )
                except RecordMalformedError:
                    return cast("list[bytes]", kept[:index])  # no None before index
                if words is None:
                    _keep(known, rest, ply)
                elif not times:
                    _keep_with_words(with_words, rest, ply, len(words.strip()))
            kept[index] = ply
    return cast("list[bytes]", kept)


#: Plies with a comment of words read, by line key and game: the ply's text to its bytes and
#: its comment's length, which is checked against the comment-chars limit at every reading.
#: Bounded whatever the input: at most eight tables of at most 4,096 plies, each ply's text at
#: most 64 characters (a longer one is not kept).
WORDS_PLY_BYTES: dict[tuple[bytes, GameValue], dict[str, tuple[bytes, int]]] = {}
WORDS_PLY_ENTRIES: Final = 4096
WORDS_PLY_TEXT_KEPT: Final = 64


def _keep_with_words(
    with_words: dict[str, tuple[bytes, int]], text: str, ply: bytes, comment_chars: int
) -> None:
    """Keep a ply with a comment of words, within the bounds of its table."""
    if len(text) <= WORDS_PLY_TEXT_KEPT:
        if len(with_words) >= WORDS_PLY_ENTRIES:
            with_words.clear()
        with_words[text] = (ply, comment_chars)


#: A ply's comment of a writer's three commands (:data:`_WRITERS_COMMANDS`), and its opening.
_TIMED_COMMENT: Final = re.compile(r"\{" + _WRITERS_COMMANDS.pattern + r"\}")
_TIMED_OPENING: Final = "{[%seat "


def _timed_ply(
    rest: str, known: dict[str, bytes], key: bytes, game: GameValue, max_comment: int
) -> bytes | None:
    """A ply whose last comment is a writer's seat, clock and time, read from its seat's ply.

    Its bytes are the ply with its seat alone (its text up to the seat command, looked up in
    ``known``, or read and kept there as any ply by :func:`plain_ply_bytes`), then its times'
    fields (:func:`command_fields`' own, last in a move's bytes): the bytes of reading the
    whole ply. A clock and a time on every move make every ply's text its own; this way only
    the times are read. None for any other rest, a time on a day that does not exist, or a
    ply that does not read (the whole text is then read, which refuses it).
    """
    if not rest.endswith("Z]}"):  # a writer's time is UTC, written last
        return None
    start = rest.rfind(_TIMED_OPENING)
    found = _TIMED_COMMENT.fullmatch(rest, start) if start >= 0 else None
    fields = None if found is None else _written_fields(found)
    if found is None or fields is None:
        return None
    seated = rest[: found.end(1) + 1] + "}"
    ply = known.get(seated)
    if ply is None:
        read = plain_ply_bytes([seated], known, key, game, max_comment)
        if not read:
            return None
        ply = read[0]
    return entry(key, field_body(ply) + fields[1])


def _comment_field(words: str, max_comment: int) -> bytes:
    """The ``comment`` field of a ply's comment of words (none when it is only white space).

    Raises:
        RecordMalformedError: the comment is longer than ``max_comment`` characters.
    """
    text = words.strip()  # as grn_lines.split_comment strips each piece
    if len(text) > max_comment:
        raise RecordMalformedError(f"a comment of {len(text)} characters")
    return entry(_MOVE_COMMENT_KEY, text.encode()) if text else b""


#: A run of plain plies that all carry a seat command is read from its words (:func:`seated_run`):
#: the seat command's opening with the space or new line before it is first replaced by one
#: character no GRN text holds unread, so that the run splits at white space into two words a
#: ply (``12.``, then ``c7!?`` + that character + the seat's digits + ``]}``).
_SEAT_OPENINGS: Final = (" {[%seat ", "\n{[%seat ")
_SEAT_MARK: Final = "\x00"
#: The words of the ply numbers up to a few thousand, as a run writes them (``12.``).
_PLY_WORDS: Final = [f"{number}." for number in range(4096)]
#: Plies read by :func:`seated_run`, by line key and game: the ply's word (move, glyph, mark,
#: seat) to its bytes. Bounded as :data:`PLY_BYTES`: at most eight tables of at most 16,384
#: entries, each word at most :data:`PLY_TEXT_KEPT` characters.
SEATED_PLY_BYTES: dict[tuple[bytes, GameValue], dict[str, bytes]] = {}


def seated_run(text: str, first: int, room: int, key: bytes, game: GameValue) -> list[bytes] | None:
    """The bytes of the plies of ``text`` if it holds nothing but plain plies with seats.

    ``text`` is the rest of a record's move text from a plain ply on. It is read so when it
    is, but for white space, ``12. c7!? {[%seat 2]}`` again and again (the record's usual
    move text): plies numbered ``first``, ``first + 1``... without a leading zero, each a move
    of the game with at most a glyph, then one space or new line and its seat command with one
    space before the number; at most ``room`` of them. These are the plies
    :data:`grn_lexer.PLAIN_PLIES` finds in such a text, read as ``grn_lexer.PLY_TOKEN`` reads
    them, up to the end of the text. None for any other text (the run is then read by its
    ``findall``, which places any error).
    """
    if _SEAT_MARK in text:
        return None
    before_space, before_line = _SEAT_OPENINGS
    words = text.replace(before_space, _SEAT_MARK).replace(before_line, _SEAT_MARK).split()
    count, extra = divmod(len(words), 2)
    if extra or not 0 < count <= room or words[0::2] != _ply_words(first, first + count):
        return None
    known = SEATED_PLY_BYTES.setdefault((key, game), {})
    plies: list[bytes | None] = list(map(known.get, words[1::2]))
    if None not in plies:
        return cast("list[bytes]", plies)
    for index in [index for index, ply in enumerate(plies) if ply is None]:
        word = words[2 * index + 1]
        ply = known.get(word)  # read already if it came earlier in this run
        if ply is None:
            ply = _seated_ply_bytes(key, game, word)
            if ply is None:
                return None
            _keep(known, word, ply)
        plies[index] = ply
    return cast("list[bytes]", plies)


def _ply_words(first: int, last: int) -> list[str]:
    """The words of the ply numbers ``first`` to ``last - 1`` (``12.``)."""
    if last <= len(_PLY_WORDS):
        return _PLY_WORDS[first:last]
    return [f"{number}." for number in range(first, last)]


def _seated_ply_bytes(key: bytes, game: GameValue, word: str) -> bytes | None:
    """A ply's bytes from its word, or None if it is not a plain ply with a seat.

    The word is a move token with at most a glyph (``c7!?``), the seat command's mark, the
    seat's digits and ``]}``; None too when the move is not one of the game or the seat is
    past a seat number's range.
    """
    move, mark, seat = word.partition(_SEAT_MARK)
    number = seat[:-2]
    if not mark or not seat.endswith("]}") or not (number.isascii() and number.isdigit()):
        return None
    token, glyph = move, ""
    if not (move.isascii() and move.replace(",", "").isalnum()):  # else a glyph, or no move
        parts = PLY_PARTS.fullmatch(move)
        if parts is None:
            return None
        token, glyph = parts[1], parts[2] or ""
    try:
        return _ply_bytes(key, game, token, number, glyph)
    except RecordMalformedError:
        return None
