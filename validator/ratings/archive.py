"""The games of an archive as the ratings take them (``gamerec ratings ARCHIVE...``).

Each record is read (any encoding, folders walked, on all cores when asked) and judged as
``gamerec standings`` judges it (``collection.standings.table_game``: the rules' result, as
``adjudicate`` rules); a game without a result by the rules, a void one, one whose seats
have no names or repeat a player is not rated (and counted as such). The same game given
twice (the same rules, seat names and moves, in any encoding) is rated once.

**Order.** Games are rated by their date tag, then start time, then event, then round (as a
number when it is one), then their place in the archive (input, then record number): the
same archive gives the same list whatever the number of workers.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.inputs import InputFailure
from gamerec.recorder.limits import Limits
from gamerec.recorder.notation import game_label
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.source import Collection, Entry, facts, readable
from gamerec.validator.collection.standings import table_game
from gamerec.validator.ratings.pools import RatedGame

#: The seat counts rated (two seats: Glicko-2; three to six: Weng-Lin).
SEATS = range(2, 7)


class _Read(NamedTuple):
    """One record as read in a worker: its order, its game, its key, or why it is not rated."""

    order: tuple[str, str, str, tuple[int, str], str, int]
    game: RatedGame | None
    key: str
    why: str


def _round_order(text: str) -> tuple[int, str]:
    return (int(text), "") if text.isdigit() else (1 << 62, text)


def read_one(entry: Entry, record: pb.GameRecord) -> _Read:
    """What the ratings need of one record (runs in worker processes)."""
    judged = table_game(entry, record, "computed")
    meta = record.metadata
    start = meta.start_time.ToJsonString() if meta.HasField("start_time") else ""
    order = (meta.date, start, meta.event, _round_order(meta.round), entry.source, entry.number)
    if judged.ranks is None:
        return _Read(order, None, judged.key, judged.note)
    if len(judged.players) not in SEATS:
        return _Read(order, None, judged.key, f"{len(judged.players)} seats are not rated")
    game = RatedGame(
        game_label(record.rules.game),
        judged.players,
        judged.ranks,
        f"{entry.source} #{entry.number}",
    )
    return _Read(order, game, judged.key, "")


@dataclass
class Archive:
    """The games to rate, in order, and what was left out.

    Attributes:
        games: the games rated, in the order they are rated.
        copies: records that repeat a game already taken (rated once).
        not_rated: records left out, with the reason (``file #n: why``).
        unreadable: inputs or records that could not be read.
    """

    games: list[RatedGame] = field(default_factory=list)
    copies: int = 0
    not_rated: list[str] = field(default_factory=list)
    unreadable: list[InputFailure] = field(default_factory=list)


def read_archive(
    collection: Collection,
    *,
    encoding: Encoding | None = None,
    limits: Limits | None = None,
    workers: int = 1,
) -> Archive:
    """The games of ``collection`` in rating order (see the module docstring)."""
    archive = Archive()
    found = facts(collection, read_one, encoding=encoding, limits=limits, workers=workers)
    read: Sequence[_Read] = sorted(
        (made for _, made in readable(found, archive.unreadable)), key=lambda r: r.order
    )
    seen: set[str] = set()
    for item in read:
        if item.key in seen:
            archive.copies += 1
            continue
        seen.add(item.key)
        if item.game is None:
            archive.not_rated.append(f"{item.order[4]} #{item.order[5]}: {item.why}")
        else:
            archive.games.append(item.game)
    return archive
