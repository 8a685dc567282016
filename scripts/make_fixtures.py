"""Make the derived fixtures from the hand-written ones (``python scripts/make_fixtures.py``).

The hand-written sources are ``fixtures/valid/*.grn`` (records from the worked examples of
the rules) and the text files of ``fixtures/broken/``. This script writes:

- ``fixtures/valid/<name>.pb`` and ``<name>.json`` for every ``<name>.grn``;
- ``fixtures/valid/collection.pbs`` and ``collection.jsonl``: every record, in file-name order;
- the binary broken fixtures: ``truncated.pb``, ``truncated.pbs``, ``oversized-frame.pbs``,
  ``not-a-record.pb`` and ``not-utf8.grn``.

``--check`` writes nothing and exits 1 when a derived file is missing or disagrees with its
source (records are compared as messages, never as bytes).
"""

from __future__ import annotations

import argparse
import io
import sys
from pathlib import Path

from gamerec.recorder.codecs import Encoding, encode_record, read_records
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb

ROOT = Path(__file__).resolve().parent.parent
VALID = ROOT / "fixtures" / "valid"
BROKEN = ROOT / "fixtures" / "broken"
COLLECTION = "collection"


def valid_sources() -> list[Path]:
    """The hand-written GRN fixtures, in file-name order."""
    return sorted(VALID.glob("*.grn"))


def read_one(path: Path) -> pb.GameRecord:
    """The single record of a fixture file."""
    (record,) = read_records(path)
    return record


def derived_valid_files() -> dict[Path, bytes]:
    """Every derived file of ``fixtures/valid`` and its bytes."""
    files: dict[Path, bytes] = {}
    records = []
    for source in valid_sources():
        record = read_one(source)
        records.append(record)
        files[source.with_suffix(".pb")] = encode_record(record, Encoding.PB)
        files[source.with_suffix(".json")] = encode_record(record, Encoding.JSON)
    for encoding in (Encoding.PBS, Encoding.JSONL):
        data = b"".join(encode_record(record, encoding) for record in records)
        files[VALID / f"{COLLECTION}{encoding.extension}"] = data
    return files


def broken_binary_files() -> dict[Path, bytes]:
    """The broken fixtures that cannot be written by hand."""
    record = read_one(VALID / "one-e3-round-completion.grn")
    whole = encode_record(record, Encoding.PB)
    collection = b"".join(
        encode_record(read_one(source), Encoding.PBS) for source in valid_sources()
    )
    grn = encode_record(record, Encoding.GRN)
    return {
        # Cut inside the last field (the game comment), which then claims more bytes than
        # remain. (A cut between two fields would leave a shorter but valid record:
        # protobuf has no end marker, which is why collections use .pbs framing.)
        BROKEN / "truncated.pb": whole[:-3],
        # The last frame loses its final 10 bytes.
        BROKEN / "truncated.pbs": collection[:-10],
        # A frame that claims 2 GiB: must fail before any allocation.
        BROKEN / "oversized-frame.pbs": encode_varint(2**31) + b"\x08\x01",
        # Not protobuf at all: wire type 7 in the first byte.
        BROKEN / "not-a-record.pb": b"\x0f\xff\xff\xff\xff",
        # A Latin-1 byte inside a tag value.
        BROKEN / "not-utf8.grn": grn.replace(b"Ana", b"An\xe4", 1),
    }


def derived_files() -> dict[Path, bytes]:
    """Every file this script writes, and its bytes."""
    return {**derived_valid_files(), **broken_binary_files()}


def agrees(path: Path, data: bytes) -> bool:
    """Whether an existing derived file matches ``data``: as records, or as bytes if broken."""
    if not path.exists():
        return False
    if path.parent == BROKEN:
        return path.read_bytes() == data
    encoding = Encoding(path.suffix.removeprefix("."))
    return list(read_records(path)) == list(read_records(io.BytesIO(data), encoding))


def main() -> int:
    """Write the derived fixtures, or with --check compare them."""
    parser = argparse.ArgumentParser(description="Make the derived fixtures.")
    parser.add_argument("--check", action="store_true", help="compare instead of writing")
    check = parser.parse_args().check
    files = derived_files()
    if check:
        stale = [path for path, data in files.items() if not agrees(path, data)]
        for path in stale:
            print(f"stale or missing: {path.relative_to(ROOT)}")
        return 1 if stale else 0
    for path, data in files.items():
        path.write_bytes(data)
    print(f"wrote {len(files)} fixture files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
