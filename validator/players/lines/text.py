"""The text of one line of the engine protocol: its characters, its words, its numbers, its tags.

The checks every message shares (a free text, a word, a count, ``Tag=Value`` tags), the
errors they raise, and :class:`_Words`, one line split into words for the readers of
:mod:`~gamerec.validator.players.lines.host_commands` and
:mod:`~gamerec.validator.players.lines.engine_messages`. Pure text: it imports only
``recorder.errors``.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from typing import Final

from gamerec.recorder.errors import GamerecError, excerpt

#: The protocol version this package reads and writes.
PROTOCOL_VERSION: Final = 1
#: The most digits a number of the protocol may have (so that no line can ask for a huge one).
MAX_DIGITS: Final = 18

_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f\u2028\u2029]")
_WORD = re.compile(r"[^ \t]+")
_NOT_IN_WORD = re.compile(r"[ \t\x00-\x1f\x7f-\x9f\u2028\u2029]")
_SPACE = " \t"
_COUNT = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}")
_SIGNED = re.compile(rf"[+-]?[0-9]{{1,{MAX_DIGITS}}}")
_TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9]*")
_ID_FIELDS: Final = ("name", "author", "version")
#: The GRN tags a ``newgame`` line must hold.
NEWGAME_REQUIRED: Final = ("Game", "Players", "Seat")
#: The ``newgame`` tags that are not the game's variant.
NOT_VARIANT: Final = frozenset({"Game", "Seat", "TimeControl"})


class ProtocolError(GamerecError):
    """A line that is not a message of the protocol; the message names the problem."""


class InfoError(ProtocolError):
    """An ``info`` line that does not follow the grammar of its fields."""


# -- text of one line ---------------------------------------------------------------------------


def one_line(text: str) -> str:
    """``text`` made fit for the end of a line: control characters become spaces, trimmed."""
    return _CONTROL.sub(" ", text).strip(_SPACE)


def _require_text(text: str, what: str) -> None:
    """A free text field must be non-empty, on one line, without space at its ends."""
    if not text or _CONTROL.search(text) or text != text.strip(_SPACE):
        raise ProtocolError(f"{what} must be non-empty text on one line, not {excerpt(text)}")


def _require_word(word: str, what: str) -> None:
    """A word has no space, tab or control character and is not empty."""
    if not word or _CONTROL.search(word) or any(space in word for space in _SPACE):
        raise ProtocolError(f"{what} must be one word, not {excerpt(word)}")


def _require_count(value: int, what: str, least: int = 0) -> None:
    if not least <= value < 10**MAX_DIGITS:
        raise ProtocolError(f"{what} must be a whole number from {least}, not {value}")


# -- reading -----------------------------------------------------------------------------------


class _Words:
    """The words of one line, with the rest of the line after any of them.

    The words are kept as strings, each distinct word once (a ``position`` line of a million
    plies repeats a few hundred tokens), and a word's place in the line is looked up only for
    :meth:`rest`, so a line costs a few bytes a word rather than a match object each.
    """

    def __init__(self, line: str) -> None:
        found = _CONTROL.search(line)
        if found:
            raise ProtocolError(
                f"a line holds the control character U+{ord(found.group()):04X} at column "
                f"{found.start() + 1}: {excerpt(line)}"
            )
        self.line = line
        seen: dict[str, str] = {}
        self.parts = [seen.setdefault(word, word) for word in _words_of(line)]
        if not self.parts:
            raise ProtocolError("an empty line is no message")
        self.keyword = self.parts[0]

    def __len__(self) -> int:
        return len(self.parts)

    def word(self, index: int) -> str:
        return self.parts[index]

    def words(self, start: int) -> tuple[str, ...]:
        return tuple(self.parts[start:])

    def rest(self, index: int) -> str:
        """The line from word ``index`` to its end, or ``""``."""
        if index >= len(self.parts):
            return ""
        for count, match in enumerate(_WORD.finditer(self.line)):
            if count == index:
                return self.line[match.start() :].rstrip(_SPACE)
        raise AssertionError("a word counted but not found")  # pragma: no cover

    def exactly(self, count: int, form: str) -> None:
        """The line has ``count`` words after the keyword, as ``form`` shows."""
        if len(self.parts) != count + 1:
            raise ProtocolError(f"write {form}, not {excerpt(self.line)}")


def _words_of(line: str) -> Iterator[str]:
    """The words of a line, one at a time (separated by runs of spaces and tabs)."""
    for part in line.replace("\t", " ").split(" ") if len(line) < 4096 else _pieces(line):
        if part:
            yield part


def _pieces(line: str) -> Iterator[str]:
    """The words of a long line one at a time, without a list of them all at once."""
    return (match.group() for match in _WORD.finditer(line))


def _count(word: str, what: str, least: int = 0) -> int:
    if not _COUNT.fullmatch(word) or int(word) < least:
        floor = f" of at least {least}" if least else ""
        raise ProtocolError(f"{what} must be a whole number{floor}, not {excerpt(word)}")
    return int(word)


def _tag_count(value: str, tag: str, least: int) -> int:
    return _count(value, f"the tag {tag}", least)


def _checked_tags(
    tags: Sequence[tuple[str, str]], keyword: str, required: Sequence[str]
) -> dict[str, str]:
    """The tags as a mapping, each name a GRN tag name, each value one word, none twice."""
    names: dict[str, str] = {}
    for name, value in tags:
        if not _TAG_NAME.fullmatch(name):
            raise ProtocolError(f"{keyword}: {excerpt(name)} is not a tag name")
        _require_word(value, f"{keyword}: the value of {name}")
        if "=" in value:
            raise ProtocolError(f"{keyword}: the value of {name} holds '=': {excerpt(value)}")
        if name in names:
            raise ProtocolError(f"{keyword}: the tag {name} is given twice")
        names[name] = value
    missing = [name for name in required if name not in names]
    if missing:
        raise ProtocolError(f"{keyword} needs the tag(s) {', '.join(missing)}")
    return names


def _tags_of(words: _Words) -> tuple[tuple[str, str], ...]:
    tags = []
    for word in words.words(1):
        name, equals, value = word.partition("=")
        if not equals:
            raise ProtocolError(f"{words.keyword}: write Tag=Value, not {excerpt(word)}")
        tags.append((name, value))
    return tuple(tags)


def _text_after(words: _Words, form: str) -> str:
    text = words.rest(1)
    if not text:
        raise ProtocolError(f"write {form}, not {excerpt(words.line)}")
    return text


def is_blank(line: str) -> bool:
    """Whether a line is empty or only spaces and tabs (it means nothing; readers skip it)."""
    return not line.strip(_SPACE)
