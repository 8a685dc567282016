"""A generated collection with known answers: metadata set by index, faults planted by index.

Every record is a complete legal game from ``generate``; its event, site, round, date and
players follow from its index, and some records are changed in known ways, so that each
test can count what it expects with plain Python over the same records.
"""

from __future__ import annotations

from functools import cache

from gamerec.recorder.notation import format_action, parse_action
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate

MIX: tuple[tuple[str, dict[str, str], int, int], ...] = (
    ("ONE", {"Players": "2"}, 12, 1),
    ("ONE", {"Players": "3"}, 8, 2),
    ("Aronda", {}, 8, 3),
    ("Oust", {"Board": "4"}, 8, 4),
    ("Oh-Wah-Ree", {"Players": "2"}, 8, 5),
)
EVENTS = ("Club night", "Open 2026", "League")
SITES = ("Oslo", "Bergen")
PLAYERS = ("Ana", "Ben", "Chi", "Dev", "Eli", "Fay", "Gus")
#: A claimed score raised by one: RESULT_MISMATCH.
MISMATCH = frozenset({1, 14, 22, 30})
#: Three plies cut, the claim kept: RECORD_ENDS_EARLY.
ENDS_EARLY = frozenset({5, 25})
#: Three plies cut, the claim replaced by Termination abandoned: valid and unfinished.
ABANDONED = frozenset({7, 33})
#: ONE records whose ply 2 repeats ply 1: OCCUPIED at ply 2.
OCCUPIED = frozenset({3, 9})
INVALID = MISMATCH | ENDS_EARLY | OCCUPIED


def seat_names(index: int, seats: int) -> list[str]:
    """The players of record ``index``: all different, by index."""
    return [PLAYERS[(index + 2 * seat) % len(PLAYERS)] for seat in range(seats)]


@cache
def _planted() -> tuple[bytes, ...]:
    records = [
        record
        for game, tags, count, seed in MIX
        for record in generate(game, tags, count, seed=seed)
    ]
    for index, record in enumerate(records):
        _dress(index, record)
        _plant(index, record)
    return tuple(record.SerializeToString() for record in records)


def planted() -> list[pb.GameRecord]:
    """A fresh copy of the collection (44 records)."""
    return [pb.GameRecord.FromString(data) for data in _planted()]


def _dress(index: int, record: pb.GameRecord) -> None:
    metadata = record.metadata
    metadata.event = EVENTS[index % len(EVENTS)]
    metadata.site = SITES[index % len(SITES)]
    metadata.round = str(index // 3 + 1)
    metadata.date = f"2026-{1 + index % 12:02d}-{1 + index % 28:02d}"
    metadata.extra_tags["GameId"] = f"g{index}"
    for seat, name in zip(record.seats, seat_names(index, len(record.seats)), strict=True):
        seat.name = name
        if index % 4 == 0:
            seat.player_id = f"id-{name.lower()}"


def _plant(index: int, record: pb.GameRecord) -> None:
    if index in MISMATCH:
        record.result.scores.values[0] += 1
    if index in ENDS_EARLY | ABANDONED:
        del record.moves[-3:]
    if index in ABANDONED:
        record.ClearField("result")
        record.result.termination = pb.TERMINATION_ABANDONED
    if index in OCCUPIED:
        assert record.rules.game == pb.GAME_ONE
        repeated = parse_action(pb.GAME_ONE, format_action(record.moves[0]))
        repeated.seat = 2
        record.moves.insert(1, repeated)
        record.ClearField("result")
