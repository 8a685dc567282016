"""Abstract Play's JSON to records (an embedded gamerec copy checked) and records back.

May import the standard library, orjson, ``gamerec.v1`` and ``gamerec.recorder``
(``json_keys``, ``errors``, ``limits``, ``foreign.keeping`` and the other modules of
``foreign.abstractplay``).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, BinaryIO

import orjson

from gamerec.recorder import json_keys
from gamerec.recorder.errors import EncodingError, RecordMalformedError
from gamerec.recorder.foreign.abstractplay.form import (
    EMBEDDED,
    PATCH_TAG,
    Warn,
    _joined,
    is_abstract_play,
)
from gamerec.recorder.foreign.abstractplay.reader import _Reader
from gamerec.recorder.foreign.abstractplay.writer import _plain_value
from gamerec.recorder.foreign.keeping import (
    json_patch,
    needs_copy,
    record_copy,
    record_of_copy,
    same_json,
    same_movers,
    store_json,
)
from gamerec.recorder.limits import Limits, check_record
from gamerec.v1 import record_pb2 as pb


def parse_abstract_play(
    data: bytes, source: str, where: str = "", *, limits: Limits | None = None
) -> pb.GameRecord:
    """One Abstract Play record from its JSON text.

    Raises:
        RecordMalformedError: not JSON, not an Abstract Play record, a game, variant or cell
            gamerec does not have (the place named).
        LimitExceededError: the record exceeds a limit.
    """
    try:
        value = json_keys.loads(data)
    except orjson.JSONDecodeError as error:
        place = f"line {error.lineno}, column {error.colno}"
        raise RecordMalformedError(
            f"not JSON: {error.msg}", source=source, where=_joined(where, place)
        ) from None
    except json_keys.DuplicateKeyError as error:
        raise RecordMalformedError(str(error), source=source, where=where) from None
    return record_of_value(value, source, where, limits=limits)


def record_of_value(
    value: Any, source: str, where: str = "", *, limits: Limits | None = None
) -> pb.GameRecord:
    """One Abstract Play record from its parsed JSON value (see :func:`parse_abstract_play`)."""
    if not is_abstract_play(value):
        found = "an object without a header" if isinstance(value, dict) else type(value).__name__
        raise RecordMalformedError(
            f"expected an Abstract Play game record (an object with a header), found {found}",
            source=source,
            where=where,
        )
    reader = _Reader(source, where)
    header = reader.object(value, "header")
    if EMBEDDED in header:
        record = _embedded_record(value, reader)
    else:
        record = reader.record(value)
        _keep_the_rest(record, value, reader.tokens)
    check_record(record, limits, source=source, where=where, serialized=record.SerializeToString())
    return record


def _keep_the_rest(record: pb.GameRecord, value: Any, tokens: list[str]) -> None:
    """Store the patch that makes the exporter write ``value`` back for ``record``.

    ``tokens`` are the plies' GRN tokens as read (what the writer would format again).
    """
    try:
        written = _plain_value(record, tokens)
    except EncodingError:
        return  # the record has no Abstract Play form at all: nothing to keep
    patch = json_patch(value, written)
    if patch:
        store_json(record, PATCH_TAG, patch)


def _embedded_record(value: dict[str, Any], reader: _Reader) -> pb.GameRecord:
    """The record embedded under ``header.gamerec``, checked against the file's own fields.

    Raises:
        RecordMalformedError: the copy is no record, or the file's Abstract Play fields are
            not what gamerec wrote for it (edited by another tool since).
    """
    header = dict(value["header"])
    copy = record_of_copy(header.pop(EMBEDDED), reader.source, reader.place(f"header.{EMBEDDED}"))
    plain = {**value, "header": header}
    own = reader.record(plain)  # the file's own fields must read
    try:
        written = _plain_value(copy)
    except EncodingError as error:
        raise reader.fault(
            f"header.{EMBEDDED}", f"the embedded record has no Abstract Play form: {error}"
        ) from None
    if not same_json(written, plain) or not same_movers(copy, own):
        raise RecordMalformedError(
            f"header.{EMBEDDED} holds a record whose Abstract Play form is not this file's "
            "(the file was changed after gamerec wrote it); remove header.gamerec to read "
            "the file's own fields",
            source=reader.source,
            where=reader.where,
        )
    return copy


def abstract_play_value(record: pb.GameRecord, warn: Warn | None = None) -> dict[str, Any]:
    """A record as an Abstract Play record (a JSON object).

    What Abstract Play has no place for goes with the embedded copy under ``header.gamerec``;
    ``warn`` is told which fields.

    Raises:
        EncodingError: the game is not one Abstract Play's records hold, a variant or a move
            has no Abstract Play form, or the game is unfinished (the format is of ended
            games: every player needs a result).
    """
    plain = _plain_value(record)
    players = plain["header"]["players"]
    if len(players) != len({orjson.dumps(player) for player in players}):
        raise EncodingError(
            "two players would be written alike (name, id and result), which the schema "
            "forbids (players are uniqueItems)"
        )
    try:
        back = record_of_value(orjson.loads(orjson.dumps(plain)), "<export>")
    except RecordMalformedError as error:  # what the writer wrote does not read back
        raise EncodingError(f"the record has no Abstract Play form: {error.reason}") from None
    holder = "Abstract Play's record"
    if not needs_copy(record, back, warn, holder, f"header.{EMBEDDED}"):
        return plain
    plain["header"][EMBEDDED] = record_copy(record)
    return plain


def write_abstract_play(
    records: Iterable[pb.GameRecord], stream: BinaryIO, warn: Warn | None = None
) -> int:
    """Write records as Abstract Play records: one as an object, several as an array.

    Returns:
        The number of records written.
    """
    iterator = iter(records)
    first = next(iterator, None)
    if first is None:
        raise EncodingError("an Abstract Play file holds one record or more, and there is none")
    second = next(iterator, None)
    option = orjson.OPT_INDENT_2
    if second is None:
        stream.write(orjson.dumps(abstract_play_value(first, warn), option=option))
        stream.write(b"\n")
        return 1
    stream.write(b"[\n")
    count = 0
    for record in _chain(first, second, iterator):
        if count:
            stream.write(b",\n")
        value = abstract_play_value(record, warn)
        stream.write(orjson.dumps(value, option=option))
        count += 1
    stream.write(b"\n]\n")
    return count


def _chain(
    first: pb.GameRecord, second: pb.GameRecord, rest: Iterator[pb.GameRecord]
) -> Iterator[pb.GameRecord]:
    yield first
    yield second
    yield from rest
