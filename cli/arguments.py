"""Shared command arguments: inputs that name records (files, folders, -) and encodings."""

from __future__ import annotations

from pathlib import Path

from recorder.codecs import Encoding, encoding_for_path


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
