"""Abstract Play's game records (schema gamerecord 1-0-0) as gamerec records, and back.

The format (docs/formats.md cites the schema and gameslib's generator, ``GameBase.genRecord``):
a JSON object with a ``header`` (the game's name and variants, the site and game id, three
dates, the players in seating order as of the end, each with a name, a user id, a score and a
``result``, the larger the better) and ``moves``: rounds, each an array of one entry per seat
(null, a move string, or an object with ``move``, ``sequence`` and ``result``).

How the parts map (docs/formats.md has the table):

- ``header.game``: the game (a game's :class:`~gamerec.recorder.syntax.foreign.AbstractPlayForm`
  reads its name, variants and move strings); ``event``, ``round`` and ``site.name`` are the
  record's; ``date-start`` its start time; the players are its seats (``name``, ``userid``);
  their ``result`` numbers its claimed result (the winners are the players with the largest);
- ``moves``: the entries in order are the plies; the entry's place in its round is its seat.
  ``pass`` and ``resign`` are GRN's; ``timeout``, ``draw`` and ``abandoned`` (gameslib writes
  them as the last move of a game that ended so) are the result's termination;
- ``pie-invoked`` (or ``pied``): the second seat took over the first move, so the record gets
  a ``swap`` as ply 2 and the players' seats are those before the swap (Abstract Play lists
  them as of the end);
- kept in free tags: ``site.gameid`` (``AbstractPlayGameId``), ``date-end``
  (``AbstractPlayDateEnd``, when it is not ``date-start``), ``date-generated``
  (``AbstractPlayDateGenerated``, when it is not ``date-end``), ``unrated``
  (``AbstractPlayUnrated``), the players' scores (``AbstractPlayScores``, ``12,0``) and,
  as a patch (:mod:`~gamerec.recorder.foreign.keeping`), everything else that the exporter
  would not write back the same (``AbstractPlayJSON``): unknown header keys, a ``null``
  result, a move object's ``result``, a label written otherwise.

A record whose fields Abstract Play has no place for is written with an embedded copy of the
whole record under ``header.gamerec`` (the schema lets a header hold more keys), which
Abstract Play ignores and gamerec reads back; the writer names those fields in a warning.

The package holds ``form`` (the tags, endings and games both directions share), ``reader``
(a parsed record to a GameRecord), ``writer`` (a GameRecord's Abstract Play form) and
``codec`` (JSON text to records and back, with the embedded copy); this module re-exports
their public names.
"""

from __future__ import annotations

from gamerec.recorder.foreign.abstractplay.codec import (
    abstract_play_value,
    parse_abstract_play,
    record_of_value,
    write_abstract_play,
)
from gamerec.recorder.foreign.abstractplay.form import (
    DATE_END_TAG,
    DATE_GENERATED_TAG,
    EMBEDDED,
    ENDINGS,
    GAME_ID_TAG,
    NO_START,
    PATCH_TAG,
    SCORES_TAG,
    UNRATED_TAG,
    Warn,
    game_names,
    is_abstract_play,
)

__all__ = [
    "DATE_END_TAG",
    "DATE_GENERATED_TAG",
    "EMBEDDED",
    "ENDINGS",
    "GAME_ID_TAG",
    "NO_START",
    "PATCH_TAG",
    "SCORES_TAG",
    "UNRATED_TAG",
    "Warn",
    "abstract_play_value",
    "game_names",
    "is_abstract_play",
    "parse_abstract_play",
    "record_of_value",
    "write_abstract_play",
]
