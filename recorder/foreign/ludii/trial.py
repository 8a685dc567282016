"""A Ludii trial's text to one record (its embedded gamerec copy checked), and a record back.

May import the standard library, orjson, ``gamerec.v1`` and ``gamerec.recorder``
(``json_keys``, ``errors``, ``limits``, ``foreign.keeping`` and the other modules of
``foreign.ludii``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import BinaryIO

import orjson

from gamerec.recorder import json_keys
from gamerec.recorder.errors import EncodingError, RecordMalformedError
from gamerec.recorder.foreign.keeping import (
    json_patch,
    needs_copy,
    record_copy,
    record_of_copy,
    store_json,
)
from gamerec.recorder.foreign.ludii.form import (
    EMBEDDED_PREFIX,
    PATCH_TAG,
    Warn,
)
from gamerec.recorder.foreign.ludii.lines import _plain_lines, _same_trial, _sealed_trial_is
from gamerec.recorder.foreign.ludii.reader import _Reader
from gamerec.recorder.limits import Limits, check_record
from gamerec.v1 import record_pb2 as pb


def parse_trial(data: bytes, source: str, *, limits: Limits | None = None) -> pb.GameRecord:
    """One record from a Ludii trial's text.

    Raises:
        RecordMalformedError: not a trial, a game, option or move gamerec does not have, a
            site off the board (the line named).
        LimitExceededError: the record exceeds a limit.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordMalformedError(
            f"a Ludii trial is UTF-8 text, found byte {data[error.start]:#04x}",
            source=source,
            where=f"byte {error.start}",
        ) from None
    lines = text.split("\n")
    embedded = [n for n, line in enumerate(lines) if line.startswith(EMBEDDED_PREFIX)]
    if embedded:
        record = _embedded_record(lines, embedded, source)
    else:
        record = _Reader(lines, source).record()
        _keep_the_rest(record, lines)
    check_record(record, limits, source=source)
    return record


def _keep_the_rest(record: pb.GameRecord, lines: list[str]) -> None:
    """Store the patch that makes the writer give back ``lines`` for ``record``."""
    try:
        written = _plain_lines(record)
    except EncodingError:
        return  # the record cannot be written as a trial at all: nothing to keep
    patch = json_patch(lines, written)
    if patch:
        store_json(record, PATCH_TAG, patch)


def _embedded_record(lines: list[str], embedded: list[int], source: str) -> pb.GameRecord:
    number = embedded[-1]
    where = f"line {number + 1}"
    if len(embedded) > 1:
        raise RecordMalformedError("two embedded gamerec records", source=source, where=where)
    try:
        mapping = json_keys.loads(lines[number][len(EMBEDDED_PREFIX) :])
    except orjson.JSONDecodeError as error:
        raise RecordMalformedError(f"not JSON: {error.msg}", source=source, where=where) from None
    except json_keys.DuplicateKeyError as error:
        raise RecordMalformedError(
            f"the embedded gamerec record: {error}", source=source, where=where
        ) from None
    copy = record_of_copy(mapping, source, where)
    plain = lines[:number] + lines[number + 1 :]
    own = _Reader(plain, source).record()  # the trial's own lines must read
    if copy.HasField("seal"):
        same = _sealed_trial_is(copy, own, plain, source, where)
    else:
        same = _same_trial(copy, own, plain)
    if not same:
        raise RecordMalformedError(
            "the embedded gamerec record's trial is not this file's (the file was changed "
            "after gamerec wrote it); remove the gamerec= line to read the trial alone",
            source=source,
            where=where,
        )
    return copy


def trial_text(record: pb.GameRecord, warn: Warn | None = None) -> str:
    """A record as a Ludii trial.

    Raises:
        EncodingError: a game Ludii's trials do not hold here, a variant or ply with no
            Ludii form, or no rules engine to play the record's effects.
    """
    lines = _plain_lines(record)
    try:
        back = parse_trial("\n".join(lines).encode(), "<export>")
    except RecordMalformedError as error:  # what the writer wrote does not read back
        raise EncodingError(f"the record has no Ludii form: {error.reason}") from None
    kept_in = f"the last line ({EMBEDDED_PREFIX}...)"
    if needs_copy(record, back, warn, "Ludii's trial", kept_in):
        copy = orjson.dumps(record_copy(record)).decode()
        lines.insert(len(lines) - 1, EMBEDDED_PREFIX + copy)
    return "\n".join(lines)


def write_trial(
    records: Iterable[pb.GameRecord], stream: BinaryIO, warn: Warn | None = None
) -> int:
    """Write the one record of a ``.trl`` file.

    Raises:
        EncodingError: no record, or several (a trial holds one game).
    """
    iterator = iter(records)
    first = next(iterator, None)
    if first is None:
        raise EncodingError("a Ludii trial holds one record, and there is none")
    text = trial_text(first, warn)
    if next(iterator, None) is not None:
        raise EncodingError(
            "a Ludii trial holds one record and there are several; write one file each"
        )
    stream.write(text.encode())
    return 1
