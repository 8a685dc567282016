"""The ranges of the well-known time types a record holds, checked where binary records are read.

protobuf's binary decoder accepts any ``google.protobuf.Timestamp`` or ``Duration``, but those
types define ranges (Timestamp: 0001-01-01T00:00:00Z to 9999-12-31T23:59:59.999999999Z, nanos
0 to 999,999,999; Duration: at most 10,000 years either way, nanos of the same sign as the
seconds), and a value outside them has no text in GRN, in ProtoJSON or in a seal. A record
that holds one is refused when it is read, naming the field, so that no reader calls valid
a record that no other encoding of the same file can show.

Imports: protobuf's generated record code only.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Final

from gamerec.recorder.errors import RecordMalformedError
from gamerec.v1 import record_pb2 as pb

#: Timestamp seconds of 0001-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
TIMESTAMP_SECONDS: Final = (-62_135_596_800, 253_402_300_799)
#: Duration seconds of 10,000 years (365.25 days each), either way.
DURATION_SECONDS: Final = (-315_576_000_000, 315_576_000_000)
NANOS_PER_SECOND: Final = 1_000_000_000

#: The first byte of the tags of ``Move.clock`` (field 11) and ``Move.timestamp`` (field 12),
#: wire type 2, canonical or padded: a record whose bytes hold none of them has no clock and
#: no timestamp on any move.
MOVE_TIME_TAG_FIRST_BYTES: Final = (b"\x5a", b"\xda", b"\x62", b"\xe2")


def timestamp_fault(seconds: int, nanos: int) -> str:
    """Why a Timestamp is out of its range, or ``""`` when it is within it."""
    low, high = TIMESTAMP_SECONDS
    if not low <= seconds <= high:
        return f"{seconds} seconds is outside 0001-01-01 .. 9999-12-31 ([{low}, {high}])"
    if not 0 <= nanos < NANOS_PER_SECOND:
        return f"nanos {nanos} is outside [0, 999999999]"
    return ""


def duration_fault(seconds: int, nanos: int) -> str:
    """Why a Duration is out of its range, or ``""`` when it is within it."""
    low, high = DURATION_SECONDS
    if not low <= seconds <= high:
        return f"{seconds} seconds is outside 10,000 years ([{low}, {high}])"
    if not -NANOS_PER_SECOND < nanos < NANOS_PER_SECOND:
        return f"nanos {nanos} is outside [-999999999, 999999999]"
    if (seconds < 0 < nanos) or (nanos < 0 < seconds):
        return f"seconds {seconds} and nanos {nanos} have different signs"
    return ""


def check_times(
    record: pb.GameRecord, serialized: bytes | None = None, *, source: str = "", where: str = ""
) -> None:
    """Refuse a record whose start time, or a move's clock or timestamp, is out of range.

    ``serialized``, when given, must parse to the record (the bytes it was read from, or its
    serialization). When those bytes hold no tag byte of a move's clock or timestamp, only the
    start time is looked at (constant time). Otherwise, when every value the moves' clocks and
    timestamps hold is within its range (one parse of the bytes a level of variations,
    ``recorder.main_line.move_facts``), no move is looked at one by one. Any other record is
    walked move by move, which names the first field out of range.

    Raises:
        RecordMalformedError: names the field (``moves[3].clock``) and the range it leaves.
    """
    metadata = record.metadata
    if metadata.HasField("start_time"):
        stamp = metadata.start_time
        _refuse("metadata.start_time", timestamp_fault(stamp.seconds, stamp.nanos), source, where)
    if serialized is not None and (
        not any(b in serialized for b in MOVE_TIME_TAG_FIRST_BYTES) or _times_within(serialized)
    ):
        return
    for path, move in _moves_with_paths(record.moves):
        if move.HasField("clock"):
            clock = move.clock
            _refuse(f"{path}.clock", duration_fault(clock.seconds, clock.nanos), source, where)
        if move.HasField("timestamp"):
            stamp = move.timestamp
            fault = timestamp_fault(stamp.seconds, stamp.nanos)
            _refuse(f"{path}.timestamp", fault, source, where)


def _times_within(serialized: bytes) -> bool:
    """Whether every clock and timestamp of every move, variations too, is in range.

    A sufficient test: each clock or timestamp holds one of the values the view lists for it
    (the last its field gives) or 0, so when every listed value is in range, so is every
    clock's and timestamp's. Clocks are asked not to be negative, as a game's clocks are not:
    then seconds and nanos cannot differ in sign. Anything else is left to the walk.
    """
    from gamerec.recorder.main_line import move_facts  # noqa: PLC0415 (once it is needed)

    facts = move_facts(serialized)
    return (
        facts is not None
        and _within(facts.clock_seconds, 0, DURATION_SECONDS[1])
        and _within(facts.clock_nanos, 0, NANOS_PER_SECOND - 1)
        and _within(facts.timestamp_seconds, *TIMESTAMP_SECONDS)
        and _within(facts.timestamp_nanos, 0, NANOS_PER_SECOND - 1)
    )


def _within(values: list[int], low: int, high: int) -> bool:
    """Whether every value is in [low, high] (an empty list is)."""
    return not values or (low <= min(values) and max(values) <= high)


def _moves_with_paths(moves: Sequence[pb.Move]) -> Iterator[tuple[str, pb.Move]]:
    """Every move of the main line and its variations, with its field path (iteratively)."""
    lines: list[tuple[str, Sequence[pb.Move]]] = [("moves", moves)]
    while lines:
        prefix, line = lines.pop()
        for index, move in enumerate(line):
            path = f"{prefix}[{index}]"
            yield path, move
            for number, variation in enumerate(move.variations):
                lines.append((f"{path}.variations[{number}].moves", variation.moves))


def _refuse(path: str, fault: str, source: str, where: str) -> None:
    if fault:
        reason = f"{path}: {fault}: the value has no text in any encoding"
        raise RecordMalformedError(reason, source=source, where=where)
