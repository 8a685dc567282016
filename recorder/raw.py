"""Raw records: the bytes of one record as its input holds them, decoded where the work is done.

Every reader first cuts its input into raw records, which is cheap (a ``.pbs`` frame is found
by its length prefix, a JSON Lines record by its line, a GRN record by the tag that starts
the next one), then decodes each. A batch job hands the raw records to its worker processes,
so the decoding, the expensive part in every encoding, runs on every core, and each fault is
still placed exactly (line and column in text, byte in binary). This module loads no codec
until a record of its encoding is decoded.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, NamedTuple

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.limits import DEFAULT_LIMITS, Limits

if TYPE_CHECKING:
    from gamerec.v1 import record_pb2 as pb


class Frame(NamedTuple):
    """The bytes of one record, with where they came from (for errors) and how to decode them.

    Frames cross process boundaries unparsed, so a worker decodes them and still names the
    exact place of a fault.

    Attributes:
        data: the record's bytes: a serialized GameRecord, a ProtoJSON object, a GRN record,
            an Abstract Play record, a Ludii trial.
        source: the input's name.
        where: the record's place (``record 3 at byte 1042``; empty for a ``.pb`` file and
            for text, whose faults are placed by line and column).
        base: the offset of ``data`` in the input, in bytes.
        limits: the limits the record is checked against when it is decoded.
        encoding: how ``data`` is encoded (``.pbs`` frames and ``.pb`` files: binary).
        line: text: the line of the input the record starts on.
        column: text: the column it starts at.
        offset: text: the characters of the input before it.
    """

    data: bytes
    source: str
    where: str = ""
    base: int = 0
    limits: Limits = DEFAULT_LIMITS
    encoding: Encoding = Encoding.PB
    line: int = 1
    column: int = 1
    offset: int = 0

    @property
    def serialized(self) -> bytes | None:
        """The record's protobuf bytes when the frame holds them (binary), else None.

        A judge reads the moves from these instead of serializing the parsed record again.
        """
        return self.data if self.encoding in (Encoding.PB, Encoding.PBS) else None

    def ply_places(self, plies: Iterable[int]) -> dict[int, tuple[int, int]]:
        """Where some main-line plies' tokens stand in a text input: ``{ply: (line, column)}``.

        Empty for binary and JSON frames, whose plies have no line.
        """
        if self.encoding is not Encoding.GRN:
            return {}
        from gamerec.recorder.grn import ply_places  # noqa: PLC0415 (when needed)
        from gamerec.recorder.grn_lexer import RawRecord  # noqa: PLC0415

        raw = RawRecord(self.data, self.line, self.column, self.base, self.offset)
        return ply_places(raw, self.source, plies)

    def parse(self, deadline: float | None = None) -> pb.GameRecord:
        """The record; ``deadline`` (a ``time.monotonic()`` time) bounds a long GRN decode.

        Raises:
            DeadlineExceededError: the deadline passed while a GRN record was read.
            RecordMalformedError: the bytes are not a record of their encoding; names the
                place (a ``NotARecordError`` when they plainly hold no record at all).
            LimitExceededError: the record exceeds a limit.
        """
        return self.decode(deadline, main_line=False)[0]

    def decode(
        self, deadline: float | None = None, *, main_line: bool = True
    ) -> tuple[pb.GameRecord, bytes | None]:
        """The record (as :meth:`parse`), with the bytes a judge reads its main line from.

        Those bytes are a serialized GameRecord whose ``moves`` entries encode the record's
        main line: the frame's own bytes (binary input, as written), the main line the GRN
        reader built (``grn.read_grn_main_line``) or the serialization the JSON reader made
        to check the record's limits (both exactly as ``record.SerializeToString()`` writes
        each move), else None (the judge serializes the record). Without ``main_line``,
        always None.

        Raises:
            as :meth:`parse`.
        """
        try:
            return self._decoded(deadline, main_line)
        except RecordMalformedError as error:
            from gamerec.recorder.recognition import not_a_record  # noqa: PLC0415 (on a fault)

            plain = not_a_record(self, error)
            if plain is None:
                raise
            raise plain from error

    def _decoded(
        self, deadline: float | None, main_line: bool
    ) -> tuple[pb.GameRecord, bytes | None]:
        if self.encoding is Encoding.GRN:
            from gamerec.recorder.grn import parse_grn_record, read_grn_main_line  # noqa: PLC0415
            from gamerec.recorder.grn_lexer import RawRecord  # noqa: PLC0415

            raw = RawRecord(self.data, self.line, self.column, self.base, self.offset)
            if main_line:
                return read_grn_main_line(raw, self.source, self.limits, deadline)
            return parse_grn_record(raw, self.source, self.limits, deadline), None
        if self.encoding in (Encoding.JSON, Encoding.JSONL) and main_line:
            from gamerec.recorder.protojson import read_json_serialized  # noqa: PLC0415

            return read_json_serialized(self.data, self.source, self.line, limits=self.limits)
        return self._decoded_other(), self.serialized if main_line else None

    def _decoded_other(self) -> pb.GameRecord:
        """The record of a frame of any encoding but GRN."""
        if self.encoding in (Encoding.JSON, Encoding.JSONL):
            from gamerec.recorder.protojson import parse_json_record  # noqa: PLC0415

            return parse_json_record(self.data, self.source, self.line, limits=self.limits)
        if self.encoding is Encoding.ABSTRACT_PLAY:
            from gamerec.recorder.foreign.abstractplay import parse_abstract_play  # noqa: PLC0415

            return parse_abstract_play(self.data, self.source, self.where, limits=self.limits)
        if self.encoding is Encoding.LUDII:
            from gamerec.recorder.foreign.ludii import parse_trial  # noqa: PLC0415

            return parse_trial(self.data, self.source, limits=self.limits)
        from gamerec.recorder.binary import parse_record  # noqa: PLC0415

        return parse_record(self.data, self.source, self.where, self.base, limits=self.limits)
