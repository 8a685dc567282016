"""Limits per client: requests a second and streams open at once, per token or peer address.

A call that carries a token is counted against that token (whoever sends it, from wherever);
a call without one is counted against the address it comes from (its IP, without the port).
So clients behind one address do not starve one another once they hold tokens, and a flood
of calls with made-up tokens is counted against its address, since an unknown token is no
one's. Each server process keeps its own counts (as it keeps its own watchers).

Requests a second are a token bucket per client: it holds up to ``burst`` requests and fills
at ``rate`` a second; a call that finds it empty is refused with RESOURCE_EXHAUSTED and how
long until the next request would be let through (google.rpc.RetryInfo). Streams (Watch,
Replay) are counted while they are open. ``gamerec limits`` lists these limits and their
defaults; ``gamerec serve --client-limit NAME=N`` changes one.
"""

from __future__ import annotations

import dataclasses
import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Final

from gamerec.validator.live.referee import parse_limit_settings


@dataclass(frozen=True, slots=True)
class ClientLimits:
    """The limits per client (``gamerec limits`` lists them; see the module docstring).

    Attributes:
        token_rate: requests a second per token.
        token_burst: requests one token may send at once, after a pause.
        peer_rate: requests a second per peer address, of calls without a token.
        peer_burst: requests one address may send at once without a token.
        token_streams: streams one token may hold open at once.
        peer_streams: streams one address may hold open at once without a token.
        admin_open_matches: open matches one admin may have created (across the store).
        client_challenges: lobby challenges one client may have open (across the store).
    """

    token_rate: int = 200
    token_burst: int = 400
    peer_rate: int = 500
    peer_burst: int = 1000
    token_streams: int = 32
    peer_streams: int = 256
    admin_open_matches: int = 1000
    client_challenges: int = 10

    def with_settings(self, settings: Sequence[str]) -> ClientLimits:
        """These limits with some changed by ``NAME=N`` (``token-rate=50``).

        Raises:
            ValueError: an unknown name, or a value that is not a whole number >= 1.
        """
        return dataclasses.replace(self, **parse_limit_settings(settings, CLIENT_LIMIT_MEANINGS))


#: Each client limit's name and what it bounds (``gamerec limits``).
CLIENT_LIMIT_MEANINGS: Final = {
    "token_rate": "requests a second per token (past it: RESOURCE_EXHAUSTED with RetryInfo)",
    "token_burst": "requests one token may send at once after a pause",
    "peer_rate": "requests a second per peer address, of calls without a token",
    "peer_burst": "requests one peer address may send at once without a token",
    "token_streams": "streams (Watch, Replay) one token holds open at once",
    "peer_streams": "streams one peer address holds open at once without a token",
    "admin_open_matches": "open matches one admin may have created (CreateMatch past it: "
    "RESOURCE_EXHAUSTED)",
    "client_challenges": "lobby challenges one client may have open (OpenChallenge past it: "
    "RESOURCE_EXHAUSTED)",
}


class TokenBucket:
    """Up to ``burst`` requests at once, refilled at ``rate`` a second."""

    __slots__ = ("_at", "_left", "burst", "rate")

    def __init__(self, rate: float, burst: float, now: float) -> None:
        """A full bucket at ``now`` (seconds)."""
        self.rate = rate
        self.burst = burst
        self._left = burst
        self._at = now

    def take(self, now: float) -> float:
        """Take one request: 0 when let through, else the seconds until one would be."""
        self._left = min(self.burst, self._left + (now - self._at) * self.rate)
        self._at = now
        if self._left >= 1:
            self._left -= 1
            return 0.0
        return (1 - self._left) / self.rate

    def full(self, now: float) -> bool:
        """Whether the bucket is full again (it may be forgotten)."""
        return self._left + (now - self._at) * self.rate >= self.burst


class OverLimitError(Exception):
    """A call over a limit per client.

    Attributes:
        limit: the limit's name (``token-rate``).
        retry_after: seconds until the call would be let through (0: when a stream ends).
    """

    def __init__(self, limit: str, message: str, retry_after: float) -> None:
        """Name the limit, say why, and when to try again."""
        super().__init__(message)
        self.limit = limit
        self.retry_after = retry_after


#: Buckets kept before the full ones (clients quiet for a while) are forgotten.
MOST_BUCKETS: Final = 10_000


class ClientQuotas:
    """The counts of one server process (see the module docstring).

    Args:
        limits: the limits.
        clock: seconds, monotonic (injectable for tests).
    """

    def __init__(self, limits: ClientLimits, clock: Callable[[], float] = time.monotonic) -> None:
        """Count against ``limits``."""
        self.limits = limits
        self._clock = clock
        self._buckets: dict[str, TokenBucket] = {}
        self._streams: dict[str, int] = {}

    def take(self, key: str, by_token: bool) -> None:
        """Count one request of a client (``key``: its token's or address's name).

        Raises:
            OverLimitError: the client's bucket is empty.
        """
        now = self._clock()
        bucket = self._buckets.get(key)
        if bucket is None:
            if len(self._buckets) >= MOST_BUCKETS:
                self._forget_full(now)
            rate, burst = self._rate(by_token)
            bucket = self._buckets[key] = TokenBucket(rate, burst, now)
        wait = bucket.take(now)
        if wait:
            limit = "token-rate" if by_token else "peer-rate"
            who = "token" if by_token else "peer address without a token"
            raise OverLimitError(
                limit,
                f"too many requests: {bucket.rate:,.0f} a second per {who} (limit {limit}); "
                f"try again in {_seconds(wait)}",
                wait,
            )

    def open_stream(self, key: str, by_token: bool) -> None:
        """Count a stream that opens (:meth:`close_stream` when it ends).

        Raises:
            OverLimitError: the client holds as many streams as its limit.
        """
        most = self.limits.token_streams if by_token else self.limits.peer_streams
        held = self._streams.get(key, 0)
        if held >= most:
            limit = "token-streams" if by_token else "peer-streams"
            who = "token" if by_token else "peer address without a token"
            raise OverLimitError(
                limit,
                f"too many streams: {most:,} open at once per {who} (limit {limit}); close "
                "one first",
                1.0,
            )
        self._streams[key] = held + 1

    def close_stream(self, key: str) -> None:
        """A stream counted by :meth:`open_stream` ended."""
        held = self._streams.get(key, 0) - 1
        if held > 0:
            self._streams[key] = held
        else:
            self._streams.pop(key, None)

    def streams(self, key: str) -> int:
        """The streams a client holds open now."""
        return self._streams.get(key, 0)

    def _rate(self, by_token: bool) -> tuple[float, float]:
        if by_token:
            return self.limits.token_rate, max(1, self.limits.token_burst)
        return self.limits.peer_rate, max(1, self.limits.peer_burst)

    def _forget_full(self, now: float) -> None:
        for key in [key for key, bucket in self._buckets.items() if bucket.full(now)]:
            del self._buckets[key]


def _seconds(wait: float) -> str:
    """A wait in words: ``0.35 s``, rounded up to the hundredth."""
    return f"{math.ceil(wait * 100) / 100:.2f} s"
