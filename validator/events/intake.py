"""Results from record files: each record read and judged as ``gamerec standings`` does.

A record's result is the rules' result, as ``adjudicate`` rules (``gamerec.validator.
collection.standings.table_game``); its key is a digest of what makes two records the same
game (rules, seat names, moves: ``gamerec.validator.collection.dedupe.game_key``), so two
scorers' copies of one game, in any encodings, have one key.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.inputs import InputFailure
from gamerec.recorder.limits import Limits
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.collection.dedupe import game_key
from gamerec.validator.collection.source import Entry, facts, readable
from gamerec.validator.collection.standings import table_game
from gamerec.validator.events.event import Outcome


def outcome(entry: Entry, record: pb.GameRecord) -> Outcome:
    """The outcome of one record (runs in worker processes)."""
    game = table_game(entry, record, "computed")
    return Outcome(
        source=f"{entry.source}#{entry.number}",
        round=game.round,
        players=game.players,
        ranks=game.ranks,
        key=record_digest(record),
        note=game.note,
    )


def record_digest(record: pb.GameRecord) -> str:
    """What identifies the game of ``record`` (rules, seat names, moves), as 32 hex digits."""
    hashed = hashlib.sha256()
    for part in game_key(record):
        hashed.update(len(part).to_bytes(8, "little"))
        hashed.update(part)
    return hashed.hexdigest()[:32]


def outcomes(
    paths: Sequence[str],
    failures: list[InputFailure],
    *,
    encoding: Encoding | None = None,
    limits: Limits | None = None,
    workers: int = 1,
) -> list[Outcome]:
    """The outcomes of every record of ``paths``; what cannot be read goes to ``failures``."""
    found = facts(paths, outcome, encoding=encoding, limits=limits, workers=workers)
    return [made for _, made in readable(found, failures)]
