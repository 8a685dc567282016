"""The GRN reader gives the records and the errors the first release's reader gave.

``tests/previous_grn`` keeps the first release's streaming reader. The new reader cuts a
stream into records first and tokenizes each in one pass; it must read every input alike:
the same records, and the same first error (message and place). One difference is allowed,
an improvement: the old reader decoded 64 KiB at a time, so a byte that is not UTF-8 failed
every record of its chunk, even those before it, and before any other fault of that chunk;
the new one fails only the record that holds the byte, in file order: there, it must read as
the old reader reads the same input with the bad bytes replaced.
"""

from __future__ import annotations

import io
import random
from dataclasses import dataclass
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from gamerec.recorder.errors import RecordMalformedError
from gamerec.recorder.grn import read_grn
from gamerec.recorder.grn_lexer import split_records
from gamerec.recorder.grn_writer import format_grn
from gamerec.recorder.limits import Limits
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.generation import generate
from tests.previous_grn.reader import read_grn as previous_read_grn
from tests.strategies import records

ROOT = Path(__file__).resolve().parents[2]
FIXTURES = sorted(ROOT.glob("fixtures/**/*.grn"))


@dataclass(frozen=True)
class Reading:
    """What a reader made of an input: its records, then its error (None when it read all)."""

    records: list[pb.GameRecord]
    error: str | None
    kind: type[Exception] | None


def reading(reader: object, data: bytes, limits: Limits | None = None) -> Reading:
    found: list[pb.GameRecord] = []
    try:
        for record in reader(io.BytesIO(data), "in.grn", limits=limits):  # type: ignore[operator]
            found.append(record)
    except RecordMalformedError as error:
        return Reading(found, str(error), type(error))
    return Reading(found, None, None)


def assert_read_alike(data: bytes, limits: Limits | None = None) -> None:
    old = reading(previous_read_grn, data, limits)
    new = reading(read_grn, data, limits)
    if old.error is not None and "is not UTF-8" in old.error and new.error != old.error:
        fixed = data.decode("utf-8", errors="replace").encode()
        old = reading(previous_read_grn, fixed, limits)
        assert (new.error, new.kind) == (old.error, old.kind), data[:300]
        assert new.records == old.records
        return
    assert (new.error, new.kind) == (old.error, old.kind), data[:300]
    assert new.records[: len(old.records)] == old.records
    extra = len(new.records) - len(old.records)
    if extra and old.error is not None and "is not UTF-8" in old.error:
        return  # the old reader failed the whole chunk holding the bad byte
    assert extra == 0


@pytest.mark.parametrize("path", FIXTURES, ids=lambda path: path.name)
def test_every_grn_fixture_reads_alike(path: Path) -> None:
    assert_read_alike(path.read_bytes())


GENERATED = [
    ("ONE", {"Players": "3"}),
    ("ONE", {"Players": "2", "Board": "6,6"}),
    ("Aronda", {}),
    ("Oust", {"Board": "5"}),
    ("Oh-Wah-Ree", {"Players": "4"}),
]


def generated_collection(seed: int) -> bytes:
    texts = [
        format_grn(record)
        for game, tags in GENERATED
        for record in generate(game, tags, 2, seed=seed, policy="random")
    ]
    return "\n".join(texts).encode()


@pytest.mark.parametrize("seed", range(3))
def test_generated_collections_read_alike(seed: int) -> None:
    assert_read_alike(generated_collection(seed))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(records())
def test_drawn_records_read_alike(record: pb.GameRecord) -> None:
    try:
        text = format_grn(record)
    except ValueError:
        return  # a record GRN cannot hold (another game's moves, an unknown enum value)
    assert_read_alike(text.encode())
    assert_read_alike((text + "\n" + text).encode())


#: Characters that mean something in GRN, for mutations.
SIGNIFICANT = b'[]{}()"\\ \n\t.,!?$*-%x0123456789abcmo'


def mutated(data: bytes, rng: random.Random) -> bytes:
    """``data`` with a few bytes inserted, deleted or replaced, or a line doubled or dropped."""
    out = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        kind = rng.randrange(5)
        at = rng.randrange(len(out) + 1)
        if kind == 0:
            out[at:at] = bytes([rng.choice(SIGNIFICANT)])
        elif kind == 1 and at < len(out):
            del out[at]
        elif kind == 2 and at < len(out):
            out[at] = rng.choice(SIGNIFICANT)
        else:
            lines = bytes(out).split(b"\n")
            line = rng.randrange(len(lines))
            if kind == 3:
                lines.insert(line, lines[line])
            else:
                del lines[line]
            out = bytearray(b"\n".join(lines))
    return bytes(out)


@pytest.mark.parametrize("seed", range(int(__import__("os").environ.get("GRN_SEEDS", "40"))))
def test_mutated_inputs_read_alike(seed: int) -> None:
    rng = random.Random(seed)
    sources = [path.read_bytes() for path in FIXTURES] + [generated_collection(seed % 3)]
    for _ in range(25):
        assert_read_alike(mutated(rng.choice(sources), rng))


EDGES = {
    "a tag after moves on the same line": b'[Game "ONE"]\n\n1. a1 [Game "Oust"] 1. g7\n',
    "a blank line inside the tags": b'[Game "ONE"]\n\n[Event "x"]\n\n1. a1\n',
    "a bracket in a comment": b'[Game "ONE"]\n\n1. a1 {see [Game "Oust"]\n[x} 2. a2\n',
    "an escaped brace": b'[Game "ONE"]\n\n1. a1 {a \\} [b} 2. a2\n',
    "an unclosed comment": b'[Game "ONE"]\n\n1. a1 {never\n\n[Game "ONE"]\n',
    "a broken tag after a record": b'[Game "ONE"]\n\n1. a1\n\n[Event x]\n',
    "a broken tag in the tags": b'[Game "ONE"]\n[Event x]\n\n1. a1\n',
    "moves before any tag": b'1. a1\n[Game "ONE"]\n',
    "a byte-order mark": b'\xef\xbb\xbf[Game "ONE"]\n\n1. a1\n',
    "carriage returns": b'[Game "ONE"]\r\n[Event "x"]\r\n\r\n1. a1 {c}\r\n',
    "bad UTF-8 in the second record": b'[Game "ONE"]\n\n1. a1\n\n[Game "ONE"]\n[Seat1 "An\xe4"]\n',
    "a character cut at the end": b'[Game "ONE"]\n[Seat1 "\xc3',
    "a result then text": b'[Game "ONE"]\n\n1. a1 * 2. a2\n',
    "a pending ply number": b'[Game "ONE"]\n\n1. a1 2.\n\n[Game "ONE"]\n',
    "only white space": b" \n\n\t\n",
    "nothing": b"",
    "a stray closing brace": b'[Game "ONE"]\n\n1. a1 }\n',
    "tags only, several records": b'[Game "ONE"]\n\n[Game "Oust"]\n\n[Game "Aronda"]\n',
}


@pytest.mark.parametrize("name", sorted(EDGES))
def test_edge_cases_read_alike(name: str) -> None:
    assert_read_alike(EDGES[name])


@pytest.mark.parametrize("limit", [40, 60, 200])
def test_the_record_size_limit_is_met_alike(limit: int) -> None:
    data = b'[Game "ONE"]\n[Event "' + b"e" * 30 + b'"]\n\n1. a1 {' + b"c" * 80 + b"}\n"
    old = reading(previous_read_grn, data, Limits(max_record_bytes=limit))
    new = reading(read_grn, data, Limits(max_record_bytes=limit))
    assert (new.kind, len(new.records)) == (old.kind, len(old.records))
    if old.error is not None:
        assert new.error is not None
        assert "(limit record-bytes)" in old.error and "(limit record-bytes)" in new.error


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1))
def test_random_collections_split_alike_at_any_chunk(seed: int) -> None:
    data = mutated(generated_collection(seed % 3), random.Random(seed))
    old = reading(previous_read_grn, data)
    split = list(split_records(io.BytesIO(data), "in.grn", 1 << 30, chunk_bytes=1 + seed % 97))
    whole = list(split_records(io.BytesIO(data), "in.grn", 1 << 30))
    assert split == whole
    assert len(whole) >= len(old.records)
