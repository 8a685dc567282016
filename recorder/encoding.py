"""The record encodings and how a file name names one (no codec is loaded here).

Besides gamerec's own five, two foreign formats (docs/formats.md): Abstract Play's game
records (JSON; a ``.json`` file is read as one when its content is one) and Ludii's trials
(text, ``.trl``).

The command line names encodings in its options, so this module imports nothing: start-up
stays fast for commands that never read a record (``gamerec --help``).
"""

from __future__ import annotations

import enum
import os
from pathlib import Path


class Encoding(enum.Enum):
    """The record encodings, named by their file extension."""

    PB = "pb"
    PBS = "pbs"
    JSON = "json"
    JSONL = "jsonl"
    GRN = "grn"
    #: Abstract Play's game record (schema gamerecord 1-0-0): one JSON object, or an array.
    ABSTRACT_PLAY = "abstractplay"
    #: A Ludii trial, as Ludii's ``Trial.saveTrialToTextFile`` writes it.
    LUDII = "ludii"

    @property
    def holds_many(self) -> bool:
        """Whether a file of this encoding may hold several records."""
        return self in (Encoding.PBS, Encoding.JSONL, Encoding.GRN, Encoding.ABSTRACT_PLAY)

    @property
    def is_text(self) -> bool:
        """Whether this encoding is text (JSON, GRN, a trial), not protobuf bytes."""
        return self not in (Encoding.PB, Encoding.PBS)

    @property
    def is_foreign(self) -> bool:
        """Whether this is another tool's format rather than one of gamerec's own."""
        return self in (Encoding.ABSTRACT_PLAY, Encoding.LUDII)

    @property
    def extension(self) -> str:
        """The file extension, with its dot (an Abstract Play record is a ``.json`` file)."""
        return _EXTENSIONS.get(self, f".{self.value}")


#: Extensions that are not the encoding's own name.
_EXTENSIONS = {Encoding.ABSTRACT_PLAY: ".json", Encoding.LUDII: ".trl"}
#: What each extension names; ``.json`` is ProtoJSON until its content says otherwise.
_BY_EXTENSION = {
    encoding.extension: encoding for encoding in Encoding if encoding not in _EXTENSIONS
} | {".trl": Encoding.LUDII}


def encoding_for_path(path: str | os.PathLike[str]) -> Encoding | None:
    """The encoding a file name's extension names (case-insensitive), or None."""
    return _BY_EXTENSION.get(Path(path).suffix.lower())


#: gamerec's own encodings: each holds every record exactly (the foreign ones hold what their
#: tool's format can, docs/formats.md).
OWN_ENCODINGS: tuple[Encoding, ...] = tuple(e for e in Encoding if not e.is_foreign)
