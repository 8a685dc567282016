"""``python -m bench``: every benchmark of gamerec beside its peers, in one run, as one table.

Sections (``--sections`` picks some; all by default):

1. ``engines``: each engine's checked replay (``Engine.replay``) over 2,000 seeded random
   games, plies/s, against sgfmill's 9x9 Go replay (ONE, Aronda, Oust: at least 2x) and
   OpenSpiel's Oware (Oh-Wah-Ree, two seats: at least 1x), and the fast replay against the
   same games played with ``check`` and ``play`` per ply (the fast path must pay: above 1x).
2. ``peers``: the peers themselves (OpenSpiel Oware, python-chess reading and replaying PGN,
   sgfmill replaying 9x9 Go), measured in the same run (the ``bench`` extra installs them).
3. ``judge``: ``validate(record)`` against ``Engine.replay`` of the same 2,000 games, per game,
   in one process (at least 0.6x; ``bench/bench_judge.py``).
4. ``validate``: ``gamerec validate`` over a 20,000-record ``.pbs`` of mixed games with one
   worker and with all cores: records/s, plies/s (at least 12x python-chess's PGN plies/s)
   and peak memory (at 20,000 records within 1.2x of that at 1,000).
5. ``encodings``: ``gamerec validate`` of one 5,000-record mixed archive as ``.pbs``,
   ``.grn`` and ``.jsonl``, one worker and all cores: plies/s against ``.pbs`` at the same
   worker count (text at least 0.6x of it) and, on all cores, against python-chess's PGN
   plies/s (.pbs at least 12x, text at least 8x).
6. ``startup``: 15 rounds of fresh processes, in turn: ``gamerec --help`` and ``gamerec
   validate`` of one 60-ply ``.pb`` against bare ``python -c pass`` (validate within 4x) and
   against a python-chess script that reads and replays one PGN game (within 0.8x).
7. ``service``: ``Validate`` calls/s and p50/p99 latency at 1, 8 and 32 callers next to an
   echo RPC with the same payload on the same server (at 32 callers, at least 60% of echo).
8. ``seals``: ``verify`` of a signed 100-ply record (203 signatures) against ``validate`` of
   the same record and, as signatures/s, against bare Ed25519 verifies/s (the floor).
9. ``viewer``: the ``gamerec view`` page of a 100-ply record (Oust on its largest board,
   Oh-Wah-Ree): its size against the issue's 300 KB (at most 1x) and against the SVG pictures
   of every ply, and its build time against drawing those pictures.
10. ``collections``: ``gamerec find`` (by a player: nothing replayed; ``--invalid``: every record
   replayed) and ``gamerec stats`` over a 200,000-record ``.pbs``, records/s against
   ``validate`` of the same file and peak memory (at 200,000 within 1.2x of that at 20,000),
   and against pgn-extract selecting by player from as many chess games (a ratio).
11. ``cluster``: ``gamerec validate --scheduler`` on a Dask cluster of 1 and 2 worker processes
    over a 200,000-record ``.pbs``, records/s against ``--workers 1`` and ``2`` on the same file
    (within 15%: at least 0.85x), and the ``.pbs`` index scan in MB/s beside a plain read.
12. ``live``: 1,000 matches of bots at once on ``gamerec serve --matches``: moves/s, each
    move's round trip against a bare Echo sent beside it on the same server (p99 within 3x),
    a flag's lateness to its watcher (within 100 ms) and the server's memory per open match
    at 4,000 open matches against 1,000 (linear: within 1.2x).
13. ``foreign``: ``gamerec validate`` of 2,000 Oust games as Abstract Play publishes them (one
    JSON array of game records), one worker and all cores: plies/s against the ``.jsonl`` of
    the same records at the same worker count (at least a third of it, as for GRN).
14. ``tournament``: ``gamerec tournament`` of 200 Aronda games between the two built-in
    engines as processes, one game at a time and one per core, games/s against the same
    number of games by ``gamerec generate`` (the cost of the protocol, processes, referee).
15. ``live-postgres``: the same 1,000 matches on two ``gamerec serve`` sharing one PostgreSQL
    store (each match's seats on both), moves/s and p99 round trip against one server on
    SQLite, in the same run (a server from the pgserver wheel; skipped if it cannot start).
16. ``tables``: Oh-Wah-Ree endgame tables (``bench/bench_tables.py``): the build of every
    two-seat position of up to 8 stones, positions/s against the engine playing every move of
    them once, and lookups/s against one engine ply on the same states (at least 1x).
17. ``web``: the web door (``gamerec serve --web``): a Play's round trip (p50, p99) and
    moves/s over Connect with JSON and with protobuf bodies against native gRPC on the same
    server, in turn (p50 within 2x), and the server's memory per open Watch stream over
    HTTP/1.1 at 4,000 streams against 1,000 (linear: within 1.2x).
18. ``event``: a round of a 500-player two-seat Swiss paired by the FIDE Dutch system
    (py4swiss), rating 100,000 games (Glicko-2 and Weng-Lin, games/s), and the log-loss of
    their forecasts of held-out games beside plain Elo's (``bench/bench_event.py``); and
    ``gamerec event start`` of a round of 250 matches in one ``CreateMatches`` call (all or
    none, one transaction), matches/s against 250 ``CreateMatch`` calls one by one
    (``bench/bench_event_start.py``).
19. ``search``: MCTS playouts/s and alpha-beta nodes/s per game and seat count from an
    opening position, the Oh-Wah-Ree MCTS beside OpenSpiel's MCTS bot on Oware (timed in
    turn), and MCTS root parallel on 2 processes against 1 (``bench/bench_search.py``).
20. ``lobby``: a two-seat challenge opened (``OpenChallenge``) and filled (the ``TakeSeat``
    that makes the match) over gRPC and over the web door's Connect JSON, against
    ``CreateMatch`` of the same match, in turn (``bench/bench_lobby.py``; no target).

Every ratio is measured in turn with its reference (A B A B ..., the order reversed every
other pair) and is the median of the pairs' ratios, shown with the lowest and highest pair:
on a shared, loaded machine only ratios of runs made under the same load mean anything. The
header prints the load average before and after. The service and live sections run their
servers with the limits per client lifted (the bench's callers all come from one address),
and say so. A section that fails prints why and the others still print their table (the
exit code is then 1). Generated data is seeded and cached in ``bench/.data``. ``--quick`` is
a smoke run with less data and fewer repetitions (its figures are rougher). Progress goes to
stderr, the table to stdout. ``make bench`` installs the extra and runs this.
"""

from __future__ import annotations

import argparse
import os
import platform
import statistics
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from typing import Any, TypeVar

from bench import (
    bench_cluster,
    bench_collections,
    bench_encodings,
    bench_event,
    bench_event_start,
    bench_foreign,
    bench_judge,
    bench_live,
    bench_live_postgres,
    bench_lobby,
    bench_seals,
    bench_search,
    bench_service,
    bench_startup,
    bench_tables,
    bench_tournament,
    bench_validate,
    bench_viewer,
    bench_web,
    engines,
    peers,
)
from bench.figures import Figure, Paired, median_seconds, paired, rate_figure, table
from bench.postgres import PostgresUnavailableError
from gamerec.validator.batch import default_workers

SECTIONS = (
    "engines",
    "peers",
    "judge",
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
    "live-postgres",
    "tables",
    "web",
    "event",
    "search",
    "lobby",
)
GO = "sgfmill 9x9 Go replay"
OWARE = "OpenSpiel Oware checked replay"
CHESS = "python-chess PGN read+replay"
#: The longest reason the table gives for a section that failed.
MAX_WHY_CHARS = 300

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


def engine_figures(scale: Scale, known: Peers) -> list[Figure]:
    """Section 1: each engine's checked replay against its peer, in turn with it."""
    figures = []
    for case in engines.CASES:
        measured = _step(
            f"engine: {case.label}",
            partial(engines.measure, case, scale.games, scale.repetitions),
        )
        oware = case.game == "Oh-Wah-Ree"
        reference = OWARE if oware else GO
        name = f"{case.label}: Engine.replay"
        peer = known.runner(reference)
        if peer is None:
            figures.append(Figure(name, measured.replay_per_second, "plies/s"))
        else:
            times = _step(
                f"engine: {case.label} in turn with {reference}",
                partial(paired, measured.replay, peer.run, scale.repetitions),
            )
            figures.append(
                rate_figure(
                    name,
                    measured.plies,
                    "plies/s",
                    reference,
                    times,
                    target=1.0 if oware else 2.0,
                    reference_work=peer.plies,
                )
            )
        figures.append(engines.speedup_figure(measured))
    return figures


def peer_figures(scale: Scale, known: Peers) -> list[Figure]:
    """Section 2: the peers on their own."""
    figures = []
    for name in (OWARE, CHESS, GO):
        peer = known.runner(name)
        if peer is not None:
            seconds = median_seconds(peer.run, scale.repetitions)
            figures.append(Figure(name, peer.plies / seconds, "plies/s"))
    return figures


def judge_figures(scale: Scale) -> list[Figure]:
    """Section 3: ``validate(record)`` against ``Engine.replay`` of the same games, per game."""
    runs = _step(
        f"validate(record) and Engine.replay in turn: {scale.games:,} records per game",
        partial(bench_judge.measure, scale.games, scale.repetitions),
    )
    return bench_judge.figures(runs)


def _chess_pairs(
    known: Peers, run: Callable[[], float], repetitions: int
) -> tuple[peers.PeerRun | None, Paired | None]:
    """``run`` (a command that gives its own seconds) in turn with python-chess, if installed.

    The command's time is the one it reports (the whole command, start-up included).
    """
    chess = known.runner(CHESS)
    firsts: list[float] = []
    seconds: list[float] = []
    for repetition in range(max(1, repetitions)):
        if chess is not None and repetition % 2:
            seconds.append(_timed(chess.run))
        firsts.append(run())
        if chess is not None and not repetition % 2:
            seconds.append(_timed(chess.run))
    if chess is None:
        return None, None
    return chess, Paired(tuple(firsts), tuple(seconds))


def _timed(run: Callable[[], object]) -> float:
    started = time.perf_counter()
    run()
    return time.perf_counter() - started


def validate_figures(scale: Scale, known: Peers) -> list[Figure]:
    """Section 4: ``gamerec validate`` end to end, one worker and all cores, and its memory.

    Each round runs the small and the large archive and python-chess, so that the plies/s
    ratio and the memory ratio are each a median of pairs taken under the same load.
    """
    large, small = scale.records
    cores = default_workers()
    paths = {count: bench_validate.collection(count) for count in (large, small)}
    figures = []
    for workers in sorted({1, cores}):
        label = "1 worker" if workers == 1 else f"{workers} workers (all cores)"
        runs: dict[int, list[bench_validate.ValidateRun]] = {large: [], small: []}

        def one_round(workers: int = workers, runs: dict[int, list[Any]] = runs) -> float:
            for count in (small, large):
                runs[count].append(bench_validate.measure(paths[count], workers))
            seconds: float = runs[large][-1].seconds
            return seconds

        chess, times = _step(
            f"gamerec validate: {large:,} and {small:,} records, {label}, in turn with "
            "python-chess",
            partial(_chess_pairs, known, one_round, scale.validate_runs),
        )
        run = bench_validate.median_of(runs[large])
        name = f"validate {large:,} records, {label}"
        figures.append(Figure(name, run.records / run.seconds, "records/s"))
        if chess is None or times is None:
            figures.append(Figure(name, run.plies / run.seconds, "plies/s"))
        else:
            figures.append(
                rate_figure(
                    name,
                    run.plies,
                    "plies/s",
                    CHESS,
                    times,
                    target=12.0 if workers == cores else None,
                    reference_work=chess.plies,
                )
            )
        figures.append(
            Figure(
                f"validate peak memory, {label}",
                run.peak_tree_kib / 1024,
                "MiB",
                f"the same at {small:,} records",
                bench_validate.median_of(runs[small]).peak_tree_kib / 1024,
                target=1.2,
                at_most=True,
                pairs=tuple(
                    big.peak_tree_kib / little.peak_tree_kib
                    for big, little in zip(runs[large], runs[small], strict=True)
                ),
            )
        )
    return figures


def encoding_figures(scale: Scale, known: Peers) -> list[Figure]:
    """Section 5: one archive in every encoding, against ``.pbs`` and python-chess.

    A round validates every encoding with each worker count and runs python-chess once; each
    ratio is the median over rounds of the ratio within a round.
    """
    paths = {
        encoding: bench_encodings.archive(scale.encoding_records, encoding)
        for encoding in bench_encodings.ENCODINGS
    }
    rounds: list[dict[tuple[str, int], bench_validate.ValidateRun]] = []

    def one_round() -> float:
        found = bench_encodings.measure_files(paths, 1)
        rounds.append({(m.encoding, m.workers): m.run for m in found})
        return 0.0

    chess, times = _step(
        f"gamerec validate: {scale.encoding_records:,} records as .pbs, .grn and .jsonl, "
        "in turn with python-chess",
        partial(_chess_pairs, known, one_round, scale.validate_runs),
    )
    cores = default_workers()
    figures = []
    for encoding, workers in rounds[0]:
        runs = [found[(encoding, workers)] for found in rounds]
        binary = [found[("pbs", workers)] for found in rounds]
        run = bench_validate.median_of(runs)
        plies = run.plies
        value = plies / run.seconds
        label = f"validate .{encoding}, {'1 worker' if workers == 1 else f'{workers} workers'}"
        if encoding != "pbs":
            figures.append(
                Figure(
                    label,
                    value,
                    "plies/s",
                    ".pbs, same workers",
                    plies / bench_validate.median_of(binary).seconds,
                    target=0.6,
                    pairs=tuple(b.seconds / a.seconds for a, b in zip(runs, binary, strict=True)),
                )
            )
        if workers == cores and chess is not None and times is not None:
            target = 12.0 if encoding == "pbs" else 8.0
            own = Paired(tuple(r.seconds for r in runs), times.second)
            figures.append(
                rate_figure(
                    label, plies, "plies/s", CHESS, own, target=target, reference_work=chess.plies
                )
            )
        elif encoding == "pbs":
            figures.append(Figure(label, value, "plies/s"))
    return figures


def startup_figures(scale: Scale) -> list[Figure]:
    """Section 6: start-up of the main job on one file, against Python and python-chess.

    The commands take turns, one fresh process each per round; each ratio is the median of
    the rounds' ratios.
    """
    measured = _step(
        f"start-up: {scale.startup_runs} rounds of fresh processes, the commands in turn",
        partial(bench_startup.measure, scale.startup_runs),
    )
    python = "python -c pass"
    chess = "python-chess: read+replay one PGN game"
    validate = "gamerec validate, one 60-ply .pb"

    def versus(name: str, runs: tuple[float, ...], reference: str, other: tuple[float, ...],
               target: float | None = None) -> Figure:  # fmt: skip
        times = Paired(runs, other)
        return Figure(
            name,
            times.first_seconds * 1000,
            "ms",
            reference,
            times.second_seconds * 1000,
            target,
            at_most=True,
            pairs=times.time_ratios(),
        )

    figures = [
        Figure(python, statistics.median(measured.python) * 1000, "ms"),
        versus("gamerec --help", measured.help, python, measured.python),
        versus(validate, measured.validate, python, measured.python, 4.0),
    ]
    if measured.chess:
        figures.append(Figure(chess, statistics.median(measured.chess) * 1000, "ms"))
        figures.append(versus(validate, measured.validate, chess, measured.chess, 0.8))
    through_typer = "the same through Typer (validate --workers 0)"
    figures.append(versus(through_typer, measured.typer, validate, measured.validate))
    label = "import record_pb2: protobuf and the record's descriptors"
    extra = tuple(a - b for a, b in zip(measured.record_pb2, measured.python, strict=True))
    figures.append(versus(label, extra, validate, measured.validate))
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
                pairs=load.pairs,
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
    """Section 11: matches of bots at once on the match service, one server on SQLite."""
    measured = _step(
        f"live: {scale.live_matches:,} matches of bots at once on gamerec serve --matches",
        partial(bench_live.measure, scale.live_matches),
    )
    return bench_live.figures(measured)


def tournament_figures(scale: Scale) -> list[Figure]:
    """Section 13: engine tournaments against generate."""
    measured = _step(
        f"tournament: {scale.tournament_games:,} Aronda games, built-in engines as processes",
        partial(bench_tournament.measure, scale.tournament_games),
    )
    return bench_tournament.figures(measured)


def event_figures(scale: Scale) -> list[Figure]:
    """Section 18: a Swiss round paired, games rated, forecasts; a round's bulk start."""
    measured = _step(
        f"event: a {scale.event_players}-player Swiss round, {scale.event_games:,} games rated",
        partial(bench_event.measure, scale.event_players, scale.event_games),
    )
    matches, repetitions = (50, 2) if scale is QUICK else (250, 3)
    started = _step(
        f"event: a round of {matches} matches started in one call, and one by one",
        partial(bench_event_start.measure, matches, repetitions),
    )
    return bench_event.figures(measured) + started


def live_postgres_figures(scale: Scale) -> list[Figure]:
    """Section 14: the same matches on two servers sharing PostgreSQL, and on SQLite."""
    try:
        measured = _step(
            f"live-postgres: {scale.live_matches:,} matches on 2 servers sharing PostgreSQL, "
            "and on 1 server on SQLite",
            partial(bench_live_postgres.measure, scale.live_matches),
        )
    except PostgresUnavailableError as error:
        print(f"live-postgres: skipped: {error}", file=sys.stderr)
        return []
    return bench_live_postgres.figures(measured)


def search_figures(scale: Scale) -> list[Figure]:
    """Section 19: the search's speed per game, OpenSpiel's MCTS, root parallel."""
    search_scale = bench_search.QUICK if scale is QUICK else bench_search.SearchScale()
    return _step(
        "search: MCTS and alpha-beta per game, OpenSpiel MCTS on Oware, root parallel",
        partial(bench_search.figures, search_scale),
    )


def table_figures(scale: Scale) -> list[Figure]:
    """Section 16: Oh-Wah-Ree endgame tables, build and lookups."""
    stones = 8 if scale is FULL else 5
    measured = _step(
        f"tables: Oh-Wah-Ree, every two-seat position of up to {stones} stones",
        partial(bench_tables.measure, stones),
    )
    return bench_tables.figures(measured)


def web_figures(scale: Scale) -> list[Figure]:
    """Section 17: the web door against native gRPC on the same server, and Watch memory."""
    games = 3 if scale.repetitions > 2 else 1
    measured = _step(
        f"web: Play over Connect JSON, Connect protobuf and gRPC in turn, {scale.repetitions} "
        f"rounds of {games} Aronda games; Watch streams over HTTP/1.1 to 4,000",
        partial(bench_web.measure, scale.repetitions, games),
    )
    return bench_web.figures(measured)


def lobby_figures(scale: Scale) -> list[Figure]:
    """Section 20: challenges opened and filled against CreateMatch, over gRPC and Connect."""
    calls = bench_lobby.CALLS if scale.repetitions > 2 else 10
    measured = _step(
        f"lobby: OpenChallenge and TakeSeat over gRPC and Connect JSON beside CreateMatch, "
        f"in turn, {scale.repetitions} rounds of {calls} calls",
        partial(bench_lobby.measure, scale.repetitions, calls),
    )
    return bench_lobby.figures(measured)


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
        "peers": partial(peer_figures, scale, known),
        "judge": partial(judge_figures, scale),
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
        "live-postgres": partial(live_postgres_figures, scale),
        "tables": partial(table_figures, scale),
        "web": partial(web_figures, scale),
        "event": partial(event_figures, scale),
        "search": partial(search_figures, scale),
        "lobby": partial(lobby_figures, scale),
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
    load_before = _load()
    figures: list[Figure] = []
    failed: list[str] = []
    for section, run in _runs(scale, known).items():  # in this order, whatever was asked
        if section in options.sections:
            try:
                figures += run()
            except (Exception, SystemExit) as error:
                failed.append(f"section {section} failed: {_why(error)}")
                print(failed[-1], file=sys.stderr, flush=True)
    print(
        f"gamerec benchmarks{' (quick)' if options.quick else ''}: {platform.python_version()}, "
        f"{default_workers()} cores, {time.perf_counter() - started:.0f} s; medians of "
        f"{scale.repetitions} repetitions in process, {scale.validate_runs} of gamerec "
        f"validate, {scale.service_rounds} service rounds of {scale.service_seconds:g} s"
    )
    print(f"load average (1, 5, 15 min): before {load_before}, after {_load()}")
    print(
        "ratios measured in turn with their reference (A B A B ...) are the median of the "
        "pairs' ratios, with the lowest and highest pair"
    )
    if {"service", "live", "live-postgres", "web", "lobby"} & set(options.sections):
        print(bench_service.LIMITS_NOTE)
    print(table(figures))
    missed = [figure.name for figure in figures if figure.met is False]
    if missed:
        print(f"targets missed: {len(missed)}")
    for line in failed:
        print(line)
    if failed:
        sys.exit(1)


def _load() -> str:
    """The machine's load averages, as the header prints them."""
    return ", ".join(f"{load:.2f}" for load in os.getloadavg())


def _why(error: BaseException) -> str:
    """A failure in one line of bounded size: its kind and message."""
    text = " ".join(str(error).split()) or "(no message)"
    if len(text) > MAX_WHY_CHARS:
        text = text[: MAX_WHY_CHARS - 1] + "…"
    return f"{type(error).__name__}: {text}"


if __name__ == "__main__":
    main()
