"""A record given where a record belongs: the check the public functions make first.

``gamerec.validate("game.grn")`` would otherwise fail deep inside with
``AttributeError: 'str' object has no attribute 'moves'``; :func:`require_record` says what
was given and how to turn it into a record.
"""

from __future__ import annotations

from gamerec.recorder.errors import excerpt
from gamerec.v1 import record_pb2 as pb


def require_record(value: object, function: str) -> pb.GameRecord:
    """``value`` when it is a ``GameRecord``.

    Args:
        value: what the caller passed as the record.
        function: the public name to cite, ``validate`` for ``gamerec.validate``.

    Raises:
        TypeError: anything else; a path (``str`` or ``os.PathLike``) or ``bytes`` are named
            with the call that reads them (``read_records``, ``decode_record``).
    """
    if isinstance(value, pb.GameRecord):
        return value
    given = type(value).__name__
    if isinstance(value, str) or hasattr(value, "__fspath__"):
        path = excerpt(str(value))
        hint = f"to read records from the file {path}, use gamerec.read_records(path)"
    elif isinstance(value, (bytes, bytearray, memoryview)):
        hint = (
            f"to decode {len(value):,} bytes of one record, use gamerec.decode_record(data), "
            "or gamerec.read_records(path) for a file"
        )
    elif isinstance(getattr(value, "record", None), pb.GameRecord):
        hint = "pass its .record"
    else:
        hint = (
            "gamerec.read_records(path) reads them from a file, "
            "gamerec.decode_record(data) from bytes"
        )
    raise TypeError(f"gamerec.{function} takes a GameRecord, not {given}: {hint}")
