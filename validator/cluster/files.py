"""Shard files: a shard's outcomes as the lines of ``<key>.shard``, written and read back.

What a task returns and what a run resumes from (``out``): a header line, then one JSON line
per outcome; a file that is not whole, or of another key, reads as none. It may import
``gamerec.recorder`` and ``gamerec.validator.batch``, and :mod:`.shards`.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from gamerec.recorder.atomic import atomic_output
from gamerec.validator.batch import Outcome
from gamerec.validator.cluster.shards import _SHARD_SUFFIX, _STATUSES, SHARD_FORMAT


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
