"""Sections 1-5 of ``python -m bench``: the replay and ``gamerec validate`` against their peers.

``engines`` (each engine's checked replay against sgfmill's Go and OpenSpiel's Oware),
``peers`` (the peers on their own), ``judge`` (``validate(record)`` against the replay),
``validate`` (the command, one worker and all cores, and its memory) and ``encodings`` (one
archive in every encoding), with python-chess timed in turn. It imports the ``bench``
modules it measures with, ``bench.figures``, ``bench.shared`` and ``gamerec.validator.batch``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from functools import partial
from typing import Any

from bench import (
    bench_encodings,
    bench_judge,
    bench_validate,
    engines,
    peers,
)
from bench.figures import Figure, Paired, median_seconds, paired, rate_figure
from bench.shared import CHESS, GO, OWARE, Peers, Scale, _step
from gamerec.validator.batch import default_workers


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

    The same archive with times on every move (``timed.pbs`` ...) and annotated
    (``annotated.pbs`` ...) is measured against the plain archive, in the same encoding.

    A round validates every encoding with each worker count and runs python-chess once; each
    ratio is the median over rounds of the ratio within a round.
    """
    paths = {
        encoding: bench_encodings.archive(scale.encoding_records, encoding)
        for encoding in bench_encodings.ENCODINGS + bench_encodings.SHAPED
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
        if encoding in bench_encodings.SHAPED:
            plain_encoding = encoding.rpartition(".")[2]
            plain = [found[(plain_encoding, workers)] for found in rounds]
            figures.append(
                Figure(
                    label,
                    value,
                    "plies/s",
                    f".{plain_encoding}, plain, same workers",
                    plies / bench_validate.median_of(plain).seconds,
                    pairs=tuple(b.seconds / a.seconds for a, b in zip(runs, plain, strict=True)),
                )
            )
            continue
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
