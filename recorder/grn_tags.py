"""GRN tag pairs and the record fields they stand for, in both directions.

The table (README "File formats" shows it too):

======================  ===============================================================
tag                     field
======================  ===============================================================
Game                    rules.game (``ONE``, ``Aronda``, ``Oust``, ``Oh-Wah-Ree``)
RulesVersion            rules.rules_version
FormatVersion           format_version
Players                 rules.<game>.players
Board                   ONE: rules.one.ring_sizes (``10,10,20,20``); Oust: board_side
Mirror, Tiebreak        ONE: rules.one.mirror / tiebreak
Supply, SecondPiece     Aronda: rules.aronda.supply / second_piece
Pie                     Oust: rules.oust.pie
StonesPerPit            Oh-Wah-Ree: rules.oh_wah_ree.stones_per_pit
Direction               Oh-Wah-Ree: rules.oh_wah_ree.direction
SeatN                   seats[N-1].name (N from 1)
SeatNId                 seats[N-1].player_id
SeatNRating             seats[N-1].rating
SeatNColour             seats[N-1].colour
Event, Site, Round      metadata.event / site / round
Date                    metadata.date (free text)
StartTime               metadata.start_time (RFC 3339)
TimeControl, Client     metadata.time_control / client
Result                  result.unfinished (``*``) or result.scores (``31-24``)
Winner                  result.winners (``2``, ``1,3``)
Termination             result.termination
Seal, SealStart, ...    seal (``gamerec.recorder.grn_seal``; docs/seals.md)
anything else           metadata.extra_tags
======================  ===============================================================

Tag names are matched case-insensitively; values of named options too (``mirror "NONE"``). An
absent tag leaves its field unset (the documented default); a variant tag with an empty value
(``[Board ""]``) too. Every tag present makes its message present, and the writer writes every
field that is set (a variant's numbers have presence, so ``[Board "0"]`` stays a board of side
0, an impossible variant, and is not read as the default), so a round trip is exact; a message
that is present with nothing set is written with one marker tag: ``[Players ""]`` for the
variant, ``[Event ""]`` for the metadata, ``[Winner ""]`` for the result. Every seat gets its
``SeatN`` tag, even with an empty name, so the seat count survives. A variant tag that the
record's game does not have, or a value the schema cannot hold (``Mirror "sometimes"``,
``Players "x"``), is an error; a value that the schema holds but the rules forbid (``Players
"9"``, ``Board "7,10"``) is kept for the validator to judge.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from functools import lru_cache
from typing import NamedTuple

from google.protobuf.descriptor import Descriptor

from gamerec.recorder.errors import EncodingError, RecordMalformedError, excerpt
from gamerec.recorder.grn_seal import is_seal_tag, read_seal_tag, seal_tags
from gamerec.recorder.grn_values import (
    format_timestamp,
    parse_int32,
    parse_timestamp,
    parse_uint32,
    parse_uint32_list,
    unescape,
)
from gamerec.recorder.limits import exceeded
from gamerec.recorder.notation import GameValue, game_from_name, game_name
from gamerec.recorder.syntax import GAMES, VariantOption, known_games, syntax_of
from gamerec.recorder.wire import encode_varint
from gamerec.v1 import record_pb2 as pb

#: The highest seat number a GRN tag may name (``Seat64``), whatever the seats limit says.
MAX_SEATS = 64

TAG_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
_SEAT_TAG = re.compile(r"seat([1-9][0-9]*)(id|rating|colour)?", re.IGNORECASE)
_SCORES = re.compile(r"[0-9]+(?:-[0-9]+)*")

_TERMINATIONS = {
    "normal": pb.TERMINATION_NORMAL,
    "resignation": pb.TERMINATION_RESIGNATION,
    "timeout": pb.TERMINATION_TIMEOUT,
    "agreement": pb.TERMINATION_AGREEMENT,
    "abandoned": pb.TERMINATION_ABANDONED,
    "adjudicated": pb.TERMINATION_ADJUDICATED,
}


def variant_options(game: GameValue) -> tuple[str, tuple[VariantOption, ...]]:
    """The variant field of ``Rules`` for ``game`` and its options, in writing order.

    An unknown game has no variant field (``""``) and no options.
    """
    syntax = syntax_of(game)
    return ("", ()) if syntax is None else (syntax.variant, syntax.options)


_VARIANT_TAGS = {option.tag.lower(): option.tag for syntax in GAMES for option in syntax.options}
_METADATA_TEXT_TAGS = {
    "Event": "event",
    "Site": "site",
    "Date": "date",
    "Round": "round",
    "TimeControl": "time_control",
    "Client": "client",
}
_METADATA_FIELDS = {tag.lower(): field for tag, field in _METADATA_TEXT_TAGS.items()}
#: The tags, as the writer names them, whose values are new in most records of an archive
#: (Event, Site, Client and the like mostly stay): a reader that keeps what whole tag sections
#: set keeps it by the other tags' values (``grn_tag_section``) and reads these again in every
#: record.
VOLATILE_TAGS = frozenset(["Round", "Date", "StartTime", "Result"])
_OTHER_TAGS = ("Game", "RulesVersion", "FormatVersion", "StartTime", "Result", "Winner")
_TERMINATION_NAMES = {value: name for name, value in _TERMINATIONS.items()}
#: Every tag name with a field of its own, lower-cased (seat tags apart).
KNOWN_TAGS = frozenset(
    [*_VARIANT_TAGS, *(tag.lower() for tag in _METADATA_TEXT_TAGS)]
    + [tag.lower() for tag in _OTHER_TAGS]
    + ["termination"]
)


# -- reading -----------------------------------------------------------------------------------


def read_game(value: str) -> GameValue:
    """The game of a ``Game`` tag value.

    Raises:
        RecordMalformedError: not one of the four games.
    """
    game = game_from_name(value)
    if game is None:
        raise RecordMalformedError(
            f"unknown game {excerpt(value)}; expected one of {known_games()}"
        )
    return game


def read_tag(record: pb.GameRecord, name: str, value: str, *, max_seats: int = MAX_SEATS) -> None:
    """Store one tag in ``record``.

    Args:
        record: the record being built; its ``rules.game`` must be set (read the ``Game``
            tag first) before any variant tag is read.
        name: the tag name as written (any case).
        value: the unescaped value.
        max_seats: the highest seat number accepted (never above :data:`MAX_SEATS`).

    Raises:
        RecordMalformedError: the value cannot be held, or the game has no such option.
        LimitExceededError: a seat number above ``max_seats`` or :data:`MAX_SEATS`.
    """
    lower = name.lower()
    if lower in _VARIANT_TAGS:
        _read_variant_tag(record, _VARIANT_TAGS[lower], value)
    elif lower in _METADATA_FIELDS:
        record.metadata.SetInParent()
        setattr(record.metadata, _METADATA_FIELDS[lower], value)
    elif lower in KNOWN_TAGS:  # no known tag name reads as a seat tag
        _read_record_tag(record, lower, value)
    elif (seat := _SEAT_TAG.fullmatch(name)) is not None:
        _read_seat_tag(record, seat, value, min(max_seats, MAX_SEATS))
    elif is_seal_tag(name):
        read_seal_tag(record, name, value, min(max_seats, MAX_SEATS))
    else:
        record.metadata.extra_tags[name] = value


#: The longest raw tag value (and name) whose fields :func:`tag_fields` keeps: a bounded
#: table whatever the input.
_KEPT_VALUE_CHARS = 200


class TagFields(NamedTuple):
    """What :func:`read_tag` sets for one tag, serialized (see :func:`tag_fields`).

    Attributes:
        data: a seat tag: the fields of its ``Seat``; any other tag: the fields of the record
            it sets (``rules.game`` included).
        chars: the characters of the unescaped value.
        free: whether it is a free tag (``metadata.extra_tags``).
        seat: the seat number of a seat tag (0: another tag).
    """

    data: bytes
    chars: int
    free: bool
    seat: int


def tag_fields(game: GameValue, name: str, raw: str) -> TagFields | None:
    """What :func:`read_tag` sets for one tag in a record of ``game``, ready to be merged.

    For a reader of many records: tags recur (``[Event "..."]``, ``[Players "2"]``), and
    merging the fields of all of a record's tags in one call costs less than setting them one
    by one. The answers for short values are kept. Seats above :data:`MAX_SEATS` are refused.

    Args:
        game: the record's game (its ``Game`` tag, read first).
        name: the tag name as written.
        raw: the value as written (still escaped).

    Returns:
        None for a seal tag (what it sets depends on what the record holds: read it with
        :func:`read_tag`); else the tag's fields.

    Raises:
        RecordMalformedError: as :func:`read_tag` would.
    """
    text_field = _METADATA_TEXT_TAGS.get(name)
    if text_field is not None and "\\" not in raw:  # new in most records: not kept
        return TagFields(_game_bytes(game) + _metadata_text(text_field, raw), len(raw), False, 0)
    if len(raw) <= _KEPT_VALUE_CHARS and len(name) <= _KEPT_VALUE_CHARS:
        return _kept_tag_fields(game, name, raw)
    return _tag_fields(game, name, raw)


def _tag_fields(game: GameValue, name: str, raw: str) -> TagFields | None:
    text_field = _METADATA_FIELDS.get(name.lower())
    if text_field is not None and "\\" not in raw:  # Round, Date: the tags most often new
        return TagFields(_game_bytes(game) + _metadata_text(text_field, raw), len(raw), False, 0)
    return _tag_fields_by_message(game, name, raw)


def _tag_fields_by_message(game: GameValue, name: str, raw: str) -> TagFields | None:
    """:func:`tag_fields`, by a record made for the tag and serialized."""
    lower = name.lower()
    field_tag = lower in _VARIANT_TAGS or lower in _METADATA_FIELDS or lower in KNOWN_TAGS
    seat_tag = not field_tag and _SEAT_TAG.fullmatch(name) is not None
    if not field_tag and not seat_tag and is_seal_tag(name):
        return None
    value = unescape(raw)
    scratch = pb.GameRecord()
    scratch.rules.game = game
    read_tag(scratch, name, value)
    if seat_tag:
        return TagFields(
            scratch.seats[-1].SerializeToString(), len(value), False, len(scratch.seats)
        )
    free = name in scratch.metadata.extra_tags
    return TagFields(scratch.SerializeToString(), len(value), free, 0)


_kept_tag_fields = lru_cache(maxsize=4096)(_tag_fields)


def _key(message: Descriptor, field: str) -> bytes:
    """The key of a length-delimited field of a message."""
    return encode_varint(message.fields_by_name[field].number << 3 | 2)


_METADATA_KEY = _key(pb.GameRecord.DESCRIPTOR, "metadata")
_METADATA_TEXT_KEYS = {
    field: _key(pb.Metadata.DESCRIPTOR, field) for field in _METADATA_TEXT_TAGS.values()
}


@lru_cache(maxsize=16)
def _game_bytes(game: GameValue) -> bytes:
    """A record that names only its game, serialized."""
    return pb.GameRecord(rules=pb.Rules(game=game)).SerializeToString()


def _metadata_text(field: str, value: str) -> bytes:
    """A record's metadata holding one text field, serialized as protobuf writes it."""
    text = value.encode()
    body = _METADATA_TEXT_KEYS[field] + encode_varint(len(text)) + text if text else b""
    return _METADATA_KEY + encode_varint(len(body)) + body


def _read_variant_tag(record: pb.GameRecord, tag: str, value: str) -> None:
    field, options = variant_options(record.rules.game)
    option = next((option for option in options if option.tag == tag), None)
    if option is None:
        raise RecordMalformedError(
            f"{game_name(record.rules.game)} has no {tag} option, so the record cannot hold it"
        )
    variant = getattr(record.rules, field)
    variant.SetInParent()
    parsed = option.read(value)
    if parsed is None:
        return
    if option.repeated:
        getattr(variant, option.field).extend(parsed)
    else:
        setattr(variant, option.field, parsed)


def _read_seat_tag(
    record: pb.GameRecord, seat_tag: re.Match[str], value: str, max_seats: int
) -> None:
    digits, field = seat_tag.groups()
    if len(digits) > 9:  # no seat; and int() of thousands of digits is refused anyway
        raise exceeded("max_seats", "seat at least ", 10**9, "", max_seats)
    number = int(digits)
    if number > max_seats:
        raise exceeded("max_seats", "seat ", number, "", max_seats)
    while len(record.seats) < number:
        record.seats.add()
    seat = record.seats[number - 1]
    kind = (field or "").lower()
    if kind == "":
        seat.name = value
    elif kind == "id":
        seat.player_id = value
    elif kind == "rating":
        seat.rating = parse_int32(value, "a rating")
    else:
        seat.colour = value


def _read_record_tag(record: pb.GameRecord, lower: str, value: str) -> None:
    if lower == "game":
        record.rules.game = read_game(value)
    elif lower == "rulesversion":
        record.rules.rules_version = value
    elif lower == "formatversion":
        record.format_version = parse_uint32(value, "a format version")
    elif lower == "starttime":
        record.metadata.start_time.CopyFrom(parse_timestamp(value))
    else:
        _read_result_tag(record.result, lower, value)


def _read_result_tag(result: pb.ClaimedResult, lower: str, value: str) -> None:
    result.SetInParent()
    if lower == "result":
        read_result_claim(result, value)
    elif lower == "winner":
        result.winners.extend(parse_uint32_list(value, ",", "a winning seat"))
    else:
        termination = _TERMINATIONS.get(value.lower())
        if termination is None:
            raise RecordMalformedError(
                f"Termination must be one of {', '.join(_TERMINATIONS)}, not {excerpt(value)}"
            )
        result.termination = termination


def read_result_claim(result: pb.ClaimedResult, value: str) -> None:
    """Store a ``Result`` value (``*``, ``31-24``, or empty for an empty score list)."""
    if value == "*":
        result.unfinished.SetInParent()
    elif value == "" or _SCORES.fullmatch(value):
        result.scores.SetInParent()
        result.scores.values.extend(parse_uint32_list(value, "-", "a score"))
    else:
        raise RecordMalformedError(
            f"expected a Result such as 31-24 (scores in seat order) or *, found {excerpt(value)}"
        )


# -- writing -----------------------------------------------------------------------------------


def variant_tags(rules: pb.Rules) -> list[tuple[str, str]]:
    """The variant option tags of ``rules``: every option whose value is not zero.

    Raises:
        EncodingError: the variant belongs to another game, or a value is unknown.
    """
    set_field = rules.WhichOneof("variant")
    if set_field is None:
        return []
    field, options = variant_options(rules.game)
    if set_field != field:
        raise EncodingError(
            f"the record is a game of {game_name(rules.game)} but has a {set_field} variant, "
            "so GRN cannot hold it"
        )
    variant = getattr(rules, field)
    tags = []
    for option in options:
        if option.is_set(variant):
            tags.append((option.tag, option.write(getattr(variant, option.field))))
    return tags or [("Players", "")]


def header_tags(record: pb.GameRecord) -> list[tuple[str, str]]:
    """Every tag of ``record`` in canonical order, values not yet escaped.

    Raises:
        EncodingError: the record cannot be written as GRN (no game, a variant of another
            game, an unknown enum value, an extra tag that is not a free tag name).
    """
    rules = record.rules
    tags = [("Game", game_name(rules.game))]
    if rules.rules_version:
        tags.append(("RulesVersion", rules.rules_version))
    if record.format_version:
        tags.append(("FormatVersion", str(record.format_version)))
    tags += variant_tags(rules)
    tags += _metadata_tags(record)
    tags += _seat_tags(record.seats)
    if record.HasField("result"):
        tags += _result_tags(record.result)
    tags += seal_tags(record)
    tags += _extra_tags(record.metadata.extra_tags)
    return tags


def _metadata_tags(record: pb.GameRecord) -> list[tuple[str, str]]:
    if not record.HasField("metadata"):
        return []
    metadata = record.metadata
    tags = [
        (tag, getattr(metadata, field))
        for tag, field in _METADATA_TEXT_TAGS.items()
        if getattr(metadata, field)
    ]
    if metadata.HasField("start_time"):
        tags.append(("StartTime", format_timestamp(metadata.start_time)))
    if not tags and not metadata.extra_tags:
        tags.append(("Event", ""))
    return tags


def _seat_tags(seats: Sequence[pb.Seat]) -> list[tuple[str, str]]:
    if len(seats) > MAX_SEATS:
        raise EncodingError(f"GRN holds at most {MAX_SEATS} seats")
    tags = []
    for number, seat in enumerate(seats, start=1):
        tags.append((f"Seat{number}", seat.name))
        if seat.player_id:
            tags.append((f"Seat{number}Id", seat.player_id))
        if seat.HasField("rating"):
            tags.append((f"Seat{number}Rating", str(seat.rating)))
        if seat.colour:
            tags.append((f"Seat{number}Colour", seat.colour))
    return tags


def _result_tags(result: pb.ClaimedResult) -> list[tuple[str, str]]:
    tags = []
    claim = result.WhichOneof("claim")
    if claim == "unfinished":
        tags.append(("Result", "*"))
    elif claim == "scores":
        tags.append(("Result", "-".join(str(value) for value in result.scores.values)))
    if result.winners:
        tags.append(("Winner", ",".join(str(seat) for seat in result.winners)))
    if result.termination:
        name = _TERMINATION_NAMES.get(result.termination)
        if name is None:
            raise EncodingError(f"Termination {result.termination} is unknown to this version")
        tags.append(("Termination", name))
    return tags or [("Winner", "")]


def _extra_tags(extra: Mapping[str, str]) -> list[tuple[str, str]]:
    tags = sorted(extra.items())
    seen: set[str] = set()
    for name, _ in tags:
        lower = name.lower()
        if (
            not TAG_NAME.fullmatch(name)
            or lower in KNOWN_TAGS
            or _SEAT_TAG.fullmatch(name)
            or is_seal_tag(name)
        ):
            raise EncodingError(
                f"extra tag {name!r} cannot be written as GRN: a tag name is a letter followed "
                "by letters, digits or '_', and is not the name of a field's own tag"
            )
        if lower in seen:
            raise EncodingError(f"extra tags {name!r} differ only in case; GRN tags do not")
        seen.add(lower)
    return tags
