"""Find the same game entered twice, and the same match with diverging moves (``gamerec dedupe``).

Two kinds of pairs:

- **the same game** (``SAME_GAME``): the same rules (game and variant), the same seat names in
  the same order and the same moves (their actions; comments, glyphs, clocks and stated seats
  do not matter), whatever else differs: metadata, annotations, the encoding it was read from;
- **the same match with diverging moves** (``DIVERGENT``): the same game identity (the extra
  tag ``GameId``, else game, event, site, round, date, start time and seat names: see
  ``validator/comparison.py``) and other moves.

Each pair comes with the ``diff`` of its two records (``compare_records``). The output keeps
every record except the extra copies of a game: ``keep="first"`` keeps the copy met first,
``keep="most-complete"`` the copy with most fields set (metadata, seat ids and ratings,
comments, clocks, the claimed result...; the first of them on a tie). Both records of a
divergent pair are kept: which moves were played is for a person to decide.

**Memory: hashes first.** The first pass reads every record once (on all cores when asked)
and keeps two 8-byte digests per distinct game and identity, never a record. The second pass
reads the collection again, writes what is kept, and holds in memory only the first copy of a
game or match that has a later copy, until that copy is read; a pair is confirmed there on
the records themselves, so a digest collision cannot make a pair. Standard input is read
twice from a temporary copy on disk.
"""

from __future__ import annotations

import hashlib
import heapq
import os
import shutil
import sys
import tempfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from functools import partial
from typing import Any, Literal, NamedTuple

from google.protobuf.message import Message

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.inputs import STDIN, STDIN_NAME, InputFailure
from gamerec.recorder.limits import Limits
from gamerec.v1 import collections_pb2 as cpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.source import Collection, Entry, Item, entries, facts
from gamerec.validator.comparison import compare_records, game_identity, move_action

Keep = Literal["first", "most-complete"]
KEEPS: tuple[Keep, ...] = ("first", "most-complete")


class Keys(NamedTuple):
    """What the first pass keeps of a record.

    Attributes:
        game: digest of its rules, seat names and moves.
        identity: digest of its game identity.
        completeness: how many fields it sets (see :func:`completeness`).
    """

    game: int
    identity: int
    completeness: int


def _digest(*parts: bytes) -> int:
    hashed = hashlib.blake2b(digest_size=8)
    for part in parts:
        hashed.update(len(part).to_bytes(8, "little"))
        hashed.update(part)
    return int.from_bytes(hashed.digest(), "little")


def game_key(record: pb.GameRecord) -> tuple[bytes, ...]:
    """What makes two records the same game: rules, seat names and the moves' actions."""
    parts = [record.rules.SerializeToString(deterministic=True)]
    parts.append("\x00".join(seat.name for seat in record.seats).encode())
    for move in record.moves:
        which, content = move_action(move)
        parts.append((which or "").encode() + b":" + content)
    return tuple(parts)


def completeness(message: Message) -> int:
    """The number of fields ``message`` sets, counted through every sub-message and list."""
    count = 0
    for descriptor, value in message.ListFields():
        if descriptor.message_type is None:
            count += len(value) if descriptor.is_repeated else 1
        elif descriptor.message_type.GetOptions().map_entry:
            count += len(value)
        elif descriptor.is_repeated:
            count += sum(completeness(element) for element in value) + len(value)
        else:
            count += completeness(value) + 1
    return count


def record_keys(entry: Entry, record: pb.GameRecord, *, measure: bool = False) -> Keys:
    """The keys of one record (its completeness only when ``measure``: most-complete)."""
    del entry
    return Keys(
        game=_digest(*game_key(record)),
        identity=_digest(game_identity(record).encode()),
        completeness=completeness(record) if measure else 0,
    )


@dataclass
class _Game:
    """A distinct game of the first pass: its first and last copy, and the copy to keep."""

    first: int
    last: int
    kept: int
    kept_place: tuple[str, int]
    kept_completeness: int


@dataclass
class Plan:
    """What the first pass found: the games, the matches and which records to hold."""

    keep: Keep
    games: dict[int, _Game] = field(default_factory=dict)
    #: identity digest -> {game digest: the index of that version's first copy}
    versions: dict[int, dict[int, int]] = field(default_factory=dict)
    #: index of a record -> the last index that needs it held
    hold_until: dict[int, int] = field(default_factory=dict)
    records: int = 0

    def add(self, entry: Entry, keys: Keys) -> None:
        """Count one record (the next index)."""
        index = self.records
        self.records += 1
        place = (entry.source, entry.number)
        game = self.games.get(keys.game)
        if game is None:
            self.games[keys.game] = _Game(index, index, index, place, keys.completeness)
        else:
            game.last = index
            if self.keep == "most-complete" and keys.completeness > game.kept_completeness:
                game.kept, game.kept_place = index, place
                game.kept_completeness = keys.completeness
        self.versions.setdefault(keys.identity, {}).setdefault(keys.game, index)

    def settle(self) -> None:
        """After the first pass: which records the second pass must hold, and how long."""
        for game in self.games.values():
            if game.last != game.first:
                self._hold(game.first, game.last)
        for versions in self.versions.values():
            if len(versions) > 1:
                self._hold(min(versions.values()), max(versions.values()))

    def _hold(self, index: int, until: int) -> None:
        self.hold_until[index] = max(until, self.hold_until.get(index, index))


class _Held:
    """The records the second pass holds until their last partner is read."""

    def __init__(self, plan: Plan) -> None:
        self._plan = plan
        self._records: dict[int, tuple[Entry, pb.GameRecord]] = {}
        self._releases: list[tuple[int, int]] = []

    def get(self, index: int) -> tuple[Entry, pb.GameRecord]:
        return self._records[index]

    def hold(self, index: int, entry: Entry, record: pb.GameRecord) -> None:
        until = self._plan.hold_until.get(index)
        if until is not None:
            self._records[index] = (entry, record)
            heapq.heappush(self._releases, (until, index))

    def release(self, index: int) -> None:
        """Forget every record that no record after ``index`` needs."""
        while self._releases and self._releases[0][0] <= index:
            del self._records[heapq.heappop(self._releases)[1]]


class Dedupe:
    """A collection after the first pass; :meth:`records` is the second.

    Attributes:
        report: the ``DedupeReport``; its pairs and the count written are complete once
            :meth:`records` has been iterated to its end (or :meth:`finish` called).
        failures: what could not be read (found by the first pass).
    """

    def __init__(
        self,
        read: Callable[[], Iterator[Item]],
        plan: Plan,
        failures: list[InputFailure],
        spool: _Spool | None = None,
    ) -> None:
        """Keep the first pass's plan and a way to read the collection again.

        ``spool``: the copy of standard input the second pass reads (removed with this).
        """
        self._read, self._plan, self._spool = read, plan, spool
        self.report = cpb.DedupeReport(records=plan.records, keep=plan.keep)
        self.failures = failures

    def records(self) -> Iterator[pb.GameRecord]:
        """The second pass: every record kept, in order, and the pairs into the report.

        Raises:
            GamerecError: an input changed between the passes.
        """
        held = _Held(self._plan)
        index = -1
        for entry in self._read():
            if isinstance(entry, InputFailure):
                continue
            index += 1
            record = entry.parse()
            keys = record_keys(entry, record)
            game = self._plan.games.get(keys.game)
            if game is None or not game.first <= index <= game.last:
                raise GamerecError(f"{entry.label()}: the input changed while it was read")
            if self._is_kept(index, entry, record, game, held):
                self.report.written += 1
                yield record
            self._divergence(index, entry, record, keys, held)
            held.hold(index, entry, record)
            held.release(index)

    def finish(self) -> cpb.DedupeReport:
        """Run the second pass without keeping the records; the complete report."""
        for _ in self.records():
            pass
        return self.report

    def _is_kept(
        self, index: int, entry: Entry, record: pb.GameRecord, game: _Game, held: _Held
    ) -> bool:
        """Whether the output keeps this record; a later copy of a game makes a pair."""
        if index == game.first:
            return game.kept == index
        first_entry, first = held.get(game.first)
        if game_key(first) != game_key(record):
            return True  # a digest collision, not a copy: the record stays
        pair = self._pair(cpb.DUPLICATE_KIND_SAME_GAME, first_entry, first, entry, record)
        pair.kept.source, pair.kept.record_number = game.kept_place
        return game.kept == index

    def _divergence(
        self, index: int, entry: Entry, record: pb.GameRecord, keys: Keys, held: _Held
    ) -> None:
        """The first copy of a version of a match that has several: pair it with the first."""
        versions = self._plan.versions[keys.identity]
        first_index = min(versions.values())
        if len(versions) == 1 or versions[keys.game] != index or index == first_index:
            return
        first_entry, first = held.get(first_index)
        if game_identity(first) == game_identity(record) and game_key(first) != game_key(record):
            self._pair(cpb.DUPLICATE_KIND_DIVERGENT, first_entry, first, entry, record)

    def _pair(
        self,
        kind: cpb.DuplicateKind.ValueType,
        first_entry: Entry,
        first: pb.GameRecord,
        entry: Entry,
        record: pb.GameRecord,
    ) -> cpb.DuplicatePair:
        return self.report.pairs.add(
            kind=kind,
            identity=game_identity(first),
            first=first_entry.place(),
            second=entry.place(),
            diff=compare_records(first, record),
        )


def dedupe(
    collection: Collection,
    *,
    keep: Keep = "first",
    encoding: Encoding | None = None,
    limits: Limits | None = None,
    workers: int = 1,
) -> Dedupe:
    """Run the first pass over ``collection``; iterate the answer's ``records()`` for the rest.

    Args:
        collection: paths (files, folders, ``-``) or records in memory.
        keep: which copy of a game the output keeps: ``first`` or ``most-complete``.
        encoding: the encoding of every input path.
        limits: the limits records are read under.
        workers: cores for the first pass (0: all).

    Raises:
        ValueError: an unknown ``keep``.
    """
    if keep not in KEEPS:
        raise ValueError(f"keep is one of {', '.join(KEEPS)}, not {keep!r}")
    inputs, spool = _rereadable(collection)
    plan, failures = Plan(keep), list[InputFailure]()
    measure = partial(record_keys, measure=keep == "most-complete")
    for found in facts(inputs, measure, encoding=encoding, limits=limits, workers=workers):
        if isinstance(found, InputFailure):
            failures.append(_named(found, spool))
        else:
            plan.add(*found)
    plan.settle()

    def read() -> Iterator[Item]:
        for item in entries(inputs, encoding, limits):
            yield _named(item, spool) if isinstance(item, InputFailure) else _renamed(item, spool)

    return Dedupe(read, plan, failures, spool)


def _rereadable(collection: Collection) -> tuple[Collection, _Spool | None]:
    """The collection as something read twice: records in a list, stdin copied to a file."""
    inputs: list[Any] = list(collection)
    if not any(isinstance(path, str) and path == STDIN for path in inputs):
        return inputs, None
    spool = _Spool()
    return [spool.path if path == STDIN else path for path in inputs], spool


class _Spool:
    """Standard input copied into a temporary file (removed with this object)."""

    def __init__(self) -> None:
        self._folder = tempfile.TemporaryDirectory(prefix="gamerec-dedupe-")
        self.path = os.path.join(self._folder.name, "stdin")
        with open(self.path, "wb") as copy:
            shutil.copyfileobj(sys.stdin.buffer, copy)


def _renamed(entry: Entry, spool: _Spool | None) -> Entry:
    if spool is None or entry.source != spool.path:
        return entry
    return entry._replace(source=STDIN_NAME)


def _named(failure: InputFailure, spool: _Spool | None) -> InputFailure:
    if spool is None:
        return failure
    return InputFailure(
        failure.source.replace(spool.path, STDIN_NAME),
        failure.number,
        failure.message.replace(spool.path, STDIN_NAME),
    )
