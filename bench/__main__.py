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
import sys
import time
from collections.abc import Callable
from functools import partial

from bench import bench_service
from bench.figures import Figure, table
from bench.replay_sections import (
    encoding_figures,
    engine_figures,
    judge_figures,
    peer_figures,
    validate_figures,
)
from bench.server_sections import (
    cluster_figures,
    event_figures,
    live_figures,
    live_postgres_figures,
    lobby_figures,
    service_figures,
    tournament_figures,
    web_figures,
)
from bench.shared import FULL, QUICK, Peers, Scale
from bench.tool_sections import (
    collection_figures,
    foreign_figures,
    seal_figures,
    search_figures,
    startup_figures,
    table_figures,
    viewer_figures,
)
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
#: The longest reason the table gives for a section that failed.
MAX_WHY_CHARS = 300


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
