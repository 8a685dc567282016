"""The lines gamerec writes for a record as a Ludii trial, and checks of a trial against them.

A move's effects come from the rules engine (``STEPS``, which a game's engine registers) unless
the record keeps the trial's own move text. May import the standard library and
``gamerec.recorder`` (``errors``, ``foreign.keeping``, ``foreign.steps``, ``notation``,
``syntax``, ``foreign.ludii.form``), and ``gamerec.v1``.
"""

from __future__ import annotations

from typing import Any

from gamerec.recorder.errors import EncodingError, RecordMalformedError
from gamerec.recorder.foreign.keeping import (
    apply_patch,
    same_movers,
    stored_json,
    variant_tag_map,
)
from gamerec.recorder.foreign.ludii.form import (
    DEFAULT_RNG,
    DEFAULT_VERSION,
    MOVES_TAG,
    PASS_ACTION,
    PATCH_TAG,
    RNG_TAG,
    VERSION_TAG,
    _canonical,
    _Decision,
    _decision_text,
    _plies,
    game_names,
)
from gamerec.recorder.foreign.steps import STEPS, LudiiStep
from gamerec.recorder.notation import format_action
from gamerec.recorder.syntax import syntax_of
from gamerec.recorder.syntax.foreign import LudiiForm
from gamerec.v1 import record_pb2 as pb


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
