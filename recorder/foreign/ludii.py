"""Ludii's trials (``.trl``) as gamerec records, and back.

The format is the text Ludii's ``Trial.convertTrialToString`` builds and
``Trial.saveTrialToTextFile`` writes, and ``MatchRecord.loadMatchRecordFromTextFile`` reads
(docs/formats.md cites them)::

    game=/lud/board/war/replacement/eliminate/all/Oust.lud
    START GAME OPTIONS
    Board Size/7x7
    END GAME OPTIONS
    RNG internal state=0,0,0,0,0,0,0,0
    Move=[Move:mover=1,from=63,to=63,actions=[Add:type=Cell,to=63,what=1,decision=true]]
    ...
    numInitialPlacementMoves=0
    winner=1
    endtype=NaturalEnd
    rankings=0.0,1.0,2.0
    SANDBOX=false
    LUDII_VERSION=1.3.12

Each ``Move=`` line is one Ludii move: its mover and its actions, the decision
(``decision=true``: a placement ``[Add:...]`` or a ``[Pass:...]``) and the effects Ludii
applied with it (``[Remove:...]`` for captured stones, ``[SetNextPlayer:...]`` when the mover
moves again). A game's :class:`~gamerec.recorder.syntax.foreign.LudiiForm` says how its
sites and options map; one GRN ply is the run of Ludii moves of one mover (an Oust turn),
and a pass by the mover who just placed closes that turn (Ludii's forced pass after a
capture left no placement) rather than being a ply.

Ludii replays a trial's moves as written, effects and all (``Referee.makeSavedMoves``), so
writing a trial needs each placement's effects, which only the rules know: a game's rules
engine registers them with :func:`register_steps` (``gamerec.validator.games`` does so when
its registry loads). A trial read by gamerec keeps its moves' own text in the tag
``LudiiMoves``, which is written back while the record's moves are still the trial's.

What the record holds beyond a trial (player names, clocks, the pie rule) is written as one
more line, ``gamerec=`` and the record's ProtoJSON, after Ludii's own lines (Ludii stops
reading at ``rankings=``); the writer names those fields in a warning.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from typing import Any, BinaryIO, Final, NamedTuple

import orjson

from gamerec.recorder import json_keys
from gamerec.recorder.errors import EncodingError, RecordMalformedError, excerpt
from gamerec.recorder.foreign.keeping import (
    FORMAT_VERSION,
    apply_patch,
    json_patch,
    needs_copy,
    record_copy,
    record_of_copy,
    same_movers,
    store_json,
    stored_json,
    variant_tag_map,
)
from gamerec.recorder.foreign.steps import STEPS, LudiiStep
from gamerec.recorder.grn_tags import read_tag
from gamerec.recorder.limits import Limits, check_record
from gamerec.recorder.notation import format_action, parse_action
from gamerec.recorder.syntax import GAMES, GameSyntax, syntax_of
from gamerec.recorder.syntax.base import name_key
from gamerec.recorder.syntax.foreign import LudiiForm
from gamerec.v1 import record_pb2 as pb

RNG_TAG: Final = "LudiiRNG"
VERSION_TAG: Final = "LudiiVersion"
MOVES_TAG: Final = "LudiiMoves"
PATCH_TAG: Final = "LudiiText"
#: What gamerec writes when a record holds no RNG state (Ludii's trials of a game without
#: chance replay the same from any state) and no version (the Ludii source the format was
#: read from declares LUDEME_VERSION 1.3.12).
DEFAULT_RNG: Final = "0,0,0,0,0,0,0,0"
DEFAULT_VERSION: Final = "1.3.12"
EMBEDDED_PREFIX: Final = "gamerec="
PASS_ACTION: Final = "[Pass:decision=true,forced=true]"

_MOVE_LINE: Final = re.compile(r"Move=\[Move:mover=(\d{1,9})(.*)\]")
_TO: Final = re.compile(r"(?:^|,)to=(\d{1,9})(?:,|$)")
_WHAT: Final = re.compile(r"(?:^|,)what=(\d{1,9})(?:,|$)")
_MAX_SITE: Final = 10**6

Warn = Callable[[str], None]


def game_names() -> str:
    """The games gamerec reads from Ludii, for messages."""
    return ", ".join(syntax.name for syntax in GAMES if syntax.ludii is not None)


# -- reading -------------------------------------------------------------------------------------


class _Decision(NamedTuple):
    """A Ludii move's decision: the mover and the site placed on (-1 for a pass)."""

    mover: int
    site: int


def parse_trial(data: bytes, source: str, *, limits: Limits | None = None) -> pb.GameRecord:
    """One record from a Ludii trial's text.

    Raises:
        RecordMalformedError: not a trial, a game, option or move gamerec does not have, a
            site off the board (the line named).
        LimitExceededError: the record exceeds a limit.
    """
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        raise RecordMalformedError(
            f"a Ludii trial is UTF-8 text, found byte {data[error.start]:#04x}",
            source=source,
            where=f"byte {error.start}",
        ) from None
    lines = text.split("\n")
    embedded = [n for n, line in enumerate(lines) if line.startswith(EMBEDDED_PREFIX)]
    if embedded:
        record = _embedded_record(lines, embedded, source)
    else:
        record = _Reader(lines, source).record()
        _keep_the_rest(record, lines)
    check_record(record, limits, source=source)
    return record


def _keep_the_rest(record: pb.GameRecord, lines: list[str]) -> None:
    """Store the patch that makes the writer give back ``lines`` for ``record``."""
    try:
        written = _plain_lines(record)
    except EncodingError:
        return  # the record cannot be written as a trial at all: nothing to keep
    patch = json_patch(lines, written)
    if patch:
        store_json(record, PATCH_TAG, patch)


def _embedded_record(lines: list[str], embedded: list[int], source: str) -> pb.GameRecord:
    number = embedded[-1]
    where = f"line {number + 1}"
    if len(embedded) > 1:
        raise RecordMalformedError("two embedded gamerec records", source=source, where=where)
    try:
        mapping = json_keys.loads(lines[number][len(EMBEDDED_PREFIX) :])
    except orjson.JSONDecodeError as error:
        raise RecordMalformedError(f"not JSON: {error.msg}", source=source, where=where) from None
    except json_keys.DuplicateKeyError as error:
        raise RecordMalformedError(
            f"the embedded gamerec record: {error}", source=source, where=where
        ) from None
    copy = record_of_copy(mapping, source, where)
    plain = lines[:number] + lines[number + 1 :]
    own = _Reader(plain, source).record()  # the trial's own lines must read
    if copy.HasField("seal"):
        same = _sealed_trial_is(copy, own, plain, source, where)
    else:
        same = _same_trial(copy, own, plain)
    if not same:
        raise RecordMalformedError(
            "the embedded gamerec record's trial is not this file's (the file was changed "
            "after gamerec wrote it); remove the gamerec= line to read the trial alone",
            source=source,
            where=where,
        )
    return copy


def _sealed_trial_is(
    copy: pb.GameRecord, own: pb.GameRecord, lines: list[str], source: str, where: str
) -> bool:
    """Whether ``lines`` are, to the byte, the trial a sealed ``copy`` is written as.

    A sealed record's trial is made from its sealed fields alone (each move's effects from the
    rules engine, no kept text or patch), so every line Ludii shows is the seal's.

    Raises:
        RecordMalformedError: no rules engine is loaded to tell the moves' effects.
    """
    if copy.rules.game not in STEPS:
        raise RecordMalformedError(
            "checking a sealed trial's moves needs the rules engine: load "
            "gamerec.validator.games first (the command line does)",
            source=source,
            where=where,
        )
    try:
        return _plain_lines(copy) == lines and same_movers(copy, own)
    except EncodingError:
        return False


def _same_trial(copy: pb.GameRecord, own: pb.GameRecord, lines: list[str]) -> bool:
    """Whether ``lines`` are the trial gamerec writes for ``copy``.

    The same lines apart from the moves' effects (which only the rules know), and the same
    decisions.
    """
    moves = [line for line in lines if line.startswith("Move=")]
    try:
        if _plain_lines(copy, moves) != lines:
            return False
        form = syntax_of(copy.rules.game).ludii  # type: ignore[union-attr]
        tags = variant_tag_map(copy.rules)
        sites = {cell: site for site, cell in enumerate(form.cells(tags))}  # type: ignore[union-attr]
        return _decisions_of(copy, sites) == _decisions_of(own, sites)
    except (EncodingError, ValueError, AttributeError):
        return False


class _Reader:
    """Builds a record from a trial's lines, naming the line of every fault."""

    def __init__(self, lines: list[str], source: str) -> None:
        self.lines = [line.removesuffix("\r") for line in lines]
        self.source = source

    def fault(self, number: int, reason: str) -> RecordMalformedError:
        return RecordMalformedError(reason, source=self.source, where=f"line {number + 1}")

    def record(self) -> pb.GameRecord:
        first = self.lines[0] if self.lines else ""
        if not first.startswith("game="):
            raise self.fault(0, f"a Ludii trial starts with game=, found {excerpt(first)}")
        syntax, form = self.game(first.removeprefix("game="))
        tags = self.options(form)
        record = pb.GameRecord(format_version=FORMAT_VERSION)
        read_tag(record, "Game", syntax.name)
        for tag, value in tags.items():
            read_tag(record, tag, value)
        extra = record.metadata.extra_tags
        fields = self.fields()
        if "RNG internal state" in fields:
            extra[RNG_TAG] = fields["RNG internal state"][1]
        if "LUDII_VERSION" in fields:
            extra[VERSION_TAG] = fields["LUDII_VERSION"][1]
        sites = form.cells(tags)
        decisions, texts = self.moves(sites, form.players)
        plies = _plies(decisions, form.chains)
        seats = form.players
        record.seats.extend(pb.Seat() for _ in range(seats))
        for seat, places in plies:
            token = ",".join(sites[site] for site in places) if places else "pass"
            move = parse_action(syntax.game, token)
            move.seat = seat
            record.moves.append(move)
        if decisions:
            kept = [[*decision, *text] for decision, text in zip(decisions, texts, strict=True)]
            store_json(record, MOVES_TAG, kept)
        self.set_up(fields)
        self.result(record, fields, form, seats)
        return record

    def set_up(self, fields: dict[str, tuple[int, str]]) -> None:
        number, count = fields.get("numInitialPlacementMoves", (0, "0"))
        if count != "0":
            raise self.fault(number, f"{count} set-up moves have no gamerec form")

    def game(self, path: str) -> tuple[GameSyntax, LudiiForm]:
        stem = path.replace("\\", "/").rsplit("/", 1)[-1].removesuffix(".lud")
        for syntax in GAMES:
            form = syntax.ludii
            if form is not None and name_key(stem) == name_key(form.stem):
                return syntax, form
        raise self.fault(
            0,
            f"the game {excerpt(path)} is not one gamerec reads from Ludii ({game_names()})",
        )

    def options(self, form: LudiiForm) -> dict[str, str]:
        start = self._index("START GAME OPTIONS")
        end = self._index("END GAME OPTIONS")
        options: list[str] = []
        if start is not None:
            if end is None or end < start:
                raise self.fault(start, "START GAME OPTIONS without END GAME OPTIONS")
            options = self.lines[start + 1 : end]
            self.once(range(start + 1, end), lambda line: line.rpartition("/")[0] or line)
        try:
            return form.tags_for(options)
        except ValueError as error:
            raise self.fault(start or 0, str(error)) from None

    def _index(self, line: str) -> int | None:
        found = [n for n, each in enumerate(self.lines) if each == line]
        if len(found) > 1:
            raise self.fault(found[1], f"{line} is given twice (first on line {found[0] + 1})")
        return found[0] if found else None

    def once(self, numbers: Iterable[int], name_of: Callable[[str], str]) -> None:
        """Refuse a line whose name (``name_of`` it) an earlier line of ``numbers`` has.

        A trial's reader would keep one of the two; which one differs between readers.
        """
        first: dict[str, int] = {}
        for number in numbers:
            name = name_of(self.lines[number])
            if name in first:
                raise self.fault(
                    number, f"{excerpt(name)} is given twice (first on line {first[name] + 1})"
                )
            first[name] = number

    def fields(self) -> dict[str, tuple[int, str]]:
        """The ``name=value`` lines that are not moves: ``{name: (line index, value)}``.

        Raises:
            RecordMalformedError: a name given twice, naming the second line.
        """
        found: dict[str, tuple[int, str]] = {}
        numbers = []
        for number, line in enumerate(self.lines):
            name, equals, value = line.partition("=")
            if equals and name != "Move":
                numbers.append(number)
                found.setdefault(name, (number, value))
        if len(numbers) != len(found):
            self.once(numbers, lambda line: line.partition("=")[0] + "=")
        return found

    def moves(
        self, sites: Sequence[str], players: int
    ) -> tuple[list[_Decision], list[tuple[str, ...]]]:
        """Every move line's decision, and its text around the decision action.

        The text is empty when the line is the one Ludii writes for the decision alone.
        """
        decisions: list[_Decision] = []
        texts: list[tuple[str, ...]] = []
        for number, line in enumerate(self.lines):
            if line.startswith("Move="):
                decision, around = self.move(number, line, len(sites), players)
                decisions.append(decision)
                texts.append(() if around == _canonical(decision) else around)
        return decisions, texts

    def move(
        self, number: int, line: str, cells: int, players: int
    ) -> tuple[_Decision, tuple[str, str]]:
        """A move line's decision, and the line's text before and after the decision action."""
        found = _MOVE_LINE.fullmatch(line)
        if found is None:
            raise self.fault(number, f"expected Move=[Move:mover=N,...], found {excerpt(line)}")
        mover = int(found.group(1))
        if not 1 <= mover <= players:
            raise self.fault(number, f"mover {mover} is no seat of this game (1 to {players})")
        head, _, actions = found.group(2).partition(",actions=")
        for start, end in _actions(actions):
            action = actions[start:end]
            if "decision=true" not in action:
                continue
            decision = self.decision(number, mover, action, cells)
            before = f"[Move:mover={mover}{head},actions={actions[:start]}"
            return decision, (before, f"{actions[end:]}]")
        raise self.fault(number, "a Ludii move without a decision action (decision=true)")

    def decision(self, number: int, mover: int, action: str, cells: int) -> _Decision:
        if action.startswith("[Pass:"):
            return _Decision(mover, -1)
        to = _TO.search(action[1:-1])
        if not action.startswith("[Add:") or to is None:
            raise self.fault(
                number,
                f"the decision {excerpt(action)} has no gamerec form (a placement or a pass)",
            )
        site = int(to.group(1))
        if site >= cells:
            raise self.fault(
                number, f"site {site} is not a cell of this board (sites 0 to {cells - 1})"
            )
        return _Decision(mover, site)

    def result(
        self,
        record: pb.GameRecord,
        fields: dict[str, tuple[int, str]],
        form: LudiiForm,
        seats: int,
    ) -> None:
        claim = record.result
        if "winner" not in fields:
            claim.unfinished.SetInParent()
            return
        number, text = fields["winner"]
        if not text.isdigit() or int(text) > seats:
            raise self.fault(number, f"winner={excerpt(text)} names no seat")
        winner = int(text)
        if winner:
            claim.winners.append(winner)
        if form.results_are_scores:
            claim.scores.values.extend(int(seat == winner) for seat in range(1, seats + 1))
        natural = fields.get("endtype", (0, "NaturalEnd"))[1] == "NaturalEnd"
        claim.termination = pb.TERMINATION_NORMAL if natural else pb.TERMINATION_ADJUDICATED


def _actions(text: str) -> list[tuple[int, int]]:
    """The ``[...]`` actions of an actions list, as (start, end) spans (brackets matched)."""
    spans = []
    depth = 0
    start = 0
    for index, char in enumerate(text):
        if char == "[":
            if depth == 0:
                start = index
            depth += 1
        elif char == "]" and depth:
            depth -= 1
            if depth == 0:
                spans.append((start, index + 1))
    return spans


def _plies(decisions: Sequence[_Decision], chains: bool) -> list[tuple[int, list[int]]]:
    """The plies of a trial's decisions: ``(seat, sites)``, no sites for a pass.

    With ``chains``, a run of placements by one mover is one ply, and a pass by the mover
    who placed just before closes that ply instead of being one.
    """
    plies: list[tuple[int, list[int]]] = []
    previous: _Decision | None = None
    for decision in decisions:
        joins = chains and previous is not None and previous.mover == decision.mover
        if decision.site < 0:
            if not (joins and previous is not None and previous.site >= 0):
                plies.append((decision.mover, []))
        elif joins and plies and plies[-1][1]:
            plies[-1][1].append(decision.site)
        else:
            plies.append((decision.mover, [decision.site]))
        previous = decision
    return plies


def _canonical(decision: _Decision) -> tuple[str, str]:
    """The move Ludii writes for a decision with no effects, around the decision action."""
    if decision.site < 0:
        return f"[Move:mover={decision.mover},actions=", "]"
    site = decision.site
    return f"[Move:mover={decision.mover},from={site},to={site},actions=", "]"


def _decision_text(decision: _Decision) -> str:
    if decision.site < 0:
        return PASS_ACTION
    return f"[Add:type=Cell,to={decision.site},what={decision.mover},decision=true]"


# -- writing -------------------------------------------------------------------------------------


def trial_text(record: pb.GameRecord, warn: Warn | None = None) -> str:
    """A record as a Ludii trial.

    Raises:
        EncodingError: a game Ludii's trials do not hold here, a variant or ply with no
            Ludii form, or no rules engine to play the record's effects.
    """
    lines = _plain_lines(record)
    try:
        back = parse_trial("\n".join(lines).encode(), "<export>")
    except RecordMalformedError as error:  # what the writer wrote does not read back
        raise EncodingError(f"the record has no Ludii form: {error.reason}") from None
    kept_in = f"the last line ({EMBEDDED_PREFIX}...)"
    if needs_copy(record, back, warn, "Ludii's trial", kept_in):
        copy = orjson.dumps(record_copy(record)).decode()
        lines.insert(len(lines) - 1, EMBEDDED_PREFIX + copy)
    return "\n".join(lines)


def _plain_lines(record: pb.GameRecord, moves: list[str] | None = None) -> list[str]:
    """The trial's lines (the last one empty: the text ends with a newline), patch applied.

    A sealed record's lines are its sealed fields' and its named free tags' alone: its kept
    move text and patch are not used (docs/seals.md, "Records of other tools").

    ``moves``, when given, are the ``Move=`` lines to write instead of the record's own.
    """
    syntax = syntax_of(record.rules.game)
    form = syntax.ludii if syntax is not None else None
    if syntax is None or form is None:
        raise EncodingError(
            f"Ludii's trials hold {game_names()} here, not this record's game"
            + (f" ({syntax.name})" if syntax else "")
        )
    tags = variant_tag_map(record.rules)
    try:
        options = form.options_for(tags)
        sites = {cell: site for site, cell in enumerate(form.cells(tags))}
    except ValueError as error:
        raise EncodingError(f"{syntax.name}: {error}") from None
    extra = record.metadata.extra_tags
    lines = [f"game={form.path}", "START GAME OPTIONS", *options, "END GAME OPTIONS"]
    lines.append(f"RNG internal state={extra.get(RNG_TAG, DEFAULT_RNG)}")
    if moves is None:
        moves = [f"Move={line}" for line in _move_lines(record, form, sites)]
    lines += moves
    lines.append("numInitialPlacementMoves=0")
    lines += _status_lines(record)
    lines += ["SANDBOX=false", f"LUDII_VERSION={extra.get(VERSION_TAG, DEFAULT_VERSION)}", ""]
    if record.HasField("seal"):
        return lines
    patch = stored_json(record, PATCH_TAG, f"metadata.extra_tags[{PATCH_TAG!r}]")
    if isinstance(patch, list):
        lines = apply_patch(lines, patch)
    return lines


def _move_lines(record: pb.GameRecord, form: LudiiForm, sites: dict[str, int]) -> list[str]:
    """The ``Move=`` lines' text.

    The kept text while it holds the record's decisions, else each move's effects from the
    rules engine (always, for a sealed record: its kept text is a free tag, outside the seal).
    """
    wanted = _decisions_of(record, sites)
    kept = None
    if not record.HasField("seal"):
        kept = stored_json(record, MOVES_TAG, f"metadata.extra_tags[{MOVES_TAG!r}]")
    stored = _stored_moves(kept)
    if stored is not None and _plies([decision for decision, _ in stored], form.chains) == wanted:
        lines = []
        for decision, around in stored:
            before, after = around or _canonical(decision)
            lines.append(f"{before}{_decision_text(decision)}{after}")
        return lines
    steps = STEPS.get(record.rules.game)
    if steps is None:
        raise EncodingError(
            "a Ludii trial holds each move's effects (the stones it removes), which only the "
            "rules engine knows: load gamerec.validator.games first (the command line does)"
        )
    return [_step_line(step, sites) for step in steps(record)]


def _stored_moves(kept: Any) -> list[tuple[_Decision, tuple[str, str] | None]] | None:
    """The moves kept by the reader (None when the tag holds something else).

    Each decision, and the text around it (None: Ludii's text for the decision alone).
    """
    if not isinstance(kept, list):
        return None
    stored: list[tuple[_Decision, tuple[str, str] | None]] = []
    for entry in kept:
        if not (
            isinstance(entry, list)
            and len(entry) in (2, 4)
            and type(entry[0]) is int
            and type(entry[1]) is int
            and all(isinstance(part, str) for part in entry[2:])
        ):
            return None
        around = (entry[2], entry[3]) if len(entry) == 4 else None
        stored.append((_Decision(entry[0], entry[1]), around))
    return stored


def _decisions_of(record: pb.GameRecord, sites: dict[str, int]) -> list[tuple[int, list[int]]]:
    """The plies as ``(seat, sites)`` (none for a pass), as the trial's decisions say them.

    Raises:
        EncodingError: a ply Ludii's trials have no move for (``swap``), or a cell that is
            not on the board.
    """
    plies: list[tuple[int, list[int]]] = []
    seats = max(len(record.seats), 2)
    for number, move in enumerate(record.moves, start=1):
        seat = move.seat or (number - 1) % seats + 1
        token = format_action(move, record.rules.game)
        if token == "resign" and number == len(record.moves):
            break  # no Ludii move; the embedded copy keeps it
        if token in ("swap", "resign"):
            raise EncodingError(f"ply {number}: {token} has no Ludii move")
        if token == "pass":
            plies.append((seat, []))
            continue
        places = []
        for cell in token.split(","):
            if cell not in sites:
                raise EncodingError(f"ply {number}: {cell} is not a cell of this board")
            places.append(sites[cell])
        plies.append((seat, places))
    return plies


def _step_line(step: LudiiStep, sites: dict[str, int]) -> str:
    if step.cell is None:
        return f"[Move:mover={step.mover},actions={PASS_ACTION}]"
    site = sites[step.cell]
    actions = [_decision_text(_Decision(step.mover, site))]
    actions += [
        f"[Remove:type=Cell,to={sites[cell]}]"
        for cell in sorted(step.removed, key=sites.__getitem__)
    ]
    if step.again:
        actions.append(f"[SetNextPlayer:player={step.mover}]")
    return f"[Move:mover={step.mover},from={site},to={site},actions={','.join(actions)}]"


def _status_lines(record: pb.GameRecord) -> list[str]:
    """``winner=``, ``endtype=`` (for an ended game) and ``rankings=``.

    Raises:
        EncodingError: an ending Ludii's trials have no ranks for here (no winner, or more
            than two seats).
    """
    claim = record.result
    seats = max(len(record.seats), 2)
    ended = (
        claim.termination in (pb.TERMINATION_NORMAL, pb.TERMINATION_UNSPECIFIED)
        and not claim.HasField("unfinished")
        and bool(claim.winners or claim.HasField("scores"))
        and not (record.moves and record.moves[-1].WhichOneof("action") == "resign")
    )
    if not ended:
        return ["rankings=" + ",".join(["0.0"] * (seats + 1))]
    winners = set(claim.winners) or _winners_of_scores(list(claim.scores.values))
    if not winners <= set(range(1, seats + 1)):
        raise EncodingError(f"the record claims winners {sorted(winners)} of {seats} seats")
    winner = min(winners) if len(winners) == 1 else 0
    ranks = ["0.0", *(_rank(seat, winners, seats) for seat in range(1, seats + 1))]
    return [f"winner={winner}", "endtype=NaturalEnd", "rankings=" + ",".join(ranks)]


def _winners_of_scores(scores: list[int]) -> set[int]:
    """The seats with the best score, when a record's ``Result`` names no ``Winner``.

    GRN's ``Winner`` is needed only where the winner does not follow from the scores
    (docs/notation.md); where it does, the best score wins, as the Abstract Play writer's
    results say. Equal scores name no winner.
    """
    if not scores or min(scores) == max(scores):
        return set()
    return {seat for seat, score in enumerate(scores, start=1) if score == max(scores)}


def _rank(seat: int, winners: set[int], seats: int) -> str:
    """A seat's rank as Java prints a double: 1.0 for a winner.

    The others share the places after the winners (their mean; docs/formats.md: Ludii's
    ranks of a tie are not confirmed from its source).
    """
    if seat in winners:
        return f"{(1 + len(winners)) / 2}"
    first = len(winners) + 1
    return f"{(first + seats) / 2}"


def write_trial(
    records: Iterable[pb.GameRecord], stream: BinaryIO, warn: Warn | None = None
) -> int:
    """Write the one record of a ``.trl`` file.

    Raises:
        EncodingError: no record, or several (a trial holds one game).
    """
    iterator = iter(records)
    first = next(iterator, None)
    if first is None:
        raise EncodingError("a Ludii trial holds one record, and there is none")
    text = trial_text(first, warn)
    if next(iterator, None) is not None:
        raise EncodingError(
            "a Ludii trial holds one record and there are several; write one file each"
        )
    stream.write(text.encode())
    return 1
