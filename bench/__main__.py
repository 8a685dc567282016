"""``python -m bench``: every benchmark of gamerec beside its peers, in one run, as one table.

Sections (``--sections`` picks some; all by default):

1. ``engines``: each engine's checked replay (``Engine.replay``) over 2,000 seeded random
   games, plies/s, against sgfmill's 9x9 Go replay (ONE, Aronda, Oust: at least 2x) and
   OpenSpiel's Oware (Oh-Wah-Ree, two seats: at least 1x), and the fast replay against the
   same games played with ``check`` and ``play`` per ply (the fast path must pay: above 1x).
2. ``peers``: the peers themselves (OpenSpiel Oware, python-chess reading and replaying PGN,
   sgfmill replaying 9x9 Go), measured in the same run (the ``bench`` extra installs them).
3. ``validate``: ``gamerec validate`` over a 20,000-record ``.pbs`` of mixed games with one
   worker and with all cores: records/s, plies/s (at least 5x python-chess's PGN plies/s)
   and peak memory (at 20,000 records within 1.2x of that at 1,000).
4. ``encodings``: ``gamerec validate`` of one 5,000-record mixed archive as ``.pbs``,
   ``.grn`` and ``.jsonl``, one worker and all cores: plies/s against ``.pbs`` at the same
   worker count (text at least a third of it) and, on all cores, against python-chess's PGN
   plies/s (at least 5x).
5. ``startup``: medians of 15 fresh processes: ``gamerec --help`` and ``gamerec validate`` of
   one 60-ply ``.pb`` against bare ``python -c pass`` (validate within 5x) and against a
   python-chess script that reads and replays one PGN game (validate no slower).
6. ``service``: ``Validate`` calls/s and p50/p99 latency at 1, 8 and 32 callers next to an
   echo RPC with the same payload on the same server (at 32 callers, at least 60% of echo).
7. ``seals``: ``verify`` of a signed 100-ply record (203 signatures) against ``validate`` of
   the same record and, as signatures/s, against bare Ed25519 verifies/s (the floor).
8. ``viewer``: the ``gamerec view`` page of a 100-ply record (Oust on its largest board,
   Oh-Wah-Ree): its size against the issue's 300 KB (at most 1x) and against the SVG pictures
   of every ply, and its build time against drawing those pictures.
9. ``collections``: ``gamerec find`` (by a player: nothing replayed; ``--invalid``: every record
   replayed) and ``gamerec stats`` over a 200,000-record ``.pbs``, records/s against
   ``validate`` of the same file and peak memory (at 200,000 within 1.2x of that at 20,000),
   and against pgn-extract selecting by player from as many chess games (a ratio).
10. ``cluster``: ``gamerec validate --scheduler`` on a Dask cluster of 1 and 2 worker processes
    over a 200,000-record ``.pbs``, records/s against ``--workers 1`` and ``2`` on the same file
    (within 15%: at least 0.85x), and the ``.pbs`` index scan in MB/s beside a plain read.
11. ``live``: 1,000 matches of bots at once on ``gamerec serve --matches``: moves/s, each
    move's round trip against a bare Echo sent beside it on the same server (p99 within 3x),
    a flag's lateness to its watcher (within 100 ms) and the server's memory per open match
    at 4,000 open matches against 1,000 (linear: within 1.2x).
12. ``foreign``: ``gamerec validate`` of 2,000 Oust games as Abstract Play publishes them (one
    JSON array of game records), one worker and all cores: plies/s against the ``.jsonl`` of
    the same records at the same worker count (at least a third of it, as for GRN).
13. ``tournament``: ``gamerec tournament`` of 200 Aronda games between the two built-in
    engines as processes, one game at a time and one per core, games/s against the same
    number of games by ``gamerec generate`` (the cost of the protocol, processes, referee).

Every timing is the median of several repetitions (the machine is shared: ratios are what to
compare); generated data is seeded and cached in ``bench/.data``. ``--quick`` is a smoke run
with less data and fewer repetitions (its figures are rougher). Progress goes to stderr, the
table to stdout. ``make bench`` installs the extra and runs this.
"""

from __future__ import annotations

import argparse
import platform
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import TypeVar

from bench import (
    bench_cluster,
    bench_collections,
    bench_encodings,
    bench_foreign,
    bench_live,
    bench_seals,
    bench_service,
    bench_startup,
    bench_tournament,
    bench_validate,
    bench_viewer,
    engines,
    peers,
)
from bench.figures import Figure, table
from gamerec.validator.batch import default_workers

SECTIONS = (
    "engines",
    "peers",
    "validate",
    "encodings",
    "startup",
    "service",
    "seals",
    "viewer",
    "collections",
    "cluster",
    "live",
    "foreign",
    "tournament",
)
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


FULL = Scale(2_000, 500, 5, (20_000, 1_000), 3, 5_000, 15, 3.0, 3)
QUICK = Scale(
    200, 50, 2, (2_000, 200), 1, 500, 10, 1.0, 1, (20_000, 2_000), 1, live_matches=100,
    foreign_records=200, tournament_games=20,
)  # fmt: skip


class Peers:
    """The peers' figures, measured once and shared by the sections that compare with them."""

    def __init__(self, scale: Scale) -> None:
        """Measure nothing yet; each peer is measured on first use."""
        self._scale = scale
        self._rates: dict[str, float | None] = {}

    def rate(self, name: str) -> float | None:
        """A peer's plies/s, or None when its library is not installed."""
        if name not in self._rates:
            self._rates[name] = self._measure(name)
        return self._rates[name]

    def _measure(self, name: str) -> float | None:
        scale = self._scale
        measure: dict[str, Callable[[], peers.PeerFigures]] = {
            GO: lambda: peers.measure_go(scale.games, scale.repetitions),
            OWARE: lambda: peers.measure_oware(scale.games, scale.repetitions),
            CHESS: lambda: peers.measure_chess(scale.chess_games, scale.repetitions),
        }
        try:
            figures = _step(f"peer: {name}", measure[name])
        except peers.PeerMissingError as missing:
            print(f"  skipped: {missing}", file=sys.stderr)
            return None
        print(f"  {figures.games:,} games, {figures.plies:,} plies", file=sys.stderr)
        return figures.per_second


def engine_figures(scale: Scale, known: Peers) -> list[Figure]:
    """Section 1: each engine's checked replay against its peer."""
    figures = []
    for case in engines.CASES:
        measured = _step(
            f"engine: {case.label}",
            partial(engines.measure, case, scale.games, scale.repetitions),
        )
        oware = case.game == "Oh-Wah-Ree"
        reference = OWARE if oware else GO
        figures.append(
            Figure(
                f"{case.label}: Engine.replay",
                measured.replay_per_second,
                "plies/s",
                reference,
                known.rate(reference),
                target=1.0 if oware else 2.0,
            )
        )
        figures.append(engines.speedup_figure(measured))
    return figures


def peer_figures(known: Peers) -> list[Figure]:
    """Section 2: the peers on their own."""
    return [
        Figure(name, rate, "plies/s") for name in (OWARE, CHESS, GO) if (rate := known.rate(name))
    ]


def validate_figures(scale: Scale, known: Peers) -> list[Figure]:
    """Section 3: ``gamerec validate`` end to end, one worker and all cores, and its memory."""
    large, small = scale.records
    cores = default_workers()
    figures = []
    for workers in sorted({1, cores}):
        label = "1 worker" if workers == 1 else f"{workers} workers (all cores)"
        runs = {
            count: _step(
                f"gamerec validate: {count:,} records, {label}",
                partial(
                    bench_validate.median_run,
                    bench_validate.collection(count),
                    workers,
                    scale.validate_runs,
                ),
            )
            for count in (large, small)
        }
        run = runs[large]
        figures += [
            Figure(f"validate {large:,} records, {label}", run.records / run.seconds, "records/s"),
            Figure(
                f"validate {large:,} records, {label}",
                run.plies / run.seconds,
                "plies/s",
                CHESS,
                known.rate(CHESS),
                target=5.0 if workers == cores else None,
            ),
            Figure(
                f"validate peak memory, {label}",
                run.peak_tree_kib / 1024,
                "MiB",
                f"the same at {small:,} records",
                runs[small].peak_tree_kib / 1024,
                target=1.2,
                at_most=True,
            ),
        ]
    return figures


def encoding_figures(scale: Scale, known: Peers) -> list[Figure]:
    """Section 4: one archive in every encoding, against ``.pbs`` and python-chess."""
    runs = _step(
        f"gamerec validate: {scale.encoding_records:,} records as .pbs, .grn and .jsonl",
        partial(bench_encodings.measure, scale.encoding_records, scale.validate_runs),
    )
    rate = {(m.encoding, m.workers): m.run.plies / m.run.seconds for m in runs}
    cores = default_workers()
    figures = []
    for (encoding, workers), value in rate.items():
        label = f".{encoding}, {'1 worker' if workers == 1 else f'{workers} workers'}"
        binary = rate[("pbs", workers)]
        if encoding != "pbs":
            figures.append(
                Figure(f"validate {label}", value, "plies/s", ".pbs, same workers", binary, 1 / 3)
            )
        if workers == cores:
            target = None if encoding == "pbs" else 5.0
            chess = known.rate(CHESS)
            figures.append(Figure(f"validate {label}", value, "plies/s", CHESS, chess, target))
        elif encoding == "pbs":
            figures.append(Figure(f"validate {label}", value, "plies/s"))
    return figures


def startup_figures(scale: Scale) -> list[Figure]:
    """Section 5: start-up of the main job on one file, against Python and python-chess."""
    measured = _step(
        f"start-up: {scale.startup_runs} fresh processes per command",
        partial(bench_startup.measure, scale.startup_runs),
    )
    python = "python -c pass"
    chess = "python-chess: read+replay one PGN game"
    validate = "gamerec validate, one 60-ply .pb"
    bare, ms = measured.python * 1000, measured.validate * 1000
    figures = [
        Figure(python, bare, "ms"),
        Figure("gamerec --help", measured.help * 1000, "ms", python, bare),
        Figure(validate, ms, "ms", python, bare, target=5.0, at_most=True),
    ]
    if measured.chess is not None:
        peer = measured.chess * 1000
        figures.append(Figure(chess, peer, "ms"))
        figures.append(Figure(validate, ms, "ms", chess, peer, target=1.0, at_most=True))
    return figures


def service_figures(scale: Scale) -> list[Figure]:
    """Section 6: Validate next to echo at 1, 8 and 32 callers."""
    measured = _step(
        "service: Validate and echo at 1, 8 and 32 callers",
        lambda: bench_service.measure(
            bench_service.CALLERS, scale.service_seconds, scale.service_rounds
        ),
    )
    figures = []
    for load in measured:
        name = f"Validate 100 plies, {load.callers} caller{'s' * (load.callers > 1)}"
        figures += [
            Figure(
                name,
                load.validate.calls_per_second,
                "calls/s",
                "echo, same payload and server",
                load.echo.calls_per_second,
                target=0.6 if load.callers == 32 else None,
            ),
            Figure(f"{name}, p50", load.validate.p50_ms, "ms", "echo p50", load.echo.p50_ms),
            Figure(f"{name}, p99", load.validate.p99_ms, "ms", "echo p99", load.echo.p99_ms),
        ]
    return figures


def cluster_figures(scale: Scale) -> list[Figure]:
    """Section 10: the run on a Dask cluster against the local run, and the index scan."""
    records = bench_cluster.RECORDS if scale is FULL else 20_000
    measured = _step(
        f"cluster: {records:,} records on 1 and 2 Dask workers, and locally",
        partial(bench_cluster.measure, records, scale.validate_runs),
    )
    return bench_cluster.figures(measured)


def seal_figures(scale: Scale) -> list[Figure]:
    """Section 7: verify a signed 100-ply record, against validate and bare Ed25519."""
    rates = _step(
        "seals: verify, validate and Ed25519 on a signed 100-ply record",
        partial(bench_seals.measure, scale.repetitions),
    )
    name = f"verify, signed 100-ply record ({rates.signatures} signatures)"
    return [
        Figure(name, rates.verify, "records/s"),
        Figure(
            f"{name}, time per record",
            1000 / rates.verify,
            "ms",
            "validate of the same record",
            1000 / rates.validate,
        ),
        Figure(
            name,
            rates.verify * rates.signatures,
            "signatures/s",
            "bare Ed25519 verifies (the floor)",
            rates.ed25519,
        ),
        Figure("bare Ed25519 verify (cryptography)", rates.ed25519, "verifies/s"),
    ]


def viewer_figures(scale: Scale) -> list[Figure]:
    """Section 8: a 100-ply record's page: size and build time, beside its SVG pictures."""
    measured = _step("viewer: pages of 100-ply records", partial(bench_viewer.measure, 5))
    figures = []
    for page in measured:
        name = f"view page, {page.game} 100 plies"
        figures += [
            Figure(name, page.page_bytes / 1000, "KB", "the issue's bound", 300.0, 1.0, True),
            Figure(
                name, page.page_bytes / 1000, "KB", "SVG of every ply", page.pictures_bytes / 1000
            ),
            Figure(
                name,
                page.page_seconds * 1000,
                "ms",
                "SVG of every ply",
                page.pictures_seconds * 1000,
            ),
        ]
    return figures


def collection_figures(scale: Scale) -> list[Figure]:
    """Section 9: find and stats against validate of the same file, and against pgn-extract."""
    large, small = scale.collection_records
    measured = _step(
        f"find and stats: {large:,} and {small:,} records, {scale.collection_runs} runs each",
        partial(bench_collections.measure, large, small, scale.collection_runs),
    )
    return bench_collections.figures(measured)


def foreign_figures(scale: Scale) -> list[Figure]:
    """Section 12: a year of Abstract Play games as its JSON array, against ``.jsonl``."""
    runs = _step(
        f"gamerec validate: {scale.foreign_records:,} Oust games as Abstract Play's array "
        "and as .jsonl",
        partial(bench_foreign.measure, scale.foreign_records, scale.validate_runs),
    )
    rate = {(found.encoding, found.workers): found.run.plies / found.run.seconds for found in runs}
    figures = []
    for (name, workers), value in rate.items():
        if name == "abstractplay":
            label = f"validate Abstract Play array, {workers} worker{'s' * (workers > 1)}"
            reference = rate[("jsonl", workers)]
            figures.append(
                Figure(label, value, "plies/s", ".jsonl, same workers", reference, 1 / 3)
            )
    return figures


def live_figures(scale: Scale) -> list[Figure]:
    """Section 11: matches of bots at once on the match service."""
    measured = _step(
        f"live: {scale.live_matches:,} matches of bots at once on gamerec serve --matches",
        partial(bench_live.measure, scale.live_matches),
    )
    return bench_live.figures(measured)


def tournament_figures(scale: Scale) -> list[Figure]:
    """Section 12: engine tournaments against generate."""
    measured = _step(
        f"tournament: {scale.tournament_games:,} Aronda games, built-in engines as processes",
        partial(bench_tournament.measure, scale.tournament_games),
    )
    return bench_tournament.figures(measured)


def _step(title: str, run: Callable[[], T]) -> T:
    """Run one measurement, saying on stderr what it is and how long it took."""
    print(f"{title} ...", file=sys.stderr, flush=True)
    started = time.perf_counter()
    result = run()
    print(f"  done in {time.perf_counter() - started:.1f} s", file=sys.stderr, flush=True)
    return result


def _runs(scale: Scale, known: Peers) -> dict[str, Callable[[], list[Figure]]]:
    """Each section's measurement, in the order a full run makes them."""
    return {
        "engines": partial(engine_figures, scale, known),
        "peers": partial(peer_figures, known),
        "validate": partial(validate_figures, scale, known),
        "encodings": partial(encoding_figures, scale, known),
        "startup": partial(startup_figures, scale),
        "service": partial(service_figures, scale),
        "cluster": partial(cluster_figures, scale),
        "seals": partial(seal_figures, scale),
        "viewer": partial(viewer_figures, scale),
        "collections": partial(collection_figures, scale),
        "live": partial(live_figures, scale),
        "foreign": partial(foreign_figures, scale),
        "tournament": partial(tournament_figures, scale),
    }


def main() -> None:
    """Run the chosen sections and print the table."""
    parser = argparse.ArgumentParser(
        prog="python -m bench", description=__doc__, formatter_class=argparse.RawTextHelpFormatter
    )
    parser.add_argument("--quick", action="store_true", help="a fast smoke run, less data")
    parser.add_argument(
        "--sections",
        nargs="+",
        choices=SECTIONS,
        default=list(SECTIONS),
        help="the sections to run (default: all)",
    )
    options = parser.parse_args()
    scale = QUICK if options.quick else FULL
    known = Peers(scale)
    started = time.perf_counter()
    figures: list[Figure] = []
    for section, run in _runs(scale, known).items():  # in this order, whatever was asked
        if section in options.sections:
            figures += run()
    print(
        f"gamerec benchmarks{' (quick)' if options.quick else ''}: {platform.python_version()}, "
        f"{default_workers()} cores, {time.perf_counter() - started:.0f} s; medians of "
        f"{scale.repetitions} repetitions in process, {scale.validate_runs} of gamerec "
        f"validate, {scale.service_rounds} service rounds of {scale.service_seconds:g} s"
    )
    print(table(figures))
    missed = [figure.name for figure in figures if figure.met is False]
    if missed:
        print(f"targets missed: {len(missed)}")


if __name__ == "__main__":
    main()
