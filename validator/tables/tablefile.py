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
13     1      value encoding, 2 = two signed bytes per position
14     2      reserved, 0
16     8      P, the positions: C(N + 12, 12)
24     8      K, the positions whose perfect play never ends (a count; the body says which)
32     32     SHA-256 of bytes 0-31 followed by every byte from offset 64 to the end
64     2·P    each position's lower bound then upper bound (signed bytes, −N..N; −127: no
              lower bound, 127: no upper bound): equal for an exact margin
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
#: The bounds that mean "none": the side cannot force an end.
NO_LOWER: Final = -127
NO_UPPER: Final = 127

_FIELDS: Final = struct.Struct("<8sHBBBBHQQ")  # bytes 0-31
_SEATS: Final = 2
_COUNTER_CLOCKWISE: Final = 0
_TWO_BYTES: Final = 2


class TableError(GamerecError):
    """A table file is missing, foreign, of another version or rules, damaged, or cut short."""


@dataclass(frozen=True, slots=True)
class TableData:
    """A table file's contents: N, the never-ending count, each position's two bounds."""

    stones: int
    never_ending: int
    bounds: bytes  # 2 signed bytes per position: lower, upper

    def lower_upper(self, index: int) -> tuple[int | None, int | None]:
        """The lower and upper bounds of position ``index`` (None: no bound); equal if exact."""
        lower, upper = _signed(self.bounds[2 * index]), _signed(self.bounds[2 * index + 1])
        return (None if lower == NO_LOWER else lower), (None if upper == NO_UPPER else upper)

    def exact(self, index: int) -> int | None:
        """The exact margin of position ``index``, None when its perfect play never ends."""
        lower, upper = self.bounds[2 * index], self.bounds[2 * index + 1]
        return _signed(lower) if lower == upper else None


def _signed(byte: int) -> int:
    """A byte read as a signed byte."""
    return byte - 256 if byte > 127 else byte


def encode(solved: Solved) -> bytes:
    """The table file of ``solved`` (see the module text)."""
    bounds = bytearray(2 * len(solved.lower))
    never_ending = 0
    for index, (lower, upper) in enumerate(zip(solved.lower, solved.upper, strict=True)):
        never_ending += lower != upper
        bounds[2 * index] = (NO_LOWER if lower <= -INFINITE else lower) & 0xFF
        bounds[2 * index + 1] = (NO_UPPER if upper >= INFINITE else upper) & 0xFF
    fields = _FIELDS.pack(
        MAGIC,
        VERSION,
        _SEATS,
        _COUNTER_CLOCKWISE,
        solved.stones,
        _TWO_BYTES,
        0,
        len(solved.lower),
        never_ending,
    )
    digest = hashlib.sha256(fields)
    digest.update(bounds)
    return fields + digest.digest() + bytes(bounds)


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
    never_ending = struct.unpack_from("<Q", header, 24)[0]
    return TableData(header[12], never_ending, body)


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
    if encoding != _TWO_BYTES or reserved != 0:
        raise TableError(f"{path}: value encoding {encoding} (reserved {reserved}) is unknown")
    if not 0 <= stones <= MAX_STONES or positions != table_size(stones):
        raise TableError(
            f"{path}: {positions} positions do not make a table of up to {stones} stones"
        )
    if no_end > positions:
        raise TableError(f"{path}: {no_end} never-ending positions among {positions}")
    return HEADER_SIZE + 2 * int(positions)
