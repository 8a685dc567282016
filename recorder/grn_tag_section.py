"""The tag section of a GRN record, read by the base of the record's reader.

``grn_reader.RecordReader`` reads a record's text; the part of it here reads the tags, the
record's first tokens (notation.md: tags first, then a blank line, then the move text), and
holds what the whole reader shares: the text's places, the limits, the tokens and the deadline.
The tags are matched as one run (``grn_lexer.TAG_PAIR``) and what they set is merged in one
call (``grn_tags.tag_fields`` keeps what a recurring tag sets); a tag section that cannot be
read so is read token by token, which places every error at its line and column.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from itertools import islice
from typing import Final, NamedTuple

from gamerec.recorder.errors import (
    DeadlineExceededError,
    LimitExceededError,
    RecordMalformedError,
)
from gamerec.recorder.grn_lexer import (
    PLY_TOKEN,
    TAG_BODY,
    TAG_PAIR,
    TAG_RUN,
    Places,
    token_error,
)
from gamerec.recorder.grn_plies import RECORD_SEATS
from gamerec.recorder.grn_tags import (
    VOLATILE_TAGS,
    TagFields,
    read_tag,
    tag_fields,
)
from gamerec.recorder.grn_values import unescape
from gamerec.recorder.limits import Limits, exceeded
from gamerec.recorder.notation import GameValue
from gamerec.recorder.syntax import game_names, known_games
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb

#: How many tokens the reader reads between two looks at a deadline's clock.
TOKENS_PER_CHECK: Final = 1024


def placed(places: Places, error: RecordMalformedError, index: int) -> Exception:
    """The same error, placed at the character at ``index``."""
    where = places.where(index)
    if isinstance(error, LimitExceededError):
        return LimitExceededError(
            error.reason,
            source=places.source,
            where=where,
            limit=error.limit,
            value=error.value,
            maximum=error.maximum,
        )
    return type(error)(error.reason, source=places.source, where=where)


class Section(NamedTuple):
    """What a tag section sets, kept for the sections of its shape (:data:`SECTIONS`).

    Attributes:
        game: the record's game.
        chunks: the fields the section sets, serialized, cut at the volatile tags (one more
            chunk than ``slots``): the fields are ``chunks[0]``, the first volatile tag's,
            ``chunks[1]``... (the Game tag's first, the seats' last, as a first reading
            merges them).
        slots: the places of the volatile tags among the section's tags.
        longest: the longest name or value (unescaped) of the other tags.
        seat: the highest seat number they name (0: none).
        free: how many free tags they are.
        result: the place of the Result tag (-1: none).
    """

    game: GameValue
    chunks: tuple[bytes, ...]
    slots: tuple[int, ...]
    longest: int
    seat: int
    free: int
    result: int


#: Tag sections read, by their shape: each tag as (name, raw value), but the volatile tags
#: (``grn_tags.VOLATILE_TAGS``, such as Round) by their name alone. Bounded whatever the
#: input: emptied when it holds :data:`SECTIONS_ENTRIES` shapes, and a section of more than
#: :data:`SECTION_CHARS_KEPT` characters (or with a seal tag) is not kept.
SECTIONS: dict[tuple[str | tuple[str, str], ...], Section] = {}
SECTIONS_ENTRIES: Final = 1024
SECTION_CHARS_KEPT: Final = 4096


#: Tag lines read (``[Round "2"]``), to their name and raw value. Bounded whatever the input:
#: emptied when it holds :data:`TAG_LINES_ENTRIES` lines, none longer than
#: :data:`TAG_LINE_CHARS_KEPT` characters kept.
TAG_LINES: dict[str, tuple[str, str]] = {}
TAG_LINES_ENTRIES: Final = 4096
TAG_LINE_CHARS_KEPT: Final = 256


def tag_lines(text: str) -> tuple[list[tuple[str, str]], int] | None:
    """The tag pairs of a record's text that starts with a tag a line, then a blank line.

    Returns the tags (name, raw value) and where they end: what ``grn_lexer.TAG_RUN`` and
    ``TAG_PAIR`` find in such a text (each line is one tag and nothing else, and no tag follows
    the blank line), found by its lines, most of which were read before (:data:`TAG_LINES`).
    None for any other text.
    """
    end = text.find("\n\n")
    if end <= 0:
        return None
    pairs = []
    for line in text[:end].split("\n"):
        pair = TAG_LINES.get(line)
        if pair is None:
            match = TAG_BODY.fullmatch(line)
            if match is None:
                return None
            pair = (match[1], match[2])
            if len(line) <= TAG_LINE_CHARS_KEPT:
                if len(TAG_LINES) >= TAG_LINES_ENTRIES:
                    TAG_LINES.clear()
                TAG_LINES[line] = pair
        pairs.append(pair)
    if TAG_PAIR.match(text, end) is not None:  # a tag after the blank line: the run goes on
        return None
    return pairs, end


def keep_section(shape: tuple[str | tuple[str, str], ...], section: Section) -> None:
    """Keep a section by its shape in :data:`SECTIONS` (emptied first when it is full)."""
    if len(SECTIONS) >= SECTIONS_ENTRIES:
        SECTIONS.clear()
    SECTIONS[shape] = section


def _joined(found: list[tuple[int, TagFields]]) -> bytes:
    """The fields of the tags found, serialized: the others' in order, then each seat's."""
    fields: list[bytes] = []
    seats: dict[int, list[bytes]] = {}
    for _, tag in found:
        if tag.seat:
            seats.setdefault(tag.seat, []).append(tag.data)
        else:
            fields.append(tag.data)
    if seats:
        for number in range(1, max(seats) + 1):
            body = b"".join(seats.get(number, ()))
            fields.append(RECORD_SEATS + encode_varint(len(body)) + body)
    return b"".join(fields)


def _section(
    game: GameValue, pairs: list[tuple[str, str]], found: list[tuple[int, TagFields]], result: int
) -> Section:
    """The :class:`Section` of tags read (``found``: the Game tag's first, no seal tag)."""
    chunks: list[bytes] = []
    slots: list[int] = []
    chunk: list[bytes] = []
    seated: list[tuple[int, TagFields]] = []
    for place, tag in found:
        if tag.seat:
            seated.append((place, tag))
        elif pairs[place][0] in VOLATILE_TAGS:
            chunks.append(b"".join(chunk))
            chunk = []
            slots.append(place)
        else:
            chunk.append(tag.data)
    chunks.append(b"".join(chunk) + _joined(seated))
    fixed = [(pairs[place][0], tag) for place, tag in found if place not in slots]
    return Section(
        game,
        tuple(chunks),
        tuple(slots),
        longest=max(max(len(name), tag.chars) for name, tag in fixed),
        seat=max(tag.seat for _, tag in fixed),
        free=sum(tag.free for _, tag in fixed),
        result=result,
    )


class SectionReader:
    """The base of a record's reader: its text, limits, tokens and deadline, and its tags."""

    def __init__(self, places: Places, limits: Limits, deadline: float | None = None) -> None:
        """Start reading the record's text ``places.text`` under ``limits``."""
        self.places = places
        self.record = pb.GameRecord()
        self.limits = limits
        self.result_tag: str | None = None
        self.deadline = deadline
        self.tokens: Iterator[re.Match[str]] = iter(())
        #: Tokens read so far (a run of plain plies counts a token a ply), for the deadline.
        self.tokens_read = 0

    def _fail(self, index: int, reason: str) -> RecordMalformedError:
        return self.places.error(reason, index)

    def _exceeded(
        self, index: int, limit: str, prefix: str, value: int, unit: str
    ) -> LimitExceededError:
        maximum: int = getattr(self.limits, limit)
        where = self.places.where(index)
        return exceeded(limit, prefix, value, unit, maximum, source=self.places.source, where=where)

    # -- tags ---------------------------------------------------------------------------------

    def _read_tags(self) -> re.Match[str]:
        """Read the tag section; return the first token after it.

        The tags are matched as one run and read at once (:meth:`_read_tag_pairs`); a tag
        section that this cannot read is read again token by token (:meth:`_read_tag_tokens`),
        which raises the error at its place.
        """
        text = self.places.text
        lines = tag_lines(text)
        if lines is None:
            end = TAG_RUN.match(text).end()  # type: ignore[union-attr] # it matches the empty text
            pairs = TAG_PAIR.findall(text, 0, end)
        else:
            pairs, end = lines
        self.tokens_read += len(pairs)
        self._tokens_from(end)
        token = next(self.tokens)
        if token.lastgroup == "bad":  # the token after the tags is read before they are
            raise token_error(self.places, token)
        if not self._read_tag_pairs(pairs, end):
            self.record.Clear()
            self._read_tag_tokens(list(islice(PLY_TOKEN.finditer(text), len(pairs))), token)
        return token

    def _read_tag_pairs(self, pairs: list[tuple[str, str]], chars: int) -> bool:
        """Read the tags (name, raw value) as :meth:`_read_tag_tokens` does, if none is wrong.

        What the tags set (:func:`tag_fields`) is merged in one call at the end (seal tags
        apart). A section of at most :data:`SECTION_CHARS_KEPT` characters (``chars``) is
        kept by its shape (:data:`SECTIONS`), and a section of a shape kept is read from it.
        Returns False, the record half read, at the first thing :meth:`_read_tag_tokens`
        would refuse (or might: it decides).
        """
        shape = None
        if chars <= SECTION_CHARS_KEPT:
            shape = tuple([pair if pair[0] not in VOLATILE_TAGS else pair[0] for pair in pairs])
            known = SECTIONS.get(shape)
            if known is not None and self._read_known(known, pairs):
                return True
        names = [name.lower() for name, _ in pairs]
        if "game" not in names or len(set(names)) < len(names):
            return False
        first = names.index("game")
        try:
            game = tag_fields(pb.GAME_UNSPECIFIED, *pairs[first])
            if game is None or not self._fits(pairs[first][0], game):
                return False
            self.record.MergeFromString(game.data)
            found = self._tag_fields(pairs, first)
        except RecordMalformedError:
            return False
        if found is None:
            return False
        self.record.MergeFromString(_joined(found))
        result = names.index("result") if "result" in names else -1
        if result >= 0:
            self.result_tag = unescape(pairs[result][1])
        if shape is not None and len(found) == len(pairs) - 1:  # no seal tag
            keep_section(
                shape, _section(self.record.rules.game, pairs, [(first, game), *found], result)
            )
        return True

    def _read_known(self, known: Section, pairs: list[tuple[str, str]]) -> bool:
        """Read tags of a shape kept; False, nothing read, where the tags must be read anew.

        The tags but the volatile ones set what they set when the shape was kept, and passed
        its checks then; the volatile tags are read and checked here.
        """
        limits = self.limits
        longest, most_seats = limits.max_tag_chars, limits.max_seats
        if known.longest > longest or known.seat > most_seats or known.free > limits.max_tags:
            return False
        pieces = [known.chunks[0]]
        try:
            for place, chunk in zip(known.slots, known.chunks[1:], strict=True):
                name, raw = pairs[place]
                found = tag_fields(known.game, name, raw)
                if (  # as _fits
                    found is None
                    or len(name) > longest
                    or found.chars > longest
                    or found.seat > most_seats
                ):
                    return False
                pieces += (found.data, chunk)
        except RecordMalformedError:
            return False
        self.record.MergeFromString(b"".join(pieces))
        if known.result >= 0:
            self.result_tag = unescape(pairs[known.result][1])
        return True

    def _fits(self, name: str, fields: TagFields) -> bool:
        """Whether a tag's name and value are within the limits (seats too)."""
        longest = self.limits.max_tag_chars
        return (
            len(name) <= longest
            and fields.chars <= longest
            and fields.seat <= self.limits.max_seats
        )

    def _tag_fields(
        self, pairs: list[tuple[str, str]], first: int
    ) -> list[tuple[int, TagFields]] | None:
        """What each tag but the Game tag (at ``first``) sets, with its place; seal tags are read.

        None at a name or a value too long, a seat past the limit, a free tag too many.

        Raises:
            RecordMalformedError: a value the record cannot hold.
        """
        game = self.record.rules.game
        longest, most_seats = self.limits.max_tag_chars, self.limits.max_seats
        fields: list[tuple[int, TagFields]] = []
        free = 0
        for place, (name, raw) in enumerate(pairs):
            if place == first:
                continue
            found = tag_fields(game, name, raw)
            if found is None:  # a seal tag
                value = unescape(raw)
                if len(name) > longest or len(value) > longest:
                    return None
                read_tag(self.record, name, value, max_seats=most_seats)
                continue
            free += found.free
            if not self._fits(name, found) or free > self.limits.max_tags:
                return None
            fields.append((place, found))
        return fields

    def _read_tag_tokens(self, tags: list[re.Match[str]], token: re.Match[str]) -> None:
        """Read the tags, given as tokens, one by one; ``token`` is the one after them.

        Raises:
            RecordMalformedError: no tag, a tag given twice, no Game tag, a value the record
                cannot hold (at its place).
            LimitExceededError: a tag name or value too long, too many free tags.
        """
        if not tags:
            example = f'[Game "{game_names()[0]}"]'
            index = token.start(token.lastgroup or 0)
            raise self._fail(index, f"expected a tag such as {example} to start a record")
        by_name: dict[str, re.Match[str]] = {}
        for tag in tags:
            first = by_name.setdefault(tag.group("tag_name").lower(), tag)
            if first is not tag:
                line = self.places.line_column(first.start("tag"))[0]
                name = tag.group("tag_name")
                raise self._fail(
                    tag.start("tag"), f"tag {name} is given twice (first on line {line})"
                )
        game = by_name.get("game")
        if game is None:
            raise self._fail(
                tags[0].start("tag"),
                f'this record has no Game tag; expected [Game "..."] naming {known_games(" or ")}',
            )
        for tag in [game, *(tag for tag in tags if tag is not game)]:
            self._read_tag(tag)
        if "result" in by_name:
            self.result_tag = unescape(by_name["result"].group("tag_value"))

    def _read_tag(self, tag: re.Match[str]) -> None:
        name = tag.group("tag_name")
        if len(name) > self.limits.max_tag_chars:
            raise self._exceeded(
                tag.start("tag"), "max_tag_chars", "a tag name of ", len(name), "characters"
            )
        value = unescape(tag.group("tag_value"))
        at = tag.start("tag_value")
        if len(value) > self.limits.max_tag_chars:
            raise self._exceeded(at, "max_tag_chars", f"tag {name}: ", len(value), "characters")
        try:
            read_tag(self.record, name, value, max_seats=self.limits.max_seats)
        except RecordMalformedError as error:
            raise placed(self.places, error, at) from None
        extra_tags = len(self.record.metadata.extra_tags)
        if extra_tags > self.limits.max_tags:
            raise self._exceeded(
                tag.start("tag"), "max_tags", "the record has ", extra_tags, "free tags"
            )

    def _tokens_from(self, index: int) -> None:
        """Read the tokens from ``index`` on (with a deadline: checked now, then every few)."""
        tokens = PLY_TOKEN.finditer(self.places.text, index)
        if self.deadline is None:
            self.tokens = tokens
            return
        if index:
            self._check_deadline(self.deadline)
        self.tokens = self._paced(tokens, self.deadline)

    def _paced(self, tokens: Iterator[re.Match[str]], deadline: float) -> Iterator[re.Match[str]]:
        """``tokens``, counted, raising once ``deadline`` has passed (checked every few)."""
        for token in tokens:
            self.tokens_read += 1
            if not self.tokens_read % TOKENS_PER_CHECK:
                self._check_deadline(deadline)
            yield token

    def _check_deadline(self, deadline: float) -> None:
        if time.monotonic() > deadline:
            raise DeadlineExceededError(f"{self.tokens_read:,} tokens of a GRN record read")
