"""GRN, the text form of records (notation.md): the reader, several records per file.

A record is its tag pairs, a blank line, and its move text. The blank line ends the tag
section: a tag after it starts the next record (so records without moves stay apart); a tag
after move text also starts the next record. Move text holds, per ply: an optional ply
number (checked when present), the move token, an optional glyph, comments, and variations
``( ... )`` that replace the move before them (nestable). A comment before the first move is
the game's comment. Inside comments, ``[%clk h:mm:ss]``, ``[%ts <RFC 3339>]`` and
``[%seat N]`` set the move's clock, timestamp and seat, and ``[%seal ...]`` carries a
main-line ply's entry of the record's seal (``gamerec.recorder.grn_seal``); other ``[%...]``
text stays comment text. A result marker (``*``, ``31-24``) may end the main line as in PGN:
it must agree with the ``Result`` tag, or stands for it when the tag is absent. PGN numeric
glyphs ``$1``-``$6`` read as the six glyphs.

The canonical writer is ``gamerec.recorder.grn_writer``; escaping is described in
``gamerec.recorder.grn_values``. Reading a written record gives back an equal message.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import BinaryIO

from gamerec.recorder.grn_lexer import (
    Places,
    RawRecord,
    decode_record_text,
    split_records,
)
from gamerec.recorder.grn_reader import RecordReader, main_line_places
from gamerec.recorder.limits import (
    HARDEST_VARIATION_DEPTH,
    Limits,
    resolved,
)
from gamerec.v1 import record_pb2 as pb

#: The deepest nesting of variations. The protobuf decoders stop at 100 nested messages; a
#: variation level takes two (Variation, Move) and a move's own action two more (OneMove,
#: OnePoint), so 48 levels is the deepest at which every record GRN reads can also be read
#: back from binary and JSON. The reader's limit (``Limits.max_variation_depth``) is at most
#: this.
MAX_VARIATION_DEPTH = HARDEST_VARIATION_DEPTH
#: The largest record, in characters, the reader accepts (the same bound as a binary frame).
DEFAULT_MAX_RECORD_CHARS = 64 * 1024 * 1024


# -- reading -----------------------------------------------------------------------------------


def read_grn(
    stream: BinaryIO,
    source: str,
    *,
    max_record_chars: int | None = None,
    limits: Limits | None = None,
) -> Iterator[pb.GameRecord]:
    """Read the records of a GRN byte stream, one at a time.

    Args:
        stream: UTF-8 GRN text (a leading byte-order mark is skipped).
        source: the name of the input, for error messages.
        max_record_chars: the longest record accepted, in characters (overrides
            ``limits.max_record_bytes``).
        limits: the limits every record is checked against as it is read (default
            ``DEFAULT_LIMITS``); an error names the line and column where a limit is passed.

    Raises:
        RecordMalformedError: the text is not GRN; the error names the line and column.
        LimitExceededError: a record exceeds a limit (size, plies, moves, variation depth,
            tags, tag length, seats, comment length).
    """
    limits = resolved(limits, max_record_chars)
    for raw in split_records(stream, source, limits.max_record_bytes):
        yield parse_grn_record(raw, source, limits)


def parse_grn_record(
    raw: RawRecord, source: str, limits: Limits, deadline: float | None = None
) -> pb.GameRecord:
    """The record of one GRN record's bytes (as :func:`split_records` cuts them).

    ``deadline`` (a ``time.monotonic()`` time, or None): the reader looks at the clock every
    ``grn_reader.TOKENS_PER_CHECK`` tokens and gives up once it has passed.

    Raises:
        DeadlineExceededError: the deadline passed.
        RecordMalformedError: the text is not one GRN record (line and column given).
        LimitExceededError: the record exceeds a limit.
    """
    return _reader(raw, source, limits, deadline).read()


def read_grn_main_line(
    raw: RawRecord, source: str, limits: Limits, deadline: float | None = None
) -> tuple[pb.GameRecord, bytes]:
    """:func:`parse_grn_record`, with the record's main line serialized, for a judge.

    The bytes are the record's ``moves`` entries exactly as ``record.SerializeToString()``
    writes them (a serialized GameRecord that holds only the main line), made from the bytes
    the reader built the moves of, so that the judge reads the moves without serializing the
    record again (``judge(serialized=...)``, ``validator.moves.main_line_keys``).

    Raises:
        as :func:`parse_grn_record`.
    """
    reader = _reader(raw, source, limits, deadline)
    record = reader.read()
    return record, reader.lines[0].serialized_moves()


def _reader(raw: RawRecord, source: str, limits: Limits, deadline: float | None) -> RecordReader:
    """A reader of one record's text (decoded here: a byte that is not UTF-8 is placed)."""
    text = decode_record_text(raw.data, (source, raw.line, raw.column, raw.byte_offset, raw.offset))
    places = Places(text, source, raw.line, raw.column, raw.offset)
    return RecordReader(places, limits, deadline)


def ply_places(raw: RawRecord, source: str, plies: Iterable[int]) -> dict[int, tuple[int, int]]:
    """Where the tokens of some main-line plies stand in the input: ``{ply: (line, column)}``.

    For findings, which name a ply: a second, cheap pass over the record's text (only for a
    record that has a finding), so the reading of every record stays as fast as it is. A ply
    the text does not reach is left out.
    """
    wanted = set(plies)
    if not wanted:
        return {}
    text = decode_record_text(raw.data, (source, raw.line, raw.column, raw.byte_offset, raw.offset))
    return main_line_places(Places(text, source, raw.line, raw.column, raw.offset), wanted)
