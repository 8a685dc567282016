"""Sealed, signed records of all four games for the seal tests, made as a platform makes them.

Each fixture game is played again through the record builder with Ed25519 keys for every seat
and the host, so every ply is sealed and signed the moment it is played. The keys are fixed
(made from a seed byte), so runs are repeatable.
"""

from __future__ import annotations

import functools
from pathlib import Path

from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from gamerec.recorder.codecs import read_records
from gamerec.recorder.grn_tags import variant_tags
from gamerec.recorder.notation import format_action, game_name
from gamerec.recorder.signing import public_bytes
from gamerec.v1 import record_pb2 as pb
from gamerec.validator.builder import RecordBuilder

ROOT = Path(__file__).resolve().parent.parent
GAMES_FOLDER = ROOT / "fixtures" / "games"
#: One finished fixture game of each of the four games, and one stopped by a timeout.
GAME_FIXTURES = ("one-3p.grn", "aronda.grn", "oust-side7.grn", "ohwahree-2p.grn")
TIMEOUT_FIXTURE = "aronda-timeout.grn"
HOST = 0


def key(seed: int) -> Ed25519PrivateKey:
    """A fixed key: seed 0 is the host's, seed N seat N's, seeds from 100 strangers'."""
    return Ed25519PrivateKey.from_private_bytes(bytes([seed + 1]) * 32)


def public(seed: int) -> bytes:
    """The public key of :func:`key`."""
    return public_bytes(key(seed))


def fixture(name: str) -> pb.GameRecord:
    """The one record of a fixture file."""
    (record,) = read_records(str(GAMES_FOLDER / name))
    return record


@functools.cache
def _signed(name: str) -> bytes:
    source = fixture(name)
    seats = len(source.seats)
    builder = RecordBuilder(
        game_name(source.rules.game),
        dict(variant_tags(source.rules)),
        seats=[seat.name for seat in source.seats],
        signing_keys={signer: key(signer) for signer in range(seats + 1)},
        event="Club night",
    )
    for move in source.moves:
        builder.play(format_action(move, source.rules.game))
    if not builder.is_over:
        builder.stop("timeout")
    return builder.record.SerializeToString()


def signed(name: str) -> pb.GameRecord:
    """A fresh copy of the fixture game played through the builder, sealed and signed."""
    return pb.GameRecord.FromString(_signed(name))
