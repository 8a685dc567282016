"""One live match as a state machine: commands in, events out, no I/O (docs/live.md).

A :class:`Match` referees one game over the engines, the record builder (which checks every
ply the moment it is played and seals and signs the record as it grows, docs/seals.md) and the
clocks of its time control. It knows nothing of networks, stores or the time of day: every
command takes the :class:`~gamerec.validator.live.clocks.Instant` at which it was received,
and answers with the events it appended (:class:`Logged`: the event and that instant). Events
are the match's log: :meth:`Match.from_log` rebuilds the same match from them, with the same
record bit for bit (Ed25519 signatures are deterministic), which is how a server resumes
after a restart and how several processes that share one store agree.

A command changes the match before it returns; a caller whose store does not accept the
events (another process appended first) rebuilds the match from the store's log.

How a match ends (docs/live.md says it for each game):

- by the rules: the engine says the game is over; the result is the rules' result
  (``normal``, or ``resignation`` when a resignation ended it);
- a flag falls: ``timeout``; the seat whose time ran out ranks last, the seats still playing
  are ranked by the scores of the position reached (resigned seats below them, in the rules'
  order), as ``gamerec adjudicate`` rules a timeout; with two seats playing the other wins;
- an illegal move under the FORFEIT policy, or a resignation by a seat that is not to move
  with two seats playing: ``adjudicated`` (the format has no ``forfeit``: the referee decided
  the result), ranked the same way;
- every seat still playing accepts a draw: ``agreement``, those seats share first place;
- an abort (a seat before every seat has moved, the admin at any time), or the plies limit:
  ``abandoned`` with no result (``Result *``).

With three or more seats a resignation is a ply of the seat to move (the rules of ONE and
Oh-Wah-Ree, §7): the seat leaves the turn order and the game goes on. A seat that resigns
while it is not its turn has its ``resign`` played by the referee the moment its turn comes.

The package's modules, each over the ones before it:

- :mod:`.events`: the constants, :class:`Logged`, :class:`Outcome` and the refusals;
- :mod:`.creation`: a CreateMatch request read into the starting record and its builder;
- :mod:`.core`: the match's state, rebuilt from its log, and its clocks (``MatchCore``);
- :mod:`.ending`: the steps that end a match (``MatchEnding``);
- :mod:`.commands`: :class:`Match`, its commands.

It may import ``gamerec.recorder``, ``gamerec.v1``, ``gamerec.validator`` (the builder, the
engines' protocol, identity, the judge's and adjudication's words) and
``gamerec.validator.live``'s ``clocks``, ``starts`` and ``timecontrol``; nothing of I/O.
"""

from gamerec.validator.live.match.commands import Match
from gamerec.validator.live.match.events import (
    ABORTED,
    ADMIN,
    EVENTS_ROOM,
    FINISHED,
    FORFEIT,
    MALFORMED_MOVE,
    MAX_EVENTS,
    MAX_MATCH_TEXT,
    OPEN,
    REJECT,
    CommandRefusedError,
    Logged,
    MatchLogError,
    Outcome,
    Refusal,
)

__all__ = [
    "ABORTED",
    "ADMIN",
    "EVENTS_ROOM",
    "FINISHED",
    "FORFEIT",
    "MALFORMED_MOVE",
    "MAX_EVENTS",
    "MAX_MATCH_TEXT",
    "OPEN",
    "REJECT",
    "CommandRefusedError",
    "Logged",
    "Match",
    "MatchLogError",
    "Outcome",
    "Refusal",
]
