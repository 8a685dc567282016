"""The GRN reader of the first release (streaming lexer, token by token), kept as an oracle.

The reader in ``gamerec.recorder.grn`` replaced it; tests hold the two to the same records and
the same errors. Its original docstring follows.

GRN, the text form of records (notation.md): read and write, several records per file.

A record is its tag pairs, a blank line, and its move text. The blank line ends the tag
section: a tag after it starts the next record (so records without moves stay apart); a tag
after move text also starts the next record. Move text holds, per ply: an optional ply
number (checked when present), the move token, an optional glyph, comments, and variations
``( ... )`` that replace the move before them (nestable). A comment before the first move is
the game's comment. Inside comments, ``[%clk h:mm:ss]``, ``[%ts <RFC 3339>]`` and
``[%seat N]`` set the move's clock, timestamp and seat; other ``[%...]`` text stays comment
text. A result marker (``*``, ``31-24``) may end the main line as in PGN: it must agree with
the ``Result`` tag, or stands for it when the tag is absent. PGN numeric glyphs ``$1``-``$6``
read as the six glyphs.

The writer is canonical: tags in a fixed order (``gamerec.recorder.grn_tags``), every ply numbered,
the glyph right after the token, the comment text in its own block ``{ ... }``, the commands
in another (``{[%seat 2] [%clk 0:09:58] [%ts 2026-11-29T20:15:03Z]}``), lines of at most 79
characters where the words allow it, one blank line between records. Escaping is described
in ``gamerec.recorder.grn_values``. Reading a written record gives back an equal message.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, MutableSequence
from dataclasses import dataclass, field
from typing import BinaryIO

from gamerec.recorder.errors import LimitExceededError, RecordMalformedError
from gamerec.recorder.grn_tags import read_result_claim, read_tag
from gamerec.recorder.grn_values import (
    parse_clock,
    parse_timestamp,
    parse_uint32,
    unescape,
)
from gamerec.recorder.limits import HARDEST_VARIATION_DEPTH, Limits, exceeded, resolved
from gamerec.recorder.notation import parse_action
from gamerec.recorder.syntax import game_names, known_games
from gamerec.v1 import record_pb2 as pb
from tests.previous_grn.lexer import DEFAULT_MAX_TOKEN_CHARS, Kind, Lexer, Token, utf8_chunks

#: The deepest nesting of variations. The protobuf decoders stop at 100 nested messages; a
#: variation level takes two (Variation, Move) and a move's own action two more (OneMove,
#: OnePoint), so 48 levels is the deepest at which every record GRN reads can also be read
#: back from binary and JSON. The reader's limit (``Limits.max_variation_depth``) is at most
#: this.
MAX_VARIATION_DEPTH = HARDEST_VARIATION_DEPTH
#: The largest record, in characters, the reader accepts (the same bound as a binary frame).
DEFAULT_MAX_RECORD_CHARS = 64 * 1024 * 1024
LINE_WIDTH = 79

GLYPHS: dict[pb.Glyph.ValueType, str] = {
    pb.GLYPH_UNSPECIFIED: "",
    pb.GLYPH_GOOD: "!",
    pb.GLYPH_MISTAKE: "?",
    pb.GLYPH_BRILLIANT: "!!",
    pb.GLYPH_BLUNDER: "??",
    pb.GLYPH_INTERESTING: "!?",
    pb.GLYPH_DUBIOUS: "?!",
}
_GLYPHS_BY_TEXT = {text: glyph for glyph, text in GLYPHS.items() if text}
_COMMAND = re.compile(r"\\.|\[%([A-Za-z]+)(?:\s+([^\]]*))?\]", re.DOTALL)
_COMMANDS = ("seat", "clk", "ts")


# -- reading -----------------------------------------------------------------------------------


def read_grn(
    stream: BinaryIO,
    source: str,
    *,
    max_record_chars: int | None = None,
    limits: Limits | None = None,
) -> Iterator[pb.GameRecord]:
    """Read the records of a GRN byte stream, one at a time.

    Args:
        stream: UTF-8 GRN text (a leading byte-order mark is skipped).
        source: the name of the input, for error messages.
        max_record_chars: the longest record accepted, in characters (overrides
            ``limits.max_record_bytes``).
        limits: the limits every record is checked against as it is read (default
            ``DEFAULT_LIMITS``); an error names the line and column where a limit is passed.

    Raises:
        RecordMalformedError: the text is not GRN; the error names the line and column.
        LimitExceededError: a record exceeds a limit (size, plies, moves, variation depth,
            tags, tag length, seats, comment length).
    """
    limits = resolved(limits, max_record_chars)
    token_limit = min(limits.max_record_bytes, DEFAULT_MAX_TOKEN_CHARS)
    lexer = Lexer(utf8_chunks(stream), source, token_limit)
    while True:
        token = lexer.peek()
        if token.kind is Kind.END:
            return
        if token.kind is not Kind.TAG:
            example = f'[Game "{game_names()[0]}"]'
            raise _error(lexer, token, f"expected a tag such as {example} to start a record")
        yield _RecordReader(lexer, limits).read()


def _error(lexer: Lexer, token: Token, reason: str) -> RecordMalformedError:
    return lexer.error(reason, token.line, token.column)


def _placed(lexer: Lexer, error: RecordMalformedError, line: int, column: int) -> Exception:
    """The same error, placed at a line and column of the input."""
    where = f"line {line}, column {column}"
    if isinstance(error, LimitExceededError):
        return LimitExceededError(
            error.reason,
            source=lexer.source,
            where=where,
            limit=error.limit,
            value=error.value,
            maximum=error.maximum,
        )
    return type(error)(error.reason, source=lexer.source, where=where)


@dataclass(slots=True)
class _Line:
    """A line of moves being read: the main line or a variation."""

    moves: MutableSequence[pb.Move]
    first_ply: int
    opened_by: Token | None = None
    last: pb.Move | None = None
    commands: set[str] = field(default_factory=set)

    def next_ply(self) -> int:
        return self.first_ply + len(self.moves)


class _RecordReader:
    """Reads one record: the tag section, then the move text."""

    def __init__(self, lexer: Lexer, limits: Limits) -> None:
        self.lexer = lexer
        self.record = pb.GameRecord()
        self.start = lexer.peek()
        self.limits = limits
        self.moves_read = 0
        self.lines = [_Line(self.record.moves, 1)]
        self.pending_ply: Token | None = None
        self.result_tag: str | None = None

    def read(self) -> pb.GameRecord:
        self._read_tags()
        handlers = {
            Kind.PLY: self._ply,
            Kind.MOVE: self._move,
            Kind.GLYPH: self._glyph,
            Kind.NAG: self._glyph,
            Kind.COMMENT: self._comment,
            Kind.OPEN: self._open,
            Kind.CLOSE: self._close,
            Kind.RESULT: self._result,
        }
        while self.lexer.peek().kind not in (Kind.TAG, Kind.END):
            token = self._next()
            handlers[token.kind](token)
        self._finish()
        return self.record

    def _next(self) -> Token:
        token = self.lexer.next()
        length = token.offset - self.start.offset
        if length > self.limits.max_record_bytes:
            raise self._exceeded(
                token,
                "max_record_bytes",
                f"the record starting at line {self.start.line} has at least ",
                length,
                "characters",
            )
        return token

    def _fail(self, token: Token, reason: str) -> RecordMalformedError:
        return _error(self.lexer, token, reason)

    def _exceeded(
        self, token: Token, limit: str, prefix: str, value: int, unit: str, *, column: int = 0
    ) -> LimitExceededError:
        where = f"line {token.line}, column {column or token.column}"
        maximum: int = getattr(self.limits, limit)
        return exceeded(limit, prefix, value, unit, maximum, source=self.lexer.source, where=where)

    # -- tags ---------------------------------------------------------------------------------

    def _read_tags(self) -> None:
        tags = [self._next()]
        while self.lexer.peek().kind is Kind.TAG and not self.lexer.peek().blank_before:
            tags.append(self._next())
        by_name: dict[str, Token] = {}
        for tag in tags:
            first = by_name.setdefault(tag.text.lower(), tag)
            if first is not tag:
                raise self._fail(tag, f"tag {tag.text} is given twice (first on line {first.line})")
        game = by_name.get("game")
        if game is None:
            raise self._fail(
                self.start,
                f'this record has no Game tag; expected [Game "..."] naming {known_games(" or ")}',
            )
        for tag in [game, *(tag for tag in tags if tag is not game)]:
            self._read_tag(tag)
        if "result" in by_name:
            self.result_tag = unescape(by_name["result"].value)

    def _read_tag(self, tag: Token) -> None:
        if len(tag.text) > self.limits.max_tag_chars:
            length = len(tag.text)
            raise self._exceeded(tag, "max_tag_chars", "a tag name of ", length, "characters")
        value = unescape(tag.value)
        if len(value) > self.limits.max_tag_chars:
            raise self._exceeded(
                tag,
                "max_tag_chars",
                f"tag {tag.text}: ",
                len(value),
                "characters",
                column=tag.value_column,
            )
        try:
            read_tag(self.record, tag.text, value, max_seats=self.limits.max_seats)
        except RecordMalformedError as error:
            raise _placed(self.lexer, error, tag.line, tag.value_column) from None
        extra_tags = len(self.record.metadata.extra_tags)
        if extra_tags > self.limits.max_tags:
            raise self._exceeded(tag, "max_tags", "the record has ", extra_tags, "free tags")

    # -- move text ----------------------------------------------------------------------------

    @property
    def _line(self) -> _Line:
        return self.lines[-1]

    def _no_pending_ply(self, token: Token) -> None:
        if self.pending_ply is not None:
            raise self._fail(token, f"expected a move after ply number {self.pending_ply.text}")

    def _ply(self, token: Token) -> None:
        self._no_pending_ply(token)
        expected = self._line.next_ply()
        if token.text.lstrip("0") != str(expected):
            raise self._fail(token, f"expected ply number {expected}, found {token.text}")
        self.pending_ply = token

    def _move(self, token: Token) -> None:
        try:
            action = parse_action(self.record.rules.game, token.text)
        except RecordMalformedError as error:
            raise _placed(self.lexer, error, token.line, token.column) from None
        line = self._line
        self._count_move(token, line)
        line.moves.append(action)
        line.last = line.moves[-1]
        line.commands = set()
        self.pending_ply = None
        if token.value:
            line.last.glyph = _GLYPHS_BY_TEXT[token.value]

    def _count_move(self, token: Token, line: _Line) -> None:
        """Check the plies and moves limits before one more move is kept."""
        self._count_in_tree(token)
        if len(self.lines) == 1 and len(line.moves) >= self.limits.max_plies:
            plies = len(line.moves) + 1
            raise self._exceeded(token, "max_plies", "the main line has at least ", plies, "plies")

    def _count_in_tree(self, token: Token) -> None:
        """Count one more move or variation against the moves limit."""
        self.moves_read += 1
        if self.moves_read > self.limits.max_moves:
            unit = "moves and variations"
            raise self._exceeded(
                token, "max_moves", "the record has at least ", self.moves_read, unit
            )

    def _glyph(self, token: Token) -> None:
        self._no_pending_ply(token)
        move = self._line.last
        if move is None:
            raise self._fail(token, "a glyph must follow the move it judges")
        if token.kind is Kind.NAG:
            number = int(token.text)
            if not 1 <= number <= len(_GLYPHS_BY_TEXT):
                raise self._fail(token, f"${number} is not a glyph gamerec keeps (only $1 to $6)")
            glyph: pb.Glyph.ValueType = pb.Glyph.ValueType(number)
        else:
            glyph = _GLYPHS_BY_TEXT[token.text]
        if move.glyph:
            raise self._fail(token, "this move already has a glyph; a move has one at most")
        move.glyph = glyph

    def _comment(self, token: Token) -> None:
        self._no_pending_ply(token)
        pieces, commands = _split_comment(token.text)
        line = self._line
        if line.last is None and len(self.lines) > 1:
            raise self._fail(
                token, "a comment at the start of a variation has no move to belong to"
            )
        if line.last is None:
            if commands:
                raise self._place_in_comment(
                    token,
                    commands[0][2],
                    RecordMalformedError(
                        f"[%{commands[0][0]}] needs a move; a comment before the first move "
                        "is the game's comment"
                    ),
                )
            self.record.comment = _joined(self.record.comment, pieces)
            self._check_comment(token, self.record.comment)
            return
        line.last.comment = _joined(line.last.comment, pieces)
        self._check_comment(token, line.last.comment)
        for name, argument, offset in commands:
            try:
                self._apply_command(line, name, argument)
            except RecordMalformedError as error:
                raise self._place_in_comment(token, offset, error) from None

    def _check_comment(self, token: Token, comment: str) -> None:
        if len(comment) > self.limits.max_comment_chars:
            raise self._exceeded(
                token, "max_comment_chars", "a comment of ", len(comment), "characters"
            )

    def _apply_command(self, line: _Line, name: str, argument: str) -> None:
        assert line.last is not None
        if not argument:
            raise RecordMalformedError(f"[%{name}] needs a value")
        if name in line.commands:
            raise RecordMalformedError(f"this move already has a [%{name}] command")
        line.commands.add(name)
        if name == "clk":
            line.last.clock.CopyFrom(parse_clock(argument))
        elif name == "ts":
            line.last.timestamp.CopyFrom(parse_timestamp(argument))
        else:
            line.last.seat = parse_uint32(argument, "a seat number")

    def _place_in_comment(
        self, token: Token, offset: int, error: RecordMalformedError
    ) -> Exception:
        before = token.text[:offset]
        newlines = before.count("\n")
        column = len(before) - before.rindex("\n") if newlines else token.column + 1 + len(before)
        return _placed(self.lexer, error, token.line + newlines, column)

    def _open(self, token: Token) -> None:
        self._no_pending_ply(token)
        line = self._line
        if line.last is None:
            raise self._fail(token, "a variation must follow the move it replaces")
        if len(self.lines) > self.limits.max_variation_depth:
            depth = len(self.lines)
            unit = "deep"
            raise self._exceeded(token, "max_variation_depth", "variations nested ", depth, unit)
        self._count_in_tree(token)
        variation = line.last.variations.add()
        self.lines.append(_Line(variation.moves, line.next_ply() - 1, opened_by=token))

    def _close(self, token: Token) -> None:
        self._no_pending_ply(token)
        if len(self.lines) == 1:
            raise self._fail(token, "')' closes no variation")
        self.lines.pop()

    def _result(self, token: Token) -> None:
        self._no_pending_ply(token)
        if len(self.lines) > 1:
            raise self._fail(token, "a result marker may only end the main line")
        following = self.lexer.peek()
        if following.kind not in (Kind.TAG, Kind.END):
            raise self._fail(following, "only the next record may follow the result marker")
        if self.result_tag is None:
            read_result_claim(self.record.result, token.text)
        elif self.result_tag != token.text:
            raise self._fail(
                token,
                f"the result marker {token.text} differs from the Result tag {self.result_tag}",
            )

    def _finish(self) -> None:
        end = self.lexer.peek()
        self._no_pending_ply(end)
        if len(self.lines) > 1:
            opened = self._line.opened_by
            assert opened is not None
            raise self._fail(opened, "this variation is never closed by ')'")


def _split_comment(raw: str) -> tuple[list[str], list[tuple[str, str, int]]]:
    r"""Split a raw comment into its text pieces and its commands (name, argument, offset).

    Escapes are skipped over, so ``\\[%clk ...]`` is text. Unknown commands stay text.
    """
    pieces: list[str] = []
    commands: list[tuple[str, str, int]] = []
    start = 0
    # No command can start after the last "]"; stopping there keeps a comment full of
    # unclosed "[%clk " linear (each would otherwise scan to the end in vain).
    for match in _COMMAND.finditer(raw, 0, raw.rfind("]") + 1):
        name = (match.group(1) or "").lower()
        if name not in _COMMANDS:
            continue
        argument = (match.group(2) or "").strip()
        pieces.append(raw[start : match.start()])
        commands.append((name, argument, match.start()))
        start = match.end()
    pieces.append(raw[start:])
    return [unescape(piece.strip()) for piece in pieces if piece.strip()], commands


def _joined(existing: str, pieces: list[str]) -> str:
    """A comment with more text pieces appended, joined by single spaces."""
    return " ".join([existing, *pieces] if existing else pieces)
