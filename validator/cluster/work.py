"""A shard judged on a worker: its items read (a ``.pbs`` range checked against its index).

:func:`judge_shard` and :func:`describe_shard` are the tasks the client submits; they run on
the workers. It may import ``gamerec.recorder``, ``gamerec.validator.batch``, :mod:`.shards`
and :mod:`.files`; no Dask.
"""

from __future__ import annotations

import io
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

from gamerec.recorder.binary import read_pbs_frames
from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.index import IndexStaleError, check_granules, sidecar_path
from gamerec.recorder.inputs import InputFailure, InputRecord, os_error_text, read_input
from gamerec.recorder.limits import Limits
from gamerec.validator.batch import judge_item
from gamerec.validator.cluster.files import encode_shard, write_shard_bytes
from gamerec.validator.cluster.shards import Job, PbsRange, Shard, _Item


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
