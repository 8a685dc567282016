"""A run's shards and their plan: what each task reads, and the key that names it.

The constants of a run, :class:`PbsRange`, :class:`Shard`, :class:`Job`, :class:`ClusterError`,
and :func:`plan_shards`, which the client runs (it reads indexes, no record): large ``.pbs``
files cut by their index into ranges of whole granules, the other files grouped. It may
import ``gamerec.recorder`` and ``gamerec.validator.batch``; no Dask.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from typing import NamedTuple

from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.index import load_index
from gamerec.recorder.inputs import STDIN, InputFailure, InputRecord, input_files, source_name
from gamerec.recorder.limits import Limits
from gamerec.validator.batch import OnlyInvalid, Render

try:  # hashlib's own blake2b, without the OpenSSL library hashlib loads on import
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without the module
    from hashlib import blake2b

#: Records a shard of an indexed ``.pbs`` file holds (rounded up to whole granules).
DEFAULT_SHARD_RECORDS = 2000
#: A ``.pbs`` file this large is split by its index; smaller files go whole.
INDEX_BYTES = 1 << 20
#: Whole files go to one shard until they hold this many bytes.
GROUP_BYTES = 4 << 20
#: Shards in flight per worker thread: enough to keep every thread busy, few for flat memory.
SHARDS_IN_FLIGHT_PER_THREAD = 3
#: Format of the shard files (the first line says it).
SHARD_FORMAT = 1
_SHARD_SUFFIX = ".shard"
_STATUSES = ("valid", "invalid", "unreadable")
_MAX_REASON = 200

_Item = InputRecord | InputFailure


class ClusterError(GamerecError):
    """The cluster could not do the job: no scheduler, a scheduler lost, no worker."""


class PbsRange(NamedTuple):
    """A byte range of whole granules of an indexed ``.pbs`` file.

    Attributes:
        path: the file's absolute path (as every worker sees it).
        source: the file's name in verdicts and messages (as the user gave it).
        first_number: the number of the range's first record in the file.
        bounds: where each granule starts, then where the last one ends.
        digests: each granule's digest, checked by the worker against the bytes it reads.
    """

    path: str
    source: str
    first_number: int
    bounds: tuple[int, ...]
    digests: tuple[bytes, ...]


class Shard(NamedTuple):
    """One task's work: a byte range of a ``.pbs`` file, or some whole files.

    Attributes:
        key: the digest of what the shard reads and how (its file name in ``out``).
        files: whole inputs, as ``(absolute path, name)``.
        pbs: or a byte range of an indexed ``.pbs`` file.
        skip: items (records or failures) of the shard to leave out from its start.
        take: items to judge after those (None: all).
        input: the position of its (first) file among the run's inputs (a file named twice
            is two inputs); not part of the key.
    """

    key: str
    files: tuple[tuple[str, str], ...] = ()
    pbs: PbsRange | None = None
    skip: int = 0
    take: int | None = None
    input: int = 0


class Job(NamedTuple):
    """What every shard of a run is judged with.

    Attributes:
        render: the verdict's text (a module-level function: it runs on the workers).
        encoding: the encoding of every input (None: from each name, else sniffed).
        limits: the limits every record is read and judged under.
        out: the folder the workers write finished shards to (absolute), or None.
    """

    render: Render
    encoding: Encoding | None
    limits: Limits
    out: str | None


# -- planning (the client) ---------------------------------------------------------------------


def plan_shards(
    sources: Iterable[str], job: Job, shard_records: int = DEFAULT_SHARD_RECORDS
) -> list[Shard]:
    """The shards of a run, in input order (``.pbs`` files over :data:`INDEX_BYTES` indexed).

    Raises:
        ClusterError: standard input was named (workers cannot read it).
    """
    files = input_files(sources)
    if STDIN in files:
        raise ClusterError(
            "standard input cannot be judged on a cluster (the workers read the inputs "
            "themselves): write it to a file on storage every worker sees"
        )
    shards: list[Shard] = []
    group: list[tuple[str, str, int, int]] = []
    grouped = 0
    for position, path in enumerate(files):
        absolute, name = os.path.abspath(path), source_name(path)
        size, mtime = _size_and_time(absolute)
        ranges = _indexed(absolute, name, size, job, shard_records=shard_records, position=position)
        if ranges is None:
            group.append((absolute, name, size, mtime))
            grouped += max(size, 0)
            if len(group) < shard_records and grouped < GROUP_BYTES:
                continue
            ranges = []
        if group:
            shards.append(_file_shard(group, job))
            group, grouped = [], 0
        shards += ranges
    if group:
        shards.append(_file_shard(group, job))
    return shards


def _size_and_time(path: str) -> tuple[int, int]:
    """A file's size and modification time, or (-1, -1) when it cannot be read."""
    try:
        status = os.stat(path)
    except OSError:
        return -1, -1
    return status.st_size, status.st_mtime_ns


def _indexed(
    path: str, name: str, size: int, job: Job, *, shard_records: int, position: int
) -> list[Shard] | None:
    """The range shards of a large ``.pbs`` file, or None for a file that goes whole."""
    encoding = job.encoding or encoding_for_path(path)
    if encoding is not Encoding.PBS or size < INDEX_BYTES:
        return None
    try:
        index, _ = load_index(path)
    except OSError:
        return None  # the worker that reads it says why
    per_shard = max(1, -(-shard_records // index.granule))
    shards = []
    for first in range(0, index.granules, per_shard):
        stop = min(first + per_shard, index.granules)
        part = PbsRange(
            path,
            name,
            first * index.granule + 1,
            index.bounds(first, stop),
            index.digests[first:stop],
        )
        shards.append(Shard(_key(job, "range", part), pbs=part, input=position))
    return shards


def _file_shard(group: list[tuple[str, str, int, int]], job: Job) -> Shard:
    return Shard(_key(job, "files", group), files=tuple((path, name) for path, name, _, _ in group))


def render_name(render: Render) -> str:
    """The render's importable name, part of a shard's key: another render, another verdict.

    ``OnlyInvalid`` (``validate --quiet``) is an object, not a function: it names itself and
    the render it wraps, so a quiet run never takes a shard written by a full one or back.
    """
    if isinstance(render, OnlyInvalid):
        return f"{OnlyInvalid.__module__}.{OnlyInvalid.__qualname__}({render_name(render.render)})"
    return f"{render.__module__}.{render.__qualname__}"


def _key(job: Job, kind: str, what: object) -> str:
    """A digest of what a shard reads and how it is judged."""
    render = render_name(job.render)
    how = (SHARD_FORMAT, kind, render, job.encoding and job.encoding.value, repr(job.limits))
    return blake2b(repr((how, what)).encode(), digest_size=16).hexdigest()
