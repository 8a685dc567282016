"""Sections of ``python -m bench`` that start servers or processes: the service and its doors.

``service``, ``cluster``, ``live``, ``tournament``, ``event``, ``live-postgres``, ``web`` and
``lobby``. It imports the ``bench`` modules it measures with, ``bench.figures``,
``bench.postgres`` and ``bench.shared``.
"""

from __future__ import annotations

import sys
from functools import partial

from bench import (
    bench_cluster,
    bench_event,
    bench_event_start,
    bench_live,
    bench_live_postgres,
    bench_lobby,
    bench_service,
    bench_tournament,
    bench_web,
)
from bench.figures import Figure
from bench.postgres import PostgresUnavailableError
from bench.shared import FULL, QUICK, Scale, _step


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
