"""The canonical form of a record and its hash chain (docs/seals.md): records that prove themselves.

A record's seal is not computed from bytes of any encoding (protobuf's are not canonical,
and converting a record must not break its seal) but from its *canonical form*, which every
encoding holds alike: the identity (game, rules version, variant, seats with their public
keys, host key, event and time), then each main-line ply as its canonical notation token
with its seat, clock and timestamp, then the claimed result. Each part is a *step*, a list
of byte strings framed by their lengths; the chain is

    H0 = SHA-256(step(identity))
    Hi = SHA-256(H(i-1) || step(ply i))            for each ply i = 1..n
    F  = SHA-256(Hn || step(result))

Comments, glyphs, variations, ratings, colours, the writing client and free tags stay outside
(see docs/seals.md for why). This module is record data only: no rules, no keys; signing is
``gamerec.recorder.signing``'s, verifying ``gamerec.validator.verification``'s.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from typing import Final, NamedTuple

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from gamerec.recorder.arguments import require_record
from gamerec.recorder.ed25519_checks import key_weakness
from gamerec.recorder.errors import EncodingError
from gamerec.recorder.grn_values import (
    DURATION_MAX_SECONDS,
    NANOS_PER_SECOND,
    format_timestamp,
    json_fraction,
)
from gamerec.recorder.notation import GameValue, format_action, game_name
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb

#: The version of docs/seals.md this module implements (``Seal.version``).
SEAL_VERSION: Final = 1
#: The first item of every step and every signed message: the version's domain.
DOMAIN: Final = b"gamerec-seal-1"
#: Bytes of a head (SHA-256), of an Ed25519 public key and of an Ed25519 signature.
HEAD_BYTES: Final = 32
KEY_BYTES: Final = 32
SIGNATURE_BYTES: Final = 64
#: The signer number of the host in ``Signature.signer``.
HOST: Final = 0


def frame(data: bytes) -> bytes:
    """One item: its length as 4 bytes big-endian, then the bytes."""
    return len(data).to_bytes(4, "big") + data


def step(items: Sequence[bytes]) -> bytes:
    """A step: the number of items as 4 bytes big-endian, then each item framed."""
    return len(items).to_bytes(4, "big") + b"".join([frame(item) for item in items])


def _text(value: str) -> bytes:
    return value.encode("utf-8")


# -- the canonical form --------------------------------------------------------------------------


def identity_items(
    record: pb.GameRecord, seat_keys: Sequence[bytes], host_key: bytes
) -> list[bytes]:
    """The identity step's items (docs/seals.md "The identity").

    Raises:
        EncodingError: an unknown game, more keys than seats, or a bad start time.
    """
    if len(seat_keys) > len(record.seats):
        raise EncodingError(
            f"the seal holds {len(seat_keys)} seat keys but the record has "
            f"{len(record.seats)} seats"
        )
    rules, metadata = record.rules, record.metadata
    variant = variant_items(rules)
    start = format_timestamp(metadata.start_time) if metadata.HasField("start_time") else ""
    items = [DOMAIN, b"identity", _text(game_name(rules.game)), _text(rules.rules_version)]
    items += [str(len(variant)).encode(), *variant]
    items += [_text(metadata.event), _text(metadata.site), _text(metadata.round)]
    items += [_text(metadata.date), _text(start), _text(metadata.time_control)]
    items.append(str(len(record.seats)).encode())
    for index, seat in enumerate(record.seats):
        key = seat_keys[index] if index < len(seat_keys) else b""
        items += [_text(seat.name), _text(seat.player_id), key]
    items.append(host_key)
    return items


def variant_items(rules: pb.Rules) -> list[bytes]:
    """``name=value`` per variant option the record sets, sorted by the option's field name.

    Set: a number the record holds (a field with presence, even 0), an enum that is not its
    zero value, a list that is not empty. Names are the .proto field names (``ring_sizes``),
    numbers are decimal, enum values their .proto names (``ONE_MIRROR_NONE``; a number this
    version does not know stays a number), repeated values are joined by ``,``. An absent
    variant and one that sets nothing are the same variant (every default), so they seal
    alike.
    """
    chosen = rules.WhichOneof("variant")
    if chosen is None:
        return []
    variant: Message = getattr(rules, chosen)
    items = []
    fields: list[FieldDescriptor] = list(variant.DESCRIPTOR.fields)  # type: ignore[arg-type]
    for field in sorted(fields, key=lambda field: field.name.encode()):
        value = getattr(variant, field.name)
        if field.is_repeated:
            values = list(value)
        elif field.has_presence:  # a number the record holds, even 0 (an impossible variant)
            values = [value] if variant.HasField(field.name) else []
        else:
            values = [value] if value else []
        if not values:  # left out: the default
            continue
        text = ",".join(_option_value(field, item) for item in values)
        items.append(_text(f"{field.name}={text}"))
    return items


def _option_value(field: FieldDescriptor, value: int) -> str:
    enum_type = field.enum_type
    if enum_type is not None and value in enum_type.values_by_number:
        return str(enum_type.values_by_number[value].name)
    return str(value)


def ply_items(ply: int, move: pb.Move, game: GameValue) -> list[bytes]:
    """The step of one main-line ply: number, seat, canonical token, clock, timestamp.

    Raises:
        EncodingError: the move has no canonical token (no action, another game's action, a
            place with no name), or a clock or timestamp out of range.
    """
    clock, stamp = _ply_times(move)
    numbers = [str(ply).encode(), str(move.seat).encode()]
    return [b"ply", *numbers, _token_bytes(move, game), clock, stamp]


def _ply_times(move: pb.Move) -> tuple[bytes, bytes]:
    """A ply's clock and timestamp items: their canonical texts, empty when absent.

    Raises:
        EncodingError: a clock or timestamp out of range.
    """
    clock = _duration_text(move.clock) if move.HasField("clock") else ""
    stamp = format_timestamp(move.timestamp) if move.HasField("timestamp") else ""
    return _text(clock), _text(stamp)


def ply_head(previous: bytes, ply: int, move: pb.Move, game: GameValue) -> bytes:
    """``next_head(previous, ply_items(ply, move, game))``: :func:`ply_heads` of one ply.

    Raises:
        EncodingError: as :func:`ply_items`.
    """
    heads, error = ply_heads(previous, (move,), game, first=ply)
    if error is not None:
        raise error
    return heads[0]


def ply_heads(
    previous: bytes,
    moves: Sequence[pb.Move],
    game: GameValue,
    sealed: Iterable[bytes] | None = None,
    *,
    first: int = 1,
    moves_bytes: Sequence[bytes] | None = None,
) -> tuple[list[bytes], EncodingError | None]:
    """The chain's heads after each of ``moves`` (plies ``first``, ``first + 1``, ...).

    Each head is ``next_head(previous, ply_items(ply, move, game))``, its step written in one
    piece: the step's count and first item are the same for every ply, a ply number's frame
    is made once, and the rest of a move's step is remembered by the move's bytes
    (:func:`_ply_tail`). With ``sealed`` (a seal's heads), the heads stop at the first that
    differs from its sealed one, which is the last head given, or where either list ends.
    ``moves_bytes``: each move's bytes as a record holds them, when at hand (one parse of the
    record gives them all; see ``main_line.main_line_moves``), so that no move is serialized
    again; a move is read from ``moves`` only when its step's rest is not remembered.

    Returns:
        The heads, and the error of the ply after the last of them when that ply has no
        canonical form (as :func:`ply_items` raises it), else None.
    """
    heads: list[bytes] = []
    sha256, start, numbers, tails = hashlib.sha256, _PLY_STEP_START, _NUMBER_FRAMES, _TAILS
    if moves_bytes is None:
        moves_bytes = [move.SerializeToString() for move in moves]
    pairs = (
        zip(moves_bytes, sealed, strict=False)
        if sealed is not None
        else ((data, None) for data in moves_bytes)
    )
    head = previous
    for index, (data, expected) in enumerate(pairs):
        tail = tails.get((game, data))
        if tail is None:
            try:
                tail = _ply_tail(moves[index], game, data)
            except EncodingError as error:
                return heads, error
        ply = index + first
        number = numbers[ply] if ply < len(numbers) else frame(str(ply).encode())
        head = sha256(b"".join((head, start, number, tail))).digest()
        heads.append(head)
        if expected is not None and head != expected:
            break
    return heads, None


def _ply_tail(move: pb.Move, game: GameValue, data: bytes) -> bytes:
    """A ply step's items after the ply's number (seat, token, clock, timestamp), framed.

    They are a function of the move's bytes (``data``), so they are remembered by them: not
    for a move with a clock or a timestamp, whose bytes are its own, nor a long one. The
    table is bounded and emptied when full.

    Raises:
        EncodingError: as :func:`ply_items`.
    """
    clock, stamp = _ply_times(move)
    seat = move.seat
    tail = b"".join(
        (
            _NUMBER_FRAMES[seat] if seat < len(_NUMBER_FRAMES) else frame(str(seat).encode()),
            frame(_token_bytes(move, game)),
            frame(clock),
            frame(stamp),
        )
    )
    if not (clock or stamp) and len(data) <= TAIL_MOVE_BYTES:
        if len(_TAILS) >= TAILS_REMEMBERED:
            _TAILS.clear()
        _TAILS[(game, data)] = tail
    return tail


#: A ply step's count (six items) and first item, and the frames of the numbers of the first
#: plies (and of every seat), made once.
_PLY_STEP_START: Final = (6).to_bytes(4, "big") + frame(b"ply")
_NUMBER_FRAMES: Final = tuple(frame(str(number).encode()) for number in range(4096))
#: Tokens remembered by the move's action, at most (a game has a few hundred distinct moves;
#: the table is emptied when full, so a flood of distinct moves keeps it bounded).
TOKENS_REMEMBERED: Final = 4096
_TOKENS: dict[tuple[GameValue, str, bytes], bytes] = {}
#: The rests of ply steps remembered by their moves' bytes, at most, and the longest move
#: remembered so (its bytes): about 4 MB at most, whatever the input. An archive of Oust holds
#: tens of thousands of distinct moves; 4,096 kept the chain 18% slower on the bench's mix.
TAILS_REMEMBERED: Final = 16384
TAIL_MOVE_BYTES: Final = 128
_TAILS: dict[tuple[GameValue, bytes], bytes] = {}


def _token_bytes(move: pb.Move, game: GameValue) -> bytes:
    """The move's canonical token as bytes, remembered by the move's action.

    The token is a function of the move's action alone (which action, and its bytes), so a
    move with a clock, a timestamp or a comment, whose own bytes are its own, finds the token
    of the same action. A move with no canonical token raises each time, never remembered.

    Raises:
        EncodingError: as :func:`format_action`.
    """
    action = move.WhichOneof("action")
    if action is None:
        return _text(format_action(move, game))  # raises: no action has no token
    key = (game, action, getattr(move, action).SerializeToString())
    token = _TOKENS.get(key)
    if token is None:
        token = _text(format_action(move, game))
        if len(_TOKENS) >= TOKENS_REMEMBERED:
            _TOKENS.clear()
        _TOKENS[key] = token
    return token


def _duration_text(clock: Message) -> str:
    """A duration as ProtoJSON writes it (``598.250s``: 0, 3, 6 or 9 fraction digits)."""
    seconds, nanos = clock.seconds, clock.nanos  # type: ignore[attr-defined]
    if 0 <= seconds <= DURATION_MAX_SECONDS and 0 <= nanos < NANOS_PER_SECOND:
        # ToJsonString's text of a duration in range and not negative, the usual clock.
        return f"{seconds}{json_fraction(nanos)}s"
    try:
        return str(clock.ToJsonString())  # type: ignore[attr-defined]
    except ValueError as error:
        raise EncodingError(f"clock: {error}") from None


def result_items(record: pb.GameRecord) -> list[bytes]:
    """The result step: the claim (``""``, ``*`` or ``=31-24``), the winners, the termination."""
    result = record.result
    claim = result.WhichOneof("claim")
    if claim == "unfinished":
        claimed = "*"
    elif claim == "scores":
        claimed = "=" + "-".join(str(value) for value in result.scores.values)
    else:
        claimed = ""
    winners = ",".join(str(seat) for seat in result.winners)
    termination = ""
    if result.termination:
        known = result.termination in pb.Termination.values()
        termination = pb.Termination.Name(result.termination) if known else str(result.termination)
    return [b"result", _text(claimed), _text(winners), _text(termination)]


# -- the chain -----------------------------------------------------------------------------------


def first_head(items: Sequence[bytes]) -> bytes:
    """H0: the hash of the identity step."""
    return hashlib.sha256(step(items)).digest()


def next_head(previous: bytes, items: Sequence[bytes]) -> bytes:
    """The head after a step: SHA-256 of the previous head and the step."""
    return hashlib.sha256(previous + step(items)).digest()


class Chain(NamedTuple):
    """Every head of a record's chain.

    Attributes:
        identity: H0.
        plies: H1..Hn, one per main-line ply.
        final: F, with the claimed result taken in.
    """

    identity: bytes
    plies: tuple[bytes, ...]
    final: bytes


def chain_of(record: pb.GameRecord, seat_keys: Sequence[bytes], host_key: bytes) -> Chain:
    """The chain of ``record`` with these keys.

    Raises:
        EncodingError: the record has no canonical form (the message names the ply).
    """
    identity = first_head(identity_items(record, seat_keys, host_key))
    heads, error = ply_heads(identity, record.moves, record.rules.game)
    if error is not None:
        raise EncodingError(f"ply {len(heads) + 1}: {error}") from None
    final = next_head(heads[-1] if heads else identity, result_items(record))
    return Chain(identity, tuple(heads), final)


# -- what is signed ------------------------------------------------------------------------------


def ply_message(ply: int, head: bytes) -> bytes:
    """The bytes a signature over the head after ``ply`` signs."""
    return step([DOMAIN, b"ply", str(ply).encode(), head])


def final_message(head: bytes) -> bytes:
    """The bytes a signature over the final head signs."""
    return step([DOMAIN, b"final", head])


# -- sealing -------------------------------------------------------------------------------------


def seal_record(
    record: pb.GameRecord,
    seat_keys: Sequence[bytes] | None = None,
    host_key: bytes | None = None,
) -> pb.GameRecord:
    """A copy of ``record`` with a fresh seal; signatures over heads that did not change stay.

    Args:
        record: the record (sealed or not).
        seat_keys: the seats' 32-byte public keys in seat order (``b""``: none); default:
            those of the record's seal, if any.
        host_key: the host's public key; default: the record's seal's, if any.

    Raises:
        EncodingError: the record has no canonical form, a key is not 32 bytes, or there
            are more keys than seats.
    """
    require_record(record, "seal_record")
    old = record.seal if record.HasField("seal") else spb.Seal()
    keys = list(old.seat_keys) if seat_keys is None else list(seat_keys)
    host = old.host_key if host_key is None else host_key
    for key in [*keys, host]:
        if key and len(key) != KEY_BYTES:
            raise EncodingError(f"an Ed25519 public key has {KEY_BYTES} bytes, not {len(key)}")
        weakness = key_weakness(key) if key else None
        if weakness is not None:
            raise EncodingError(f"the Ed25519 public key {key.hex()} is refused: {weakness}")
    chain = chain_of(record, keys, host)
    same_keys = list(old.seat_keys) == keys and old.host_key == host
    seal = spb.Seal(version=SEAL_VERSION, seat_keys=keys, host_key=host)
    seal.identity_head = chain.identity
    for index, head in enumerate(chain.plies):
        sealed = seal.plies.add(head=head)
        if same_keys and index < len(old.plies) and old.plies[index].head == head:
            sealed.signatures.extend(old.plies[index].signatures)
    seal.final_head = chain.final
    if same_keys and old.final_head == chain.final:
        seal.final_signatures.extend(old.final_signatures)
    sealed_record = pb.GameRecord()
    sealed_record.CopyFrom(record)
    sealed_record.seal.CopyFrom(seal)
    return sealed_record
