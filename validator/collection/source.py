"""The records of a collection, one at a time: paths through the one reader, or records in memory.

A *collection* is either paths (files of any encoding, folders, ``-``) read by
``gamerec.recorder.inputs``, or records already in memory. Either way it comes out as
:class:`Entry` values (a record not yet decoded, with its place) and
:class:`~gamerec.recorder.inputs.InputFailure` values where something cannot be read, so that
every collection tool streams it the same way, on all cores when asked.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain
from typing import NamedTuple, TypeAlias, TypeVar

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.inputs import InputFailure, read_inputs
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits
from gamerec.recorder.raw import Frame
from gamerec.v1 import collections_pb2 as cpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.batch import map_chunks
from gamerec.validator.judge import validate

#: Paths (files, folders, ``-``) or records in memory.
Collection: TypeAlias = Iterable[str | os.PathLike[str]] | Iterable[pb.GameRecord]
#: The name records in memory have in messages.
IN_MEMORY = "<records>"

F = TypeVar("F")


class Entry(NamedTuple):
    """One record of a collection, decoded when it is used.

    Attributes:
        source: the input's name (``<records>`` for records in memory).
        number: the record's 1-based number in its input.
        frame: its raw bytes (records read from inputs), else None.
        record: the record itself (records in memory), else None.
        main_line: once the frame is decoded (:meth:`decode`), the bytes its decoding handed
            over for a judge to read the main line from (``Frame.decode``), else None.
    """

    source: str
    number: int
    frame: Frame | None = None
    record: pb.GameRecord | None = None
    main_line: bytes | None = None

    @property
    def limits(self) -> Limits:
        """The limits the record is read and judged under."""
        return self.frame.limits if self.frame is not None else DEFAULT_LIMITS

    def parse(self) -> pb.GameRecord:
        """The record (decoding the frame: see ``Frame.parse`` for the errors)."""
        if self.record is not None:
            return self.record
        assert self.frame is not None
        return self.frame.parse()

    def decode(self) -> tuple[Entry, pb.GameRecord]:
        """The record, with this entry holding the main line its decoding handed over.

        A judge of the record through the entry returned (:meth:`verdict`) reads the moves
        from those bytes, as ``validate`` does (``batch.judge_item``), instead of
        serializing the record again. Raises as :meth:`parse`.
        """
        if self.record is not None:
            return self, self.record
        assert self.frame is not None
        record, main_line = self.frame.decode()
        return self._replace(main_line=main_line), record

    def place(self) -> cpb.RecordPlace:
        """Where the record is, as a message."""
        return cpb.RecordPlace(source=self.source, record_number=self.number)

    def label(self) -> str:
        """``games.pbs #12``."""
        return f"{self.source} #{self.number}"

    @property
    def serialized(self) -> bytes | None:
        """The bytes a judge of this entry's record reads the main line from, when at hand.

        The main line its decoding handed over (:meth:`decode`), else the frame's own bytes
        when they are the serialized record (binary inputs), else None (records in memory,
        which the judge serializes).
        """
        if self.main_line is not None or self.frame is None:
            return self.main_line
        return self.frame.serialized

    def verdict(self, record: pb.GameRecord, *, digest: bool = True) -> vpb.Verdict:
        """The referee's verdict on ``record`` (this entry, decoded), as ``validate`` gives it.

        ``digest``: False leaves ``final_digest`` empty, for a caller that never reads it
        (``stats``), as ``gamerec validate --quiet`` does for a valid record.
        """
        verdict = validate(record, limits=self.limits, serialized=self.serialized, digest=digest)
        verdict.source, verdict.record_number = self.source, self.number
        return verdict


Item: TypeAlias = Entry | InputFailure


def entries(
    collection: Collection, encoding: Encoding | None = None, limits: Limits | None = None
) -> Iterator[Item]:
    """Every record of ``collection`` as an :class:`Entry`, with failures in their place.

    Args:
        collection: paths, or records in memory (told apart by the first element).
        encoding: the encoding of every input path; None takes it from names or sniffs.
        limits: the limits every record is read under (paths only).
    """
    iterator = iter(collection)
    first = next(iterator, None)
    if first is None:
        return
    if isinstance(first, pb.GameRecord):
        records = chain([first], iterator)
        for number, record in enumerate(records, start=1):
            assert isinstance(record, pb.GameRecord)
            yield Entry(IN_MEMORY, number, record=record)
        return
    paths = (os.fspath(path) for path in chain([first], iterator))  # type: ignore[arg-type]
    for item in read_inputs(paths, encoding, limits):
        if isinstance(item, InputFailure):
            yield item
        else:
            yield Entry(item.source, item.number, frame=item.frame)


class Unreadable(NamedTuple):
    """A record (or the rest of an input) that could not be read: the one-line reason."""

    message: str


def facts(
    collection: Collection,
    fact: Callable[[Entry, pb.GameRecord], F],
    *,
    encoding: Encoding | None = None,
    limits: Limits | None = None,
    workers: int = 1,
) -> Iterator[tuple[Entry, F] | InputFailure]:
    """Every record of ``collection`` with ``fact`` of it, in order, on up to ``workers`` cores.

    ``fact`` runs in the worker processes (a module-level function, or a partial of one). A
    record that cannot be decoded, or is over a limit, is an ``InputFailure`` in its place,
    as is an input that cannot be read (from where it fails).

    Args:
        collection: paths or records in memory (see :func:`entries`).
        fact: what to make of each record.
        encoding: the encoding of every input path.
        limits: the limits every record is read and judged under.
        workers: worker processes (0: all cores; 1: none).
    """
    items = entries(collection, encoding, limits)
    for item, made in map_chunks(items, partial(_facts_of_chunk, fact=fact), workers):
        if isinstance(item, InputFailure):
            yield item
        elif isinstance(made, Unreadable):
            yield InputFailure(item.source, item.number, made.message)
        else:
            yield item, made


def _facts_of_chunk(
    chunk: list[Item], fact: Callable[[Entry, pb.GameRecord], F]
) -> list[F | Unreadable]:
    """The fact of every item of one chunk (in a worker, or in the caller)."""
    return [_fact_of(item, fact) for item in chunk]


def _fact_of(item: Item, fact: Callable[[Entry, pb.GameRecord], F]) -> F | Unreadable:
    if isinstance(item, InputFailure):
        return Unreadable(item.message)
    try:
        entry, record = item.decode()
        return fact(entry, record)
    except GamerecError as error:
        return Unreadable(str(error))


def readable(
    found: Iterable[tuple[Entry, F] | InputFailure], failures: list[InputFailure]
) -> Iterator[tuple[Entry, F]]:
    """The records of ``found`` (see :func:`facts`); what cannot be read goes to ``failures``."""
    for item in found:
        if isinstance(item, InputFailure):
            failures.append(item)
        else:
            yield item
