"""Validate many records on all cores: files, folders, ``.pbs`` collections, standard input.

The main process reads inputs as unparsed frames (``gamerec.recorder.codecs.read_frames``) and hands
chunks of them to worker processes, which parse, validate and render each record; results
come back in input order. At most a few chunks are in flight at once, so memory stays flat
however large the inputs are. With one worker (or a single small chunk) everything runs in
the calling process.
"""

from __future__ import annotations

import os
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from functools import partial
from itertools import chain, islice
from typing import TYPE_CHECKING, Literal, NamedTuple, TypeVar

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.inputs import InputFailure, InputRecord, read_inputs
from gamerec.recorder.limits import Limits
from gamerec.recorder.notation import game_label
from gamerec.recorder.raw import Frame
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.judge import judge, verdict_of

if TYPE_CHECKING:
    from concurrent.futures import Future

#: How a record (or a whole source) fared.
Status = Literal["valid", "invalid", "unreadable"]

#: Records per chunk sent to a worker: large enough to amortize the hand-over.
CHUNK_RECORDS = 64
#: Chunks in flight per worker: enough to keep every worker busy, few enough for flat memory.
CHUNKS_IN_FLIGHT_PER_WORKER = 3


class Outcome(NamedTuple):
    """One record's judgement (or one source's failure), rendered.

    Attributes:
        status: ``valid``, ``invalid``, or ``unreadable`` (the record or the rest of its
            source could not be decoded, or the file could not be opened).
        source: the input's name.
        number: the 1-based number of the record in its source (0 for a source failure).
        plies: the plies replayed legally.
        text: the rendered verdict, or the error's one-line message when unreadable.
        game: the game's name (empty when unreadable).
        codes: the codes of the verdict's findings.
    """

    status: Status
    source: str
    number: int
    plies: int
    text: str
    game: str = ""
    codes: tuple[str, ...] = ()


_Item = InputRecord | InputFailure
Render = Callable[[vpb.Verdict], str]


class OnlyInvalid:
    """A render that writes invalid verdicts only (``gamerec validate --quiet``).

    A valid verdict renders as ``""``; since nothing shows it, its final digest is not
    computed (see :func:`judge_item`).
    """

    __slots__ = ("render",)

    def __init__(self, render: Render) -> None:
        """Write invalid verdicts with ``render`` (a module-level function: it is pickled)."""
        self.render = render

    def __call__(self, verdict: vpb.Verdict) -> str:
        """The invalid verdict's text, or ``""`` for a valid one."""
        return "" if verdict.valid else self.render(verdict)

    def __reduce__(self) -> tuple[type[OnlyInvalid], tuple[Render]]:
        """Pickled by its render (worker processes receive it)."""
        return OnlyInvalid, (self.render,)


T = TypeVar("T")
R = TypeVar("R")


def default_workers() -> int:
    """All cores this process may use."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # pragma: no cover - not Linux
        return os.cpu_count() or 1


def judge_sources(
    sources: Iterable[str],
    render: Render,
    *,
    encoding: Encoding | None = None,
    workers: int = 0,
    limits: Limits | None = None,
) -> Iterator[Outcome]:
    """Validate every record of ``sources`` and yield one Outcome each, in input order.

    Args:
        sources: paths of record files or folders, or ``"-"`` for standard input.
        render: turns a Verdict into the text to report; runs in the worker processes, so it
            must be a module-level function.
        encoding: the encoding of every input; None takes it from each file name or sniffs.
        workers: worker processes; 0 means all cores, 1 means no extra process.
        limits: the limits every record is read and judged under (default
            ``DEFAULT_LIMITS``); a record over one is ``unreadable`` and the rest go on.
    """
    yield from judge_items(read_inputs(sources, encoding, limits), render, workers=workers)


def judge_items(items: Iterable[_Item], render: Render, *, workers: int = 0) -> Iterator[Outcome]:
    """:func:`judge_sources` over records already read (``read_inputs``), in their order."""
    work = partial(_judge_chunk, render=render)
    for _, outcome in map_chunks(iter(items), work, workers):
        yield outcome


def map_chunks(
    items: Iterator[T], work: Callable[[list[T]], list[R]], workers: int = 0
) -> Iterator[tuple[T, R]]:
    """Every item with what ``work`` made of it, in input order, on up to ``workers`` cores.

    Items go to the workers in chunks of CHUNK_RECORDS, and at most a few chunks per worker
    are in flight, so memory stays flat however many items there are; the items themselves
    stay in this process (only ``work``'s answers come back). With one worker, or when all
    items fit in one chunk, everything runs in the calling process.

    Args:
        items: the items (picklable).
        work: makes one answer per item of a chunk; a module-level function (or a
            ``functools.partial`` of one), since it runs in the worker processes.
        workers: worker processes; 0 means all cores, 1 means no extra process.
    """
    first = list(islice(items, CHUNK_RECORDS))
    workers = workers or default_workers()
    if workers == 1:
        for chunk in chain([first], _chunks(items)):
            yield from zip(chunk, work(chunk), strict=True)
        return
    following = list(islice(items, CHUNK_RECORDS))
    if not following:
        yield from zip(first, work(first), strict=True)
        return
    yield from _map_in_pool([first, following], items, work, workers)


def _map_in_pool(
    head: list[list[T]], items: Iterator[T], work: Callable[[list[T]], list[R]], workers: int
) -> Iterator[tuple[T, R]]:
    """Run ``work`` on chunks in worker processes, keeping order and a bounded number in flight."""
    import multiprocessing  # noqa: PLC0415 (a pool only for many records: fast start-up)
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415

    context = multiprocessing.get_context("fork")
    window = workers * CHUNKS_IN_FLIGHT_PER_WORKER
    with ProcessPoolExecutor(max_workers=workers, mp_context=context) as pool:
        pending: deque[tuple[list[T], Future[list[R]]]] = deque()
        for chunk in chain(head, _chunks(items)):
            pending.append((chunk, pool.submit(work, chunk)))
            while len(pending) >= window:
                done, answers = pending.popleft()
                yield from zip(done, answers.result(), strict=True)
        while pending:
            done, answers = pending.popleft()
            yield from zip(done, answers.result(), strict=True)


def _chunks(items: Iterator[T]) -> Iterator[list[T]]:
    """Consecutive chunks of at most CHUNK_RECORDS items."""
    while chunk := list(islice(items, CHUNK_RECORDS)):
        yield chunk


def place_findings(verdict: vpb.Verdict, frame: Frame) -> None:
    """Give every finding about a ply the line and column of the ply's token (GRN input)."""
    about_plies = [finding for finding in verdict.errors if finding.ply]
    if not about_plies:
        return
    places = frame.ply_places(finding.ply for finding in about_plies)
    for finding in about_plies:
        if finding.ply in places:
            finding.line, finding.column = places[finding.ply]


def _judge_chunk(chunk: list[_Item], render: Render) -> list[Outcome]:
    """Parse, validate and render one chunk (in a worker, or in the caller)."""
    return [judge_item(item, render) for item in chunk]


def judge_item(item: _Item, render: Render) -> Outcome:
    """One item's Outcome: the record parsed, validated and rendered, or why it could not be."""
    if isinstance(item, InputFailure):
        return Outcome("unreadable", item.source, item.number, 0, item.message)
    try:
        # The main line's bytes as the reader has them (binary, GRN): not serialized again.
        record, main_line = item.frame.decode()
        judgement = judge(record, limits=item.frame.limits, serialized=main_line)
        # A valid verdict that will not be shown needs no final digest (--quiet).
        shown = bool(judgement.findings) or not isinstance(render, OnlyInvalid)
        verdict = verdict_of(record, judgement, digest=shown, serialized=main_line)
    except GamerecError as error:
        return Outcome("unreadable", item.source, item.number, 0, str(error))
    verdict.source = item.source
    verdict.record_number = item.number
    place_findings(verdict, item.frame)
    status: Status = "valid" if verdict.valid else "invalid"
    codes = tuple(finding.code for finding in verdict.errors)
    return Outcome(
        status,
        item.source,
        item.number,
        verdict.plies_replayed,
        render(verdict),
        game_label(verdict.game),
        codes,
    )
