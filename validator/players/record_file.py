"""A file of records that grows one whole record at a time: a tournament's output.

A tournament writes each game the moment it ends, so a run that is stopped (Ctrl-C, a kill,
a crash of the machine) keeps every game finished before, and the same command completes the
rest. :func:`recorder.atomic.atomic_output` replaces a file whole, which would rewrite every
game at every game; here each record is *appended* in one ``write`` to a descriptor opened
with ``O_APPEND``, then flushed to the disk (``fsync``) before the next game is reported:

- a signal cannot cut a ``write`` to a local file, so a killed run leaves whole records only;
- a short write (a full disk) is undone at once: the file is cut back to its length before
  the record (``ftruncate``) and the error raised, so the file never holds half a record;
- a crash of the machine in the middle of a ``write`` can still leave a torn last record;
  the next run's reading of the file (:func:`read_finished`) then stops with the reader's
  error, which names the record and the byte, and nothing is written until it is mended.

The encodings that hold many records and grow by appending: ``.pbs``, ``.jsonl``, ``.grn``
(a blank line before each record but the first).
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Final

from gamerec.recorder.codecs import encode_record, read_records
from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.errors import GamerecError
from gamerec.v1 import record_pb2 as pb

#: The encodings a record file can be kept in.
APPENDABLE: Final = (Encoding.PBS, Encoding.JSONL, Encoding.GRN)


class RecordFileError(GamerecError):
    """The output cannot be a record file (its encoding), or a record could not be appended."""


def appendable_encoding(path: str | os.PathLike[str]) -> Encoding:
    """The encoding of a record file at ``path``, from its extension.

    Raises:
        RecordFileError: an extension of no encoding, or of one that holds one record.
    """
    encoding = encoding_for_path(path)
    if encoding not in APPENDABLE:
        names = ", ".join(f".{e.value}" for e in APPENDABLE)
        raise RecordFileError(
            f"{os.fspath(path)}: a tournament's records grow one by one; name the file {names}"
        )
    return encoding


def read_finished(path: str | os.PathLike[str]) -> list[pb.GameRecord]:
    """The records a record file holds already (none when it does not exist or is empty).

    Raises:
        RecordFileError: its encoding cannot grow by appending.
        RecordMalformedError: a record cannot be read (a torn last record: place given).
        OSError: the file cannot be read.
    """
    encoding = appendable_encoding(path)
    if not Path(path).exists():
        return []
    return list(read_records(path, encoding, allow_empty=True))


class RecordFile:
    """A record file open for appending (see the module docstring); use it as a context."""

    def __init__(self, path: str | os.PathLike[str]) -> None:
        """Open (or create) ``path`` for appending.

        Raises:
            RecordFileError: its encoding cannot grow by appending.
            OSError: it cannot be opened.
        """
        self.path = Path(path)
        self.encoding = appendable_encoding(path)
        self._descriptor = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o666)
        self._size = os.fstat(self._descriptor).st_size

    def append(self, record: pb.GameRecord) -> None:
        """Append ``record`` whole, on the disk before this returns.

        Raises:
            RecordFileError: it could not be written whole (the file is left as it was).
        """
        data = encode_record(record, self.encoding)
        if self.encoding is Encoding.GRN and self._size:
            data = b"\n" + data
        try:
            written = os.write(self._descriptor, data)
            if written != len(data):
                raise OSError(f"only {written} of {len(data)} bytes were written")
            os.fsync(self._descriptor)
        except OSError as error:
            os.ftruncate(self._descriptor, self._size)
            raise RecordFileError(
                f"{self.path}: the record of round {record.metadata.round or '?'} could not be "
                f"appended ({error}); the file holds the records before it"
            ) from None
        self._size += len(data)

    def close(self) -> None:
        """Close the file."""
        os.close(self._descriptor)

    def __enter__(self) -> RecordFile:
        """The file itself."""
        return self

    def __exit__(self, *exc: object) -> None:
        """Close it."""
        self.close()
