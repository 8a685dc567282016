"""Keeping what a format holds and the other has no field for, so that a round trip loses nothing.

Two directions, two means (docs/formats.md, "Lossless"):

- **A foreign file through a record and back.** What the foreign file holds that the record
  has no field for goes into the record's free tags: named tags for what people look at (an
  Abstract Play game id, a Ludii RNG state) and, for the rest, a *patch*: the places where
  the file differs from what the exporter would write for the record, each with the value the
  exporter writes there (``was``) and the file's own (``is``). The exporter applies the patch
  only where it still writes ``was``, so a record edited since (a move changed) gets its new
  value, never the old one back.
- **A record through a foreign file and back.** What the record holds that the format has no
  place for (a clock, a comment, the pie rule in a game whose foreign version has none) rides
  in the file as an embedded copy of the whole record (ProtoJSON), which the tool ignores and
  gamerec reads back; ``convert`` names those fields in a warning.

Long texts (a patch, a Ludii trial's move effects) are split over numbered tags
(``LudiiMoves``, ``LudiiMoves2``, ...) so that each stays within the tag-chars limit.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from typing import Any, Final

import orjson

from gamerec.recorder import json_keys
from gamerec.recorder.errors import RecordMalformedError
from gamerec.v1 import record_pb2 as pb

#: The record format version of the records the foreign readers build (as gamerec generate's).
FORMAT_VERSION: Final = 1
#: The characters of one tag holding part of a long text (the tag-chars limit is 16,384).
TAG_CHUNK_CHARS: Final = 16_000
#: How many field paths a warning names before it says how many more.
SHOWN_FIELDS: Final = 8

#: A path into a JSON value: object keys and array indices.
Path = tuple[str | int, ...]


class _Absent:
    """No value at a path (a key the object lacks)."""

    def __repr__(self) -> str:
        return "ABSENT"


ABSENT: Final = _Absent()


# -- JSON values: strict equality and patches ----------------------------------------------------


def same_json(a: Any, b: Any) -> bool:
    """Whether two JSON values are the same value and the same kind (``1`` is not ``1.0``)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, dict):
        return a.keys() == b.keys() and all(same_json(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    return bool(a == b)


def json_patch(original: Any, exported: Any) -> list[dict[str, Any]]:
    """The patch that turns ``exported`` into ``original``: one entry per differing place.

    Objects are compared key by key and arrays of equal length item by item; anything else
    that differs is replaced whole. An entry is ``{"at": path, "was": exported, "is":
    original}``, a side left out where that side has no value. Entries are sorted by path,
    so that the patch does not depend on the order of either object's keys.
    """
    if _same_text(original, exported):  # the common case, found in C
        return []
    differences = sorted(
        _differences((), original, exported), key=lambda found: orjson.dumps(found[0])
    )
    return [_entry(path, was, value) for path, was, value in differences]


def _same_text(a: Any, b: Any) -> bool:
    """Whether two JSON values are written alike (keys sorted): the same value and kinds."""
    try:
        return bool(
            orjson.dumps(a, option=orjson.OPT_SORT_KEYS)
            == orjson.dumps(b, option=orjson.OPT_SORT_KEYS)
        )
    except orjson.JSONEncodeError:  # pragma: no cover - values read from JSON always encode
        return False


def _differences(path: Path, original: Any, exported: Any) -> Iterator[tuple[Path, Any, Any]]:
    if isinstance(original, dict) and isinstance(exported, dict):
        for key in [*original, *(key for key in exported if key not in original)]:
            yield from _differences(
                (*path, key), original.get(key, ABSENT), exported.get(key, ABSENT)
            )
    elif (
        isinstance(original, list) and isinstance(exported, list) and len(original) == len(exported)
    ):
        for index, (mine, theirs) in enumerate(zip(original, exported, strict=True)):
            yield from _differences((*path, index), mine, theirs)
    elif not (original is ABSENT and exported is ABSENT) and (
        original is ABSENT or exported is ABSENT or not same_json(original, exported)
    ):
        yield path, exported, original


def _entry(path: Path, was: Any, value: Any) -> dict[str, Any]:
    entry: dict[str, Any] = {"at": list(path)}
    if was is not ABSENT:
        entry["was"] = was
    if value is not ABSENT:
        entry["is"] = value
    return entry


def apply_patch(value: Any, patch: Sequence[Mapping[str, Any]]) -> Any:
    """``value`` with each entry of ``patch`` applied where it still holds what ``was`` says.

    Entries whose place now holds something else (the record was edited) are left out.
    """
    for entry in patch:
        path = entry.get("at")
        if not isinstance(path, list):
            continue
        if _same_or_absent(_value_at(value, path), entry.get("was", ABSENT)):
            if not path:
                return entry.get("is", value)
            value = _set_at(value, path, entry.get("is", ABSENT))
    return value


def _same_or_absent(found: Any, expected: Any) -> bool:
    if found is ABSENT or expected is ABSENT:
        return found is expected
    return same_json(found, expected)


def _value_at(value: Any, path: Sequence[Any]) -> Any:
    for step in path:
        if isinstance(value, dict) and isinstance(step, str):
            value = value.get(step, ABSENT)
        elif isinstance(value, list) and type(step) is int and 0 <= step < len(value):
            value = value[step]
        else:
            return ABSENT
    return value


def _set_at(value: Any, path: Sequence[Any], new: Any) -> Any:
    parent = _value_at(value, path[:-1])
    last = path[-1]
    if isinstance(parent, dict) and isinstance(last, str):
        if new is ABSENT:
            parent.pop(last, None)
        else:
            parent[last] = new
    elif (
        isinstance(parent, list) and type(last) is int and 0 <= last < len(parent)
    ) and new is not ABSENT:
        parent[last] = new
    return value


def variant_tag_map(rules: pb.Rules) -> dict[str, str]:
    """A record's GRN variant tags, by name, as the games' foreign forms take them.

    Raises:
        EncodingError: the variant belongs to another game, or a value is unknown.
    """
    from gamerec.recorder.grn_tags import variant_tags  # noqa: PLC0415

    tags = dict(variant_tags(rules))
    tags.pop("Players", None)  # a count of seats, which the seats themselves say
    return tags


# -- long texts in numbered tags -----------------------------------------------------------------


def store_text(record: pb.GameRecord, name: str, text: str) -> None:
    """Keep ``text`` in the tags ``name``, ``name2``, ... (each at most TAG_CHUNK_CHARS)."""
    drop_text(record, name)
    tags = record.metadata.extra_tags
    for number, start in enumerate(range(0, len(text), TAG_CHUNK_CHARS), start=1):
        tags[_chunk_name(name, number)] = text[start : start + TAG_CHUNK_CHARS]


def stored_text(record: pb.GameRecord, name: str) -> str | None:
    """The text kept by :func:`store_text`, or None when the record holds none."""
    tags = record.metadata.extra_tags
    if name not in tags:
        return None
    parts = []
    number = 1
    while (part := tags.get(_chunk_name(name, number))) is not None:
        parts.append(part)
        number += 1
    return "".join(parts)


def drop_text(record: pb.GameRecord, name: str) -> None:
    """Remove the tags :func:`store_text` wrote under ``name``."""
    tags = record.metadata.extra_tags
    number = 1
    while _chunk_name(name, number) in tags:
        del tags[_chunk_name(name, number)]
        number += 1


def _chunk_name(name: str, number: int) -> str:
    return name if number == 1 else f"{name}{number}"


def stored_json(record: pb.GameRecord, name: str, where: str) -> Any:
    """The JSON value kept as text under ``name`` (None when there is none).

    Raises:
        RecordMalformedError: the tags hold no JSON (edited by hand), naming them.
    """
    text = stored_text(record, name)
    if text is None:
        return None
    try:
        return json_keys.loads(text)
    except orjson.JSONDecodeError as error:
        raise RecordMalformedError(f"tag {name} is not JSON ({error.msg})", where=where) from None
    except json_keys.DuplicateKeyError as error:
        raise RecordMalformedError(f"tag {name}: {error}", where=where) from None


def store_json(record: pb.GameRecord, name: str, value: Any) -> None:
    """Keep a JSON value as compact text under ``name`` (see :func:`store_text`)."""
    store_text(record, name, orjson.dumps(value).decode())


# -- a whole record inside a foreign file ----------------------------------------------------------


def record_copy(record: pb.GameRecord) -> dict[str, Any]:
    """The record as its ProtoJSON mapping, to embed in a foreign file."""
    from gamerec.recorder.protojson import record_mapping  # noqa: PLC0415 (codecs load lazily)

    return record_mapping(record)


def record_of_copy(mapping: Any, source: str, where: str) -> pb.GameRecord:
    """The record an embedded copy holds.

    Raises:
        RecordMalformedError: the copy is not a GameRecord's ProtoJSON, naming its place.
    """
    from gamerec.recorder.protojson import parse_json_record  # noqa: PLC0415

    if not isinstance(mapping, dict):
        raise RecordMalformedError(
            "the embedded gamerec record is not an object", source=source, where=where
        )
    try:
        return parse_json_record(orjson.dumps(mapping), source, 1)
    except RecordMalformedError as error:
        raise RecordMalformedError(
            f"the embedded gamerec record: {error.reason}", source=source, where=where
        ) from None


def same_movers(copy: pb.GameRecord, own: pb.GameRecord) -> bool:
    """Whether the file's plies are the copy's, each by the seat the copy names (when it does).

    A foreign file shows who made each ply by its place (a round's slot, a trial's mover),
    which the writer derives from the order of the plies; the seat a record names is sealed,
    so the two must agree.
    """
    if len(own.moves) > len(copy.moves):
        return False
    return all(
        not mine.seat or mine.seat == theirs.seat
        for mine, theirs in zip(copy.moves, own.moves, strict=False)
    )


def lost_fields(record: pb.GameRecord, back: pb.GameRecord) -> list[str]:
    """The record's fields that ``back`` (read back from a foreign file) lacks or changes.

    ProtoJSON paths, every list index written ``[*]``, in the record's order.

    What ``back`` has beyond the record (a tag, a seat number or a format version the reader
    adds) is no loss and not named, except in the rules: a variant option set where the
    record left its default changes the game.
    """
    found: dict[str, None] = {}
    for path in _json_differences("", record_copy(record), record_copy(back)):
        found.setdefault(path, None)
    return list(found)


def _json_differences(path: str, mine: Any, theirs: Any) -> Iterator[str]:
    if isinstance(mine, dict) and isinstance(theirs, dict):
        for key in [*mine, *(key for key in theirs if key not in mine)]:
            yield from _json_differences(
                f"{path}.{key}" if path else key, mine.get(key, ABSENT), theirs.get(key, ABSENT)
            )
    elif isinstance(mine, list) and isinstance(theirs, list) and len(mine) == len(theirs):
        for each, other in zip(mine, theirs, strict=True):
            yield from _json_differences(f"{path}[*]", each, other)
    elif mine is ABSENT:
        if path.startswith("rules"):  # an option set where the record left the default
            yield path
    elif theirs is ABSENT or not same_json(mine, theirs):
        yield path


def needs_copy(
    record: pb.GameRecord,
    back: pb.GameRecord,
    warn: Callable[[str], None] | None,
    holder: str,
    kept_in: str,
) -> bool:
    """Whether a foreign file must carry a copy of ``record`` (``back`` is not the record).

    ``back`` is the record read from the file alone; ``warn`` is told which of the record's
    fields it lost.
    """
    if back == record:
        return False
    lost = lost_fields(record, back)
    if warn is not None and lost:
        what = fields_text(lost)
        warn(f"{holder} has no place for {what}; kept in {kept_in}, which only gamerec reads")
    return True


def fields_text(fields: Sequence[str]) -> str:
    """``a, b, c and 4 more``: at most SHOWN_FIELDS field paths."""
    shown = ", ".join(fields[:SHOWN_FIELDS])
    more = len(fields) - SHOWN_FIELDS
    return f"{shown} and {more} more" if more > 0 else shown
