"""A new match's request read into its starting record, keys and builder; a Play's token.

The checks of CreateMatch's fields (each refusal names its field) and the builder a match's
creation event rebuilds. It may import ``gamerec.recorder``, ``gamerec.v1``,
``gamerec.validator.builder`` and :mod:`.events`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from gamerec.recorder.ed25519_checks import key_weakness
from gamerec.recorder.errors import EncodingError, GamerecError, LimitExceededError
from gamerec.recorder.limits import check_record
from gamerec.recorder.notation import format_action
from gamerec.recorder.seal import HOST, KEY_BYTES
from gamerec.v1 import match_pb2 as mpb
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.builder import RecordBuilder
from gamerec.validator.live.clocks import Instant
from gamerec.validator.live.match.events import MAX_MATCH_TEXT, MatchLogError, _invalid, _timestamp
from gamerec.validator.live.timecontrol import TimeControl, TimeControlError, parse_time_control

if TYPE_CHECKING:
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey


def _time_control(text: str) -> TimeControl:
    try:
        return parse_time_control(text)
    except TimeControlError as error:
        raise _invalid("time_control", "BAD_TIME_CONTROL", str(error)) from None


def _starting_record(
    request: mpb.CreateMatchRequest, at: Instant, time_control: TimeControl, client: str
) -> pb.GameRecord:
    """The record a new match starts from: rules, seats, metadata (checked against limits)."""
    record = pb.GameRecord(format_version=1)
    record.rules.CopyFrom(request.rules)
    for index, seat in enumerate(request.seats):
        if not seat.name.strip():
            raise _invalid(f"seats[{index}].name", "NO_NAME", "every seat needs a name")
        record.seats.add(name=seat.name, player_id=seat.player_id)
    metadata = record.metadata
    metadata.event, metadata.site, metadata.round = request.event, request.site, request.round
    metadata.date = at.wall.date().isoformat()
    metadata.start_time.CopyFrom(_timestamp(at))
    metadata.time_control = time_control.notation
    metadata.client = client
    texts = [*(f"seats[{i}].name" for i in range(len(request.seats))), "event", "site", "round"]
    values = [*(seat.name for seat in request.seats), request.event, request.site, request.round]
    values += [seat.player_id for seat in request.seats]
    texts += [f"seats[{i}].player_id" for i in range(len(request.seats))]
    for name, value in zip(texts, values, strict=True):
        if len(value) > MAX_MATCH_TEXT:
            raise _invalid(
                name, "TOO_LONG", f"{len(value):,} characters, more than {MAX_MATCH_TEXT}"
            )
    try:
        check_record(record)
    except LimitExceededError as error:
        raise _invalid("seats", "TOO_MANY_SEATS", str(error)) from None
    return record


def _seat_keys(request: mpb.CreateMatchRequest) -> dict[int, bytes]:
    keys = {}
    for index, seat in enumerate(request.seats):
        if seat.public_key and len(seat.public_key) != KEY_BYTES:
            raise _invalid(
                f"seats[{index}].public_key",
                "BAD_KEY",
                f"an Ed25519 public key is {KEY_BYTES} bytes, not {len(seat.public_key)}",
            )
        weakness = key_weakness(seat.public_key) if seat.public_key else None
        if weakness is not None:
            reason = f"the key is refused: {weakness}"
            raise _invalid(f"seats[{index}].public_key", "BAD_KEY", reason)
        if seat.public_key:
            keys[index + 1] = seat.public_key
    return keys


def _builder_of(record: pb.GameRecord, host_key: Ed25519PrivateKey | None) -> RecordBuilder:
    """The builder of a match's record, from the record its creation holds."""
    seal = record.seal
    keys = {seat: key for seat, key in enumerate(seal.seat_keys, start=1) if key}
    signing = {HOST: host_key} if host_key is not None and seal.host_key else None
    try:
        builder = RecordBuilder.from_record(record, signing_keys=signing, public_keys=keys)
    except GamerecError as error:
        raise MatchLogError(f"the match's creation does not start a record: {error}") from None
    if builder.record != record:
        raise MatchLogError("the match's creation does not rebuild into the same record")
    return builder


def _token_of(action: pb.Move | str) -> str:
    """The text of a move as a Play gives it (a Move message's action as its token).

    Raises:
        CommandRefusedError: a Move with no action, or one whose places have no token.
    """
    if isinstance(action, str):
        return action
    try:
        return format_action(action)
    except EncodingError as error:
        raise _invalid("move", "BAD_MOVE", str(error)) from None


def _canonical(builder: RecordBuilder, token: str) -> str:
    """The canonical token of a move text in the match's game.

    Raises:
        NotationError: the text is no token of the game.
    """
    from gamerec.recorder.notation import parse_action  # noqa: PLC0415 (a rare path)

    return format_action(parse_action(builder.identity.game, token))
