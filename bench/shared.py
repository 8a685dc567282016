"""What the sections of ``python -m bench`` share: the run's scale, the peers, a step.

:class:`Scale` (:data:`FULL`, :data:`QUICK`: how much data and how many repetitions), the
peers' names and :class:`Peers` (each made ready once, on first use), and :func:`_step` (one
measurement, said on stderr with its time). It imports ``bench.peers``.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from bench import peers

GO = "sgfmill 9x9 Go replay"
OWARE = "OpenSpiel Oware checked replay"
CHESS = "python-chess PGN read+replay"

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Scale:
    """How much data and how many repetitions a run uses.

    Attributes:
        games: games per engine and per peer.
        chess_games: chess games (reading PGN is slow; fewer keep the run short).
        repetitions: timed repetitions of each in-process figure.
        records: the large and the small ``.pbs`` for ``gamerec validate``.
        validate_runs: runs of ``gamerec validate`` per figure.
        encoding_records: records in the archive validated in every encoding.
        startup_runs: fresh processes per start-up figure.
        service_seconds: seconds of each service round.
        service_rounds: rounds per method and number of callers.
        collection_records: the large and the small collection of ``find`` and ``stats``.
        collection_runs: runs of each command over them.
        live_matches: matches played at once on the match service.
        foreign_records: Oust games in the Abstract Play array of the ``foreign`` section.
        tournament_games: games of each tournament and generate run.
        event_players: players of the Swiss round paired; event_games: games rated.
    """

    games: int
    chess_games: int
    repetitions: int
    records: tuple[int, int]
    validate_runs: int
    encoding_records: int
    startup_runs: int
    service_seconds: float
    service_rounds: int
    collection_records: tuple[int, int] = (200_000, 20_000)
    collection_runs: int = 2
    live_matches: int = 1_000
    foreign_records: int = 2_000
    tournament_games: int = 200
    event_players: int = 500
    event_games: int = 100_000


FULL = Scale(2_000, 500, 5, (20_000, 1_000), 3, 5_000, 15, 3.0, 3)
QUICK = Scale(
    200, 50, 2, (2_000, 200), 1, 500, 10, 1.0, 1, (20_000, 2_000), 1, live_matches=100,
    foreign_records=200, tournament_games=20, event_players=100, event_games=10_000,
)  # fmt: skip


class Peers:
    """The peers, made ready once and shared by the sections that time them in turn."""

    def __init__(self, scale: Scale) -> None:
        """Make nothing yet; each peer is made ready on first use."""
        self._scale = scale
        self._runs: dict[str, peers.PeerRun | None] = {}

    def runner(self, name: str) -> peers.PeerRun | None:
        """A peer ready to time, or None when its library is not installed."""
        if name not in self._runs:
            self._runs[name] = self._make(name)
        return self._runs[name]

    def _make(self, name: str) -> peers.PeerRun | None:
        scale = self._scale
        make: dict[str, Callable[[], peers.PeerRun]] = {
            GO: lambda: peers.go_run(scale.games),
            OWARE: lambda: peers.oware_run(scale.games),
            CHESS: lambda: peers.chess_run(scale.chess_games),
        }
        try:
            found = _step(f"peer: {name}", make[name])
        except peers.PeerMissingError as missing:
            print(f"  skipped: {missing}", file=sys.stderr)
            return None
        print(f"  {found.games:,} games, {found.plies:,} plies", file=sys.stderr)
        return found


def _step(title: str, run: Callable[[], T]) -> T:
    """Run one measurement, saying on stderr what it is and how long it took."""
    print(f"{title} ...", file=sys.stderr, flush=True)
    started = time.perf_counter()
    result = run()
    print(f"  done in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return result
