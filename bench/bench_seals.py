"""Seals: verifying a signed 100-ply record, against validating it and against bare Ed25519.

The record is a seeded two-seat Oh-Wah-Ree game cut at 100 plies, written by the record
builder with keys for both seats and the host: every ply signed by its mover and countersigned
by the host, the final head by all three (203 signatures). Three rates, each the median of
several timed loops in this process:

- ``verify``: ``gamerec.validator.verification.verify`` of the record (chain, every signature,
  coverage, the strict replay): verifications/s;
- ``validate``: ``gamerec.validator.judge.validate`` of the same record without its seal (the
  replay alone): validations/s;
- bare Ed25519 verifies/s of ``cryptography`` (the library both use) on a message of the size
  the chain signs: the floor, as the signatures must all be checked.

Run: ``.venv/bin/python -m bench --sections seals``.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from bench.figures import median_seconds
from gamerec.recorder.seal import ply_message
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.builder import RecordBuilder
from gamerec.validator.games.registry import entry_named
from gamerec.validator.judge import validate
from gamerec.validator.verification import verify

PLIES = 100
SEED = 2026


@dataclass(frozen=True, slots=True)
class SealRates:
    """The three rates (per second) and the signatures one verification checks."""

    verify: float
    validate: float
    ed25519: float
    signatures: int


def signed_record() -> pb.GameRecord:
    """The seeded 100-ply record, sealed and signed as it was played."""
    entry = entry_named("Oh-Wah-Ree")
    variant = entry.engine.variant_from_tags({"Players": "2"})
    for attempt in range(1_000):
        moves = entry.engine.random_game(variant, random.Random(f"{SEED}:{attempt}"), None)
        if len(moves) >= PLIES:
            break
    else:
        raise RuntimeError("no seeded game reached 100 plies")
    keys = {who: Ed25519PrivateKey.from_private_bytes(bytes([who + 1]) * 32) for who in (0, 1, 2)}
    builder = RecordBuilder("Oh-Wah-Ree", {"Players": 2}, seats=["Ana", "Ben"], signing_keys=keys)
    for move in moves[:PLIES]:
        builder.play(entry.engine.format_move(variant, move))
    builder.stop("abandoned")
    return builder.record


def measure(repetitions: int, loops: int = 20) -> SealRates:
    """The three rates, each the median of ``repetitions`` timed loops of ``loops`` calls."""
    record = signed_record()
    bare = pb.GameRecord()
    bare.CopyFrom(record)
    bare.ClearField("seal")
    assert verify(record).verdict.valid and validate(bare).valid
    signatures = sum(len(ply.signatures) for ply in record.seal.plies)
    signatures += len(record.seal.final_signatures)
    key = Ed25519PrivateKey.from_private_bytes(b"\x07" * 32)
    message = ply_message(PLIES, b"\x01" * 32)
    signature = key.sign(message)
    public = key.public_key()

    def rate(run: Callable[[], object], calls: int) -> float:
        return calls / median_seconds(lambda: [run() for _ in range(calls)], repetitions)

    return SealRates(
        verify=rate(lambda: verify(record), loops),
        validate=rate(lambda: validate(bare), loops * 10),
        ed25519=rate(lambda: public.verify(signature, message), loops * 50),
        signatures=signatures,
    )
