"""Read and write records in every encoding: the one entry point for files, streams and bytes.

======  =========  ==============================================================
name    extension  contents
======  =========  ==============================================================
PB      ``.pb``    one binary GameRecord
PBS     ``.pbs``   binary GameRecords, each after its length as a varint
JSON    ``.json``  one record in canonical ProtoJSON, indented
JSONL   ``.jsonl`` one compact ProtoJSON record per line
GRN     ``.grn``   text records of notation.md, one or many
AP      ``.json``  Abstract Play game records: one object, or an array of them
LUDII   ``.trl``   one Ludii trial
======  =========  ==============================================================

The last two are other tools' formats (``gamerec.recorder.foreign``, docs/formats.md): a
``.json`` file is read as Abstract Play's when its content is (an array, or an object with a
``header``), and a text that starts with ``game=`` is a Ludii trial.

The encoding comes from the argument, else from the file extension, else from the content
(:func:`sniff_encoding`; always so for standard input ``-``). Collections (``.pbs``,
``.jsonl``, ``.grn``) are read and written one record at a time, in constant memory.
Every decoding failure is a :class:`~gamerec.recorder.errors.RecordMalformedError` that names the
source, the place (``line 3, column 7``; ``byte 1042``; ``record 3 at byte 1042``) and what
was expected. Every record read is checked against :class:`~gamerec.recorder.limits.Limits` (the
``limits`` argument, :data:`~.limits.DEFAULT_LIMITS` by default); a record over a limit
is a :class:`~gamerec.recorder.errors.LimitExceededError`, which names the limit. Files are written
atomically: into a temporary file in the same folder, renamed over the destination on

The package holds ``sniffing`` (the encoding of an input's first bytes), ``framing`` (an input
cut into records, one framer per encoding), ``reading`` and ``writing``; this module re-exports
the names everything imports from ``gamerec.recorder.codecs``.
"""

from __future__ import annotations

from gamerec.recorder.binary import DEFAULT_MAX_RECORD_BYTES
from gamerec.recorder.codecs.framing import json_frames, jsonl_frames
from gamerec.recorder.codecs.reading import Source, decode_record, read_frames, read_records
from gamerec.recorder.codecs.sniffing import SNIFF_BYTES, sniff_encoding
from gamerec.recorder.codecs.writing import Warn, encode_record, write_records
from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits
from gamerec.recorder.raw import Frame

__all__ = [
    "DEFAULT_LIMITS",
    "DEFAULT_MAX_RECORD_BYTES",
    "SNIFF_BYTES",
    "Encoding",
    "Frame",
    "Limits",
    "Source",
    "Warn",
    "decode_record",
    "encode_record",
    "encoding_for_path",
    "json_frames",
    "jsonl_frames",
    "read_frames",
    "read_records",
    "sniff_encoding",
    "write_records",
]
