"""Validate whole archives on a Dask cluster: shards of records, each read by its worker.

The batch backend beside the local process pool (:mod:`gamerec.validator.batch`): the same
records, the same judge, the same :class:`~gamerec.validator.batch.Outcome` values in the same
order, computed on the workers of a Dask cluster (``dask scheduler`` and ``dask worker`` on
any hosts) instead of the cores of one machine.

**Shards.** The calling process (the client) plans the work and reads no record: a large
``.pbs`` file is cut by its frame index (:mod:`gamerec.recorder.index`) into byte ranges of
whole granules (:data:`DEFAULT_SHARD_RECORDS` records a shard by default); every other file,
and ``.pbs`` files under :data:`INDEX_BYTES`, go whole, a run of consecutive small files to a
shard. A shard names its files by absolute path, so every worker must see them at the same
path (shared storage); each worker reads its own byte range, checks it against the index's
digests, then parses, validates and renders every record of it.

**Order.** Shards are submitted in input order, at most a few per worker thread ahead of the
one whose outcomes are due, and their outcomes are yielded in input order. A fault that ends a
``.pbs`` input (a broken length prefix, a record over the size limit) ends it in its shard;
the file's later shards are then dropped, as a read of the whole file stops there.

**Resuming.** With ``out``, every finished shard's outcomes are written to ``out`` (a folder
all workers can write) as ``<shard key>.shard``, atomically, by the worker that judged it. A
shard's key is a digest of what it reads and how (the files' paths, sizes and modification
times, or the index digests of its byte range; the renderer, encoding and limits), so a run
started again with the same arguments takes every shard it finds there from its file and
submits only the others: no shard is judged twice, and a changed file is judged again.

**Faults.** A worker that dies mid-shard takes no outcome with it: the shard's task runs again
on another worker (Dask reschedules it), and outcomes are counted only when a shard's whole
result arrives, so nothing is lost or counted twice. When Dask gives up on a shard (its
workers died ``allowed-failures`` + 1 times: ``distributed.KilledWorker``) or its task fails,
the shard is judged again one record per task; a record whose task still fails is unreadable,
with its place, and the run goes on. A scheduler that goes away raises :class:`ClusterError`;
what was written to ``out`` stays, and the same run started again resumes from it.
"""

from __future__ import annotations

import contextlib
import io
import os
from collections import deque
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from typing import TYPE_CHECKING, Any, NamedTuple

from gamerec.recorder.atomic import atomic_output
from gamerec.recorder.binary import read_pbs_frames
from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.index import IndexStaleError, check_granules, load_index, sidecar_path
from gamerec.recorder.inputs import (
    STDIN,
    InputFailure,
    InputRecord,
    input_files,
    os_error_text,
    read_input,
    source_name,
)
from gamerec.recorder.limits import Limits, resolved
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.batch import OnlyInvalid, Outcome, Render, judge_item

if TYPE_CHECKING:
    from distributed import Client, Future

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


def verdict_json(verdict: vpb.Verdict) -> str:
    """A verdict as one line of ProtoJSON with every field present (the library's default)."""
    from google.protobuf import json_format  # noqa: PLC0415 (on the workers, when used)

    return json_format.MessageToJson(
        verdict, indent=None, always_print_fields_with_no_presence=True
    )


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


# -- the work (on the workers) -----------------------------------------------------------------


def judge_shard(shard: Shard, job: Job) -> bytes:
    """Judge every record of a shard: its outcomes encoded as a shard file (:func:`encode_shard`).

    The task returns one ``bytes`` value rather than a list of Outcomes: Dask serializes a
    list element by element, which cost the worker's event loop a sixth of its time and the
    client as much again; bytes go as they are. With ``job.out`` the same bytes are written
    there.
    """
    data = encode_shard(
        shard.key, [judge_item(item, job.render) for item in shard_items(shard, job)]
    )
    if job.out is not None:
        write_shard_bytes(Path(job.out), shard.key, data)
    return data


def describe_shard(shard: Shard, job: Job) -> list[tuple[str, int, str]]:
    """Each item of a shard as ``(source, number, place)``, read but not judged."""
    return [(item.source, item.number, _place(item)) for item in shard_items(shard, job)]


def shard_items(shard: Shard, job: Job) -> Iterator[_Item]:
    """The items of a shard (``skip`` and ``take`` applied), failures in their place."""
    items: Iterator[_Item]
    if shard.pbs is not None:
        items = _range_items(shard.pbs, job.limits)
    else:
        items = (
            item
            for path, name in shard.files
            for item in read_input(path, job.encoding, job.limits, name)
        )
    stop = None if shard.take is None else shard.skip + shard.take
    return islice(items, shard.skip, stop)


def _range_items(part: PbsRange, limits: Limits) -> Iterator[_Item]:
    """The records of a byte range, after checking its bytes are those indexed."""
    start, end = part.bounds[0], part.bounds[-1]
    try:
        with open(part.path, "rb") as stream:
            stream.seek(start)
            data = stream.read(end - start)
        check_granules(data, part.bounds, part.digests, part.source)
        frames = read_pbs_frames(
            io.BytesIO(data),
            part.source,
            limits=limits,
            first_number=part.first_number,
            offset=start,
        )
        for number, frame in enumerate(frames, start=part.first_number):
            yield InputRecord(part.source, number, frame)
    except IndexStaleError as error:
        sidecar_path(part.path).unlink(missing_ok=True)  # the next run scans the file again
        yield InputFailure(part.source, 0, str(error))
    except GamerecError as error:
        yield InputFailure(part.source, 0, str(error))
    except OSError as error:
        named = OSError(error.errno, error.strerror, part.source)
        yield InputFailure(part.source, 0, os_error_text(named, part.source))


def _place(item: _Item) -> str:
    """Where an item is, for a message: ``record 3 at byte 1042``, ``record 3 at line 40``."""
    if isinstance(item, InputFailure):
        return f"record {item.number}" if item.number else "the input"
    frame = item.frame
    if frame.where:
        return frame.where
    if frame.encoding in (Encoding.GRN, Encoding.JSONL):
        return f"record {item.number} at line {frame.line}"
    return f"record {item.number}"


# -- shard files -------------------------------------------------------------------------------


def encode_shard(key: str, outcomes: list[Outcome]) -> bytes:
    """A shard's outcomes as the bytes of its shard file: a header line, then one line each."""
    import orjson  # noqa: PLC0415 (loaded where shards are written)

    lines = [orjson.dumps({"gamerec-shard": SHARD_FORMAT, "key": key, "outcomes": len(outcomes)})]
    lines += [
        orjson.dumps([o.status, o.source, o.number, o.plies, o.text, o.game, list(o.codes)])
        for o in outcomes
    ]
    return b"\n".join(lines) + b"\n"


def write_shard_file(folder: Path, key: str, outcomes: list[Outcome]) -> None:
    """Write a shard's outcomes as ``<key>.shard`` in ``folder``, atomically."""
    write_shard_bytes(folder, key, encode_shard(key, outcomes))


def write_shard_bytes(folder: Path, key: str, data: bytes) -> None:
    """Write a shard file's bytes (:func:`encode_shard`) as ``<key>.shard``, atomically."""
    with atomic_output(folder / f"{key}{_SHARD_SUFFIX}", durable=False) as stream:
        stream.write(data)


def read_shard_file(folder: Path, key: str) -> list[Outcome] | None:
    """The outcomes a shard file holds, or None when there is none or it is not whole."""
    try:
        data = (folder / f"{key}{_SHARD_SUFFIX}").read_bytes()
    except OSError:
        return None
    return decode_shard(data, key)


def decode_shard(data: bytes, key: str) -> list[Outcome] | None:
    """The outcomes of a shard file's bytes, or None unless they are a whole file of ``key``."""
    import orjson  # noqa: PLC0415

    lines = data.split(b"\n")
    if len(lines) < 2 or lines[-1] != b"":
        return None
    try:
        header = orjson.loads(lines[0])
        rows = [orjson.loads(line) for line in lines[1:-1]]
    except orjson.JSONDecodeError:
        return None
    expected = {"gamerec-shard": SHARD_FORMAT, "key": key, "outcomes": len(rows)}
    if header != expected:
        return None
    outcomes = [_outcome_of(row) for row in rows]
    return None if None in outcomes else [o for o in outcomes if o is not None]


def _outcome_of(row: Any) -> Outcome | None:
    """One shard-file row as an Outcome, or None when it is not one."""
    shapes = (str, str, int, int, str, str, list)
    if not isinstance(row, list) or len(row) != len(shapes):
        return None
    if not all(
        isinstance(v, t) and not isinstance(v, bool) for v, t in zip(row, shapes, strict=True)
    ):
        return None
    status, source, number, plies, text, game, codes = row
    if status not in _STATUSES or number < 0 or plies < 0:
        return None
    if not all(isinstance(code, str) for code in codes):
        return None
    return Outcome(status, source, number, plies, text, game, tuple(codes))


# -- the run (the client) ----------------------------------------------------------------------


class ClusterRun:
    """A validation run on a Dask cluster: iterate it for the outcomes, in input order.

    :func:`validate_on_cluster` plans it (``.pbs`` files are indexed then), so the counts
    below are known before the first outcome.

    Attributes:
        shards: the run's shards, in input order.
        stored: how many of them were found finished in ``out`` (not submitted again).
    """

    def __init__(self, client: Client, job: Job, shards: list[Shard]) -> None:
        """A run of ``shards`` with ``job`` on ``client`` (made by :func:`validate_on_cluster`)."""
        self._client = client
        self._job = job
        self.shards = shards
        folder = None if job.out is None else Path(job.out)
        self._stored = {
            shard.key
            for shard in shards
            if folder is not None and (folder / f"{shard.key}{_SHARD_SUFFIX}").exists()
        }
        self.stored = len(self._stored)

    def __iter__(self) -> Iterator[Outcome]:
        """Every record's Outcome, in input order.

        Raises:
            ClusterError: the scheduler went away (finished shards stay in ``out``).
        """
        threads = sum(_guarded(self._client.nthreads).values())
        window = max(4, threads * SHARDS_IN_FLIGHT_PER_THREAD)
        ahead: deque[tuple[Shard, Future[Any] | None]] = deque()
        upcoming = iter(self.shards)
        ended: set[int] = set()  # .pbs inputs a fault ended: their later shards are dropped
        in_flight = 0
        try:
            while True:
                while in_flight < window and (shard := next(upcoming, None)) is not None:
                    future = None if shard.key in self._stored else self._submit(shard)
                    ahead.append((shard, future))
                    in_flight += future is not None
                if not ahead:
                    return
                shard, future = ahead.popleft()
                in_flight -= future is not None
                if shard.pbs is not None and shard.input in ended:
                    if future is not None:
                        _release(future)
                    continue
                outcomes = self._outcomes(shard, future)
                if shard.pbs is not None and _ends_input(outcomes, shard.pbs.source):
                    ended.add(shard.input)
                yield from outcomes
        finally:
            for _, future in ahead:
                if future is not None:
                    _release(future)

    def _submit(self, shard: Shard, job: Job | None = None, attempt: int = 1) -> Future[Any]:
        future: Future[Any] = _guarded(
            self._client.submit,
            judge_shard,
            shard,
            job or self._job,
            key=f"gamerec-shard-{shard.key}-{shard.skip}-{shard.take}-{attempt}",
            pure=False,
        )
        return future

    def _outcomes(self, shard: Shard, future: Future[Any] | None) -> list[Outcome]:
        """A shard's outcomes: from its file, or from its task (rescued if Dask gave up)."""
        if future is None:
            stored = read_shard_file(Path(self._job.out or "."), shard.key)
            if stored is not None:
                return stored
            future = self._submit(shard)  # a damaged file: judge the shard again
        try:
            return _decoded(_result(future), shard.key)
        except ClusterError:
            raise
        except Exception:  # KilledWorker, or the task itself failed
            return self._rescue(shard)
        finally:
            _release(future)

    def _rescue(self, shard: Shard) -> list[Outcome]:
        """Judge a shard Dask gave up on one record per task; a record that fails is unreadable.

        A worker that dies takes the tasks queued on it along, and Dask counts that death
        against each of them; so a record whose task failed beside others is tried once more
        alone before it is called unreadable.
        """
        job = self._job._replace(out=None)
        described = _guarded(self._client.submit, describe_shard, shard, job, pure=False)
        try:
            items: list[tuple[str, int, str]] = _result(described)
        except ClusterError:
            raise
        except Exception as error:  # not even reading the shard works there
            source = shard.pbs.source if shard.pbs else shard.files[0][1]
            place = f"the records from byte {shard.pbs.bounds[0]}" if shard.pbs else "the input"
            return [Outcome("unreadable", source, 0, 0, _lost(source, place, error))]
        finally:
            _release(described)
        singles = [shard._replace(skip=shard.skip + n, take=1) for n in range(len(items))]
        results = self._judged([self._submit(single, job) for single in singles], shard.key)
        for n, result in enumerate(results):
            if isinstance(result, Exception):
                again = self._submit(singles[n], job, attempt=2)
                results[n] = self._judged([again], shard.key)[0]
        outcomes: list[Outcome] = []
        for (source, number, place), result in zip(items, results, strict=True):
            if isinstance(result, Exception):
                reason = _lost(source, place, result)
                outcomes.append(Outcome("unreadable", source, number, 0, reason))
            else:
                outcomes += result
        if self._job.out is not None:
            write_shard_file(Path(self._job.out), shard.key, outcomes)
        return outcomes

    @staticmethod
    def _judged(futures: list[Future[Any]], key: str) -> list[list[Outcome] | Exception]:
        """Each task's outcomes, or the exception it ended with."""
        results: list[list[Outcome] | Exception] = []
        for future in futures:
            try:
                results.append(_decoded(_result(future), key))
            except ClusterError:
                raise
            except Exception as error:  # the record kills or breaks its judge
                results.append(error)
            finally:
                _release(future)
        return results


def _decoded(data: object, key: str) -> list[Outcome]:
    """The outcomes a shard task returned (the bytes of :func:`encode_shard`).

    Raises:
        ValueError: they are not a whole shard of ``key`` (the task is then judged again).
    """
    outcomes = decode_shard(data, key) if isinstance(data, bytes) else None
    if outcomes is None:
        raise ValueError(f"shard {key}: the task returned no whole shard")
    return outcomes


def _ends_input(outcomes: list[Outcome], source: str) -> bool:
    """Whether a fault that ends the input ``source`` is among a shard's outcomes."""
    return any(o.number == 0 and o.source == source and o.status == "unreadable" for o in outcomes)


def _lost(source: str, place: str, error: Exception) -> str:
    """The message of a record whose every task failed."""
    from distributed import KilledWorker  # noqa: PLC0415

    if isinstance(error, KilledWorker):
        reason = (
            "the worker judging it died each time (Dask gave up after its allowed-failures retries)"
        )
    else:
        reason = f"judging it failed: {type(error).__name__}: {error}"[:_MAX_REASON]
    return f"{source}: {place}: {reason}"


def _release(future: Future[Any]) -> None:
    """Let the cluster forget a task (nothing to do once the scheduler is gone)."""
    with contextlib.suppress(Exception):
        future.release()


def _result(future: Future[Any]) -> Any:
    """A task's result; a scheduler lost on the way is a ClusterError."""
    return _guarded(future.result)


def _guarded(call: Any, *args: Any, **kwargs: Any) -> Any:
    """Call into the Dask client; the scheduler going away becomes a ClusterError.

    Raises:
        ClusterError: the client lost its scheduler (or never reached it).
    """
    from distributed.client import FutureCancelledError  # noqa: PLC0415
    from distributed.comm.core import CommClosedError  # noqa: PLC0415

    try:
        return call(*args, **kwargs)
    except (FutureCancelledError, CommClosedError, TimeoutError) as error:
        raise ClusterError(
            f"lost the Dask scheduler ({type(error).__name__}); finished shards are kept "
            "(run the same command with the same --out to resume)"
        ) from None


def validate_on_cluster(
    sources: Iterable[str],
    client: Client,
    render: Render = verdict_json,
    *,
    encoding: Encoding | None = None,
    limits: Limits | None = None,
    out: str | os.PathLike[str] | None = None,
    shard_records: int = DEFAULT_SHARD_RECORDS,
) -> ClusterRun:
    """Validate every record of ``sources`` on the Dask cluster of ``client``, in input order.

    For platform code that already runs a cluster::

        from distributed import Client
        client = Client("tcp://scheduler:8786")
        for outcome in gamerec.validate_on_cluster(["/archive/2026-11.pbs"], client):
            if outcome.status != "valid":
                print(outcome.text)       # the Verdict as ProtoJSON (``render``)

    Args:
        sources: files and folders on storage every worker sees at the same path (standard
            input cannot be sent).
        client: a connected ``distributed.Client``; it is not closed.
        render: the text of each verdict; a module-level function (it runs on the workers).
        encoding: the encoding of every input; None takes it from each name, else sniffs.
        limits: the limits every record is read and judged under (default
            ``DEFAULT_LIMITS``).
        out: a folder (every worker can write it) for the finished shards; a run with the
            same arguments and ``out`` resumes from them.
        shard_records: records per shard of an indexed ``.pbs`` (whole granules of 1,000).

    Returns:
        The run: iterate it for one Outcome per record (its ``status``, ``source``,
        ``number``, ``plies``, ``text``, ``game``, ``codes``).

    Raises:
        ClusterError: standard input was named, or ``out`` cannot be made; while iterating:
            the scheduler went away.
    """
    folder = None
    if out is not None:
        folder = Path(out).absolute()
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise ClusterError(os_error_text(error, str(out))) from None
    job = Job(render, encoding, resolved(limits), None if folder is None else str(folder))
    return ClusterRun(client, job, plan_shards(sources, job, shard_records))
