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
from typing import Final

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
        end = TAG_RUN.match(text).end()  # type: ignore[union-attr] # it matches the empty text
        pairs = TAG_PAIR.findall(text, 0, end)
        self.tokens_read += len(pairs)
        self._tokens_from(end)
        token = next(self.tokens)
        if token.lastgroup == "bad":  # the token after the tags is read before they are
            raise token_error(self.places, token)
        if not self._read_tag_pairs(pairs):
            self.record.Clear()
            self._read_tag_tokens(list(islice(PLY_TOKEN.finditer(text), len(pairs))), token)
        return token

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
