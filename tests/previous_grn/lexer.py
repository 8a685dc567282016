"""The streaming GRN lexer of the first release, kept as the oracle of tests/previous_grn/reader.py.

The original docstring: the GRN tokenizer, text to tokens with their line and column.

It reads a text stream chunk by chunk and keeps only the unread part of the current chunk (and
of a token cut by a chunk boundary), so a file of any length is tokenized in constant memory.
Time is linear in the input whatever it holds: a token longer than a chunk makes the next read
as large as the part already held (so the buffer is copied a logarithmic number of times), and
no scan starts again from a token's beginning.

Tokens: a tag pair ``[Name "value"]``, a comment ``{...}`` (raw, still escaped), ``(`` and
``)``, a ply number ``12.``, a move token (letters, digits and commas, e.g. ``c7xc9``,
``e5,f5,k9``, ``4cw``, ``resign``) with the glyph written right after it, a glyph on its own
(``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``), a PGN numeric glyph ``$2``, and a result
(``*``, ``31-24``). Lines and columns are 1-based and count characters.

Deliberately not checked here: whether a tag name is known, whether a token is a move of some
game, whether ply numbers run in order. The reader (``gamerec.recorder.grn``) does that.
"""

from __future__ import annotations

import dataclasses
import enum
import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO

from gamerec.recorder.errors import LimitExceededError, RecordMalformedError

CHUNK_BYTES = 1 << 16
#: The longest token (tag line, comment, move) the lexer accepts, in characters.
DEFAULT_MAX_TOKEN_CHARS = 64 * 1024 * 1024

_SPACE = re.compile(r"\s+")
_TAG = re.compile(r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"((?:[^"\\\r\n]++|\\[^\r\n])*+)"[ \t]*\]')
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_RUN = re.compile(r"[A-Za-z0-9,.*!?$-]*")
_WORD = re.compile(r"[A-Za-z0-9,]+")
_GLYPH = re.compile(r"!!|\?\?|!\?|\?!|!|\?")
_RESULT = re.compile(r"\*|[0-9]+(?:-[0-9]+)+")
_NAG = re.compile(r"\$([0-9]{1,3})")
# A quoted tag value alone (possessive: an unclosed value of any length fails in linear time).
_TAG_VALUE = re.compile(r'"((?:[^"\\\r\n]++|\\[^\r\n])*+)"')
# A comment's body: runs of ordinary characters and escape pairs (a backslash and the next
# character), so it stops at the first unescaped "}" in one linear pass.
_COMMENT_BODY = re.compile(r"(?:[^\\}]++|\\.)*+", re.DOTALL)


class Kind(enum.Enum):
    """The kinds of GRN tokens."""

    TAG = "tag"
    COMMENT = "comment"
    OPEN = "("
    CLOSE = ")"
    PLY = "ply number"
    MOVE = "move"
    GLYPH = "glyph"
    NAG = "numeric glyph"
    RESULT = "result"
    END = "end of input"


@dataclass(frozen=True, slots=True)
class Token:
    """One token and where it starts.

    Attributes:
        kind: what the token is.
        text: TAG: the name; COMMENT: the raw content between the braces; PLY: the digits;
            MOVE: the token; GLYPH: the glyph; NAG: the digits; RESULT: the result.
        value: TAG: the raw (still escaped) value; MOVE: the glyph written right after it.
        line: 1-based line of the first character.
        column: 1-based column of the first character.
        offset: characters before the token in the whole input.
        value_column: TAG only: the column where the value starts (after the quote).
        blank_before: a blank line separates this token from the one before (it ends a
            tag section: notation.md's "tags first, then a blank line").
    """

    kind: Kind
    text: str
    line: int
    column: int
    offset: int
    value: str = ""
    value_column: int = 0
    blank_before: bool = False

    @property
    def where(self) -> str:
        """``line L, column C`` of the token."""
        return f"line {self.line}, column {self.column}"


class _BadUtf8Error(Exception):
    """The byte stream holds a byte sequence that is not UTF-8."""

    def __init__(self, valid_text: str, byte_offset: int, byte: int) -> None:
        self.valid_text = valid_text
        self.byte_offset = byte_offset
        self.byte = byte
        super().__init__(byte_offset)


def utf8_chunks(stream: BinaryIO, chunk_bytes: int = CHUNK_BYTES) -> Iterator[str]:
    """Decode a byte stream as UTF-8, chunk by chunk, dropping a leading byte-order mark.

    A multi-byte character cut by a chunk boundary is carried over to the next chunk.
    """
    pending = b""
    offset = 0
    first = True
    while True:
        chunk = stream.read(chunk_bytes)
        final = not chunk
        data = pending + chunk
        try:
            text = data.decode("utf-8")
            pending = b""
        except UnicodeDecodeError as error:
            if final or error.reason != "unexpected end of data":
                valid = data[: error.start].decode("utf-8")
                raise _BadUtf8Error(valid, offset + error.start, data[error.start]) from None
            text = data[: error.start].decode("utf-8")
            pending = data[error.start :]
        offset += len(data) - len(pending)
        if first and text:
            text = text.removeprefix("\ufeff")
            first = False
        if text:
            yield text
        if final:
            return


class Lexer:
    """Tokens of a GRN text, read from an iterator of text chunks."""

    def __init__(
        self,
        chunks: Iterator[str],
        source: str,
        max_token_chars: int = DEFAULT_MAX_TOKEN_CHARS,
    ) -> None:
        """Start reading ``chunks``; ``source`` names the input in errors."""
        self._chunks = chunks
        self.source = source
        self._max_token_chars = max_token_chars
        self._buffer = ""
        self._position = 0  # index into _buffer
        self._base = 0  # characters of the input before _buffer[0]
        self._line = 1
        self._line_start = 0  # offset (in the whole input) of the current line's start
        self._at_end = False
        self._peeked: Token | None = None

    # -- public ------------------------------------------------------------------------------

    def peek(self) -> Token:
        """The next token, without consuming it."""
        if self._peeked is None:
            self._peeked = self._scan()
        return self._peeked

    def next(self) -> Token:
        """The next token, consumed."""
        token = self.peek()
        self._peeked = None
        return token

    def error(self, reason: str, line: int, column: int) -> RecordMalformedError:
        """A malformed-record error at a place of this input."""
        return RecordMalformedError(
            reason, source=self.source, where=f"line {line}, column {column}"
        )

    # -- reading -----------------------------------------------------------------------------

    def _offset(self) -> int:
        return self._base + self._position

    def _column(self) -> int:
        return self._offset() - self._line_start + 1

    def _fill(self) -> bool:
        """Append more input to the buffer; False at the end of the input.

        Normally one chunk; while a long token is being read, as much again as the buffer
        holds unread, so that the copies of a growing buffer add up to linear time.
        """
        if self._at_end:
            return False
        if self._position > CHUNK_BYTES:
            self._base += self._position
            self._buffer = self._buffer[self._position :]
            self._position = 0
        wanted = max(1, len(self._buffer) - self._position)
        parts: list[str] = []
        got = 0
        try:
            while got < wanted:
                chunk = next(self._chunks)
                parts.append(chunk)
                got += len(chunk)
        except StopIteration:
            self._at_end = True
        except _BadUtf8Error as bad:
            self._buffer += "".join(parts)
            raise self._utf8_error(bad) from None
        self._buffer += "".join(parts)
        return bool(parts)

    def _utf8_error(self, bad: _BadUtf8Error) -> RecordMalformedError:
        text = self._buffer[self._position :] + bad.valid_text
        line, line_start = self._line, self._line_start
        newlines = text.count("\n")
        if newlines:
            line += newlines
            line_start = self._offset() + text.rindex("\n") + 1
        column = self._offset() + len(text) - line_start + 1
        return self.error(
            f"byte {bad.byte_offset} (0x{bad.byte:02x}) is not UTF-8; GRN files are UTF-8 text",
            line,
            column,
        )

    def _ensure(self, count: int) -> bool:
        """Make at least ``count`` unread characters available, if the input has them."""
        while len(self._buffer) - self._position < count:
            if not self._fill():
                return False
        return True

    def _advance(self, end: int) -> None:
        """Consume the buffer up to index ``end``, keeping the line count."""
        newlines = self._buffer.count("\n", self._position, end)
        if newlines:
            self._line += newlines
            self._line_start = self._base + self._buffer.rindex("\n", self._position, end) + 1
        self._position = end

    def _check_length(self, start: int) -> None:
        if len(self._buffer) - start > self._max_token_chars:
            raise LimitExceededError(
                f"a token longer than {self._max_token_chars} characters (limit record-bytes)",
                source=self.source,
                where=f"line {self._line}, column {self._column()}",
                limit="record-bytes",
                value=len(self._buffer) - start,
                maximum=self._max_token_chars,
            )

    def _complete_run(self) -> None:
        """Make the whole run of token characters at the position available.

        Moves, ply numbers, glyphs and results are made of these characters and end where
        the run ends, so after this a plain match cannot be cut by a chunk boundary.
        """
        while True:
            run = _RUN.match(self._buffer, self._position)
            if run is not None and run.end() < len(self._buffer):
                return
            self._check_length(self._position)
            if not self._fill():
                return

    def _skip_space(self) -> bool:
        """Skip white space; tell whether it held a blank line (two line breaks or more)."""
        line = self._line
        while True:
            match = _SPACE.match(self._buffer, self._position)
            if match is not None:
                self._advance(match.end())
            if self._position < len(self._buffer) or not self._fill():
                return self._line - line >= 2

    def _scan(self) -> Token:
        blank_before = self._skip_space()
        line, column, offset = self._line, self._column(), self._offset()
        if not self._ensure(1):
            return Token(Kind.END, "", line, column, offset, blank_before=blank_before)
        char = self._buffer[self._position]
        self._complete_run()
        scanner = {
            "[": self._tag,
            "{": self._comment,
            "(": self._parenthesis,
            ")": self._parenthesis,
            "$": self._nag,
            "!": self._glyph,
            "?": self._glyph,
        }.get(char, self._result_or_word)
        token = scanner(line, column, offset)
        return dataclasses.replace(token, blank_before=True) if blank_before else token

    def _parenthesis(self, line: int, column: int, offset: int) -> Token:
        char = self._buffer[self._position]
        self._advance(self._position + 1)
        return Token(Kind.OPEN if char == "(" else Kind.CLOSE, char, line, column, offset)

    def _result_or_word(self, line: int, column: int, offset: int) -> Token:
        char = self._buffer[self._position]
        if char == "*" or (char.isascii() and char.isdigit()):
            result = _RESULT.match(self._buffer, self._position)
            if result is not None and (result.group() == "*" or "-" in result.group()):
                self._advance(result.end())
                return Token(Kind.RESULT, result.group(), line, column, offset)
        word = _WORD.match(self._buffer, self._position)
        if word is None:
            raise self.error(
                f"unexpected {char!r}; expected a move, a ply number such as 12., "
                "a comment { }, a variation ( ) or a tag [ ]",
                line,
                column,
            )
        return self._word(word, line, column, offset)

    def _word(self, word: re.Match[str], line: int, column: int, offset: int) -> Token:
        text = word.group()
        self._advance(word.end())
        if text.isdigit() and self._buffer.startswith(".", self._position):
            self._advance(self._position + 1)
            return Token(Kind.PLY, text, line, column, offset)
        attached = _GLYPH.match(self._buffer, self._position)
        glyph = attached.group() if attached is not None else ""
        self._advance(self._position + len(glyph))
        return Token(Kind.MOVE, text, line, column, offset, value=glyph)

    def _glyph(self, line: int, column: int, offset: int) -> Token:
        glyph = _GLYPH.match(self._buffer, self._position)
        assert glyph is not None  # the first character is ! or ?
        self._advance(glyph.end())
        return Token(Kind.GLYPH, glyph.group(), line, column, offset)

    def _nag(self, line: int, column: int, offset: int) -> Token:
        nag = _NAG.match(self._buffer, self._position)
        if nag is None:
            raise self.error("expected a numeric glyph such as $1 after '$'", line, column)
        self._advance(nag.end())
        return Token(Kind.NAG, nag.group(1), line, column, offset)

    def _read_line(self) -> None:
        """Make the rest of the current line available (tags never span lines)."""
        searched = self._position
        while self._buffer.find("\n", searched) < 0:
            searched = len(self._buffer) - self._position  # a fill may move the buffer
            self._check_length(self._position)
            if not self._fill():
                return
            searched += self._position

    def _tag(self, line: int, column: int, offset: int) -> Token:
        self._read_line()
        match = _TAG.match(self._buffer, self._position)
        if match is None:
            raise self._tag_error(line, column)
        value_column = column + match.start(2) - self._position
        self._advance(match.end())
        return Token(
            Kind.TAG,
            match.group(1),
            line,
            column,
            offset,
            value=match.group(2),
            value_column=value_column,
        )

    def _tag_error(self, line: int, column: int) -> RecordMalformedError:
        """Say what is wrong with a tag pair that does not match ``[Name "value"]``."""
        end = self._buffer.find("\n", self._position)
        text = self._buffer[self._position : end if end >= 0 else len(self._buffer)]
        at = 1 + len(text[1:]) - len(text[1:].lstrip(" \t"))
        name = _TAG_NAME.match(text, at)
        if name is None:
            return self.error("expected a tag name such as Event after '['", line, column + at)
        at = name.end() + len(text[name.end() :]) - len(text[name.end() :].lstrip(" \t"))
        if text[at : at + 1] != '"':
            return self.error(
                f"expected '\"' to open the value of tag {name.group()}", line, column + at
            )
        closing = _TAG_VALUE.match(text, at)
        if closing is None:
            return self.error(
                f"the value of tag {name.group()} is not closed by '\"' on its line",
                line,
                column + at,
            )
        at = closing.end() + len(text[closing.end() :]) - len(text[closing.end() :].lstrip(" \t"))
        return self.error(f"expected ']' to close tag {name.group()}", line, column + at)

    def _comment(self, line: int, column: int, offset: int) -> Token:
        scanned = 1  # characters after the token start known to hold no unescaped "}"
        while True:
            start = self._position  # a fill may move the buffer, never the position in it
            body = _COMMENT_BODY.match(self._buffer, start + scanned)
            assert body is not None  # the pattern matches the empty string
            close = body.end()
            if close < len(self._buffer) and self._buffer[close] == "}":
                break
            # The end of the buffer, or a backslash whose escaped character is yet unread.
            scanned = close - start
            self._check_length(start)
            if not self._fill():
                raise self.error("this comment is never closed by '}'", line, column)
        raw = self._buffer[start + 1 : close]
        self._advance(close + 1)
        return Token(Kind.COMMENT, raw, line, column, offset)
