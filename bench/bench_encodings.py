"""``gamerec validate`` of one mixed archive in every encoding a user feeds in.

The same seeded mixed collection as ``bench_validate`` (all four games), written once as
``.pbs``, ``.grn`` and ``.jsonl`` (cached in ``bench/.data``), each validated by the real
command with one worker and with every core. The text encodings should not be the slow way
in: their records are decoded in the workers, like the binary ones. The same records with a
clock and a timestamp on every move (``timed.pbs`` ...), as live matches record them, and
annotated as analyses are (comments, glyphs, variations: ``annotated.pbs`` ...) and sealed
(``sealed.pbs`` ...) are validated too: such records must not fall off the paths plain ones
take.

Run: ``.venv/bin/python -m bench.bench_encodings [--records 5000] [--repeat 3]``; with
``--decode``, only the GRN reader's time per record (split, first parse, second parse).
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from bench.bench_validate import ValidateRun, collection, median_of
from bench.bench_validate import measure as measure_run
from gamerec.recorder.codecs import read_records, write_records
from gamerec.recorder.seal import seal_record
from gamerec.recorder.signing import public_bytes
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.batch import default_workers

ENCODINGS = ("pbs", "grn", "jsonl")
#: The same archive with a clock and a timestamp on every move, as live play records them,
#: in every encoding (named ``timed.pbs`` and so on).
TIMED = tuple(f"timed.{encoding}" for encoding in ENCODINGS)
#: The same archive annotated as an analysis is: a comment on one move in five, a glyph on
#: one in seven, two variations of three moves a game (``annotated.pbs`` and so on).
ANNOTATED = tuple(f"annotated.{encoding}" for encoding in ENCODINGS)
#: The same archive sealed (docs/seals.md): every record's chain over its seats' and its
#: host's keys, fixed keys (``sealed.pbs`` and so on).
SEALED = tuple(f"sealed.{encoding}" for encoding in ENCODINGS)
#: The archives of the same games in another shape, measured against the plain one.
SHAPED = TIMED + ANNOTATED + SEALED
#: Records in the archive (text validates slower than binary; fewer keep the run short).
RECORDS = 5_000


@dataclass(frozen=True, slots=True)
class EncodingRun:
    """One encoding validated with one worker count.

    Attributes:
        encoding: the file's suffix (or another name of what it holds).
        workers: worker processes.
        run: the median run.
    """

    encoding: str
    workers: int
    run: ValidateRun


def archive(count: int, encoding: str) -> Path:
    """The cached mixed collection of ``count`` records in ``encoding`` (made from the .pbs).

    ``timed.X``, ``annotated.X`` and ``sealed.X``: the same records with times
    (:func:`with_times`), annotations (:func:`with_annotations`) or a seal
    (:func:`with_seals`), in encoding X.
    """
    binary = collection(count)
    if encoding == "pbs":
        return binary
    shape, _, suffix = encoding.rpartition(".")
    if shape:
        path = binary.with_name(f"{binary.stem}-{shape}.{suffix}")
        shaping = {"timed": with_times, "annotated": with_annotations, "sealed": with_seals}[shape]
        source: Iterable[pb.GameRecord] = (
            shaping(read_records(binary))
            if suffix == "pbs"
            else read_records(archive(count, f"{shape}.pbs"))
        )
    else:
        path = binary.with_suffix(f".{encoding}")
        source = read_records(binary)
    if not path.exists():
        write_records(source, path)  # atomic: never a half-written cache
    return path


def with_times(records: Iterable[pb.GameRecord]) -> Iterator[pb.GameRecord]:
    """The records with a clock (time left, to the millisecond) and a timestamp on every move.

    Seeded: the same times every time. The moves of a game follow each other by 1 to 60
    seconds from a start in 2026, as a live match's moves are stamped.
    """
    draw = random.Random(39)
    for record in records:
        now = 1_796_000_000 + draw.randrange(10**6)
        for move in record.moves:
            now += draw.randrange(1, 60)
            move.timestamp.seconds, move.timestamp.nanos = now, draw.randrange(1000) * 10**6
            move.clock.seconds, move.clock.nanos = draw.randrange(600), draw.randrange(1000) * 10**6
        yield record


def with_seals(records: Iterable[pb.GameRecord]) -> Iterator[pb.GameRecord]:
    """The records sealed with fixed keys: seat N's made from the bytes N + 1, the host's 1."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import (  # noqa: PLC0415
        Ed25519PrivateKey,
    )

    keys = [
        public_bytes(Ed25519PrivateKey.from_private_bytes(bytes([n + 1]) * 32)) for n in range(7)
    ]
    for record in records:
        yield seal_record(record, keys[1 : len(record.seats) + 1], keys[0])


def with_annotations(records: Iterable[pb.GameRecord]) -> Iterator[pb.GameRecord]:
    """The records annotated: comments, glyphs and two variations a game (seeded)."""
    draw = random.Random(39)
    notes = ["good move", "a blunder", "only move", "why not the other side?"]
    for record in records:
        moves = record.moves
        for ply, move in enumerate(moves):
            if ply % 5 == 3:
                move.comment = draw.choice(notes)
            if ply % 7 == 2:
                move.glyph = draw.choice([pb.GLYPH_GOOD, pb.GLYPH_MISTAKE, pb.GLYPH_BRILLIANT])
        for ply in sorted({len(moves) // 3, len(moves) // 2}):
            variation = moves[ply].variations.add()
            variation.moves.extend(moves[ply + 1 : ply + 4])
        yield record


def measure(count: int = RECORDS, repetitions: int = 3) -> list[EncodingRun]:
    """Every encoding with one worker and with all cores (see :func:`measure_files`).

    The runs take turns, so that a ratio compares runs made under the same load on a shared
    machine.
    """
    return measure_files(
        {encoding: archive(count, encoding) for encoding in ENCODINGS + SHAPED}, repetitions
    )


def measure_files(paths: dict[str, Path], repetitions: int) -> list[EncodingRun]:
    """Validate each file with one worker and with all cores, in turns.

    One run of each, then the next round; each figure is the median of its runs.
    """
    cases = [(name, workers) for name in paths for workers in sorted({1, default_workers()})]
    runs: dict[tuple[str, int], list[ValidateRun]] = {case: [] for case in cases}
    for _ in range(max(1, repetitions)):
        for name, workers in cases:
            runs[(name, workers)].append(measure_run(paths[name], workers))
    return [EncodingRun(name, workers, median_of(runs[(name, workers)])) for name, workers in cases]


def print_runs(title: str, runs: list[EncodingRun]) -> None:
    """A small table of records/s and plies/s per file and worker count."""
    print(title)
    print(f"{'file':>12} {'workers':>7} {'seconds':>8} {'records/s':>10} {'plies/s':>10}")
    for measured in runs:
        run = measured.run
        print(
            f"{measured.encoding:>12} {measured.workers:>7} {run.seconds:>8.2f} "
            f"{run.records / run.seconds:>10,.0f} {run.plies / run.seconds:>10,.0f}"
        )


def grn_decode(path: Path) -> tuple[float, float, float]:
    """Microseconds a record to decode a ``.grn`` file in this process.

    Returns:
        The splitting into records, the first parse of every record (the reader's tables of
        tags and plies still empty, as in a ``validate`` process: call this in a process that
        has read no GRN yet), and a second parse (every table warm).
    """
    from gamerec.recorder.grn import parse_grn_record  # noqa: PLC0415 (GRN only)
    from gamerec.recorder.grn_lexer import split_records  # noqa: PLC0415
    from gamerec.recorder.limits import DEFAULT_LIMITS  # noqa: PLC0415

    started = time.perf_counter()
    with path.open("rb") as stream:
        raws = list(split_records(stream, str(path), DEFAULT_LIMITS.max_record_bytes))
    times = [time.perf_counter() - started]
    for _ in range(2):
        started = time.perf_counter()
        for raw in raws:
            parse_grn_record(raw, str(path), DEFAULT_LIMITS)
        times.append(time.perf_counter() - started)
    split, first, warm = (seconds / len(raws) * 1e6 for seconds in times)
    return split, first, warm


def main() -> None:
    """Print records/s and plies/s per encoding and worker count."""
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--records", type=int, default=RECORDS)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument(
        "--decode", action="store_true", help="only time the GRN reader, per record, in process"
    )
    options = parser.parse_args()
    if options.decode:
        split, first, warm = grn_decode(archive(options.records, "grn"))
        print(f"GRN decode, {options.records:,} mixed records, microseconds a record:")
        print(f"split {split:.1f}, parse: first pass {first:.1f}, second pass {warm:.1f}")
        return
    title = f"gamerec validate, {options.records:,} mixed records, median of {options.repeat}"
    print_runs(title, measure(options.records, options.repeat))


if __name__ == "__main__":
    main()
