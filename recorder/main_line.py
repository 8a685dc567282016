"""What a serialized record's main line holds, read by protobuf's C parser through views.

A *view* is a message of our own that reads a GameRecord's bytes with other fields than
GameRecord has: a field it does not name is kept as an unknown field and ignored. One parse of
a record's bytes with a view gives, at C speed, what reading the parsed record would take a
Python call per move for. There are three:

- ``MainLineView`` (``repeated bytes moves = 5``): every main-line move's own bytes
  (:func:`main_line_moves`). A length-delimited field reads as bytes as well as a message.
- ``MainLineFields`` (``MoveFields moves = 5``, *singular*): protobuf merges every occurrence
  of a singular message field, so the main line's moves merge into one ``MoveFields`` whose
  repeated fields hold those of every move: its variations, and the ``seconds`` and ``nanos``
  of every clock and timestamp. ``VariationFields`` does the same for the moves of
  variations, a level at a time (:func:`move_facts`).
- ``ActionLine`` (each move as ``ActionMove``: Move's fields 1 to 8, seat and action, with
  Move's own types and oneof): serialized again without its unknown fields, it gives every
  move's bytes without its annotations (:func:`main_line_actions`), so that moves with a
  clock or a comment are looked up as the same plain moves.

Every function takes bytes that parse to the record as a GameRecord (the bytes it was read
from, or its serialization): the views read the same fields from the same bytes.

Imports: protobuf and the generated record code only.
"""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from google.protobuf import descriptor_pool, message_factory
from google.protobuf.message import DecodeError, Message

from gamerec.v1 import record_pb2 as pb

#: The serialized FileDescriptorProto of ``MainLineView``: one field, ``repeated bytes moves
#: = 5`` (the number of ``GameRecord.moves``). Kept as bytes because building it with
#: ``descriptor_pb2`` costs a one-file ``validate`` about 40 ms of start-up (issue 39);
#: tests/recorder/test_main_line.py builds each view that way and compares.
MAIN_LINE_VIEW_FILE: Final = (
    b"\n%gamerec_internal/main_line_view.proto\x12\x10gamerec_internal"
    b'"\x1d\n\x0cMainLineView\x12\r\n\x05moves\x18\x05 \x03(\x0cb\x06proto3'
)

#: ``TimeValues`` (``repeated int64 seconds = 1; repeated int32 nanos = 2``: the fields of
#: Timestamp and Duration, with their types), ``MoveFields`` (``TimeValues clock = 11;
#: TimeValues timestamp = 12; repeated bytes variations = 13``: Move's numbers),
#: ``MainLineFields`` (``MoveFields moves = 5``: GameRecord's) and ``VariationFields``
#: (``MoveFields moves = 1``: Variation's).
MAIN_LINE_FIELDS_FILE: Final = (
    b"\n'gamerec_internal/main_line_fields.proto\x12\x10gamerec_internal\",\n\nTimeValues"
    b'\x12\x0f\n\x07seconds\x18\x01 \x03(\x03\x12\r\n\x05nanos\x18\x02 \x03(\x05"~\n\n'
    b"MoveFields\x12+\n\x05clock\x18\x0b \x01(\x0b2\x1c.gamerec_internal.TimeValues\x12/\n"
    b"\ttimestamp\x18\x0c \x01(\x0b2\x1c.gamerec_internal.TimeValues\x12\x12\n\nvariations"
    b'\x18\r \x03(\x0c"=\n\x0eMainLineFields\x12+\n\x05moves\x18\x05 \x01(\x0b2\x1c.'
    b'gamerec_internal.MoveFields">\n\x0fVariationFields\x12+\n\x05moves\x18\x01 \x01(\x0b2'
    b"\x1c.gamerec_internal.MoveFieldsb\x06proto3"
)

#: ``ActionMove`` (Move's fields 1 to 8 as record.proto declares them: ``seat`` and the
#: ``action`` oneof) and ``ActionLine`` (``repeated ActionMove moves = 5``). It names
#: record.proto's messages, so it is added to the pool that holds them (the default one).
ACTION_LINE_FILE: Final = (
    b'\n"gamerec_internal/action_line.proto\x12\x10gamerec_internal\x1a\x17gamerec/v1/'
    b'record.proto"\xb2\x02\n\nActionMove\x12\x0c\n\x04seat\x18\x01 \x01(\r\x12"\n\x03one'
    b"\x18\x02 \x01(\x0b2\x13.gamerec.v1.OneMoveH\x00\x12(\n\x06aronda\x18\x03 \x01(\x0b2"
    b"\x16.gamerec.v1.ArondaTurnH\x00\x12$\n\x04oust\x18\x04 \x01(\x0b2\x14.gamerec.v1."
    b"OustTurnH\x00\x12.\n\noh_wah_ree\x18\x05 \x01(\x0b2\x18.gamerec.v1.OhWahReeMoveH\x00"
    b"\x12$\n\x06resign\x18\x06 \x01(\x0b2\x12.gamerec.v1.ResignH\x00\x12 \n\x04pass\x18"
    b"\x07 \x01(\x0b2\x10.gamerec.v1.PassH\x00\x12 \n\x04swap\x18\x08 \x01(\x0b2\x10."
    b'gamerec.v1.SwapH\x00B\x08\n\x06action"9\n\nActionLine\x12+\n\x05moves\x18\x05 \x03'
    b"(\x0b2\x1c.gamerec_internal.ActionMoveb\x06proto3"
)


def _views() -> tuple[type[Message], ...]:
    """The view classes: MainLineView, MainLineFields, VariationFields, ActionLine, ActionMove."""
    own = descriptor_pool.DescriptorPool()
    own.AddSerializedFile(MAIN_LINE_VIEW_FILE)
    own.AddSerializedFile(MAIN_LINE_FIELDS_FILE)
    shared = descriptor_pool.Default()
    assert shared.FindMessageTypeByName("gamerec.v1.Move") is pb.Move.DESCRIPTOR
    try:
        shared.FindFileByName("gamerec_internal/action_line.proto")
    except KeyError:
        shared.AddSerializedFile(ACTION_LINE_FILE)

    def view(pool: descriptor_pool.DescriptorPool, name: str) -> type[Message]:
        return message_factory.GetMessageClass(pool.FindMessageTypeByName(name))

    return (
        view(own, "gamerec_internal.MainLineView"),
        view(own, "gamerec_internal.MainLineFields"),
        view(own, "gamerec_internal.VariationFields"),
        view(shared, "gamerec_internal.ActionLine"),
        view(shared, "gamerec_internal.ActionMove"),
    )


_MAIN_LINE_VIEW, _MAIN_LINE_FIELDS, _VARIATION_FIELDS, _ACTION_LINE, _ACTION_MOVE = _views()


def main_line_moves(serialized: bytes) -> list[bytes]:
    """The bytes of every move of the main line, in order, as the record holds them.

    The same bytes as ``move.SerializeToString()`` for each move of a record written by
    protobuf, found in one parse instead of one call per move.
    """
    view: Any = _MAIN_LINE_VIEW.FromString(serialized)
    moves: list[bytes] = view.moves[:]  # a slice copies in C; list() would iterate
    return moves


def sealed_plies_bytes(seal: bytes) -> list[bytes]:
    """The bytes of every ``SealedPly`` of a serialized ``Seal``, in order, in one parse.

    ``Seal.plies`` is field 5 too, so the main line's view reads it; the seal's other fields
    are skipped as fields the view does not know.
    """
    return main_line_moves(seal)


class MoveFacts(NamedTuple):
    """What the moves of a record hold besides their actions: every move, variations too.

    Attributes:
        depth: how deep variations nest (0: the record has none; 1: variations of main-line
            moves only; 2: variations in those ...), as the limits count it.
        clock_seconds, clock_nanos: every ``seconds`` and ``nanos`` value the moves' clocks
            hold on the wire. A clock's value is one of them (the last its field gives) or 0.
        timestamp_seconds, timestamp_nanos: the same of the moves' timestamps.
    """

    depth: int
    clock_seconds: list[int]
    clock_nanos: list[int]
    timestamp_seconds: list[int]
    timestamp_nanos: list[int]


#: The largest record :func:`move_facts` reads (1 MiB; a game of 10,000 plies with a clock and
#: a timestamp on each is about 300 KiB). Each level of variations parses what is nested below
#: it again, so a record nested 48 deep costs up to 48 parses of its bytes: bounded so, one
#: record never costs more than about 50 MiB of parsing, and a larger one is walked.
MAX_FACTS_BYTES: Final = 1 << 20


def move_facts(serialized: bytes) -> MoveFacts | None:
    """The variation depth, clocks and timestamps of every move, one parse per level.

    The main line's moves merge into one ``MoveFields`` (one parse of the record), whose
    ``variations`` are the first level; the variations of a level, joined, parse as one
    Variation whose moves merge again, giving the next level. A record's bytes cannot nest
    deeper than protobuf decodes (100 messages, so about 50 levels), which bounds the parses.

    None for a record over :data:`MAX_FACTS_BYTES`, and when the view cannot read the bytes,
    which a GameRecord can: a clock's or timestamp's field given length-delimited is an
    unknown field to Duration and Timestamp but packed values to the view, which refuses them
    when they are not varints.
    """
    if len(serialized) > MAX_FACTS_BYTES:
        return None
    last = _LAST_FACTS[0]
    if last[0] is serialized:  # the same bytes object: the times check after the limits'
        return last[1]
    facts = _read_facts(serialized)
    _LAST_FACTS[0] = (serialized, facts)
    return facts


#: The last bytes :func:`move_facts` read and what it found: a reader checks the limits and
#: then the times of the same record's bytes, each asking for its facts. One tuple, read and
#: replaced whole; it holds at most :data:`MAX_FACTS_BYTES` until the next record.
_LAST_FACTS: list[tuple[bytes | None, MoveFacts | None]] = [(None, None)]


def _read_facts(serialized: bytes) -> MoveFacts | None:
    """:func:`move_facts`, read: one parse of the main line, one more a level of variations."""
    facts = MoveFacts(0, [], [], [], [])
    try:
        view: Any = _MAIN_LINE_FIELDS.FromString(serialized)
        while True:
            moves = view.moves
            clock, stamp = moves.clock, moves.timestamp
            facts.clock_seconds.extend(clock.seconds)
            facts.clock_nanos.extend(clock.nanos)
            facts.timestamp_seconds.extend(stamp.seconds)
            facts.timestamp_nanos.extend(stamp.nanos)
            if not moves.variations:
                return facts
            facts = facts._replace(depth=facts.depth + 1)
            view = _VARIATION_FIELDS.FromString(b"".join(moves.variations))
    except DecodeError:
        return None


def main_line_actions(serialized: bytes) -> list[bytes]:
    """Every main-line move's bytes without its annotations: its seat and action alone.

    Each is the serialization of a Move that holds only the move's ``seat`` and its action,
    as protobuf reads them from the move (the same oneof, the same merging of a field given
    twice), with no unknown field: a comment, glyph, clock, timestamp or variation makes no
    difference, so annotated moves are looked up as the plain moves they are.
    """
    line: Any = _ACTION_LINE.FromString(serialized)
    line.DiscardUnknownFields()
    return main_line_moves(line.SerializeToString())


def action_of(move: bytes) -> bytes:
    """One move's bytes without its annotations (see :func:`main_line_actions`)."""
    action: Any = _ACTION_MOVE.FromString(move)
    action.DiscardUnknownFields()
    serialized: bytes = action.SerializeToString()
    return serialized
