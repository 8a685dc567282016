"""The frame index of .pbs files: the scan against a plain walk, the sidecar and its checks."""

from __future__ import annotations

import io
import os
from hashlib import blake2b
from itertools import pairwise
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder import index as frame_index
from gamerec.recorder.binary import read_pbs_frames
from gamerec.recorder.errors import GamerecError
from gamerec.recorder.index import (
    FrameIndex,
    IndexStaleError,
    check_granules,
    decode_index,
    encode_index,
    load_index,
    scan,
    sidecar_path,
)
from gamerec.recorder.wire import WireError, decode_varint, encode_varint

payloads = st.lists(st.binary(max_size=40) | st.binary(min_size=120, max_size=300), max_size=40)
tails = st.sampled_from(
    [b"", b"\x05ab", b"\xff" * 11, b"\x80", b"\xff\xff\xff\xff\x0f", b"\0" * 7, b"\0\x01a"]
)


def plain_walk(data: bytes, granule: int) -> tuple[int, int, list[int]]:
    """Whole frames, the end of the last one, and every granule's start, the slow way."""
    position = records = 0
    starts = [0] if data else []
    while position < len(data):
        try:
            length, start = decode_varint(data, position, len(data), "a length")
        except WireError:
            break
        if not length:  # an empty frame ends the framing, as for the reader
            break
        if records and records % granule == 0:
            starts.append(position)
        if start + length > len(data):
            break
        records += 1
        position = start + length
    return records, position, starts


def write(tmp_path: Path, frames: list[bytes], tail: bytes = b"") -> Path:
    path = tmp_path / "archive.pbs"
    path.write_bytes(b"".join(encode_varint(len(f)) + f for f in frames) + tail)
    return path


@settings(max_examples=150, deadline=None)
@given(frames=payloads, tail=tails, granule=st.integers(1, 5), block=st.integers(1, 64))
def test_the_scan_finds_what_a_plain_walk_finds(
    tmp_path_factory: pytest.TempPathFactory,
    frames: list[bytes],
    tail: bytes,
    granule: int,
    block: int,
) -> None:
    path = write(tmp_path_factory.mktemp("scan"), frames, tail)
    data = path.read_bytes()
    original = frame_index.BLOCK_BYTES
    frame_index.BLOCK_BYTES = block  # frames and prefixes cut by block ends
    try:
        index = scan(path, granule)
    finally:
        frame_index.BLOCK_BYTES = original
    records, end, starts = plain_walk(data, granule)
    assert (index.records, index.end, list(index.starts)) == (records, end, starts)
    assert index.size == len(data)
    bounds = [*starts, len(data)]
    assert list(index.digests) == [
        blake2b(data[a:b], digest_size=16).digest() for a, b in pairwise(bounds)
    ]
    assert decode_index(encode_index(index)) == index


@settings(max_examples=60, deadline=None)
@given(frames=payloads, tail=tails, granule=st.integers(1, 4))
def test_shards_read_by_themselves_give_the_frames_and_fault_of_the_whole_file(
    tmp_path_factory: pytest.TempPathFactory, frames: list[bytes], tail: bytes, granule: int
) -> None:
    path = write(tmp_path_factory.mktemp("shards"), frames, tail)
    data = path.read_bytes()
    index = scan(path, granule)

    def frames_and_fault(stream: io.BytesIO, first_number: int, offset: int) -> list[object]:
        out: list[object] = []
        try:
            for frame in read_pbs_frames(stream, "a.pbs", first_number=first_number, offset=offset):
                out.append((frame.where, frame.base, frame.data))
        except GamerecError as error:
            out.append(str(error))
        return out

    whole = frames_and_fault(io.BytesIO(data), 1, 0)
    pieces: list[object] = []
    for first in range(index.granules):
        start, end = index.byte_range(first, first + 1)
        check_granules(
            data[start:end],
            index.bounds(first, first + 1),
            index.digests[first : first + 1],
            "a.pbs",
        )
        pieces += frames_and_fault(io.BytesIO(data[start:end]), first * granule + 1, start)
        if first < index.granules - 1:
            assert index.frames_in(first, first + 1) == granule
    assert pieces == whole


def test_a_changed_granule_is_found_by_its_digest(tmp_path: Path) -> None:
    path = write(tmp_path, [bytes([n]) * 10 for n in range(10)])
    index = scan(path, 3)
    data = bytearray(path.read_bytes())
    start, end = index.byte_range(1, 3)
    bounds, digests = index.bounds(1, 3), index.digests[1:3]
    check_granules(bytes(data[start:end]), bounds, digests, "a.pbs")
    data[start + 5] ^= 1
    with pytest.raises(IndexStaleError, match=r"a\.pbs: the file changed since it was indexed"):
        check_granules(bytes(data[start:end]), bounds, digests, "a.pbs")
    with pytest.raises(IndexStaleError, match="bytes long now"):
        check_granules(bytes(data[start : end - 1]), bounds, digests, "a.pbs")


def test_the_sidecar_is_written_reused_and_replaced_when_the_file_changes(tmp_path: Path) -> None:
    path = write(tmp_path, [b"x" * 20] * 7)
    first, kept = load_index(path, 2)
    assert not kept and sidecar_path(path).exists()
    again, kept = load_index(path, 2)
    assert kept and again == first
    path.write_bytes(path.read_bytes() + encode_varint(3) + b"abc")
    changed, kept = load_index(path, 2)
    assert not kept and changed.records == 8
    # The same size and time, other bytes at the start: the probe digest sees it.
    data = bytearray(path.read_bytes())
    data[1] ^= 1
    stat = path.stat()
    path.write_bytes(bytes(data))
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))
    assert load_index(path, 2)[1] is False
    assert load_index(path, 3)[1] is False  # another granule: scanned again


def test_a_folder_that_cannot_be_written_keeps_the_index_in_memory(tmp_path: Path) -> None:
    path = write(tmp_path, [b"y"] * 3)
    sidecar_path(path).mkdir()  # the sidecar's name is taken by a folder: it cannot be written
    index, kept = load_index(path, 2)
    assert not kept and index.records == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == ["archive.pbs", "archive.pbs.index"]


def test_an_empty_file_has_no_granules(tmp_path: Path) -> None:
    index = scan(write(tmp_path, []))
    assert (index.granules, index.records, index.size) == (0, 0, 0)
    assert decode_index(encode_index(index)) == index


@settings(max_examples=300, deadline=None)
@given(data=st.binary(max_size=300), flips=st.lists(st.integers(0, 10_000), max_size=3))
def test_the_sidecar_decoder_takes_any_bytes(data: bytes, flips: list[int]) -> None:
    sample = FrameIndex(900, 1, b"p" * 16, 2, 3, 900, (0, 400), (b"a" * 16, b"b" * 16))
    for raw in (data, encode_index(sample)):
        mutated = bytearray(raw)
        for flip in flips:
            if mutated:
                mutated[flip % len(mutated)] ^= 0x41
        decoded = decode_index(bytes(mutated))
        assert decoded is None or decoded == sample or not flips
