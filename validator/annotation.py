"""Annotate a record's moves: comments and glyphs by hand, engine facts automatically.

By hand (:func:`edit_ply`): add a comment to a main-line ply (appended to its text), set its
glyph, or remove either. An existing glyph is never replaced silently: setting another one
needs its removal in the same edit.

Automatically (:func:`auto_annotate`): the record is replayed, and each main-line ply gets
the engine's facts as PGN-style comment commands after the ply's own comment text::

    {a quiet start [%score 5-1-1] [%legal 42] [%captures a2]}

==========================  ==================================================================
``[%score 5-1-1]``          every seat's score after the ply, by the rules' own definition
``[%legal 42]``             how many legal moves the mover had (``resign`` not counted; Oust:
                            the legal first decisions of the turn, placements plus ``swap`` and
                            ``pass`` where legal, since a turn chains placements)
``[%captures a2 c8]``       what the ply captured: ONE's jumped stones, Oust's removed cells,
                            Oh-Wah-Ree's taken pits (absent when none)
``[%possessions o4 m5]``    Aronda: the fields the ply took possession of (absent when none)
``[%best c7xc9 4]``         the ply is clearly worse than the best alternative (below): that
                            alternative and how much better it scores
==========================  ==================================================================

**The search.** One decision ahead for the mover: every legal decision is played on a copy
(Oust: the turn's first placement, or ``swap`` / ``pass``) and valued by the mover's lead
afterwards, the mover's value minus the best value among the other seats. The value is the
rules' score (ONE: largest group plus 2 per capture; Aronda: fields owned), except in Oust,
whose score only says who has won (a win counts 1,000, then stones on the board), and in
Oh-Wah-Ree, whose stones in pits move round the ring every ply (the stones in the store).
The ply played is valued the same way (Oust: its first decision). When the best decision is
better by the game's threshold or more, the ply is clearly worse: it gets ``[%best ...]`` and
the glyph ``?`` (an existing glyph is kept unless ``replace_glyphs``). Each game's value and
threshold are its registry entry's ``annotation`` (ONE 2: a missed capture or as much in
groups; Aronda 2 fields; Oust 2 enemy stones; Oh-Wah-Ree 4, more than one pit's capture).

Facts written earlier by :func:`auto_annotate` are replaced, never duplicated; every other
comment text is kept as written.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Final

from gamerec.recorder.arguments import require_record
from gamerec.recorder.errors import GamerecError, excerpt
from gamerec.recorder.grn_writer import GLYPHS
from gamerec.recorder.words import plural
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verdict_pb2 as vpb
from gamerec.validator.frames import ReplayStoppedError, steps
from gamerec.validator.games.protocol import GameEvent, GameState
from gamerec.validator.identity import RulesIdentity, identify

#: The comment commands this module writes (and replaces on a new run).
FACT_COMMANDS: Final = ("score", "legal", "captures", "possessions", "best")

_FACT = re.compile(r"\s*\[%(" + "|".join(FACT_COMMANDS) + r")(?:\s+([^\]]*))?\]")
_GLYPHS_BY_TEXT: Final = {text: glyph for glyph, text in GLYPHS.items() if text}
_CAPTURE_EVENTS: Final = frozenset({"capture"})
_POSSESSION_EVENTS: Final = frozenset({"possession-inside", "possession-outside"})


class AnnotationError(GamerecError):
    """An annotation cannot be made: no such ply, an unknown glyph, a glyph already set."""


@dataclass(frozen=True, slots=True)
class MoveFacts:
    """The engine's facts about one ply (see the module docstring for their comment form).

    Attributes:
        scores: every seat's score after the ply.
        legal: how many legal moves the mover had.
        captures: the places the ply captured.
        possessions: the fields the ply took possession of (Aronda).
        best: the best alternative, when the ply is clearly worse; ``""`` otherwise.
        loss: by how much the best alternative is better (0 when ``best`` is empty).
    """

    scores: tuple[int, ...]
    legal: int
    captures: tuple[str, ...] = ()
    possessions: tuple[str, ...] = ()
    best: str = ""
    loss: int = 0

    def text(self) -> str:
        """The facts as comment commands: ``[%score 5-1-1] [%legal 42] ...``."""
        commands = [
            f"[%score {'-'.join(map(str, self.scores))}]",
            f"[%legal {self.legal}]",
        ]
        if self.captures:
            commands.append(f"[%captures {' '.join(self.captures)}]")
        if self.possessions:
            commands.append(f"[%possessions {' '.join(self.possessions)}]")
        if self.best:
            commands.append(f"[%best {self.best} {self.loss}]")
        return " ".join(commands)


@dataclass(frozen=True, slots=True)
class AutoAnnotation:
    """What :func:`auto_annotate` did.

    Attributes:
        record: the annotated record (a new message; the input is unchanged).
        annotated: how many plies got facts.
        worse: the plies the search found clearly worse (1-based).
        marked: the plies given the glyph ``?`` by this run.
        stopped: the finding about the first ply that could not be played (the plies from
            there on are left as they were), or None.
    """

    record: pb.GameRecord
    annotated: int
    worse: tuple[int, ...]
    marked: tuple[int, ...]
    stopped: vpb.Finding | None


# -- reading and writing facts -------------------------------------------------------------


def read_facts(comment: str) -> MoveFacts | None:
    """The facts in a comment, or None when it holds no ``[%score ...]`` command."""
    found = {name: (argument or "").split() for name, argument in _FACT.findall(comment)}
    if "score" not in found:
        return None
    best = found.get("best", [])
    return MoveFacts(
        scores=tuple(int(score) for score in found["score"][0].split("-")),
        legal=int(found.get("legal", ["0"])[0]),
        captures=tuple(found.get("captures", ())),
        possessions=tuple(found.get("possessions", ())),
        best=best[0] if best else "",
        loss=int(best[1]) if len(best) > 1 else 0,
    )


def without_facts(comment: str) -> str:
    """The comment with every fact command removed (the text a person wrote)."""
    return _FACT.sub("", comment).strip()


def _with_facts(comment: str, facts: str) -> str:
    text = without_facts(comment)
    return f"{text} {facts}" if text else facts


# -- by hand ---------------------------------------------------------------------------------


def parse_glyph(text: str) -> pb.Glyph.ValueType:
    """A glyph from its text: ``!`` ``?`` ``!!`` ``??`` ``!?`` ``?!`` or PGN's ``$1``-``$6``.

    Raises:
        AnnotationError: not a glyph gamerec keeps.
    """
    text = text.strip()
    if text in _GLYPHS_BY_TEXT:
        return _GLYPHS_BY_TEXT[text]
    if re.fullmatch(r"\$[1-6]", text):
        return pb.Glyph.ValueType(int(text[1:]))
    known = " ".join(_GLYPHS_BY_TEXT)
    raise AnnotationError(f"{excerpt(text)} is not a glyph; use one of {known} or $1 to $6")


def edit_ply(
    record: pb.GameRecord,
    ply: int,
    *,
    comment: str | None = None,
    glyph: pb.Glyph.ValueType | None = None,
    remove_comment: bool = False,
    remove_glyph: bool = False,
) -> pb.GameRecord:
    """A copy of ``record`` with ply ``ply`` (1-based, main line) annotated.

    Removals happen first: ``remove_comment`` clears the comment (facts included),
    ``remove_glyph`` the glyph. Then ``comment`` is appended to the comment's text (before any
    facts), and ``glyph`` is set.

    Raises:
        AnnotationError: the main line has no ply ``ply``, or it has another glyph already
            and ``remove_glyph`` is not given.
    """
    require_record(record, "edit_ply")
    if not 1 <= ply <= len(record.moves):
        raise AnnotationError(
            f"the record has {plural(len(record.moves), 'ply')}; there is no ply {ply}"
        )
    edited = pb.GameRecord()
    edited.CopyFrom(record)
    move = edited.moves[ply - 1]
    if remove_comment:
        move.comment = ""
    if remove_glyph:
        move.glyph = pb.GLYPH_UNSPECIFIED
    if comment:
        move.comment = _with_added_text(move.comment, comment)
    if glyph is not None:
        if move.glyph not in (pb.GLYPH_UNSPECIFIED, glyph):
            raise AnnotationError(
                f"ply {ply} already has the glyph {GLYPHS[move.glyph]}; "
                "remove it in the same edit to set another"
            )
        move.glyph = glyph
    return edited


def _with_added_text(comment: str, added: str) -> str:
    """``comment`` with ``added`` after its text and before its facts."""
    facts = " ".join(match.group().strip() for match in _FACT.finditer(comment))
    text = " ".join(part for part in (without_facts(comment), added.strip()) if part)
    return " ".join(part for part in (text, facts) if part)


# -- automatically ---------------------------------------------------------------------------


def auto_annotate(record: pb.GameRecord, *, replace_glyphs: bool = False) -> AutoAnnotation:
    """A copy of ``record`` with the engine's facts on every legal main-line ply.

    See the module docstring for the facts and the search. Plies after an illegal one are
    left as they were (``stopped`` says why).

    Raises:
        RulesError: the record's game or variant cannot be judged.
    """
    require_record(record, "auto_annotate")
    identity = identify(record)
    annotated = pb.GameRecord()
    annotated.CopyFrom(record)
    before = identity.engine.new_game(identity.variant)
    worse: list[int] = []
    marked: list[int] = []
    count = 0
    stopped = None
    try:
        for step in steps(record, identity):
            facts = ply_facts(identity, before, step.state, step.events, step.token)
            move = annotated.moves[step.ply - 1]
            move.comment = _with_facts(move.comment, facts.text())
            if facts.best:
                worse.append(step.ply)
                if move.glyph != pb.GLYPH_MISTAKE and (replace_glyphs or not move.glyph):
                    move.glyph = pb.GLYPH_MISTAKE
                    marked.append(step.ply)
            before = step.state
            count += 1
    except ReplayStoppedError as error:
        stopped = error.finding
    return AutoAnnotation(annotated, count, tuple(worse), tuple(marked), stopped)


def ply_facts(
    identity: RulesIdentity,
    before: GameState[Any],
    after: GameState[Any],
    events: tuple[GameEvent, ...],
    token: str,
) -> MoveFacts:
    """The facts of one ply, from the positions before and after it and its events."""
    options = before.legal_moves()
    facts = MoveFacts(
        scores=tuple(after.scores()),
        legal=len(options),
        captures=_places(events, _CAPTURE_EVENTS),
        possessions=_places(events, _POSSESSION_EVENTS),
    )
    if token == "resign" or len(options) < 2:
        return facts
    best, loss = _best_alternative(identity, before, options, token)
    if loss < identity.entry.annotation.threshold:
        return facts
    return MoveFacts(
        facts.scores, facts.legal, facts.captures, facts.possessions, best=best, loss=loss
    )


def _places(events: tuple[GameEvent, ...], kinds: frozenset[str]) -> tuple[str, ...]:
    return tuple(place for event in events if event.kind in kinds for place in event.where)


def _best_alternative(
    identity: RulesIdentity, before: GameState[Any], options: list[Any], token: str
) -> tuple[str, int]:
    """The best decision's token, and how much better it is than the ply played."""
    engine, variant = identity.engine, identity.variant
    value = identity.entry.annotation.value
    mover = before.to_move
    played = engine.parse_move(variant, token)
    played_value = value(_after(before, engine.first_decision(played)), mover)
    best_option, best_value = None, played_value
    for option in options:
        option_value = value(_after(before, option), mover)
        if option_value > best_value:
            best_option, best_value = option, option_value
    if best_option is None:
        return "", 0
    return engine.format_move(variant, best_option), best_value - played_value


def _after(state: GameState[Any], decision: Any) -> GameState[Any]:
    """A copy of ``state`` with one decision made (an Oust placement is placed, not played)."""
    child = state.copy()
    child.decide(decision)
    return child
