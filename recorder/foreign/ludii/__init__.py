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

The package holds ``form`` (the tags and the decisions and plies both directions share),
``reader`` (a trial's lines to a record), ``lines`` (a record's lines, and checks of an embedded
copy against them) and ``trial`` (a trial's text to a record, a record to a trial); this module
re-exports their public names.
"""

from __future__ import annotations

from gamerec.recorder.foreign.ludii.form import (
    DEFAULT_RNG,
    DEFAULT_VERSION,
    EMBEDDED_PREFIX,
    MOVES_TAG,
    PASS_ACTION,
    PATCH_TAG,
    RNG_TAG,
    VERSION_TAG,
    Warn,
    game_names,
)
from gamerec.recorder.foreign.ludii.trial import parse_trial, trial_text, write_trial

__all__ = [
    "DEFAULT_RNG",
    "DEFAULT_VERSION",
    "EMBEDDED_PREFIX",
    "MOVES_TAG",
    "PASS_ACTION",
    "PATCH_TAG",
    "RNG_TAG",
    "VERSION_TAG",
    "Warn",
    "game_names",
    "parse_trial",
    "trial_text",
    "write_trial",
]
