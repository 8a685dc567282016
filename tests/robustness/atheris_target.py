"""One coverage-guided fuzz target under atheris (libFuzzer): ``python -m
tests.robustness.atheris_target TARGET CORPUS_DIR [libFuzzer flags]``.

Targets: ``pb``, ``pbs``, ``json``, ``jsonl``, ``grn``, ``abstractplay``, ``ludii`` (one
decoder each), ``sniff`` (the encoding told from the bytes), ``validate`` (a ``.pb`` record
decoded, then judged) and ``engine-lines`` (one line of the engine protocol, read both ways:
``protocol_lines``). Every
input goes through the oracles of ``tests.robustness.fuzzing``: any exception other than the
documented ones, or a broken invariant, is a crash that libFuzzer saves as an input file.

The mutator is structure-aware half the time: it decodes the input in the target's encoding,
changes the record at the message level (``RecordMutator``), encodes it again and sometimes
damages the bytes as well; otherwise it leaves the mutation to libFuzzer. The modules under
test are instrumented for coverage. ``tests/robustness/fuzz_all.py`` runs every target and
counts the inputs; atheris is the ``fuzz`` extra of pyproject.toml (``make fuzz`` installs it).
"""

from __future__ import annotations

import importlib
import io
import random
import sys
from typing import Any

atheris: Any = importlib.import_module("atheris")

with atheris.instrument_imports(include=["gamerec"]):  # coverage of these
    from gamerec.recorder.codecs import Encoding, encode_record, read_records
    from gamerec.recorder.errors import GamerecError
    from tests.robustness.fuzzing import (
        RecordMutator,
        decode_checked,
        judge_checked,
        short_seed_records,
    )
    from tests.robustness.protocol_lines import SEED_LINES, line_checked

#: The encoding each target decodes (None: sniffed).
TARGETS: dict[str, Encoding | None] = {
    "pb": Encoding.PB,
    "pbs": Encoding.PBS,
    "json": Encoding.JSON,
    "jsonl": Encoding.JSONL,
    "grn": Encoding.GRN,
    "abstractplay": Encoding.ABSTRACT_PLAY,
    "ludii": Encoding.LUDII,
    "sniff": None,
    "validate": Encoding.PB,
}
#: The share of mutations made by libFuzzer alone (the rest are structure-aware: dearer).
LIBFUZZER_SHARE = 0.75
#: The largest input libFuzzer makes (the short seed records are a few hundred bytes).
MAX_LEN = 1 << 13


def decoder_target(encoding: Encoding | None) -> Any:
    """The test function of a decoder target."""

    def test_one_input(data: bytes) -> None:
        decode_checked(data, encoding)

    return test_one_input


def validate_target(data: bytes) -> None:
    """Decode a ``.pb`` record and judge it."""
    for record in decode_checked(data, Encoding.PB):
        judge_checked(record)


def structure_aware_mutator(encoding: Encoding | None) -> Any:
    """A libFuzzer custom mutator that mutates records at the message level half the time."""
    donors = short_seed_records()
    chosen = encoding or Encoding.PB

    def mutate(data: bytes, max_size: int, seed: int) -> bytes:
        rng = random.Random(seed)
        if rng.random() < LIBFUZZER_SHARE:
            return bytes(atheris.Mutate(data, max_size))
        try:
            records = list(read_records(io.BytesIO(data), chosen, name="mutator"))
        except GamerecError:
            records = []
        base = records[0] if records else donors[rng.randrange(len(donors))]
        mutated = RecordMutator(rng.randrange, donors).mutated(base, 1 + rng.randrange(3))
        try:
            out = encode_record(mutated, chosen)
        except GamerecError:
            out = encode_record(mutated, Encoding.PB) if chosen is Encoding.PB else data
        if rng.random() < 0.3 or len(out) > max_size:
            out = bytes(atheris.Mutate(out[:max_size], max_size))
        return out

    return mutate


def seed_corpus(folder: str, encoding: Encoding | None) -> None:
    """Write the seed records, in the target's encoding, into the corpus folder."""
    for number, record in enumerate(short_seed_records()):
        try:
            data = encode_record(record, encoding or Encoding.PBS)
        except GamerecError:
            continue
        with open(f"{folder}/seed-{number:03d}", "wb") as file:
            file.write(data)


def lines_main(argv: list[str]) -> None:
    """Run the ``engine-lines`` target (libFuzzer's own mutations of the seed lines)."""
    corpus = argv[2]
    for number, line in enumerate(SEED_LINES):
        with open(f"{corpus}/seed-{number:03d}", "wb") as file:
            file.write(line)
    atheris.Setup([argv[0], "-max_len=512", *argv[3:], corpus], line_checked)
    atheris.Fuzz()


def main(argv: list[str]) -> None:
    """Run the target named by ``argv[1]`` on the corpus folder ``argv[2]``."""
    target, corpus = argv[1], argv[2]
    if target == "engine-lines":
        lines_main(argv)
        return
    encoding = TARGETS[target]
    seed_corpus(corpus, encoding)
    test = validate_target if target == "validate" else decoder_target(encoding)
    flags = [f"-max_len={MAX_LEN}", *argv[3:], corpus]
    atheris.Setup([argv[0], *flags], test, custom_mutator=structure_aware_mutator(encoding))
    atheris.Fuzz()


if __name__ == "__main__":
    main(sys.argv)
