"""The frame index of a ``.pbs`` file: where every thousandth record starts, kept beside the file.

A ``.pbs`` file is a run of records, each after its length as a varint, so a reader can only
find record 5,001 by walking the 5,000 length prefixes before it. :func:`scan` walks them
once without parsing a record (a fast scan: one varint and one jump per record) and notes where
every :data:`GRANULE`-th record starts, with a digest of the bytes of each granule. A batch job
then cuts the file into shards of whole granules, byte ranges that each worker reads by itself
from storage all workers see (:mod:`gamerec.validator.cluster`).

The index is kept next to the file as a sidecar (``games.pbs.index``) and checked against the
file before use: its size, its modification time and a digest of its first and last 64 KiB
must be those the index was made from, else the file is scanned again. That check is cheap and
catches every ordinary change; the exact check is the worker's: it hashes the bytes it reads
and compares each granule's digest with the index's (:func:`check_granules`), so a worker
judges exactly the bytes that were indexed, or says the file changed. A sidecar that cannot be
written (read-only storage) is not an error: the index is then kept in memory for the run.

The scan knows no limits: a frame longer than a job's ``record-bytes`` limit is a frame here,
and the reader of its shard stops the input there, as a read of the whole file does. Whatever
breaks the framing (a broken length prefix, an empty frame, a frame cut off by the end of the
file) ends the index: the bytes from there to the end belong to the last granule, so the
reader of the last shard meets the same fault, with the same message, as a whole read.
"""

from __future__ import annotations

import contextlib
import os
import struct
from collections.abc import Sequence
from itertools import pairwise
from pathlib import Path
from typing import NamedTuple

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.wire import WireError, decode_varint

try:  # hashlib's own blake2b, without the OpenSSL library hashlib loads on import
    from _blake2 import blake2b
except ImportError:  # pragma: no cover - a Python built without the module
    from hashlib import blake2b

#: Records per granule: the unit shards are made of.
GRANULE = 1000
#: What the sidecar's name adds to the file's.
SIDECAR_SUFFIX = ".index"
#: Bytes read at a time by the scan.
BLOCK_BYTES = 1 << 22
#: Bytes at each end of the file whose digest the sidecar keeps (the cheap staleness check).
PROBE_BYTES = 1 << 16

_MAGIC = b"gamerec pbs index\n"
_VERSION = 1
_HEADER = struct.Struct("<IQqQQQI16s")
_ENTRY = struct.Struct("<Q16s")
_DIGEST_BYTES = 16
_MAX_VARINT_BYTES = 10


class IndexStaleError(GamerecError):
    """The bytes of a file are not those its index was made from: the file changed."""


class FrameIndex(NamedTuple):
    """Where the granules of a ``.pbs`` file start, and what their bytes are.

    Attributes:
        size: the file's size in bytes when it was scanned.
        mtime_ns: its modification time then.
        probe: the digest of its first and last :data:`PROBE_BYTES` bytes.
        granule: records per granule.
        records: the whole frames in the file (before any fault).
        end: the byte after the last whole frame (``size`` unless the framing breaks).
        starts: the byte where each granule starts (the first at byte 0; none for an empty file).
        digests: blake2b (16 bytes) of each granule's bytes; the last granule runs to ``size``.
    """

    size: int
    mtime_ns: int
    probe: bytes
    granule: int
    records: int
    end: int
    starts: tuple[int, ...]
    digests: tuple[bytes, ...]

    @property
    def granules(self) -> int:
        """How many granules there are."""
        return len(self.starts)

    def byte_range(self, first: int, stop: int) -> tuple[int, int]:
        """The bytes ``[start, end)`` of granules ``first`` to ``stop - 1``."""
        end = self.starts[stop] if stop < self.granules else self.size
        return self.starts[first], end

    def bounds(self, first: int, stop: int) -> tuple[int, ...]:
        """Where granules ``first`` to ``stop - 1`` start, then where the last one ends."""
        return (*self.starts[first:stop], self.byte_range(first, stop)[1])

    def frames_in(self, first: int, stop: int) -> int:
        """The whole frames in granules ``first`` to ``stop - 1``."""
        return min(stop * self.granule, self.records) - first * self.granule


def sidecar_path(path: str | os.PathLike[str]) -> Path:
    """Where the index of ``path`` is kept: ``games.pbs`` -> ``games.pbs.index``."""
    return Path(os.fspath(path) + SIDECAR_SUFFIX)


def load_index(path: str | os.PathLike[str], granule: int = GRANULE) -> tuple[FrameIndex, bool]:
    """The index of a ``.pbs`` file: its sidecar when it still fits the file, else a new scan.

    A new scan is written as the sidecar (atomically); a sidecar that cannot be written is
    left out. Returns the index and whether it came from the sidecar.

    Raises:
        OSError: the file cannot be read.
    """
    status = os.stat(path)
    side = sidecar_path(path)
    try:
        kept = decode_index(side.read_bytes())
    except OSError:
        kept = None
    if (
        kept is not None
        and kept.granule == granule
        and (kept.size, kept.mtime_ns) == (status.st_size, status.st_mtime_ns)
        and kept.probe == probe_digest(path, status.st_size)
    ):
        return kept, True
    index = scan(path, granule)
    _write_sidecar(side, index)
    return index, False


def _write_sidecar(side: Path, index: FrameIndex) -> None:
    """Write the sidecar atomically; nothing (and no stray file) when the folder is read-only."""
    from gamerec.recorder.atomic import atomic_output  # noqa: PLC0415 (only to write)

    with contextlib.suppress(OSError), atomic_output(side, durable=False) as stream:
        stream.write(encode_index(index))


def probe_digest(path: str | os.PathLike[str], size: int) -> bytes:
    """The digest of a file's size and its first and last :data:`PROBE_BYTES` bytes."""
    hasher = blake2b(size.to_bytes(8, "little"), digest_size=_DIGEST_BYTES)
    with open(path, "rb") as stream:
        hasher.update(stream.read(PROBE_BYTES))
        stream.seek(max(0, size - PROBE_BYTES))
        hasher.update(stream.read(PROBE_BYTES))
    return hasher.digest()


def scan(path: str | os.PathLike[str], granule: int = GRANULE) -> FrameIndex:
    """Walk the length prefixes of a ``.pbs`` file and index it (nothing is parsed).

    Raises:
        OSError: the file cannot be read.
    """
    status = os.stat(path)
    with open(path, "rb", buffering=0) as stream:
        scanner = _Scanner(granule)
        while block := stream.read(BLOCK_BYTES):
            scanner.feed(block)
        size = scanner.finish()
    return FrameIndex(
        size,
        status.st_mtime_ns,
        probe_digest(path, size),
        granule,
        scanner.records,
        scanner.end,
        tuple(scanner.starts),
        tuple(scanner.digests),
    )


class _Scanner:
    """The state of a scan fed block by block.

    Only an unfinished length prefix (under ten bytes) is carried from one block to the next;
    a frame longer than what is left of a block is jumped over (``skip``), so memory stays at
    one block whatever the frames claim.
    """

    def __init__(self, granule: int) -> None:
        self.granule = granule
        self.records = 0
        self.end = 0
        self.starts: list[int] = []
        self.digests: list[bytes] = []
        self._hasher = blake2b(digest_size=_DIGEST_BYTES)
        self._carry = b""
        self._skip = 0
        self._offset = 0  # the file offset of the next block's first byte, carry included
        self._broken = False

    def feed(self, block: bytes) -> None:
        """Index one more block of the file."""
        if not self.starts:
            self.starts.append(0)
        data = self._carry + block if self._carry else block
        self._carry = b""
        if self._broken or self._skip > len(data):
            self._skip = max(0, self._skip - len(data))
            self._consume(data, 0, len(data))
            return
        position, fed = self._skip, 0
        if self._skip:
            self._skip = 0
            self._frame_done(position)
        position, fed = self._frames(data, position, fed)
        if not self._broken and not self._skip:
            self._carry = data[position:]
        self._consume(data, fed, len(data) - len(self._carry))

    def _frames(self, data: bytes, position: int, fed: int) -> tuple[int, int]:
        """Walk the frames of one block; return where the walk stopped and what is hashed."""
        size = len(data)
        granule = self.granule
        while position < size:
            first = data[position]
            if first < 0x80:
                length, start = first, position + 1
            else:
                try:
                    length, start = decode_varint(data, position, size, "a length")
                except WireError:
                    self._broken = size - position >= _MAX_VARINT_BYTES
                    return position, fed
            if not length:  # an empty frame is a fault of the framing, as for the reader
                self._broken = True
                return position, fed
            if self.records and self.records % granule == 0:
                self._hasher.update(data[fed:position])
                self._close_granule(self._offset + position)
                fed = position
            stop = start + length
            if stop > size:
                self._skip = stop - size
                return size, fed
            position = stop
            self._frame_done(position)
        return position, fed

    def _frame_done(self, position: int) -> None:
        self.records += 1
        self.end = self._offset + position

    def _close_granule(self, start: int) -> None:
        self.digests.append(self._hasher.digest())
        self._hasher = blake2b(digest_size=_DIGEST_BYTES)
        self.starts.append(start)

    def _consume(self, data: bytes, fed: int, upto: int) -> None:
        """Hash ``data[fed:upto]`` and move the block offset past it."""
        self._hasher.update(data[fed:upto])
        self._offset += upto

    def finish(self) -> int:
        """Close the last granule (the bytes of an unfinished prefix included); the file size."""
        self._consume(self._carry, 0, len(self._carry))
        if self.starts:
            self.digests.append(self._hasher.digest())
        return self._offset


def check_granules(
    data: bytes, bounds: Sequence[int], digests: Sequence[bytes], source: str
) -> None:
    """Check that ``data`` holds exactly the granules whose bounds and digests are given.

    Args:
        data: the bytes read from ``bounds[0]`` to ``bounds[-1]``.
        bounds: where each granule starts, then where the last one ends
            (:meth:`FrameIndex.bounds`).
        digests: each granule's digest (:meth:`FrameIndex.digests`, the same granules).
        source: the file's name in the message.

    Raises:
        IndexStaleError: it does not: the file changed since it was indexed.
    """
    start, end = bounds[0], bounds[-1]
    if len(data) != end - start:
        raise IndexStaleError(
            f"{source}: the file changed since it was indexed (bytes {start}-{end} are "
            f"{len(data)} bytes long now); validate it again"
        )
    for (low, high), digest in zip(pairwise(bounds), digests, strict=True):
        if blake2b(data[low - start : high - start], digest_size=_DIGEST_BYTES).digest() != digest:
            raise IndexStaleError(
                f"{source}: the file changed since it was indexed (the records from byte "
                f"{low} are not those indexed); validate it again"
            )


def encode_index(index: FrameIndex) -> bytes:
    """The sidecar's bytes: a header, one entry per granule, and a digest of all of it."""
    header = _HEADER.pack(
        _VERSION,
        index.size,
        index.mtime_ns,
        index.granule,
        index.records,
        index.end,
        index.granules,
        index.probe,
    )
    entries = b"".join(
        _ENTRY.pack(start, digest)
        for start, digest in zip(index.starts, index.digests, strict=True)
    )
    body = _MAGIC + header + entries
    return body + blake2b(body, digest_size=_DIGEST_BYTES).digest()


def decode_index(data: bytes) -> FrameIndex | None:
    """The index a sidecar holds, or None when it is not a whole, consistent sidecar."""
    fixed = len(_MAGIC) + _HEADER.size
    if len(data) < fixed + _DIGEST_BYTES or not data.startswith(_MAGIC):
        return None
    body, check = data[:-_DIGEST_BYTES], data[-_DIGEST_BYTES:]
    if blake2b(body, digest_size=_DIGEST_BYTES).digest() != check:
        return None
    version, size, mtime_ns, granule, records, end, count, probe = _HEADER.unpack_from(
        data, len(_MAGIC)
    )
    if version != _VERSION or len(body) != fixed + count * _ENTRY.size:
        return None
    entries = [_ENTRY.unpack_from(body, fixed + n * _ENTRY.size) for n in range(count)]
    starts = tuple(start for start, _ in entries)
    index = FrameIndex(
        size, mtime_ns, probe, granule, records, end, starts, tuple(d for _, d in entries)
    )
    return index if _consistent(index) else None


def _consistent(index: FrameIndex) -> bool:
    """Whether an index could describe some file (its parts agree with each other)."""
    starts: Sequence[int] = index.starts
    if index.granule < 1 or not 0 <= index.end <= index.size:
        return False
    if not starts:
        return index.size == 0 and index.records == 0
    whole = -(-index.records // index.granule) if index.records else 0
    return (
        starts[0] == 0
        and all(a < b for a, b in pairwise(starts))
        and starts[-1] <= index.size
        and len(starts) in (whole, whole + 1, 1)
        and len(starts) >= whole
    )
