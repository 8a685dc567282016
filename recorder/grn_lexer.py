"""GRN text, cut into records and tokens. Nothing here is game-specific.

Two steps, so that a collection can be decoded on every core:

1. :func:`split_records` cuts a byte stream into the bytes of each record. It only looks for
   what ends a record: a tag ``[Name "value"]`` that follows move text, or that follows a
   blank line (a broken tag ends nothing: its record reports it). It skips comments (which
   may hold anything) and reads the stream chunk by chunk, keeping only the record in
   progress, so a file of any length is cut in constant memory. It does not decode the
   text: UTF-8 never puts an ASCII byte inside a character, so the bytes it looks for
   cannot be part of another character.
2. :func:`scan` tokenizes one record's text in one pass of a compiled regular expression,
   and :func:`decode_record_text` turns a record's bytes into text, placing a byte that is not
   UTF-8 at its line and column.

Tokens: a tag pair ``[Name "value"]``, a comment ``{...}`` (raw, still escaped), ``(`` and
``)``, a ply number ``12.``, a move token (letters, digits and commas, e.g. ``c7xc9``,
``e5,f5,k9``, ``4cw``, ``resign``) with the glyph written right after it, a glyph on its own
(``!``, ``?``, ``!!``, ``??``, ``!?``, ``?!``), a PGN numeric glyph ``$2``, and a result
(``*``, ``31-24``). Lines and columns are 1-based and count characters.

Deliberately not checked here: whether a tag name is known, whether a token is a move of some
game, whether ply numbers run in order. The reader (``gamerec.recorder.grn``) does that.
"""

from __future__ import annotations

import enum
import re
from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass
from typing import BinaryIO, Final

from gamerec.recorder.errors import LimitExceededError, RecordMalformedError

CHUNK_BYTES: Final = 1 << 20
BOM: Final = b"\xef\xbb\xbf"

_TAG_BODY = r'\[[ \t]*([A-Za-z][A-Za-z0-9_]*)[ \t]*"((?:[^"\\\r\n]++|\\[^\r\n])*+)"[ \t]*\]'
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
# A quoted tag value alone (possessive: an unclosed value of any length fails in linear time).
_TAG_VALUE = re.compile(r'"((?:[^"\\\r\n]++|\\[^\r\n])*+)"')
_GLYPH = r"!!|\?\?|!\?|\?!|!|\?"
#: The glyphs a move may carry, as alternatives of a pattern.
GLYPH_PATTERN: Final = _GLYPH


def _uncaptured(pattern: str) -> str:
    """``pattern`` with its groups made non-capturing (it has no escaped ``(``)."""
    return pattern.replace("(", "(?:").replace("(?:?", "(?")


#: The alternatives of one token, in the order they are tried. A comment's body is runs of
#: ordinary characters and escape pairs, so it stops at the first unescaped "}" in one
#: linear pass.
_KINDS = (
    r"""
        (?P<tag>\[[ \t]*(?P<tag_name>[A-Za-z][A-Za-z0-9_]*)[ \t]*
            "(?P<tag_value>(?:[^"\\\r\n]++|\\[^\r\n])*+)"[ \t]*\])
      | (?P<comment>\{(?P<comment_body>(?:[^\\}]++|\\.)*+)\})
      | (?P<result>\*|[0-9]+(?:-[0-9]+)+)
      | (?P<ply>[0-9]+)\.
      | (?P<move>(?P<move_token>[A-Za-z0-9,]+)(?P<move_glyph>"""
    + _GLYPH
    + r""")?)
      | (?P<glyph>"""
    + _GLYPH
    + r""")
      | \$(?P<nag>[0-9]{1,3})
      | (?P<open>\()
      | (?P<close>\))
      | (?P<bad>.)
      | (?P<end>\Z)
"""
)
#: One token of a record's text after optional white space.
TOKEN: Final = re.compile(r"\s*+(?:" + _KINDS + ")", re.VERBOSE | re.DOTALL)
#: The same tokens, with one more alternative tried first: the ply that makes most of a
#: record, ``12. c7xc9!? {[%seat 2]}`` (ply number, move, glyph, seat), as one match. It
#: matches only what :data:`TOKEN` reads as those same tokens: the move token is not followed
#: by ``-`` and a digit (a result) nor, after a digit, by ``.`` (a ply number).
PLY_TOKEN: Final = re.compile(
    r"""\s*+(?:
        (?P<whole_ply>(?P<ply_number>[0-9]+)\.\s*+
            (?P<ply_move>[A-Za-z0-9,]++)(?!-[0-9]|(?<=[0-9])\.)(?P<ply_glyph>"""
    + _GLYPH
    + r""")?
            (?:\s*+(?P<ply_comment>\{\[%seat\ (?P<ply_seat>[0-9]+)\]\}))?)
      | """
    + _KINDS
    + ")",
    re.VERBOSE | re.DOTALL,
)
#: The comment of a plain ply: one to three of the commands a writer puts there, ``[%seat 2]``,
#: ``[%clk 0:09:58]`` and ``[%ts 2026-11-29T20:15:03Z]``, one space apart, each argument a
#: word without white space, brackets, braces or backslashes (so the comment is one comment
#: token, and its commands are those ``grn_lines.split_comment`` finds, with no text), then
#: maybe the ply's seal entry last, as a writer puts it: ``[%seal <head> 1:<signature>]``, each
#: of its words such a word, one space apart. The arguments are read as the commands read them
#: (``grn_plies.plain_ply_bytes``, ``grn_plies.run_seals``); a ply whose comment they refuse,
#: or that gives a command twice, ends the run and is read token by token.
_PLY_COMMAND = r"\[%(?:seat|clk|ts)\ [^\]\\{}\s]++\]"
_PLY_SEAL = r"\[%seal\ [^\]\\{}\s]++(?:\ [^\]\\{}\s]++)*+\]"
_PLY_COMMANDS = (
    r"(?:" + _PLY_COMMAND + r"(?:\ " + _PLY_COMMAND + r"){0,2}(?:\ " + _PLY_SEAL + r")?"
    r"|" + _PLY_SEAL + r")"
)
_PLY_COMMENT = r"\{" + _PLY_COMMANDS + r"\}"
#: The text of a plain ply's comment of words: at most 1,000 characters, none of them a
#: backslash, brace or bracket (so it is one comment token, with no escape and no command).
_PLY_TEXT = r"[^\\{}\[\]]{0,1000}+"
#: One plain ply as :data:`PLY_TOKEN`'s ``whole_ply`` reads it (but for a comment of words
#: and a comment of times too), as two groups for ``findall`` over a run of them: the ply
#: number, and the rest (move, glyph, words, commands) as written, which :data:`PLY_PARTS`
#: splits. The rest is the same text for the same ply wherever it stands, so a reader can keep
#: what it read of it.
_PLAIN_PLY = (
    r"""\s*+([0-9]+)\.\s*+([A-Za-z0-9,]++(?!-[0-9]|(?<=[0-9])\.)(?:"""
    + _GLYPH
    + r""")?(?:\s*+\{"""
    + _PLY_TEXT
    + r"""\})?(?:\s*+"""
    + _PLY_COMMENT
    + r""")?)"""
)
PLAIN_PLY: Final = re.compile(_PLAIN_PLY)
#: The rest of a plain ply (:data:`PLAIN_PLY`'s second group) in its four parts: move, glyph,
#: the words of its comment, the commands between the braces of the next (None when absent).
PLY_PARTS: Final = re.compile(
    r"([A-Za-z0-9,]+)(" + _GLYPH + r")?(?:\s*+\{(" + _PLY_TEXT + r")\})?"
    r"(?:\s*+\{(" + _PLY_COMMANDS + r")\})?"
)
#: A run of plain plies one after the other (the same pattern, its groups not capturing).
PLAIN_RUN: Final = re.compile("(?:" + _uncaptured(_PLAIN_PLY) + ")++")
#: The run of plain plies from a place on, for ``findall``: ``(number, rest, "")`` a ply,
#: then ``("", "", stop)`` (once or twice): ``stop`` is ``""`` when only white space follows
#: the run, else the first character after it. The text after the run is skipped in one step
#: (``.*`` in DOTALL mode), so the list costs what the plies cost, and a run that goes on
#: to the end of the text needs no :data:`PLAIN_RUN` to find where it ends.
PLAIN_PLIES: Final = re.compile(
    r"\s*+(?:" + _PLAIN_PLY.removeprefix(r"\s*+") + r"|(.?).*)", re.DOTALL
)
#: One tag pair alone, its name and raw value as groups (a line of a tag section).
TAG_BODY: Final = re.compile(_TAG_BODY)
#: One tag pair after optional white space, its name and raw value as groups (for ``findall``).
TAG_PAIR: Final = re.compile(r"\s*+" + _TAG_BODY)
#: The run of tag pairs a record starts with (maybe none): the tokens before the move text.
TAG_RUN: Final = re.compile("(?:" + _uncaptured(TAG_PAIR.pattern) + ")*+")
#: The group of a kind's main text, and of its second part (tag value, glyph after a move).
GROUPS: Final = {
    "tag": ("tag_name", "tag_value"),
    "comment": ("comment_body", ""),
    "result": ("result", ""),
    "ply": ("ply", ""),
    "move": ("move_token", "move_glyph"),
    "glyph": ("glyph", ""),
    "nag": ("nag", ""),
    "open": ("open", ""),
    "close": ("close", ""),
}

# What ends a record, for the splitter (bytes). Tried at each place: a well-formed tag (a tag
# token), with the tags that follow it with no blank line between (they end no record, so
# the tags of a record are one match); a broken tag with the rest of its line (move text: it
# stays in its record, whose reader reports it); a comment that is not closed before the end
# of what is scanned (the splitter reads on); else move text, as one run of text and closed
# comments, so that the move text of a whole record is one match. White space before a
# token is not matched. A comment is matched as runs of ordinary bytes between escape pairs,
# and move text as runs of text between comments: no alternation to try at each byte.
_COMMENT_BYTES = rb"\{[^\\}]*+(?:\\.[^\\}]*+)*+\}"
_SPLIT = re.compile(
    rb"("
    + _TAG_BODY.encode()
    + rb"(?:[ \t\r\f\v]*+(?:\n[ \t\r\f\v]*+)?"
    + _uncaptured(_TAG_BODY).encode()
    + rb")*+)|\[[^\n]*+|(\{(?:[^\\}]++|\\.)*+\Z)|(?:[^\s{\[]|"
    + _COMMENT_BYTES
    + rb")[^{\[]*+(?:"
    + _COMMENT_BYTES
    + rb"[^{\[]*+)*+",
    re.DOTALL,
)


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


KINDS: Final = {
    "tag": Kind.TAG,
    "comment": Kind.COMMENT,
    "result": Kind.RESULT,
    "ply": Kind.PLY,
    "move": Kind.MOVE,
    "glyph": Kind.GLYPH,
    "nag": Kind.NAG,
    "open": Kind.OPEN,
    "close": Kind.CLOSE,
    "end": Kind.END,
}


# -- places ------------------------------------------------------------------------------------


class Places:
    """Lines and columns of a record's text, found from character indices when asked for.

    Args:
        text: the record's text.
        source: the input's name, for errors.
        line: the line of the input the text starts on.
        column: the column of the input the text starts at.
        offset: characters of the input before the text.
    """

    __slots__ = ("_newlines", "column", "line", "offset", "source", "text")

    def __init__(self, text: str, source: str, line: int = 1, column: int = 1, offset: int = 0):
        """Remember where the text starts; newlines are found on the first question."""
        self.text = text
        self.source = source
        self.line = line
        self.column = column
        self.offset = offset
        self._newlines: list[int] | None = None

    def line_column(self, index: int) -> tuple[int, int]:
        """The input's line and column of the character at ``index`` of the text."""
        if self._newlines is None:
            self._newlines = [match.start() for match in re.finditer("\n", self.text)]
        before = bisect_right(self._newlines, index - 1)
        if not before:
            return self.line, self.column + index
        return self.line + before, index - self._newlines[before - 1]

    def where(self, index: int) -> str:
        """``line L, column C`` of the character at ``index``."""
        line, column = self.line_column(index)
        return f"line {line}, column {column}"

    def error(self, reason: str, index: int) -> RecordMalformedError:
        """A malformed-record error at the character at ``index``."""
        return RecordMalformedError(reason, source=self.source, where=self.where(index))


# -- tokens ------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Token:
    """One token and where it starts (the tokenizer's answer for readers and tests).

    Attributes:
        kind: what the token is.
        text: TAG: the name; COMMENT: the raw content between the braces; PLY: the digits;
            MOVE: the token; GLYPH: the glyph; NAG: the digits; RESULT: the result.
        line: 1-based line of the first character.
        column: 1-based column of the first character.
        offset: characters before the token in the whole input.
        value: TAG: the raw (still escaped) value; MOVE: the glyph written right after it.
        value_column: TAG only: the column where the value starts (after the quote).
    """

    kind: Kind
    text: str
    line: int
    column: int
    offset: int
    value: str = ""
    value_column: int = 0

    @property
    def where(self) -> str:
        """``line L, column C`` of the token."""
        return f"line {self.line}, column {self.column}"


def token_error(places: Places, match: re.Match[str]) -> RecordMalformedError:
    """The error of a character no token starts with (a broken tag, ``;``, an open comment)."""
    index = match.start("bad")
    char = places.text[index]
    if char == "[":
        return tag_error(places, index)
    if char == "{":
        return places.error("this comment is never closed by '}'", index)
    if char == "$":
        return places.error("expected a numeric glyph such as $1 after '$'", index)
    return places.error(
        f"unexpected {char!r}; expected a move, a ply number such as 12., "
        "a comment { }, a variation ( ) or a tag [ ]",
        index,
    )


def tag_error(places: Places, index: int) -> RecordMalformedError:
    """Say what is wrong with a tag pair at ``index`` that does not match ``[Name "value"]``."""
    end = places.text.find("\n", index)
    text = places.text[index : end if end >= 0 else len(places.text)]
    at = 1 + len(text[1:]) - len(text[1:].lstrip(" \t"))
    name = _TAG_NAME.match(text, at)
    if name is None:
        return places.error("expected a tag name such as Event after '['", index + at)
    at = name.end() + len(text[name.end() :]) - len(text[name.end() :].lstrip(" \t"))
    if text[at : at + 1] != '"':
        return places.error(f"expected '\"' to open the value of tag {name.group()}", index + at)
    closing = _TAG_VALUE.match(text, at)
    if closing is None:
        return places.error(
            f"the value of tag {name.group()} is not closed by '\"' on its line", index + at
        )
    at = closing.end() + len(text[closing.end() :]) - len(text[closing.end() :].lstrip(" \t"))
    return places.error(f"expected ']' to close tag {name.group()}", index + at)


def token_of(places: Places, match: re.Match[str]) -> Token:
    """The :class:`Token` of one match of :data:`TOKEN` (``bad`` matches raise their error)."""
    kind = match.lastgroup
    if kind == "bad":
        raise token_error(places, match)
    assert kind is not None
    if kind == "end":
        line, column = places.line_column(match.end())
        return Token(Kind.END, "", line, column, places.offset + match.end())
    main, second = GROUPS[kind]
    start = match.start(kind) - (kind == "nag")  # a numeric glyph starts at its "$"
    line, column = places.line_column(start)
    value = (match.group(second) or "") if second else ""
    value_column = places.line_column(match.start("tag_value"))[1] if kind == "tag" else 0
    return Token(
        KINDS[kind], match.group(main), line, column, places.offset + start, value, value_column
    )


def scan(places: Places) -> Iterator[Token]:
    """Every token of a record's text, then one END token.

    Raises:
        RecordMalformedError: a character no token starts with, at its place.
    """
    for match in TOKEN.finditer(places.text):
        token = token_of(places, match)
        yield token
        if token.kind is Kind.END:
            return


# -- decoding ----------------------------------------------------------------------------------


def decode_record_text(data: bytes, places_of: tuple[str, int, int, int, int]) -> str:
    """A record's bytes as text; a byte that is not UTF-8 is an error at its line and column.

    Args:
        data: the record's bytes.
        places_of: the input's name, the record's first line and column, and the byte and
            character offsets of the record in the input.

    Raises:
        RecordMalformedError: a byte sequence is not UTF-8.
    """
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        source, line, column, byte_offset, offset = places_of
        valid = data[: error.start].decode("utf-8")
        places = Places(valid, source, line, column, offset)
        raise places.error(
            f"byte {byte_offset + error.start} (0x{data[error.start]:02x}) is not UTF-8; "
            "GRN files are UTF-8 text",
            len(valid),
        ) from None


# -- splitting a stream into records -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class RawRecord:
    """The bytes of one GRN record and where they start in the input.

    Attributes:
        data: the record's bytes (its text, still encoded).
        line: the line of the input the record starts on.
        column: the column of the input it starts at (1 unless it follows move text on its
            line).
        byte_offset: bytes of the input before the record (a byte-order mark included).
        offset: characters of the input before the record.
    """

    data: bytes
    line: int
    column: int
    byte_offset: int
    offset: int


class _Cut:
    """The state of the splitter between chunks: the record in progress and where it stands."""

    __slots__ = (
        "buffer",
        "chars_before",
        "column",
        "content",
        "line",
        "scanned",
        "start",
        "tag_end",
    )

    def __init__(self) -> None:
        self.buffer = b""
        self.start = 0  # index in the buffer where the record in progress starts
        self.scanned = 0  # index in the buffer up to which the splitter has looked
        self.content = False  # the record in progress holds more than tags
        self.tag_end = -1  # where its last tag ended (-1: none yet)
        self.line = 1  # the line the record in progress starts on
        self.column = 1  # and its column
        self.chars_before = 0

    def advance(self, data: bytes) -> None:
        """Move the start of the record in progress past ``data`` (the record just cut)."""
        newline = data.rfind(b"\n")
        if newline >= 0:
            self.line += data.count(b"\n")
            self.column = _characters(data[newline + 1 :]) + 1
        else:
            self.column += _characters(data)
        self.chars_before += _characters(data)


def _characters(data: bytes) -> int:
    """The characters UTF-8 bytes hold (continuation bytes do not start one)."""
    if data.isascii():  # most records: one byte a character, found without a copy
        return len(data)
    return len(data) - len(data.translate(None, _NOT_CONTINUATION))


_NOT_CONTINUATION: Final = bytes(range(0x80)) + bytes(range(0xC0, 0x100))


def split_records(
    stream: BinaryIO, source: str, max_record_chars: int, chunk_bytes: int = CHUNK_BYTES
) -> Iterator[RawRecord]:
    """Cut a GRN byte stream into its records, in constant memory.

    A record ends where a tag starts after move text or after a blank line (notation.md:
    tags first, one per line, then a blank line, then the move text). Text before the first
    tag is a record of its own, which its reader refuses.

    Raises:
        LimitExceededError: a record holds more than ``max_record_chars`` characters.
    """
    cut = _Cut()
    byte_base = 0  # bytes of the input before the buffer
    first = True
    while True:
        chunk = stream.read(max(chunk_bytes, len(cut.buffer) - cut.start))
        at_end = not chunk
        if first:
            first = False
            if chunk.startswith(BOM):
                chunk, byte_base = chunk[len(BOM) :], len(BOM)
        buffer = cut.buffer = cut.buffer + chunk
        end = len(buffer) if at_end else buffer.rfind(b"\n") + 1
        for data, line, column, start, chars_before in _cut_records(cut, end, at_end):
            yield RawRecord(data, line, column, byte_base + start, chars_before)
        _check_size(cut, source, max_record_chars)
        if at_end:
            last = buffer[cut.start :]
            if last.strip():
                yield RawRecord(last, cut.line, cut.column, byte_base + cut.start, cut.chars_before)
            return
        if cut.start:
            byte_base += cut.start
            cut.buffer = buffer[cut.start :]
            cut.scanned -= cut.start
            cut.tag_end = cut.tag_end - cut.start if cut.tag_end >= 0 else -1
            cut.start = 0


def _cut_records(cut: _Cut, end: int, at_end: bool) -> Iterator[tuple[bytes, int, int, int, int]]:
    """The records that end before ``end``.

    Each as its data, first line and column, index in the buffer, and the characters of the
    input before it. The move text after a record's tags is passed over at once when it is
    plain (:func:`_plain_move_text`).
    """
    buffer = cut.buffer
    position = cut.scanned
    while (match := _SPLIT.search(buffer, position, end)) is not None:
        position = match.end()
        if match.group(4) is not None and not at_end:  # a comment not closed yet: read on
            cut.scanned = match.start()
            return
        if match.group(1) is None:  # move text, comments, a broken tag
            cut.content = True
            continue
        tag = match.start()
        blank = cut.tag_end >= 0 and buffer.count(b"\n", cut.tag_end, tag) >= 2
        if cut.content or blank:
            data = buffer[cut.start : tag]
            if data and not data.isspace():  # (strip() would copy it)
                yield data, cut.line, cut.column, cut.start, cut.chars_before
            cut.advance(data)
            cut.start, cut.content = tag, False
        cut.tag_end = position
        passed = _plain_move_text(buffer, position, end)
        if passed > position:
            position, cut.content = passed, True
    cut.scanned = end


def _plain_move_text(buffer: bytes, start: int, end: int) -> int:
    """Where :data:`_SPLIT`'s matches from ``start`` reach, if that is plain; else ``start``.

    The text up to the next line that starts with ``[`` (or up to ``end``) is read by
    :data:`_SPLIT` as white space and then one match of move text, which ends at that ``[``,
    when it holds no backslash, every ``[`` in it comes right after a ``{`` (so it is inside
    a comment) and its last ``{`` is closed by a ``}`` in it (so every comment is): the move
    text of nearly every record, whose comments are ``{[%seat N]}``. Returns where that
    match ends, or ``start`` when the text is not so, or only white space.
    """
    stop = buffer.find(b"\n[", start, end)
    stop = end if stop < 0 else stop + 1
    if (
        _SPACES.match(buffer, start, stop).end() == stop  # type: ignore[union-attr] # it matches
        or buffer.find(b"\\", start, stop) >= 0
        or buffer.count(b"[", start, stop) != buffer.count(b"{[", start, stop)
        or buffer.rfind(b"}", start, stop) < buffer.rfind(b"{", start, stop)
    ):
        return start
    return stop


_SPACES: Final = re.compile(rb"\s*+")


def _check_size(cut: _Cut, source: str, max_record_chars: int) -> None:
    """Refuse a record in progress that is already longer than the limit."""
    pending = cut.buffer[cut.start :]
    if len(pending) > max_record_chars and (length := _characters(pending)) > max_record_chars:
        raise LimitExceededError(
            f"the record starting at line {cut.line} has at least {length:,} characters, more "
            f"than the limit of {max_record_chars:,} (limit record-bytes)",
            source=source,
            where=f"line {cut.line}, column 1",
            limit="record-bytes",
            value=length,
            maximum=max_record_chars,
        )
