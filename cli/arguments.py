"""Shared command arguments: inputs that name records (files, folders, -) and encodings."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from cli.edge import os_error_text
from gamerec.v1 import record_pb2 as pb
from recorder.codecs import Encoding, encoding_for_path, read_records
from recorder.errors import GamerecError


def record_files(arguments: list[str]) -> list[str]:
    """The inputs named by the arguments, in order: a folder stands for every record file in it.

    A folder is searched recursively for files with a record extension (``.pb``, ``.pbs``,
    ``.json``, ``.jsonl``, ``.grn``), in sorted order; files named directly and ``-`` are
    kept as given, whatever their extension.
    """
    files: list[str] = []
    for argument in arguments:
        path = Path(argument)
        if argument != "-" and path.is_dir():
            files += sorted(
                str(found)
                for found in path.rglob("*")
                if found.is_file() and encoding_for_path(found) is not None
            )
        else:
            files.append(argument)
    return files


def encoding_help() -> str:
    """The encodings, for option help texts."""
    return ", ".join(encoding.value for encoding in Encoding)


@dataclass(frozen=True, slots=True)
class RecordAt:
    """A record and where it came from (``source``, 1-based ``number``)."""

    source: str
    number: int
    record: pb.GameRecord


@dataclass(frozen=True, slots=True)
class ReadFailure:
    """An input that could not be read (from its start or from some record on)."""

    source: str
    message: str


def records_of(paths: list[str], encoding: Encoding | None) -> Iterator[RecordAt | ReadFailure]:
    """Every record of every input (folders expanded), with a ReadFailure where one breaks.

    A failure ends that input only; the next input is still read.
    """
    for path in record_files(paths):
        label = "<stdin>" if path == "-" else path
        try:
            for number, record in enumerate(read_records(path, encoding), start=1):
                yield RecordAt(label, number, record)
        except GamerecError as error:
            yield ReadFailure(label, str(error))
        except BrokenPipeError:
            raise
        except OSError as error:
            yield ReadFailure(label, os_error_text(error))
