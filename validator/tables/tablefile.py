"""The Oh-Wah-Ree endgame table file: written whole or not at all, read only when intact.

The format (docs/tables.md states it for other programs), all integers little-endian:

====== ====== =============================================================================
offset size   field
====== ====== =============================================================================
0      8      magic ``89 4F 57 52 54 42 4C 0A`` (byte 0x89, ``OWRTBL``, a line feed)
8      2      format version, 1
10     1      seats, 2
11     1      sowing direction, 0 = counter-clockwise (the only one of two seats)
12     1      N, the most stones on the board the table covers
13     1      value encoding, 1 = one signed byte per position
14     2      reserved, 0
16     8      P, the positions: C(N + 12, 12)
24     8      K, the positions whose perfect play never ends
32     32     SHA-256 of bytes 0-31 followed by every byte from offset 64 to the end
64     P      each position's margin (−N..N), −128 where perfect play never ends
64+P   6·K    those positions in increasing number: number (4 bytes), lower bound (signed
              byte; −127: none), upper bound (signed byte; 127: none)
====== ====== =============================================================================
"""

from __future__ import annotations

import hashlib
import os
import struct
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Final

from gamerec.recorder.errors import GamerecError
from gamerec.validator.tables.build import INFINITE, Solved
from gamerec.validator.tables.positions import MAX_STONES, table_size

MAGIC: Final = b"\x89OWRTBL\n"
VERSION: Final = 1
HEADER_SIZE: Final = 64
#: The value byte of a position whose perfect play never ends, and the bounds meaning "none".
NO_END: Final = -128
NO_LOWER: Final = -127
NO_UPPER: Final = 127

_FIELDS: Final = struct.Struct("<8sHBBBBHQQ")  # bytes 0-31
_RECORD: Final = struct.Struct("<Ibb")
_SEATS: Final = 2
_COUNTER_CLOCKWISE: Final = 0
_ONE_BYTE: Final = 1


class TableError(GamerecError):
    """A table file is missing, foreign, of another version or rules, damaged, or cut short."""


@dataclass(frozen=True, slots=True)
class TableData:
    """A table file's contents: N, each position's value byte, the never-ending positions."""

    stones: int
    values: bytes
    no_end: bytes  # K records of 6 bytes, in increasing position number

    def value(self, index: int) -> int:
        """The signed value byte of position ``index``."""
        byte = self.values[index]
        return byte - 256 if byte > 127 else byte

    def bounds(self, index: int) -> tuple[int | None, int | None]:
        """The lower and upper bounds of a never-ending position (None: no bound)."""
        records = len(self.no_end) // _RECORD.size
        low, high = 0, records
        while low < high:
            middle = (low + high) // 2
            number, lower, upper = _RECORD.unpack_from(self.no_end, middle * _RECORD.size)
            if number == index:
                return (None if lower == NO_LOWER else lower), (
                    None if upper == NO_UPPER else upper
                )
            if number < index:
                low = middle + 1
            else:
                high = middle
        raise TableError(f"position {index} never ends but has no bounds in the table")


def encode(solved: Solved) -> bytes:
    """The table file of ``solved`` (see the module text)."""
    values = bytearray(len(solved.lower))
    records = bytearray()
    for index, (lower, upper) in enumerate(zip(solved.lower, solved.upper, strict=True)):
        if lower == upper:
            values[index] = lower & 0xFF
            continue
        values[index] = NO_END & 0xFF
        records += _RECORD.pack(
            index,
            NO_LOWER if lower <= -INFINITE else lower,
            NO_UPPER if upper >= INFINITE else upper,
        )
    fields = _FIELDS.pack(
        MAGIC,
        VERSION,
        _SEATS,
        _COUNTER_CLOCKWISE,
        solved.stones,
        _ONE_BYTE,
        0,
        len(values),
        len(records) // _RECORD.size,
    )
    digest = hashlib.sha256(fields)
    digest.update(values)
    digest.update(records)
    return fields + digest.digest() + bytes(values) + bytes(records)


def write(solved: Solved, path: Path) -> int:
    """Write the table file of ``solved`` to ``path`` whole (a temporary file, then renamed).

    Returns its size in bytes.
    """
    data = encode(solved)
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, temporary = tempfile.mkstemp(prefix=f".{path.name}.", dir=path.parent)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
    return len(data)


def read(path: Path) -> TableData:
    """Read and check a table file.

    Raises:
        TableError: the file cannot be read, is not an Oh-Wah-Ree table, is of another version
            or rules, or does not match its size or checksum (the message says which).
    """
    try:
        with path.open("rb") as source:
            header = source.read(HEADER_SIZE)
            expected = _expected_size(path, header)
            size = os.fstat(source.fileno()).st_size
            if size != expected:
                raise TableError(
                    f"{path}: the header promises {expected} bytes but the file has {size}"
                    " (cut short or padded)"
                )
            body = source.read()
    except OSError as error:
        raise TableError(f"{path}: cannot read the table: {error.strerror or error}") from None
    digest = hashlib.sha256(header[:32])
    digest.update(body)
    if digest.digest() != header[32:HEADER_SIZE]:
        raise TableError(f"{path}: checksum mismatch at byte 32: the table is damaged")
    stones, positions = header[12], struct.unpack_from("<Q", header, 16)[0]
    return TableData(stones, body[:positions], body[positions:])


def _expected_size(path: Path, header: bytes) -> int:
    """The file size the header states, once its fields are checked."""
    if len(header) < HEADER_SIZE:
        raise TableError(f"{path}: {len(header)} bytes is too short for a table header")
    magic, version, seats, direction, stones, encoding, reserved, positions, no_end = (
        _FIELDS.unpack_from(header)
    )
    if magic != MAGIC:
        raise TableError(f"{path}: not an Oh-Wah-Ree endgame table (bytes 0-7 are not its magic)")
    if version != VERSION:
        raise TableError(f"{path}: table format version {version}; this gamerec reads {VERSION}")
    if seats != _SEATS or direction != _COUNTER_CLOCKWISE:
        raise TableError(
            f"{path}: a table for {seats} seats, direction code {direction}; only two seats"
            " sowing counter-clockwise (code 0) are tabled"
        )
    if encoding != _ONE_BYTE or reserved != 0:
        raise TableError(f"{path}: value encoding {encoding} (reserved {reserved}) is unknown")
    if not 0 <= stones <= MAX_STONES or positions != table_size(stones):
        raise TableError(
            f"{path}: {positions} positions do not make a table of up to {stones} stones"
        )
    if no_end > positions:
        raise TableError(f"{path}: {no_end} never-ending positions among {positions}")
    return HEADER_SIZE + int(positions) + int(no_end) * _RECORD.size
