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

The package's modules: :mod:`.shards` (the plan, the shards, the job), :mod:`.work` (a shard
judged on a worker), :mod:`.files` (shard files). This module is the client's side over Dask:
:class:`ClusterRun`, :func:`validate_on_cluster` and its default render :func:`verdict_json`,
whose importable name is part of every shard key (a run resumed after an upgrade finds its
shards). It may import ``gamerec.recorder``, ``gamerec.validator.batch`` and ``distributed``
(lazily: a run's client is given).
"""

from __future__ import annotations

import contextlib
import os
from collections import deque
from collections.abc import Iterable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.inputs import os_error_text
from gamerec.recorder.limits import Limits, resolved
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.batch import Outcome, Render
from gamerec.validator.cluster.files import (
    decode_shard,
    encode_shard,
    read_shard_file,
    write_shard_bytes,
    write_shard_file,
)
from gamerec.validator.cluster.shards import (
    _MAX_REASON,
    _SHARD_SUFFIX,
    DEFAULT_SHARD_RECORDS,
    GROUP_BYTES,
    INDEX_BYTES,
    SHARD_FORMAT,
    SHARDS_IN_FLIGHT_PER_THREAD,
    ClusterError,
    Job,
    PbsRange,
    Shard,
    plan_shards,
    render_name,
)
from gamerec.validator.cluster.work import describe_shard, judge_shard, shard_items

if TYPE_CHECKING:
    from distributed import Client, Future


__all__ = [
    "DEFAULT_SHARD_RECORDS",
    "GROUP_BYTES",
    "INDEX_BYTES",
    "SHARDS_IN_FLIGHT_PER_THREAD",
    "SHARD_FORMAT",
    "ClusterError",
    "ClusterRun",
    "Job",
    "PbsRange",
    "Shard",
    "decode_shard",
    "describe_shard",
    "encode_shard",
    "judge_shard",
    "plan_shards",
    "read_shard_file",
    "render_name",
    "shard_items",
    "validate_on_cluster",
    "verdict_json",
    "write_shard_bytes",
    "write_shard_file",
]


def verdict_json(verdict: vpb.Verdict) -> str:
    """A verdict as one line of ProtoJSON with every field present (the library's default)."""
    from google.protobuf import json_format  # noqa: PLC0415 (on the workers, when used)

    return json_format.MessageToJson(
        verdict, indent=None, always_print_fields_with_no_presence=True
    )


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
