"""Figures of a collection per game and variant (``gamerec stats``).

For every game and variant: how many records, the share that is valid, the lengths of the
games in plies (mean, median, longest, shortest), results by seat (from the rules' result
of the games that reached their end: wins alone, shared wins, losses, the share of wins, a
shared first place counting as one over the number of seats sharing it, and the mean score;
a seat whose win share is above one over the number of seats has an advantage), how the
games ended, the finding codes with how many records carry each, and the players with most
games (a seat's name, else its player id).

Each record is judged once, on all cores when asked, and reduced at once to a few numbers
(:class:`RecordFigures`); the lengths are kept as a histogram, so memory grows with the number
of distinct games, variants, lengths and players, not with the number of records.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import NamedTuple

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import EncodingError
from gamerec.recorder.grn_tags import variant_tags
from gamerec.recorder.inputs import InputFailure
from gamerec.recorder.limits import Limits
from gamerec.recorder.notation import game_label
from gamerec.v1 import collections_pb2 as cpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.collection.source import Collection, Entry, facts, readable
from gamerec.validator.judge import OUTSIDE_TERMINATIONS, TERMINATION_WORDS

#: How many players each group lists.
TOP_PLAYERS = 10
#: The variant of a record that sets no option.
DEFAULTS = "(defaults)"


class RecordFigures(NamedTuple):
    """What one record adds to the figures of its group.

    Attributes:
        game: the game's canonical name.
        variant: the variant as GRN tags.
        valid: the referee found nothing.
        plies: plies of the main line.
        finished: the game reached its end by the rules.
        scores: the rules' scores (finished games).
        winners: the rules' winners (finished games).
        ending: how it ended (see :func:`ending`).
        codes: the finding codes, each once.
        players: the seats' names (else player ids).
    """

    game: str
    variant: str
    valid: bool
    plies: int
    finished: bool
    scores: tuple[int, ...]
    winners: tuple[int, ...]
    ending: str
    codes: tuple[str, ...]
    players: tuple[str, ...]


def variant_text(rules: pb.Rules) -> str:
    """The variant as GRN tags (``[Players "3"] [Board "6,6"]``), ``(defaults)`` when unset."""
    try:
        tags = variant_tags(rules)
    except EncodingError:
        return "(a variant of another game)"
    return " ".join(f'[{tag} "{value}"]' for tag, value in tags) or DEFAULTS


def ending(record: pb.GameRecord, verdict: vpb.Verdict) -> str:
    """How a game ended, in a word.

    The rules' termination of a finished game (``normal``, ``resignation``); the claimed
    one of a game that stopped early for a reason outside the rules (``timeout``,
    ``agreement``, ``abandoned``, ``adjudicated``); ``unfinished`` otherwise; ``void`` for an
    illegal ply or rules that cannot be judged.
    """
    if verdict.status == vpb.GAME_STATUS_NOT_REPLAYED or any(e.ply for e in verdict.errors):
        return "void"
    if verdict.status == vpb.GAME_STATUS_FINISHED:
        return TERMINATION_WORDS.get(verdict.result.termination, "normal")
    claimed = record.result.termination
    if claimed in OUTSIDE_TERMINATIONS:
        return TERMINATION_WORDS[claimed]
    return "unfinished"


def player_name(seat: pb.Seat, number: int) -> str:
    """A seat's name, else its player id, else ``(seat N)``."""
    return seat.name or seat.player_id or f"(seat {number})"


def record_figures(entry: Entry, record: pb.GameRecord) -> RecordFigures:
    """Judge one record and keep what the figures need (no final digest: none is kept)."""
    verdict = entry.verdict(record, digest=False)
    finished = verdict.status == vpb.GAME_STATUS_FINISHED
    return RecordFigures(
        game=game_label(record.rules.game, f"?{record.rules.game}"),
        variant=variant_text(record.rules),
        valid=verdict.valid,
        plies=len(record.moves),
        finished=finished,
        scores=tuple(verdict.result.scores) if finished else (),
        winners=tuple(verdict.result.winners) if finished else (),
        ending=ending(record, verdict),
        codes=tuple(dict.fromkeys(finding.code for finding in verdict.errors)),
        players=tuple(player_name(seat, n) for n, seat in enumerate(record.seats, start=1)),
    )


@dataclass
class _Seat:
    wins: int = 0
    shared: int = 0
    losses: int = 0
    share: float = 0.0
    score: int = 0


@dataclass
class _Group:
    """The running figures of one game and variant."""

    records: int = 0
    valid: int = 0
    finished: int = 0
    lengths: Counter[int] = field(default_factory=Counter)
    seats: dict[int, _Seat] = field(default_factory=dict)
    endings: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    players: Counter[str] = field(default_factory=Counter)

    def add(self, figures: RecordFigures) -> None:
        self.records += 1
        self.valid += figures.valid
        self.lengths[figures.plies] += 1
        self.endings[figures.ending] += 1
        self.codes.update(figures.codes)
        self.players.update(set(figures.players))
        if figures.finished:
            self.finished += 1
            self._add_results(figures)

    def _add_results(self, figures: RecordFigures) -> None:
        for seat, score in enumerate(figures.scores, start=1):
            line = self.seats.setdefault(seat, _Seat())
            line.score += score
            if seat not in figures.winners:
                line.losses += 1
            elif len(figures.winners) == 1:
                line.wins += 1
                line.share += 1
            else:
                line.shared += 1
                line.share += 1 / len(figures.winners)

    def message(self, game: str, variant: str) -> cpb.GroupStats:
        finished = self.finished or 1
        return cpb.GroupStats(
            game=game,
            variant=variant,
            records=self.records,
            valid=self.valid,
            valid_share=self.valid / self.records,
            finished=self.finished,
            plies=ply_figures(self.lengths),
            seats=[
                cpb.SeatFigures(
                    seat=seat,
                    wins=line.wins,
                    shared_wins=line.shared,
                    losses=line.losses,
                    win_share=line.share / finished,
                    mean_score=line.score / finished,
                )
                for seat, line in sorted(self.seats.items())
            ],
            terminations=_counts(self.endings),
            findings=_counts(self.codes),
            players=_counts(self.players, TOP_PLAYERS),
        )


def _counts(counter: Counter[str], most: int | None = None) -> list[cpb.Count]:
    """Most first, then by name."""
    ordered = sorted(counter.items(), key=lambda pair: (-pair[1], pair[0]))
    return [cpb.Count(name=name, count=count) for name, count in ordered[:most]]


def ply_figures(lengths: Counter[int]) -> cpb.PlyFigures:
    """Mean, median, longest and shortest of lengths given as a histogram."""
    total = sum(lengths.values())
    if not total:
        return cpb.PlyFigures()
    ordered = sorted(lengths.items())
    return cpb.PlyFigures(
        mean=sum(plies * count for plies, count in ordered) / total,
        median=(_nth(ordered, (total - 1) // 2) + _nth(ordered, total // 2)) / 2,
        longest=ordered[-1][0],
        shortest=ordered[0][0],
    )


def _nth(ordered: list[tuple[int, int]], index: int) -> int:
    """The ``index``-th (0-based) value of a sorted histogram."""
    seen = 0
    for value, count in ordered:
        seen += count
        if index < seen:
            return value
    raise IndexError(index)


def collection_stats(
    collection: Collection,
    *,
    encoding: Encoding | None = None,
    limits: Limits | None = None,
    workers: int = 1,
    failures: list[InputFailure] | None = None,
) -> cpb.CollectionStats:
    """The figures of ``collection`` per game and variant (see the module docstring).

    Args:
        collection: paths (files, folders, ``-``) or records in memory.
        encoding: the encoding of every input path (None: by name, else sniffed).
        limits: the limits records are read and judged under.
        workers: cores to judge on (0: all).
        failures: when given, every record or input that cannot be read is appended to it
            (they are counted in ``unreadable`` either way).
    """
    groups: dict[tuple[str, str], _Group] = {}
    unread: list[InputFailure] = [] if failures is None else failures
    before = len(unread)
    judged = facts(collection, record_figures, encoding=encoding, limits=limits, workers=workers)
    for _, figures in readable(judged, unread):
        groups.setdefault((figures.game, figures.variant), _Group()).add(figures)
    stats = cpb.CollectionStats(
        records=sum(group.records for group in groups.values()), unreadable=len(unread) - before
    )
    stats.groups.extend(group.message(*key) for key, group in groups.items())
    return stats
