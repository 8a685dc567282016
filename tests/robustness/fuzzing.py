"""The fuzzing harness shared by the hypothesis fuzzers (``make test``) and ``make fuzz``.

Three parts:

- **seeds**: valid records to start from: the bundled fixtures (valid, complete games,
  invalid ones) and complete games the engines generate, each in every encoding;
- **oracles**: what must hold for any input. :func:`decode_checked`: a decoder returns records
  or raises ``RecordMalformedError`` (``LimitExceededError`` naming its limit), nothing else;
  every record it returns is within the limits and survives a write and a read in the same
  encoding. :func:`judge_checked`: the validator answers every decodable record, and its
  answers agree with each other (the invariants are listed there);
- **mutators**: :class:`RecordMutator` changes records at the message level (drops, repeats,
  swaps and splices plies, moves actions between records and games, nudges coordinates,
  variants, seats and claims); :func:`mutate_bytes` damages encodings byte by byte. Both draw
  their choices from a ``choose(n)`` function, so hypothesis (which shrinks) and a seeded
  ``random.Random`` (which is fast) drive the same code.
"""

from __future__ import annotations

import functools
import io
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

from google.protobuf.descriptor import FieldDescriptor

from gamerec.recorder.codecs import Encoding, encode_record, read_records
from gamerec.recorder.errors import EncodingError, LimitExceededError, RecordMalformedError
from gamerec.recorder.limits import DEFAULT_LIMITS, LIMIT_NAMES, Limits, check_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.adjudication import adjudicate
from gamerec.validator.frames import ReplayStoppedError, replay
from gamerec.validator.generation import generate
from gamerec.validator.identity import RulesError
from gamerec.validator.judge import score, validate
from gamerec.validator.verification import verify
from tests.robustness.trust_oracles import (
    assert_a_sealed_file_shows_its_record,
    assert_no_key_twice,
    sealed_foreign_inputs,
    twin_a_key,
)
from tests.sealing import GAME_FIXTURES, signed

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"
REGRESSIONS = Path(__file__).resolve().parent / "regressions"

#: The name every fuzzed input is read under (errors must carry it).
SOURCE = "fuzz"

#: Generated complete games: (game, variant tags, how many).
GENERATED: tuple[tuple[str, dict[str, str], int], ...] = (
    ("ONE", {"Players": "2"}, 2),
    ("ONE", {"Players": "4", "Board": "6,12"}, 2),
    ("Aronda", {}, 2),
    ("Oust", {"Board": "5"}, 2),
    ("Oust", {"Pie": "off"}, 1),  # a record Abstract Play's format holds
    ("Oh-Wah-Ree", {"Players": "3"}, 2),
    ("Oh-Wah-Ree", {"Players": "2"}, 1),
)

Choose = Callable[[int], int]


# -- seeds -------------------------------------------------------------------------------------


@functools.cache
def seed_records() -> tuple[pb.GameRecord, ...]:
    """The records every fuzzer starts from: fixtures, then generated complete games."""
    found: list[pb.GameRecord] = []
    for folder in ("valid", "games", "invalid"):
        for path in sorted((FIXTURES / folder).iterdir()):
            if path.suffix in (".grn", ".pb"):
                found.extend(read_records(path))
    for game, tags, count in GENERATED:
        found.extend(generate(game, tags, count, seed=11))
    found.extend(signed(name) for name in GAME_FIXTURES)  # sealed, signed as played
    return tuple(found)


@functools.cache
def short_seed_records(plies: int = 12) -> tuple[pb.GameRecord, ...]:
    """The seed records cut to their first ``plies`` plies: as much code to cover, faster to
    run (the coverage-guided fuzzers use these)."""
    short = []
    for record in seed_records():
        copy = pb.GameRecord()
        copy.CopyFrom(record)
        del copy.moves[plies:]
        short.append(copy)
    return tuple(short)


@functools.cache
def seed_inputs(encoding: Encoding) -> tuple[bytes, ...]:
    """The seed records encoded in ``encoding`` (those it can hold); for another tool's
    format, its hand-made files (fixtures/foreign) first, then the same sealed and signed."""
    encoded = [path.read_bytes() for path in _foreign_fixtures(encoding)]
    encoded += sealed_foreign_inputs(encoding)
    for record in seed_records():
        try:
            encoded.append(encode_record(record, encoding))
        except EncodingError:
            continue  # a record GRN cannot hold (a move of another game, no game)
    return tuple(encoded)


def _foreign_fixtures(encoding: Encoding) -> list[Path]:
    files = {Encoding.ABSTRACT_PLAY: ("abstractplay", "*.json"), Encoding.LUDII: ("ludii", "*.trl")}
    if encoding not in files:
        return []
    folder, pattern = files[encoding]
    return sorted((FIXTURES / "foreign" / folder).glob(pattern))


# -- oracles -----------------------------------------------------------------------------------


def decode_checked(
    data: bytes, encoding: Encoding | None, limits: Limits = DEFAULT_LIMITS
) -> list[pb.GameRecord]:
    """Decode ``data`` and check the decoder's contract; return the records (none if refused).

    Raises:
        AssertionError: the contract is broken (any other exception escapes as it is).
    """
    try:
        records = list(read_records(io.BytesIO(data), encoding, name=SOURCE, limits=limits))
    except RecordMalformedError as error:
        assert error.source == SOURCE, f"the error names no source: {error}"
        assert error.reason, "the error gives no reason"
        if isinstance(error, LimitExceededError):
            assert error.limit in LIMIT_NAMES, f"the error names no limit: {error}"
        return []
    for record in records:
        check_record(record, limits)  # whatever a decoder returns is within the limits
        if encoding is not None:
            _assert_round_trip(record, encoding, limits)
    if records:
        assert_no_key_twice(data, encoding)
        assert_a_sealed_file_shows_its_record(data, encoding, records)
    return records


def _assert_round_trip(record: pb.GameRecord, encoding: Encoding, limits: Limits) -> None:
    """A decoded record, written and read again in its encoding, is the same message."""
    try:
        data = encode_record(record, encoding)
    except EncodingError:
        return  # e.g. a binary record with a move of another game has no GRN form
    again = list(read_records(io.BytesIO(data), encoding, name=SOURCE, limits=limits))
    assert again == [record], f"a {encoding.value} round trip changed the record"


def judge_checked(record: pb.GameRecord) -> vpb.Verdict:
    """Validate a decodable record and check the validator's invariants; return the verdict.

    The invariants: a verdict is always produced; ``valid`` is exactly "no finding"; a valid
    record replayed every ply; the first finding's ply lies within the record and is the ply
    after the last one replayed; a record that could not be replayed names why; scores and
    ranks cover every seat; the explaining replay (``frames``) stops where the fast
    one did, with the same code and final position; ``score`` and ``adjudicate`` agree with
    ``validate``.
    """
    verdict = validate(record)
    moves = len(record.moves)
    assert verdict.valid == (not verdict.errors)
    assert 0 <= verdict.plies_replayed <= moves
    if verdict.valid:
        assert verdict.plies_replayed == moves
    stopped_at = 0
    if verdict.errors:
        first = verdict.errors[0]
        assert 0 <= first.ply <= moves, f"finding at ply {first.ply} of {moves}"
        assert first.code and first.message
        if first.ply:
            assert first.ply == verdict.plies_replayed + 1
            stopped_at = first.ply
    if verdict.status == vpb.GAME_STATUS_NOT_REPLAYED:
        assert verdict.plies_replayed == 0 and verdict.errors
        assert verdict.errors[0].code in (
            "UNKNOWN_GAME",
            "IMPOSSIBLE_VARIANT",
            "SEAT_COUNT_MISMATCH",
        )
    else:
        assert len(verdict.result.scores) == len(verdict.result.ranks) >= 2
        assert verdict.final_digest
    _assert_replay_agrees(record, verdict, stopped_at)
    assert score(record) == verdict.result
    assert adjudicate(record).verdict == verdict
    _assert_verification_agrees(record, verdict)
    return verdict


def _assert_verification_agrees(record: pb.GameRecord, verdict: vpb.Verdict) -> None:
    """verify: the same replay and seal status; verified exactly when nothing was found."""
    answer = verify(record)
    assert answer.verdict == verdict
    assert answer.seal == verdict.seal != spb.SEAL_STATUS_UNSPECIFIED
    assert answer.verified == (not answer.findings)
    assert (verdict.seal == spb.SEAL_STATUS_NONE) == (not record.HasField("seal"))
    for finding in answer.findings:
        assert finding.code and finding.message and len(finding.message) < 2000
        assert 0 <= finding.ply <= max(len(record.moves), len(record.seal.plies)) + 1


def _assert_replay_agrees(record: pb.GameRecord, verdict: vpb.Verdict, stopped_at: int) -> None:
    frames = 0
    digest = ""
    try:
        for frame in replay(record):
            frames += 1
            digest = frame.digest
    except RulesError:
        assert verdict.status == vpb.GAME_STATUS_NOT_REPLAYED
        return
    except ReplayStoppedError as stop:
        assert stop.finding.ply == stopped_at, f"replay stops at {stop.finding.ply}"
        assert stop.finding.code == verdict.errors[0].code
    else:
        assert stopped_at == 0, f"the replay played ply {stopped_at}, which validate refused"
    assert frames == verdict.plies_replayed
    if frames:
        assert digest == verdict.final_digest


# -- mutators ----------------------------------------------------------------------------------


class RecordMutator:
    """Message-level mutations of records, drawing every choice from ``choose(n)``.

    Args:
        choose: returns a whole number in ``range(n)``.
        donors: records whose moves may be spliced or copied in (any game).
    """

    def __init__(self, choose: Choose, donors: Sequence[pb.GameRecord]) -> None:
        """Keep the chooser and the donor records."""
        self._choose = choose
        self._donors = donors
        self._operations: tuple[Callable[[pb.GameRecord], None], ...] = (
            self.drop_ply,
            self.repeat_ply,
            self.swap_plies,
            self.truncate,
            self.splice,
            self.copy_action,
            self.set_seat,
            self.nudge_number,
            self.special_action,
            self.change_variant,
            self.change_game,
            self.change_seats,
            self.change_claim,
            self.promote_variation,
        )

    def mutated(self, record: pb.GameRecord, count: int) -> pb.GameRecord:
        """A copy of ``record`` after ``count`` mutations."""
        copy = pb.GameRecord()
        copy.CopyFrom(record)
        for _ in range(count):
            self._operations[self._choose(len(self._operations))](copy)
        return copy

    def _ply(self, record: pb.GameRecord) -> int | None:
        return self._choose(len(record.moves)) if record.moves else None

    def _donor_move(self) -> pb.Move | None:
        donor = self._donors[self._choose(len(self._donors))]
        return donor.moves[self._choose(len(donor.moves))] if donor.moves else None

    def drop_ply(self, record: pb.GameRecord) -> None:
        """Remove one ply."""
        if (ply := self._ply(record)) is not None:
            del record.moves[ply]

    def repeat_ply(self, record: pb.GameRecord) -> None:
        """Write one ply twice."""
        if (ply := self._ply(record)) is not None:
            record.moves.insert(ply, record.moves[ply])

    def swap_plies(self, record: pb.GameRecord) -> None:
        """Exchange two plies."""
        if record.moves:
            first, second = self._choose(len(record.moves)), self._choose(len(record.moves))
            moves = list(record.moves)
            moves[first], moves[second] = moves[second], moves[first]
            del record.moves[:]
            record.moves.extend(moves)

    def truncate(self, record: pb.GameRecord) -> None:
        """Cut the main line short."""
        if (ply := self._ply(record)) is not None:
            del record.moves[ply:]

    def splice(self, record: pb.GameRecord) -> None:
        """Replace the tail of the main line by the tail of another record's."""
        donor = self._donors[self._choose(len(self._donors))]
        keep = self._choose(len(record.moves) + 1)
        start = self._choose(len(donor.moves) + 1)
        del record.moves[keep:]
        record.moves.extend(donor.moves[start:])

    def copy_action(self, record: pb.GameRecord) -> None:
        """Give one ply the action of a ply of another record (maybe of another game)."""
        ply, move = self._ply(record), self._donor_move()
        if ply is not None and move is not None:
            action = move.WhichOneof("action")
            target = record.moves[ply]
            target.ClearField("action")
            if action is not None:
                getattr(target, action).CopyFrom(getattr(move, action))

    def set_seat(self, record: pb.GameRecord) -> None:
        """State a seat for one ply (0: unstated)."""
        if (ply := self._ply(record)) is not None:
            record.moves[ply].seat = self._choose(8)

    def nudge_number(self, record: pb.GameRecord) -> None:
        """Set one number inside one ply's action (a ring, index, column, row or pit)."""
        if (ply := self._ply(record)) is None:
            return
        move = record.moves[ply]
        action = move.WhichOneof("action")
        if action is not None:
            _set_some_number(getattr(move, action), self._choose)

    def special_action(self, record: pb.GameRecord) -> None:
        """Insert a resign, pass or swap somewhere."""
        move = pb.Move()
        getattr(move, ("resign", "pass", "swap")[self._choose(3)]).SetInParent()
        record.moves.insert(self._choose(len(record.moves) + 1), move)

    def change_variant(self, record: pb.GameRecord) -> None:
        """Set one variant option to another small value."""
        variant = record.rules.WhichOneof("variant")
        if variant is not None:
            _set_some_number(getattr(record.rules, variant), self._choose)

    def change_game(self, record: pb.GameRecord) -> None:
        """Name another game (or none, or one this version does not know)."""
        record.rules.game = self._choose(6)  # type: ignore[assignment]

    def change_seats(self, record: pb.GameRecord) -> None:
        """List another number of seats."""
        count = self._choose(8)
        del record.seats[count:]
        while len(record.seats) < count:
            record.seats.add(name=f"S{len(record.seats) + 1}")

    def change_claim(self, record: pb.GameRecord) -> None:
        """Claim another result: scores, winners and termination."""
        record.result.Clear()
        kind = self._choose(3)
        if kind == 1:
            record.result.unfinished.SetInParent()
        elif kind == 2:
            record.result.scores.values.extend(self._choose(40) for _ in range(self._choose(7)))
        record.result.winners.extend(1 + self._choose(6) for _ in range(self._choose(3)))
        record.result.termination = self._choose(8)  # type: ignore[assignment]

    def promote_variation(self, record: pb.GameRecord) -> None:
        """Make a variation the main line from its ply on."""
        for index, move in enumerate(record.moves):
            if move.variations:
                line = list(move.variations[self._choose(len(move.variations))].moves)
                del record.moves[index:]
                record.moves.extend(line)
                return


def _set_some_number(message: object, choose: Choose) -> None:
    """Set one integer or enum field somewhere in ``message`` to a small value."""
    fields = list(_number_fields(message))
    if fields:
        owner, field = fields[choose(len(fields))]
        setattr(owner, field.name, choose(30))


def _number_fields(message: object) -> Iterator[tuple[object, FieldDescriptor]]:
    """Every singular integer or enum field of a message and its sub-messages."""
    descriptor = message.DESCRIPTOR  # type: ignore[attr-defined]
    for field in descriptor.fields:
        if field.type == FieldDescriptor.TYPE_MESSAGE:
            if field.is_repeated:
                for item in getattr(message, field.name):
                    yield from _number_fields(item)
            continue
        if not field.is_repeated and field.type in (
            FieldDescriptor.TYPE_UINT32,
            FieldDescriptor.TYPE_INT32,
            FieldDescriptor.TYPE_ENUM,
        ):
            yield message, field


def mutate_bytes(data: bytes, choose: Choose, donors: Sequence[bytes], count: int) -> bytes:
    """``data`` after ``count`` changes: flips, inserts, deletions, repeats, splices, and a
    JSON key given a twin (issue 38)."""
    buffer = bytearray(data)
    for _ in range(count):
        kind = choose(7)
        if kind == 6:
            buffer = bytearray(twin_a_key(bytes(buffer), choose))
            continue
        at = choose(len(buffer) + 1)
        if kind == 0 and buffer:
            buffer[min(at, len(buffer) - 1)] ^= 1 << choose(8)
        elif kind == 1:
            buffer[at:at] = bytes([choose(256)])
        elif kind == 2 and buffer:
            del buffer[at : at + 1 + choose(8)]
        elif kind == 3:
            buffer[at:at] = buffer[at : at + 1 + choose(16)]
        elif kind == 4 and donors:
            donor = donors[choose(len(donors))]
            start = choose(len(donor) + 1)
            buffer[at:] = donor[start:]
        else:
            del buffer[at:]
    return bytes(buffer)
