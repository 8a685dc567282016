"""``make fuzz``: run every fuzz target for a number of inputs and report the counts.

``python -m tests.robustness.fuzz_all [--runs 100000] [--extra-runs 20000] [--jobs 2]``

Each decoder target (``pb``, ``pbs``, ``json``, ``jsonl``, ``grn``, and the foreign formats'
``abstractplay`` and ``ludii``) runs ``--runs`` inputs; the ``sniff`` and ``validate``
targets, which do more per input, run ``--extra-runs``, and so does ``engine-lines`` (the
engine protocol's line parsers, ``protocol_lines.py``). With atheris
installed (the ``fuzz`` extra) every target is coverage-guided (``atheris_target.py``, one
process each, ``--jobs`` at a time); without it the same oracles run on seeded random
mutations of the seed records (``fuzzing.mutate_bytes`` and ``RecordMutator``), so the command
works everywhere. A crash (any exception the contract does not allow, a broken invariant, an
input that takes more than 60 s) fails the run; its input is kept in the findings folder, to be
fixed at its root and added to ``tests/robustness/regressions/``.
"""

from __future__ import annotations

import argparse
import importlib.util
import random
import re
import subprocess
import sys
import tempfile
import time
from concurrent.futures import Future, ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from gamerec.recorder.codecs import Encoding, encode_record
from gamerec.recorder.errors import EncodingError
from tests.robustness.fuzzing import (
    RecordMutator,
    decode_checked,
    judge_checked,
    mutate_bytes,
    seed_inputs,
    short_seed_records,
)
from tests.robustness.protocol_lines import SEED_LINES, line_checked

ROOT = Path(__file__).resolve().parents[2]
DECODERS = ("pb", "pbs", "json", "jsonl", "grn", "abstractplay", "ludii")
EXTRAS = ("sniff", "validate", "engine-lines")
_DONE = re.compile(r"Done (\d+) runs in (\d+) second")
#: Seconds one input may take before libFuzzer calls it a hang.
INPUT_TIMEOUT = 60


@dataclass(frozen=True, slots=True)
class Report:
    """How one target's run went."""

    target: str
    inputs: int
    seconds: float
    failure: str = ""


def main(argv: list[str] | None = None) -> int:
    """Run the targets; print one line per target and a total; 1 when any target failed."""
    options = _arguments().parse_args(argv)
    coverage_guided = not options.no_atheris and importlib.util.find_spec("atheris") is not None
    findings = Path(options.findings or tempfile.mkdtemp(prefix="gamerec-fuzz-"))
    findings.mkdir(parents=True, exist_ok=True)
    plan = [(target, options.runs) for target in DECODERS]
    plan += [(target, options.extra_runs) for target in EXTRAS]
    plan = [(target, runs) for target, runs in plan if target in options.targets]
    mode = "coverage-guided (atheris)" if coverage_guided else "random mutation (no atheris)"
    print(f"fuzzing {len(plan)} targets, {mode}, {options.jobs} at a time", flush=True)
    started = time.perf_counter()
    reports = _run_all(plan, options, findings, coverage_guided)
    _print_reports(reports, time.perf_counter() - started, findings)
    return 1 if any(report.failure for report in reports) else 0


def _arguments() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--runs", type=int, default=100_000, help="inputs per decoder")
    parser.add_argument("--extra-runs", type=int, default=20_000, help="inputs for sniff, validate")
    parser.add_argument("--jobs", type=int, default=2, help="targets run at once")
    parser.add_argument("--seed", type=int, default=1, help="the random seed of every target")
    parser.add_argument("--findings", help="where crash inputs and logs go (default: a temp dir)")
    parser.add_argument("--no-atheris", action="store_true", help="random mutation only")
    parser.add_argument(
        "--targets", nargs="+", default=[*DECODERS, *EXTRAS], choices=[*DECODERS, *EXTRAS]
    )
    return parser


def _run_all(
    plan: list[tuple[str, int]],
    options: argparse.Namespace,
    findings: Path,
    coverage_guided: bool,
) -> list[Report]:
    run = _run_atheris if coverage_guided else _run_random
    with ProcessPoolExecutor(max_workers=options.jobs) as pool:
        futures: list[Future[Report]] = [
            pool.submit(run, target, runs, options.seed, findings) for target, runs in plan
        ]
        reports = []
        for future in futures:
            report = future.result()
            _print_report(report)
            reports.append(report)
        return reports


def _run_atheris(target: str, runs: int, seed: int, findings: Path) -> Report:
    """One target under atheris in its own process; counts from libFuzzer's summary."""
    corpus = findings / f"corpus-{target}"
    corpus.mkdir(exist_ok=True)
    log = findings / f"{target}.log"
    command = [
        sys.executable,
        "-m",
        "tests.robustness.atheris_target",
        target,
        str(corpus),
        f"-runs={runs}",
        f"-seed={seed}",
        f"-timeout={INPUT_TIMEOUT}",
        "-rss_limit_mb=4096",
        f"-artifact_prefix={findings}/{target}-",
    ]
    started = time.perf_counter()
    with log.open("wb") as output:
        finished = subprocess.run(
            command, check=False, cwd=ROOT, stdout=output, stderr=subprocess.STDOUT
        )
    seconds = time.perf_counter() - started
    text = log.read_text(errors="replace")
    done = _DONE.search(text)
    inputs = int(done.group(1)) if done else 0
    failure = ""
    if finished.returncode != 0 or done is None:
        failure = f"exit {finished.returncode}; see {log}"
    return Report(target, inputs, seconds, failure)


def _run_random(target: str, runs: int, seed: int, findings: Path) -> Report:
    """One target on seeded random mutations of the seed records (no atheris)."""
    if target == "engine-lines":
        return _run_random_lines(runs, seed, findings)
    encoding = None if target == "sniff" else Encoding.PB if target == "validate" else None
    if target in DECODERS:
        encoding = Encoding(target)
    rng = random.Random(f"{seed}:{target}")
    donors = seed_inputs(encoding or Encoding.PBS)
    mutator = RecordMutator(rng.randrange, short_seed_records())
    started = time.perf_counter()
    for number in range(runs):
        data = _random_input(rng, mutator, donors, encoding or Encoding.PBS)
        try:
            for record in decode_checked(data, encoding):
                if target == "validate":
                    judge_checked(record)
        except Exception as error:  # every failure is a finding: keep its input
            crash = findings / f"{target}-crash-{number}"
            crash.write_bytes(data)
            return Report(target, number + 1, time.perf_counter() - started, f"{error!r}; {crash}")
    return Report(target, runs, time.perf_counter() - started)


def _run_random_lines(runs: int, seed: int, findings: Path) -> Report:
    """The engine protocol's line parsers on seeded random mutations of the seed lines."""
    rng = random.Random(f"{seed}:engine-lines")
    started = time.perf_counter()
    for number in range(runs):
        base = SEED_LINES[rng.randrange(len(SEED_LINES))]
        data = mutate_bytes(base, rng.randrange, SEED_LINES, 1 + rng.randrange(4))
        try:
            line_checked(data)
        except Exception as error:  # every failure is a finding: keep its input
            crash = findings / f"engine-lines-crash-{number}"
            crash.write_bytes(data)
            return Report("engine-lines", number + 1, time.perf_counter() - started, f"{error!r}")
    return Report("engine-lines", runs, time.perf_counter() - started)


def _random_input(
    rng: random.Random, mutator: RecordMutator, donors: tuple[bytes, ...], encoding: Encoding
) -> bytes:
    """A seed damaged byte by byte, or mutated as a record and then encoded."""
    if rng.random() < 0.5:
        base = donors[rng.randrange(len(donors))]
        return mutate_bytes(base, rng.randrange, donors, 1 + rng.randrange(4))
    seeds = short_seed_records()
    record = mutator.mutated(seeds[rng.randrange(len(seeds))], 1 + rng.randrange(4))
    try:
        return encode_record(record, encoding)
    except EncodingError:
        return encode_record(record, Encoding.PB)


def _print_report(report: Report) -> None:
    rate = report.inputs / report.seconds if report.seconds else 0.0
    status = f"FAILED: {report.failure}" if report.failure else "ok"
    print(
        f"  {report.target:<9} {report.inputs:>9,} inputs  {report.seconds:7.1f} s  "
        f"{rate:8,.0f}/s  {status}",
        flush=True,
    )


def _print_reports(reports: list[Report], seconds: float, findings: Path) -> None:
    total = sum(report.inputs for report in reports)
    failed = [report.target for report in reports if report.failure]
    print(f"inputs per target: {', '.join(f'{r.target} {r.inputs:,}' for r in reports)}")
    print(f"{total:,} inputs in {seconds:.0f} s; findings and logs in {findings}")
    print(f"FAILED: {', '.join(failed)}" if failed else "no crash, hang or uncaught exception")


if __name__ == "__main__":
    sys.exit(main())
