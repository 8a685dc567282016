"""One server process's referee of every live match: the store, the matches, clocks, watchers.

The :class:`Referee` runs commands against the matches it holds and makes each one count only
through the store: it lets the match decide (``gamerec.validator.live.match``), appends the
events with the store's conditional append, and only then answers and wakes the watchers. When
the append finds that another process appended first, the match is rebuilt from the store
and the command decided again (a repeated move then gets the first call's acceptance). A
command runs shielded from its caller's cancellation: a client that goes away mid-call never
leaves a match half changed.

It holds a match (its state, in memory) from the moment it is created here, a call or a
watcher asks for it, or the process starts (every open match). Events other processes append
reach it through the store's :meth:`~gamerec.validator.live.store.MatchStore.changes`, polled
every few milliseconds, and are applied to the matches it holds. Every match it holds has a
timer on the clock of its seat to move (one task times them all: ``flags``); when the flag
falls the timer appends the flag (exactly once, however many processes time the match: the
append is conditional).

At start the referee registers with the store; if no other process is running, the service
was down since its last heartbeat, and every open match gets an outage event (that time is
charged to no one). While it runs it beats every :attr:`RefereeSettings.heartbeat_seconds`.

The package's modules:

- :mod:`.limits`: the service's limits (:class:`MatchLimits`) and their settings;
- :mod:`.tokens`: seat tokens, their hashes and the constant-time match;
- :mod:`.holding`: the matches held, a command run through the store, the timers and the
  polling (``RefereeCore``);
- :mod:`.calls`: :class:`Referee`, the calls the servicer, the lobby and the tables make.

It may import ``gamerec.recorder``, ``gamerec.v1`` and ``gamerec.validator.live`` (``clocks``,
``flags``, ``match``, ``store``); no gRPC.
"""

from gamerec.validator.live.referee.calls import CLIENT, Referee
from gamerec.validator.live.referee.holding import (
    ATTEMPTS,
    FINISHED_KEPT,
    RefereeCore,
    RefereeTuning,
    UnknownMatchError,
)
from gamerec.validator.live.referee.limits import (
    LIMIT_MEANINGS,
    LimitReachedError,
    MatchLimits,
    parse_limit_settings,
)
from gamerec.validator.live.referee.tokens import (
    TOKEN_PREFIX,
    BadTokenError,
    new_token,
    seat_of,
    token_hash,
)

__all__ = [
    "ATTEMPTS",
    "CLIENT",
    "FINISHED_KEPT",
    "LIMIT_MEANINGS",
    "TOKEN_PREFIX",
    "BadTokenError",
    "LimitReachedError",
    "MatchLimits",
    "Referee",
    "RefereeCore",
    "RefereeTuning",
    "UnknownMatchError",
    "new_token",
    "parse_limit_settings",
    "seat_of",
    "token_hash",
]
