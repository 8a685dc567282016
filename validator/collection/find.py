"""Select records from a collection (``gamerec find``), as pgn-extract selects chess games.

Criteria combine with AND; the values of one criterion given several times combine with OR
(``--player Ana --player Ben``: games of either). Text is matched without regard to case,
with ``*`` and ``?`` as wildcards (``--event "Club*"``). The criteria:

- the record as written: game, variant tag (``Players=3``, as the record's variant tags
  write it), seat name or player id, event, site, round, a date range (the ``Date`` tag,
  else the start time; ``2026.11.29`` reads as ``2026-11-29``; a partial bound such as
  ``2026-11`` covers the whole month), the claimed termination, the claimed winner (a seat
  number, or a seat's name or id), the number of plies of the main line (``40``,
  ``40..60``, ``..30``, ``100..``);
- the referee's verdict: valid or invalid, a finding code, a result that differs from the
  claim (``RESULT_MISMATCH``, ``WINNER_MISMATCH``, ``TERMINATION_MISMATCH``), the digest of
  the final position (``Verdict.final_digest``);
- a position: records that reach it after some ply (the start position included), given as
  ``gamerec replay`` draws it. Brackets (the last ply's places), a title line (``after 12.
  ...``, ``start position``) and spacing do not matter; everything else of the drawing
  (board, supplies, captures, the seat to move) must be equal.

The criteria on the record are tried first, so the referee replays only the records they
leave, and a position is searched only in records that pass every other criterion.
"""

from __future__ import annotations

import fnmatch
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from typing import NamedTuple

from gamerec.recorder.encoding import Encoding
from gamerec.recorder.errors import EncodingError, GamerecError
from gamerec.recorder.grn_tags import variant_options, variant_tags
from gamerec.recorder.inputs import InputFailure
from gamerec.recorder.limits import Limits
from gamerec.recorder.notation import GameValue, game_from_name, game_name
from gamerec.recorder.syntax import GAMES
from gamerec.recorder.words import did_you_mean
from gamerec.v1 import collections_pb2 as cpb
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.collection.source import Collection, Entry, facts
from gamerec.validator.comparison import game_identity
from gamerec.validator.identity import RulesError, identify
from gamerec.validator.judge import TERMINATION_WORDS
from gamerec.validator.render import board_model, draw_text
from gamerec.validator.replay import walk

#: The codes of a claim that differs from the rules' result.
MISMATCH_CODES = frozenset({"RESULT_MISMATCH", "WINNER_MISMATCH", "TERMINATION_MISMATCH"})
#: The first line of a drawing that ``gamerec replay --ply`` titles it with.
_TITLES = ("after ", "start position")


class CriteriaError(GamerecError):
    """A criterion that cannot be understood (an unknown game, a bad range, ...)."""


class PlyRange(NamedTuple):
    """Plies from ``low`` to ``high`` (both included; None: no bound)."""

    low: int | None
    high: int | None

    def holds(self, plies: int) -> bool:
        """Whether ``plies`` is in the range."""
        return (self.low is None or plies >= self.low) and (self.high is None or plies <= self.high)


@dataclass(frozen=True)
class Criteria:
    """What the records sought have; an empty field asks nothing (see the module docstring).

    Build it from text with :func:`criteria`. Attributes hold values already read: games as
    ``Game`` values, variant tags and texts lower-cased, terminations as ``Termination``
    values, positions as normalized drawings.
    """

    games: tuple[int, ...] = ()
    variants: tuple[tuple[str, str], ...] = ()
    players: tuple[str, ...] = ()
    events: tuple[str, ...] = ()
    sites: tuple[str, ...] = ()
    rounds: tuple[str, ...] = ()
    date_from: str = ""
    date_to: str = ""
    terminations: tuple[int, ...] = ()
    winners: tuple[str, ...] = ()
    plies: tuple[PlyRange, ...] = ()
    valid: bool | None = None
    findings: tuple[str, ...] = ()
    result_mismatch: bool = False
    digests: tuple[str, ...] = ()
    positions: tuple[tuple[str, ...], ...] = field(default=())

    @property
    def asks_the_referee(self) -> bool:
        """Whether some criterion needs the record judged."""
        return bool(
            self.valid is not None
            or self.findings
            or self.result_mismatch
            or self.digests
            or self.positions
        )


def criteria(
    *,
    games: Iterable[str] = (),
    variants: Iterable[str] = (),
    players: Iterable[str] = (),
    events: Iterable[str] = (),
    sites: Iterable[str] = (),
    rounds: Iterable[str] = (),
    date_from: str = "",
    date_to: str = "",
    terminations: Iterable[str] = (),
    winners: Iterable[str] = (),
    plies: Iterable[str] = (),
    valid: bool | None = None,
    findings: Iterable[str] = (),
    result_mismatch: bool = False,
    digests: Iterable[str] = (),
    positions: Iterable[str] = (),
) -> Criteria:
    """Criteria from the texts a person writes (``games=["one"]``, ``plies=["40..60"]``).

    Raises:
        CriteriaError: an unknown game, termination, variant tag or finding code (with the
            nearest known one), a variant that is not ``Tag=value``, a ply range that cannot
            be read or holds no number, a date that is none (``2026-13``), a date range that
            holds no day, or a position with no drawing.
    """
    wanted_games = tuple(_game(name) for name in games)
    low, high = _date(date_from, "--date-from"), _date(date_to, "--date-to")
    common = min(len(low), len(high))
    if low and high and low[:common] > high[:common]:
        raise CriteriaError(f"--date-from {date_from} is after --date-to {date_to}: no day is both")
    return Criteria(
        games=wanted_games,
        variants=tuple(_variant(text, wanted_games) for text in variants),
        players=_texts(players),
        events=_texts(events),
        sites=_texts(sites),
        rounds=_texts(rounds),
        date_from=low,
        date_to=high,
        terminations=tuple(_termination(word) for word in terminations),
        winners=_texts(winners),
        plies=tuple(_plies(text) for text in plies),
        valid=valid,
        findings=tuple(_finding(code) for code in findings),
        result_mismatch=result_mismatch,
        digests=tuple(digest.strip().lower() for digest in digests),
        positions=tuple(_drawing(text) for text in positions),
    )


def _texts(values: Iterable[str]) -> tuple[str, ...]:
    """Patterns in which only ``*`` and ``?`` are wildcards (``[`` stands for itself)."""
    return tuple(value.strip().lower().replace("[", "[[]") for value in values)


def _game(name: str) -> GameValue:
    game = game_from_name(name)
    if game is None:
        raise CriteriaError(f"--game: no game is called {name!r}")
    return game


def _variant(text: str, games: Sequence[GameValue]) -> tuple[str, str]:
    """``(tag, value)`` lower-cased, the tag one of the variant tags of ``games`` (or any)."""
    tag, equals, value = text.partition("=")
    if not equals or not tag.strip() or not value.strip():
        raise CriteriaError(f"--variant: {text!r} is not Tag=value (e.g. Players=3)")
    every = games or [syntax.game for syntax in GAMES]
    known = list(dict.fromkeys(option.tag for game in every for option in variant_options(game)[1]))
    if tag.strip().lower() not in {name.lower() for name in known}:
        of = " or ".join(game_name(game) for game in games) if games else "any game"
        raise CriteriaError(
            f"--variant: {tag.strip()!r} is no variant tag of {of} ({', '.join(known)})"
            + did_you_mean(tag, known)
        )
    return tag.strip().lower(), _compact(value)


def _compact(value: str) -> str:
    return "".join(value.split()).lower()


def _termination(word: str) -> int:
    wanted = word.strip().lower()
    for value, known in TERMINATION_WORDS.items():
        if known == wanted:
            return value
    words = ", ".join(TERMINATION_WORDS.values())
    raise CriteriaError(
        f"--termination: {word!r} is none of {words}"
        + did_you_mean(word, TERMINATION_WORDS.values())
    )


def _finding(code: str) -> str:
    """A finding code some game's referee writes, upper-cased."""
    wanted = code.strip().upper()
    known = finding_codes()
    if wanted not in known:
        raise CriteriaError(
            f"--finding: {code!r} is no finding code (docs/reference/findings.md lists them)"
            + did_you_mean(wanted, sorted(known))
        )
    return wanted


def finding_codes() -> frozenset[str]:
    """Every finding code the referee may write: the engines' and the record's and seals'."""
    from gamerec.validator.finding_codes import RECORD_CODES, SEAL_CODES  # noqa: PLC0415
    from gamerec.validator.games.registry import entries  # noqa: PLC0415

    engines = {code for entry in entries() for code in entry.engine.reason_codes}
    return frozenset({*RECORD_CODES, *SEAL_CODES, *engines})


def _plies(text: str) -> PlyRange:
    low, dots, high = text.strip().partition("..")
    try:
        if not dots:
            wanted = PlyRange(_count(low), _count(low))
        else:
            wanted = PlyRange(_count(low) if low else None, _count(high) if high else None)
    except ValueError:
        raise CriteriaError(f"--plies: {text!r} is not N, N..M, ..M or N..") from None
    if wanted.low is not None and wanted.high is not None and wanted.low > wanted.high:
        raise CriteriaError(
            f"--plies: {text!r} holds no number ({wanted.low} is more than {wanted.high}); "
            f"did you mean {wanted.high}..{wanted.low}?"
        )
    return wanted


def _count(text: str) -> int:
    """A number of plies: digits only (no sign)."""
    if not text.strip().isdigit():
        raise ValueError(text)
    return int(text)


def normalized_date(text: str) -> str:
    """A date as ``YYYY-MM-DD`` (``.`` and ``/`` read as ``-``); unknown parts (``??``) cut."""
    date = text.strip().replace(".", "-").replace("/", "-")
    return date.split("?", 1)[0].rstrip("-")


def _date(text: str, option: str) -> str:
    """``YYYY``, ``YYYY-MM`` or ``YYYY-MM-DD`` of a real day (``.`` and ``/`` read as ``-``)."""
    date = normalized_date(text)
    if not text:
        return date
    parts = date.split("-")
    widths = [len(part) for part in parts]
    if (
        not all(part.isdigit() for part in parts)
        or len(parts) > 3
        or widths != [4, 2, 2][: len(parts)]
    ):
        raise CriteriaError(f"{option}: {text!r} is not a date such as 2026-11-29 or 2026-11")
    if len(parts) > 1 and not 1 <= int(parts[1]) <= 12:
        raise CriteriaError(f"{option}: {text!r} has no month {parts[1]} (01 to 12)")
    if len(parts) > 2:
        import calendar  # noqa: PLC0415

        days = calendar.monthrange(int(parts[0]), int(parts[1]))[1]
        if not 1 <= int(parts[2]) <= days:
            raise CriteriaError(f"{option}: {text!r} has no day {parts[2]} (01 to {days})")
    return date


def _drawing(text: str) -> tuple[str, ...]:
    lines = normalized_drawing(text)
    if not lines:
        raise CriteriaError("--position: the drawing is empty")
    return lines


def normalized_drawing(text: str) -> tuple[str, ...]:
    """A position drawing as lines to compare: no title, brackets or runs of spaces."""
    lines = [
        " ".join(line.replace("[", " ").replace("]", " ").split()) for line in text.splitlines()
    ]
    lines = [line for line in lines if line]
    if lines and lines[0].startswith(_TITLES):
        lines = lines[1:]
    return tuple(lines)


# -- matching ----------------------------------------------------------------------------------


class Match(NamedTuple):
    """A record that meets the criteria, and what the referee said when it was asked.

    Attributes:
        verdict: the verdict (None when no criterion asked the referee).
        position_ply: the first ply after which the record reaches a position sought (None
            when no position was sought).
    """

    verdict: vpb.Verdict | None
    position_ply: int | None


def matches(record: pb.GameRecord, wanted: Criteria, entry: Entry | None = None) -> Match | None:
    """The :class:`Match` when ``record`` meets every criterion, else None.

    Raises:
        LimitExceededError: a criterion asked the referee and the record is over a limit.
    """
    if not _written_matches(record, wanted):
        return None
    if not wanted.asks_the_referee:
        return Match(None, None)
    verdict = (entry or Entry("", 0, record=record)).verdict(record)
    if not _verdict_matches(verdict, wanted):
        return None
    if not wanted.positions:
        return Match(verdict, None)
    ply = position_reached(record, wanted.positions)
    return None if ply is None else Match(verdict, ply)


def _written_matches(record: pb.GameRecord, wanted: Criteria) -> bool:
    """The criteria on the record as written (no replay)."""
    metadata = record.metadata
    return (
        (not wanted.games or record.rules.game in wanted.games)
        and (not wanted.variants or _variant_matches(record, wanted.variants))
        and (not wanted.players or _any_seat(record.seats, wanted.players))
        and _text_matches(metadata.event, wanted.events)
        and _text_matches(metadata.site, wanted.sites)
        and _text_matches(metadata.round, wanted.rounds)
        and _date_matches(record, wanted.date_from, wanted.date_to)
        and (not wanted.terminations or record.result.termination in wanted.terminations)
        and (not wanted.winners or _winner_matches(record, wanted.winners))
        and (not wanted.plies or any(r.holds(len(record.moves)) for r in wanted.plies))
    )


def _like(value: str, patterns: Sequence[str]) -> bool:
    text = value.strip().lower()
    return any(fnmatch.fnmatchcase(text, pattern) for pattern in patterns)


def _text_matches(value: str, patterns: Sequence[str]) -> bool:
    return not patterns or _like(value, patterns)


def _any_seat(seats: Iterable[pb.Seat], patterns: Sequence[str]) -> bool:
    return any(
        _like(seat.name, patterns) or (seat.player_id and _like(seat.player_id, patterns))
        for seat in seats
    )


def _variant_matches(record: pb.GameRecord, wanted: Sequence[tuple[str, str]]) -> bool:
    try:
        tags = {(tag.lower(), _compact(value)) for tag, value in variant_tags(record.rules)}
    except EncodingError:
        return False
    return any(pair in tags for pair in wanted)


def record_date(record: pb.GameRecord) -> str:
    """The record's date as ``YYYY-MM-DD`` (the ``Date`` tag, else the start time), or ``""``."""
    if record.metadata.date:
        return normalized_date(record.metadata.date)
    if record.metadata.HasField("start_time"):
        return record.metadata.start_time.ToJsonString()[:10]
    return ""


def _date_matches(record: pb.GameRecord, low: str, high: str) -> bool:
    if not low and not high:
        return True
    date = record_date(record)
    if not date:
        return False
    return (not low or date[: len(low)] >= low) and (not high or date[: len(high)] <= high)


def _winner_matches(record: pb.GameRecord, wanted: Sequence[str]) -> bool:
    winners = set(record.result.winners)
    for seat_number, seat in enumerate(record.seats, start=1):
        if seat_number in winners and _any_seat([seat], wanted):
            return True
    return any(text.isdigit() and int(text) in winners for text in wanted)


def _verdict_matches(verdict: vpb.Verdict, wanted: Criteria) -> bool:
    codes = {finding.code for finding in verdict.errors}
    return (
        (wanted.valid is None or verdict.valid == wanted.valid)
        and (not wanted.findings or bool(codes.intersection(wanted.findings)))
        and (not wanted.result_mismatch or bool(codes & MISMATCH_CODES))
        and (not wanted.digests or verdict.final_digest in wanted.digests)
    )


def position_reached(record: pb.GameRecord, drawings: Sequence[tuple[str, ...]]) -> int | None:
    """The first ply after which ``record`` reaches one of ``drawings`` (0: at the start)."""
    try:
        identity = identify(record)
    except RulesError:
        return None
    model = board_model(identity.name, identity.variant)
    for step in walk(record, identity, steps=True, include_start=True):
        if normalized_drawing(draw_text(model, step.state.position())) in drawings:
            return step.ply
    return None


# -- over a collection -------------------------------------------------------------------------


class Found(NamedTuple):
    """A record of the collection that meets the criteria.

    Attributes:
        entry: where it is (and its bytes).
        record: the record.
        match: what the referee said, when asked.
    """

    entry: Entry
    record: pb.GameRecord
    match: Match

    def message(self) -> cpb.FoundRecord:
        """The ``FoundRecord`` message of this record."""
        found = cpb.FoundRecord(
            place=self.entry.place(),
            game=self.record.rules.game,
            identity=game_identity(self.record),
        )
        if self.match.verdict is not None:
            found.verdict.CopyFrom(self.match.verdict)
        if self.match.position_ply is not None:
            found.position_ply = self.match.position_ply
        return found


def _match_fact(entry: Entry, record: pb.GameRecord, wanted: Criteria) -> Match | None:
    return matches(record, wanted, entry)


def find(
    collection: Collection,
    wanted: Criteria,
    *,
    encoding: Encoding | None = None,
    limits: Limits | None = None,
    workers: int = 1,
) -> Iterator[Found | InputFailure]:
    """Every record of ``collection`` that meets ``wanted``, in order; failures in their place.

    Records are read one at a time (judged on up to ``workers`` cores, 0 for all), so a
    collection of any size streams through in constant memory.
    """
    fact = partial(_match_fact, wanted=wanted)
    for found in facts(collection, fact, encoding=encoding, limits=limits, workers=workers):
        if isinstance(found, InputFailure):
            yield found
            continue
        entry, match = found
        if match is not None:
            yield Found(entry, entry.parse(), match)
