"""The match service's limits: :class:`MatchLimits`, their names and meanings, the error.

``gamerec limits`` lists them and ``--match-limit NAME=N`` changes them
(:func:`parse_limit_settings`, which the service's quotas read too). It may import
``gamerec.recorder`` and :mod:`gamerec.validator.live.match`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

from gamerec.recorder.errors import GamerecError
from gamerec.recorder.limits import DEFAULT_LIMITS
from gamerec.validator.live.match import MAX_EVENTS


@dataclass(frozen=True, slots=True)
class MatchLimits:
    """The limits of the match service (``gamerec limits`` lists them).

    Attributes:
        open_matches: matches open at once in the store.
        watchers: Watch streams of one match at once, in one server process.
        request_bytes: bytes of one MatchService request.
        plies: plies of one match (a record may hold no more); the match is then abandoned.
        listed: matches one ListMatches answer lists at most.
        events: events of one match (moves, signatures, draw offers and answers, ...); a
            command that finds too little room left abandons the match.
        open_challenges: the lobby's challenges open at once in the store
            (``gamerec.validator.lobby``).
        challenge_seconds: seconds a challenge stays open unless it fills.
        bulk: matches one CreateMatches call creates at most.
        bulk_bytes: bytes of one CreateMatches request.
    """

    open_matches: int = 10_000
    watchers: int = 1_000
    request_bytes: int = 64 * 1024
    plies: int = DEFAULT_LIMITS.max_plies
    listed: int = 1_000
    events: int = MAX_EVENTS
    open_challenges: int = 1_000
    challenge_seconds: int = 3_600
    bulk: int = 1_000
    bulk_bytes: int = 1024 * 1024

    def with_settings(self, settings: Sequence[str]) -> MatchLimits:
        """These limits with some changed by ``NAME=N`` (``watchers=100``, ``open-matches=50``).

        Raises:
            ValueError: an unknown name, or a value that is not a whole number >= 1.
        """
        changes = parse_limit_settings(settings, LIMIT_MEANINGS)
        return dataclasses.replace(self, **changes)


#: Each limit's name (as ``--match-limit`` takes it) and what it bounds.
LIMIT_MEANINGS: Final = {
    "open_matches": "matches open at once in one store (CreateMatch past it: RESOURCE_EXHAUSTED)",
    "watchers": "Watch streams of one match at once, per server process",
    "request_bytes": "bytes of one MatchService request",
    "plies": "plies of one match (then it is abandoned: a record may hold no more)",
    "listed": "matches one ListMatches answer lists",
    "events": "events of one match: moves, signatures, draw offers and answers (near it the "
    "match is abandoned)",
    "open_challenges": "lobby challenges open at once in one store (OpenChallenge past it: "
    "RESOURCE_EXHAUSTED)",
    "challenge_seconds": "seconds a lobby challenge stays open unless its seats fill (then it "
    "expires)",
    "bulk": "matches one CreateMatches call creates (all or none)",
    "bulk_bytes": "bytes of one CreateMatches request",
}


def parse_limit_settings(settings: Sequence[str], meanings: dict[str, str]) -> dict[str, int]:
    """``NAME=N`` settings as field names and values (names with ``-`` or ``_``).

    Raises:
        ValueError: an unknown name, or a value that is not a whole number >= 1.
    """
    changes = {}
    names = {name.replace("_", "-"): name for name in meanings}
    for setting in settings:
        name, equals, text = setting.partition("=")
        known = names.get(name.strip().lower().replace("_", "-"))
        if known is None or not equals:
            raise ValueError(
                f"expected NAME=N with NAME one of {', '.join(names)}, found {setting!r}"
            )
        try:
            value = int(text.strip())
        except ValueError:
            value = 0
        if value < 1:
            raise ValueError(f"limit {name.strip()}: {text!r} is not a whole number >= 1")
        changes[known] = value
    return changes


class LimitReachedError(GamerecError):
    """A server limit: too many open matches, watchers, or a request too large.

    Attributes:
        limit: the limit's name (``watchers``).
        field: the request's field concerned.
    """

    def __init__(self, limit: str, field_name: str, message: str) -> None:
        """Name the limit, the field and the problem."""
        self.limit = limit
        self.field = field_name
        super().__init__(message)
