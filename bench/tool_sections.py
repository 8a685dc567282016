"""Sections of ``python -m bench`` that time one command or library call beside its reference.

``startup``, ``seals``, ``viewer``, ``collections``, ``foreign``, ``tables`` and ``search``.
It imports the ``bench`` modules it measures with, ``bench.figures`` and ``bench.shared``.
"""

from __future__ import annotations

import statistics
from functools import partial

from bench import (
    bench_collections,
    bench_foreign,
    bench_seals,
    bench_search,
    bench_startup,
    bench_tables,
    bench_viewer,
)
from bench.figures import Figure, Paired
from bench.shared import FULL, QUICK, Scale, _step


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
    through_typer = "the same through Typer (validate --from pb)"
    figures.append(versus(through_typer, measured.typer, validate, measured.validate))
    label = "import record_pb2: protobuf and the record's descriptors"
    extra = tuple(a - b for a, b in zip(measured.record_pb2, measured.python, strict=True))
    figures.append(versus(label, extra, validate, measured.validate))
    return figures


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
