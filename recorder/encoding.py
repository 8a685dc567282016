"""The record encodings and how a file name names one (no codec is loaded here).

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

    @property
    def holds_many(self) -> bool:
        """Whether a file of this encoding may hold several records."""
        return self in (Encoding.PBS, Encoding.JSONL, Encoding.GRN)

    @property
    def is_text(self) -> bool:
        """Whether this encoding is text (ProtoJSON, GRN), not protobuf bytes."""
        return self in (Encoding.JSON, Encoding.JSONL, Encoding.GRN)

    @property
    def extension(self) -> str:
        """The file extension, with its dot."""
        return f".{self.value}"


def encoding_for_path(path: str | os.PathLike[str]) -> Encoding | None:
    """The encoding a file name's extension names (case-insensitive), or None."""
    suffix = Path(path).suffix.lower().removeprefix(".")
    return next((encoding for encoding in Encoding if encoding.value == suffix), None)
