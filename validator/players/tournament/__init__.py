"""Engine tournaments: the schedule, the openings, the games played N at a time, and resuming.

A tournament seats engines (each a command line under a name) in games of one game and
variant, refereed by :func:`play_engine_game` (the live match core: the server's rules,
clocks and forfeits), and hands every finished game to the caller as it ends.

**The schedule** (:func:`schedule`). With ``n`` seats, every table of ``n`` engines out of
the field (round robin), or every table that holds the first engine (gauntlet), plays once
per round in each of its ``n`` rotations (``A B C``, ``B C A``, ``C A B``), so every engine
sits in every seat of every table equally often; with two seats that is both colours. A table
in one round is an *encounter*: its rotations share one opening. Games are numbered in order;
the record's ``Round`` tag is ``<round>.<game of the round>`` (``3.2``), as PGN numbers the
games of a round.

**Openings** (:class:`Opening`): none, ``plies`` random plies per encounter (the random
policy, seeded by the tournament's seed and the encounter), or the first plies of the records
of a file, taken in order and cycled. Opening plies are played by the referee before the
engines are asked and carry the comment ``opening``.

**Resuming** (:func:`finished_rounds`). The games already in the output (records of the same
event) are matched to the schedule by their ``Round`` tag; a record whose seats, game or
time control differ from the schedule's game of that round belongs to another tournament and
stops the run. Only the missing games are played.

**Engines.** Each of the ``concurrency`` workers keeps one process per engine and plays its
games one after another on them (cutechess-cli's ``restart=auto``): an engine that crashed or
was stopped after a timeout is started again for its next game; one that cannot be started
forfeits that game before the first ply.

**Through a server.** With :attr:`Tournament.server`, every game is a match on a match server
instead (``gamerec.validator.service.tournament_games.MatchServer``): the server referees,
seals and signs it, and the record is the server's.

The package's modules: ``schedule`` (the field and the schedule), ``openings``, ``running``
(the tournament played, resumed, N games at a time) and ``scoreboard``.
"""

from __future__ import annotations

from gamerec.validator.players.tournament.openings import (
    DECIDED_TURNS,
    MAX_DRAWS,
    Opening,
    decided,
    file_openings,
    random_openings,
    same_rules,
)
from gamerec.validator.players.tournament.running import (
    GameServer,
    Tournament,
    finished_rounds,
    run_tournament,
)
from gamerec.validator.players.tournament.schedule import (
    CLIENT,
    DEFAULT_EVENT,
    Entrant,
    ScheduledGame,
    TournamentError,
    schedule,
    seats_of,
)
from gamerec.validator.players.tournament.scoreboard import (
    Scoreboard,
)

__all__ = [
    "CLIENT",
    "DECIDED_TURNS",
    "DEFAULT_EVENT",
    "MAX_DRAWS",
    "Entrant",
    "GameServer",
    "Opening",
    "ScheduledGame",
    "Scoreboard",
    "Tournament",
    "TournamentError",
    "decided",
    "file_openings",
    "finished_rounds",
    "random_openings",
    "run_tournament",
    "same_rules",
    "schedule",
    "seats_of",
]
