"""Writing records in every encoding: to a file (atomically), standard output or a stream.

May import the standard library, ``gamerec.v1`` and ``gamerec.recorder`` (``arguments``,
``binary``, ``encoding``, ``errors``, ``codecs.reading``); each encoding's writer (ProtoJSON,
GRN, the foreign formats) and ``atomic`` only when it is used.
"""

from __future__ import annotations

import io
import os
import sys
from collections.abc import Callable, Iterable, Iterator
from pathlib import Path
from typing import BinaryIO, TypeAlias

from gamerec.recorder.arguments import require_record
from gamerec.recorder.binary import record_bytes, write_pbs
from gamerec.recorder.codecs.reading import Source
from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.errors import EncodingError
from gamerec.v1 import record_pb2 as pb

_Writer: TypeAlias = Callable[[Iterable[pb.GameRecord], BinaryIO], int]


def _write_pb(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    return _write_one(records, stream, Encoding.PB, record_bytes)


def _write_json(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    from gamerec.recorder.protojson import encode_json  # noqa: PLC0415 (loaded when needed)

    return _write_one(records, stream, Encoding.JSON, encode_json)


def _write_jsonl(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    from gamerec.recorder.protojson import write_jsonl  # noqa: PLC0415 (loaded when needed)

    return write_jsonl(records, stream)


def _write_grn(records: Iterable[pb.GameRecord], stream: BinaryIO) -> int:
    from gamerec.recorder.grn_writer import write_grn  # noqa: PLC0415 (loaded when needed)

    return write_grn(records, stream)


def _write_one(
    records: Iterable[pb.GameRecord],
    stream: BinaryIO,
    encoding: Encoding,
    encode: Callable[[pb.GameRecord], bytes],
) -> int:
    """Write the single record of a one-record encoding (``.pb``, ``.json``).

    Raises:
        EncodingError: there is no record, or more than one.
    """
    many = {Encoding.PB: Encoding.PBS, Encoding.JSON: Encoding.JSONL}[encoding]
    iterator = iter(records)
    first = next(iterator, None)
    if first is None:
        raise EncodingError(f"a {encoding.extension} file holds one record, and there is none")
    stream.write(encode(first))
    if next(iterator, None) is not None:
        raise EncodingError(
            f"a {encoding.extension} file holds one record and there are several; "
            f"write them to {many.extension}"
        )
    return 1


_WRITERS: dict[Encoding, _Writer] = {
    Encoding.PB: _write_pb,
    Encoding.PBS: write_pbs,
    Encoding.JSON: _write_json,
    Encoding.JSONL: _write_jsonl,
    Encoding.GRN: _write_grn,
}

#: Told what a foreign format cannot hold of a record (``convert`` prints it as a warning).
Warn: TypeAlias = Callable[[str], None]


def _writer(encoding: Encoding, warn: Warn | None) -> _Writer:
    """The writer of an encoding; a foreign format's tells ``warn`` what it cannot hold."""
    if encoding is Encoding.ABSTRACT_PLAY:
        from gamerec.recorder.foreign.abstractplay import write_abstract_play  # noqa: PLC0415

        return lambda records, stream: write_abstract_play(records, stream, warn)
    if encoding is Encoding.LUDII:
        from gamerec.recorder.foreign.ludii import write_trial  # noqa: PLC0415

        return lambda records, stream: write_trial(records, stream, warn)
    return _WRITERS[encoding]


def write_records(
    records: Iterable[pb.GameRecord],
    dest: Source,
    encoding: Encoding | None = None,
    *,
    warn: Warn | None = None,
) -> int:
    """Write records to a file (atomically), standard output ``"-"``, or a binary stream.

    Records are consumed one at a time, so a generator of any length streams through.

    Args:
        records: the records, in order.
        dest: a path, ``"-"`` for standard output, or a binary stream (left open).
        encoding: the encoding; None takes it from the file extension.
        warn: told, for a foreign format (Abstract Play, Ludii), which fields of a record
            the format has no place for (they ride in an embedded copy only gamerec reads).

    Returns:
        The number of records written.

    Raises:
        EncodingError: no encoding can be told, the encoding holds one record and there are
            none or several, or a record has no form in the encoding. A file destination is
            then left as it was.
        OSError: the file cannot be written.
        TypeError: ``records`` is one record, a path or bytes, or yields something that is no
            record (a file destination is then left as it was).
    """
    records = _records_only(records)
    if isinstance(dest, str | os.PathLike) and os.fspath(dest) != "-":
        chosen = encoding or encoding_for_path(dest)
        if chosen is None:
            raise EncodingError(
                f"cannot tell the encoding of {os.fspath(dest)!r} from its extension; "
                f"name it {', '.join(e.extension for e in Encoding)} or say the encoding"
            )
        write = _writer(chosen, warn)
        return _write_atomically(Path(dest), lambda stream: write(records, stream))
    if encoding is None:
        raise EncodingError("say which encoding to write to a stream")
    stream = sys.stdout.buffer if isinstance(dest, str | os.PathLike) else dest
    count = _writer(encoding, warn)(records, stream)
    stream.flush()
    return count


def _records_only(records: Iterable[pb.GameRecord]) -> Iterator[pb.GameRecord]:
    """``records`` checked one by one as they are written; a lone record or a path refused now."""
    if isinstance(records, pb.GameRecord):
        raise TypeError("gamerec.write_records takes an iterable of records; give [record]")
    if isinstance(records, str | bytes | bytearray | os.PathLike):
        raise TypeError(
            f"gamerec.write_records takes an iterable of records, not {type(records).__name__}: "
            "gamerec.read_records(path) reads them from a file, gamerec.decode_record(data) "
            "from bytes"
        )
    return (require_record(record, "write_records") for record in records)


def _write_atomically(path: Path, write: Callable[[BinaryIO], int]) -> int:
    """Write into a temporary file beside ``path``, then rename it over ``path``."""
    from gamerec.recorder.atomic import atomic_output  # noqa: PLC0415 (only to write)

    with atomic_output(path) as stream:
        return write(stream)


def encode_record(record: pb.GameRecord, encoding: Encoding) -> bytes:
    """One record in an encoding, as bytes (a ``.pbs`` frame, a JSON line, a GRN record).

    Raises:
        EncodingError: the record has no form in that encoding.
    """
    require_record(record, "encode_record")
    buffer = io.BytesIO()
    _writer(encoding, None)([record], buffer)
    return buffer.getvalue()
