"""The tag section of a GRN record, read by the base of the record's reader.

``grn_reader.RecordReader`` reads a record's text; the part of it here reads the tags, the
record's first tokens (notation.md: tags first, then a blank line, then the move text), and
holds what the whole reader shares: the text's places, the limits, the tokens and the deadline.
The tags are matched as one run (``grn_lexer.TAG_PAIR``). What a tag sets is kept across
records, by the Game tag it follows, as the bytes to merge (:data:`KNOWN_TAGS`, bounded): a
tag section whose tags were all read before, Game first, is checked and merged in one call.
Anything else is read tag by tag, and what cannot be read so, token by token, which places
every error at its line and column.
"""

from __future__ import annotations

import re
import time
from collections.abc import Iterator
from functools import lru_cache
from itertools import islice
from typing import Final, NamedTuple

from gamerec.recorder.errors import (
    DeadlineExceededError,
    LimitExceededError,
    RecordMalformedError,
)
from gamerec.recorder.grn_lexer import (
    PLY_TOKEN,
    TAG_PAIR,
    TAG_RUN,
    Places,
    token_error,
)
from gamerec.recorder.grn_plies import RECORD_SEATS
from gamerec.recorder.grn_tags import (
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


class KnownTag(NamedTuple):
    """What one tag sets, as kept for the records that hold it again (:data:`KNOWN_TAGS`).

    Attributes:
        lower: the tag's name in lower case (names are compared so).
        entry: what it sets, as fields of a GameRecord to merge (a seat tag: a whole entry
            of ``seats``, which stands for the seat when it is the seat's only tag).
        size: the longer of its name and its unescaped value, in characters.
        free: whether it is a free tag (``metadata.extra_tags``).
        seat: the seat number of a seat tag (0: another tag).
    """

    lower: str
    entry: bytes
    size: int
    free: bool
    seat: int


#: Names and values of at most this many characters are kept (:class:`KnownTags`).
KNOWN_TAG_CHARS: Final = 200
#: How many tags a generation of :class:`KnownTags` holds at most.
KNOWN_TAGS_ENTRIES: Final = 4096


class KnownTags:
    """Tags read, by the Game tag (name and raw value, as written) that starts their record.

    Each tag (name and raw value) to what it sets. Bounded whatever the input: names and
    values of at most :data:`KNOWN_TAG_CHARS` characters are kept, in two generations of at
    most :data:`KNOWN_TAGS_ENTRIES` tags each: when the new one is full it becomes the old
    one (the old one is forgotten), and a tag found in the old one is kept in the new one
    again, so tags that recur stay while tags met once (``Round``) pass.
    """

    __slots__ = ("count", "new", "old")

    def __init__(self) -> None:
        """Empty."""
        self.new: dict[tuple[str, str], dict[tuple[str, str], KnownTag]] = {}
        self.old: dict[tuple[str, str], dict[tuple[str, str], KnownTag]] = {}
        self.count = 0

    def size(self) -> int:
        """How many tags are kept, in both generations."""
        return sum(map(len, self.new.values())) + sum(map(len, self.old.values()))

    def find(self, game_tag: tuple[str, str], pair: tuple[str, str]) -> KnownTag | None:
        """A tag kept in the old generation (kept in the new one again), or None."""
        tag = self.old.get(game_tag, {}).get(pair)
        if tag is not None:
            self.keep(game_tag, pair, tag)
        return tag

    def keep(self, game_tag: tuple[str, str], pair: tuple[str, str], tag: KnownTag) -> None:
        """Keep a tag read after ``game_tag``, if it and the Game tag are short enough."""
        if max(map(len, game_tag + pair)) > KNOWN_TAG_CHARS:
            return
        if self.count >= KNOWN_TAGS_ENTRIES:
            self.old, self.new, self.count = self.new, {}, 0
        known = self.new.setdefault(game_tag, {})
        if pair not in known:
            known[pair] = tag
            self.count += 1


#: The tags kept across records.
KNOWN_TAGS: Final = KnownTags()


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

        The tags are matched as one run and read at once: as tags read before
        (:meth:`_read_known_tags`), else tag by tag (:meth:`_read_tag_pairs`); a tag section
        that neither can read is read again token by token (:meth:`_read_tag_tokens`), which
        raises the error at its place.
        """
        text = self.places.text
        end = TAG_RUN.match(text).end()  # type: ignore[union-attr] # it matches the empty text
        pairs = TAG_PAIR.findall(text, 0, end)
        self.tokens_read += len(pairs)
        self._tokens_from(end)
        token = next(self.tokens)
        if token.lastgroup == "bad":  # the token after the tags is read before they are
            raise token_error(self.places, token)
        if not (self._read_known_tags(pairs) or self._read_tag_pairs(pairs)):
            self.record.Clear()
            self._read_tag_tokens(list(islice(PLY_TOKEN.finditer(text), len(pairs))), token)
        return token

    def _read_known_tags(self, pairs: list[tuple[str, str]]) -> bool:
        """Read the tags (name, raw value) at once if Game is first and none is wrong.

        The record is untouched unless they are read: what each tag sets is looked up (or
        read and kept, :func:`known_tags`) and merged in one call, when no name is given
        twice, none is too long, the free tags are within the limit, and the seat tags name
        seats 1, 2, ... in turn (one tag each). Anything else, :meth:`_read_tag_pairs` reads.
        """
        limits = self.limits
        if not pairs or pairs[0][0].lower() != "game" or len(pairs) > _most_tags(limits):
            return False
        tags = known_tags(pairs)
        if tags is None:
            return False
        lowers, entries, sizes, free, seats = zip(*tags, strict=True)
        seated = tuple(filter(None, seats))
        if (
            len(set(lowers)) < len(lowers)
            or max(sizes) > limits.max_tag_chars
            or sum(free) > limits.max_tags
            or len(seated) > limits.max_seats
            or seated != tuple(range(1, len(seated) + 1))
        ):
            return False
        self.record.MergeFromString(b"".join(entries))
        if "result" in lowers:
            self.result_tag = unescape(pairs[lowers.index("result")][1])
        return True

    def _read_tag_pairs(self, pairs: list[tuple[str, str]]) -> bool:
        """Read the tags (name, raw value) as :meth:`_read_tag_tokens` does, if none is wrong.

        What the tags set (:func:`tag_fields`) is merged in one call at the end (seal tags
        apart). Returns False, the record half read, at the first thing
        :meth:`_read_tag_tokens` would refuse (or might: it decides).
        """
        names = [name.lower() for name, _ in pairs]
        if "game" not in names or len(set(names)) < len(names):
            return False
        first = names.index("game")
        try:
            game = tag_fields(pb.GAME_UNSPECIFIED, *pairs[first])
            if game is None or not self._fits(pairs[first][0], game):
                return False
            self.record.MergeFromString(game.data)
            fields = self._tag_fields(pairs[:first] + pairs[first + 1 :])
        except RecordMalformedError:
            return False
        if fields is None:
            return False
        self.record.MergeFromString(fields)
        if "result" in names:
            self.result_tag = unescape(pairs[names.index("result")][1])
        return True

    def _fits(self, name: str, fields: TagFields) -> bool:
        """Whether a tag's name and value are within the limits (seats too)."""
        longest = self.limits.max_tag_chars
        return (
            len(name) <= longest
            and fields.chars <= longest
            and fields.seat <= self.limits.max_seats
        )

    def _tag_fields(self, pairs: list[tuple[str, str]]) -> bytes | None:
        """What the tags after the Game tag set, serialized; seal tags are read.

        None at a name or a value too long, a seat past the limit, a free tag too many.

        Raises:
            RecordMalformedError: a value the record cannot hold.
        """
        game = self.record.rules.game
        longest, most_seats = self.limits.max_tag_chars, self.limits.max_seats
        fields: list[bytes] = []
        seats: dict[int, list[bytes]] = {}
        free = 0
        for name, raw in pairs:
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
            if found.seat:
                seats.setdefault(found.seat, []).append(found.data)
            else:
                fields.append(found.data)
        if seats:
            for number in range(1, max(seats) + 1):
                body = b"".join(seats.get(number, ()))
                fields.append(RECORD_SEATS + encode_varint(len(body)) + body)
        return b"".join(fields)

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


def known_tags(pairs: list[tuple[str, str]]) -> list[KnownTag] | None:
    """What each tag sets (``pairs[0]`` the Game tag), or None for a tag not read so.

    A tag not kept is read (``grn_tags.tag_fields``) and kept (:data:`KNOWN_TAGS`). None
    when one is a seal tag (what it sets depends on the record) or cannot be read (the
    tag-by-tag reading says why).
    """
    known = KNOWN_TAGS.new.get(pairs[0])
    if known is None:
        found: list[KnownTag | None] = [None] * len(pairs)
    else:
        found = list(map(known.get, pairs))
        if None not in found:
            return found  # type: ignore[return-value] # None is not in it
    try:
        return _read_unknown(pairs, found)
    except RecordMalformedError:
        return None


def _read_unknown(
    pairs: list[tuple[str, str]], found: list[KnownTag | None]
) -> list[KnownTag] | None:
    """``found`` with the tags not found (None) read and kept."""
    game_tag = pairs[0]
    index = found.index(None)
    while True:
        pair = pairs[index]
        tag = KNOWN_TAGS.find(game_tag, pair)
        if tag is None:
            game = _game_of(game_tag) if index else pb.GAME_UNSPECIFIED
            read = tag_fields(game, *pair)
            if read is None:
                return None
            tag = _known_tag(pair[0], read)
            KNOWN_TAGS.keep(game_tag, pair, tag)
        found[index] = tag
        try:
            index = found.index(None, index + 1)
        except ValueError:
            return found  # type: ignore[return-value] # None is not in it


def _most_tags(limits: Limits) -> int:
    """More tags than a record within ``limits`` holds (the free tags, a few a seat, the rest).

    A longer tag section is over a limit: it is read tag by tag, which stops at the limit.
    """
    return limits.max_tags + 8 * limits.max_seats + 64


@lru_cache(maxsize=64)
def _game_of(game_tag: tuple[str, str]) -> GameValue:
    """The game a Game tag names."""
    read = tag_fields(pb.GAME_UNSPECIFIED, *game_tag)
    assert read is not None  # not a seal tag
    return pb.GameRecord.FromString(read.data).rules.game


def _known_tag(name: str, found: TagFields) -> KnownTag:
    entry = found.data
    if found.seat:
        entry = RECORD_SEATS + encode_varint(len(entry)) + entry
    return KnownTag(name.lower(), entry, max(len(name), found.chars), found.free, found.seat)
