"""Compare two records of one match, or two collections of records (``gamerec diff``).

Fields outside the moves are compared field by field, walking the messages' descriptors, so a
field added to the schema is compared without changing this module. Moves are compared by
their action (the move itself) up to the first ply where the main lines part; annotations
(comments, glyphs, clocks, stated seats, variations) of the shared plies are compared
separately. At the divergence both records are replayed: the shared position, the seat to
move, and each record's full verdict show how the two lines' results differ.

Collections are matched by *game identity*: the extra tag ``GameId`` when a record has one,
otherwise the game, event, site, round, date, start time and seat names together. A repeated
identity within one collection is told apart by its order (``#2``, ``#3``...).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from typing import Any, TypeAlias

import orjson
from google.protobuf.json_format import MessageToDict
from google.protobuf.message import Message

from gamerec.recorder.arguments import require_record
from gamerec.recorder.notation import format_action, game_label
from gamerec.v1 import diff_pb2 as dpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.frames import position_message
from gamerec.validator.identity import RulesError, identify
from gamerec.validator.judge import validate
from gamerec.validator.replay import replay_to

#: A field descriptor: the pure-Python and the upb classes have the same surface.
FieldDescriptor: TypeAlias = Any
#: Fields of a Move that annotate it rather than being the move.
ANNOTATION_FIELDS = ("seat", "comment", "glyph", "clock", "timestamp", "variations")
#: Fields of a record compared move by move rather than field by field.
MOVE_LIST = "moves"


def compare_records(left: pb.GameRecord, right: pb.GameRecord) -> dpb.RecordDiff:
    """How ``right`` differs from ``left``."""
    require_record(left, "compare_records")
    require_record(right, "compare_records")
    diff = dpb.RecordDiff(same=left == right)
    if diff.same:
        return diff
    diff.fields.extend(_field_differences(left, right, "", skip=(MOVE_LIST,)))
    ply = _first_divergence(left, right)
    shared = len(left.moves) if ply is None else ply - 1
    for number in range(1, shared + 1):
        diff.annotations.extend(
            _field_differences(
                left.moves[number - 1],
                right.moves[number - 1],
                f"moves[{number}].",
                only=ANNOTATION_FIELDS,
            )
        )
    if ply is not None:
        diff.divergence.CopyFrom(_divergence(left, right, ply))
    return diff


def _first_divergence(left: pb.GameRecord, right: pb.GameRecord) -> int | None:
    """The first 1-based ply whose action differs or that only one record has."""
    for number, (mine, theirs) in enumerate(zip(left.moves, right.moves, strict=False), 1):
        if move_action(mine) != move_action(theirs):
            return number
    if len(left.moves) != len(right.moves):
        return min(len(left.moves), len(right.moves)) + 1
    return None


def move_action(move: pb.Move) -> tuple[str | None, bytes]:
    """A move's action (which one, and its content), without its annotations."""
    which = move.WhichOneof("action")
    if which is None:
        return None, b""
    content: Message = getattr(move, which)
    return which, content.SerializeToString(deterministic=True)


def _divergence(left: pb.GameRecord, right: pb.GameRecord, ply: int) -> dpb.MoveDivergence:
    """The divergence at ``ply``: both moves, the shared position and both verdicts."""
    divergence = dpb.MoveDivergence(
        ply=ply,
        left_move=_move_text(left, ply),
        right_move=_move_text(right, ply),
        left_plies=len(left.moves),
        right_plies=len(right.moves),
        left_verdict=validate(left),
        right_verdict=validate(right),
    )
    try:
        reached = replay_to(left, identify(left), ply - 1)
    except RulesError:
        return divergence
    state = reached.state
    if reached.stopped or state is None:
        return divergence
    divergence.seat = state.to_move
    divergence.position.CopyFrom(position_message(state.position()))
    return divergence


def _move_text(record: pb.GameRecord, ply: int) -> str:
    """The token of ply ``ply``, or ``""`` when the record has no such ply."""
    if ply > len(record.moves):
        return ""
    try:
        return format_action(record.moves[ply - 1])
    except ValueError:
        return "?"


# -- field by field ----------------------------------------------------------------------------


def _field_differences(
    left: Message,
    right: Message,
    prefix: str,
    *,
    skip: tuple[str, ...] = (),
    only: tuple[str, ...] | None = None,
) -> Iterator[dpb.FieldDifference]:
    """Every field of two messages of one type that differs, as paths under ``prefix``."""
    for field in left.DESCRIPTOR.fields:
        name = field.name
        if name in skip or (only is not None and name not in only):
            continue
        mine, theirs = getattr(left, name), getattr(right, name)
        path = prefix + name
        if _is_map(field):
            yield from _map_differences(mine, theirs, path)
        elif field.is_repeated:
            yield from _list_differences(field, mine, theirs, path)
        elif field.message_type is not None:
            yield from _message_differences(field, left, right, path)
        elif mine != theirs:
            yield dpb.FieldDifference(
                field=path, left=_text(field, mine), right=_text(field, theirs)
            )


def _is_map(field: FieldDescriptor) -> bool:
    """Whether a field is a protobuf map."""
    message = field.message_type
    return message is not None and message.GetOptions().map_entry


def _map_differences(mine: Any, theirs: Any, path: str) -> Iterator[dpb.FieldDifference]:
    """Keys whose values differ or that only one side has."""
    for key in sorted(set(mine) | set(theirs)):
        if mine.get(key) != theirs.get(key):
            yield dpb.FieldDifference(
                field=f"{path}[{key}]", left=mine.get(key, ""), right=theirs.get(key, "")
            )


def _list_differences(
    field: FieldDescriptor, mine: Any, theirs: Any, path: str
) -> Iterator[dpb.FieldDifference]:
    """Repeated fields: messages element by element (1-based), scalars as a whole."""
    if field.message_type is None or field.name == "variations":
        if list(mine) != list(theirs):
            yield dpb.FieldDifference(
                field=path, left=_list_text(field, mine), right=_list_text(field, theirs)
            )
        return
    for number in range(1, max(len(mine), len(theirs)) + 1):
        element = f"{path}[{number}]"
        if number > len(mine) or number > len(theirs):
            present = mine if number <= len(mine) else theirs
            text = _message_text(present[number - 1])
            yield dpb.FieldDifference(
                field=element,
                left=text if number <= len(mine) else "",
                right=text if number <= len(theirs) else "",
            )
        else:
            yield from _field_differences(mine[number - 1], theirs[number - 1], element + ".")


def _message_differences(
    field: FieldDescriptor, left: Message, right: Message, path: str
) -> Iterator[dpb.FieldDifference]:
    """A singular message field: recurse when both have it, else report its presence."""
    has_mine, has_theirs = left.HasField(field.name), right.HasField(field.name)
    mine, theirs = getattr(left, field.name), getattr(right, field.name)
    if has_mine and has_theirs:
        yield from _field_differences(mine, theirs, path + ".")
    elif has_mine != has_theirs:
        yield dpb.FieldDifference(
            field=path,
            left=_message_text(mine) if has_mine else "",
            right=_message_text(theirs) if has_theirs else "",
        )


def _text(field: FieldDescriptor, value: Any) -> str:
    """A scalar as text: enum values by name, the rest as Python writes them."""
    if field.enum_type is not None and value in field.enum_type.values_by_number:
        return str(field.enum_type.values_by_number[value].name)
    return str(value)


def _list_text(field: FieldDescriptor, values: Any) -> str:
    """A repeated scalar (or the variations) as text."""
    if field.message_type is not None:
        return "; ".join(_message_text(value) for value in values)
    return ",".join(_text(field, value) for value in values)


def _message_text(message: Message) -> str:
    """A message as compact ProtoJSON (well-known types as their JSON strings, e.g. ``61s``)."""
    value = MessageToDict(message)
    return value if isinstance(value, str) else orjson.dumps(value).decode()


# -- collections -------------------------------------------------------------------------------


def game_identity(record: pb.GameRecord) -> str:
    """The identity that matches a record across collections (see the module docstring)."""
    game_id = record.metadata.extra_tags.get("GameId")
    if game_id:
        return f"GameId {game_id}"
    metadata = record.metadata
    start = metadata.start_time.ToJsonString() if metadata.HasField("start_time") else ""
    parts = [
        game_label(record.rules.game, "?"),
        metadata.event,
        metadata.site,
        metadata.round,
        metadata.date,
        start,
        ", ".join(seat.name for seat in record.seats),
    ]
    return " | ".join(parts)


def _identified(records: Iterable[pb.GameRecord]) -> dict[str, tuple[int, pb.GameRecord]]:
    """Records by identity (repeats told apart by order), with their 1-based numbers."""
    seen: Counter[str] = Counter()
    found: dict[str, tuple[int, pb.GameRecord]] = {}
    for number, record in enumerate(records, start=1):
        identity = game_identity(record)
        seen[identity] += 1
        if seen[identity] > 1:
            identity = f"{identity} #{seen[identity]}"
        found[identity] = (number, record)
    return found


def compare_collections(
    left_records: Iterable[pb.GameRecord], right_records: Iterable[pb.GameRecord]
) -> dpb.CollectionDiff:
    """Match two collections by game identity and compare every matched pair."""
    left, right = _identified(left_records), _identified(right_records)
    result = dpb.CollectionDiff(
        only_left=[identity for identity in left if identity not in right],
        only_right=[identity for identity in right if identity not in left],
    )
    for identity, (number, record) in left.items():
        if identity in right:
            other_number, other = right[identity]
            result.pairs.add(
                identity=identity,
                left_number=number,
                right_number=other_number,
                diff=compare_records(record, other),
            )
    result.same = (
        not result.only_left
        and not result.only_right
        and all(pair.diff.same for pair in result.pairs)
    )
    return result
