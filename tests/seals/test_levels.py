"""What a record proves, level by level (issue 34, item 4): the seal intact, the host's word on
every ply and the result, every seat's signature on its own plies; ``gamerec verify --require``
asks for one, and the exit code follows it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from gamerec.recorder.codecs import write_records
from gamerec.recorder.seal import seal_record
from gamerec.recorder.signing import openssh_line, sign_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import verification_pb2 as wpb
from gamerec.validator.verification import verify
from tests.sealing import HOST, key, public, signed

SEAL, HOST_LEVEL, SEATS = wpb.PROOF_LEVEL_SEAL, wpb.PROOF_LEVEL_HOST, wpb.PROOF_LEVEL_SEATS
GAMEREC = str(Path(sys.executable).with_name("gamerec"))


def resealed(seats: bool, host: bool, signers: tuple[int, ...]) -> pb.GameRecord:
    """aronda.grn sealed again with the seats' keys and/or the host's, signed by ``signers``."""
    record = signed("aronda.grn")
    record.ClearField("seal")
    record = seal_record(
        record, [public(1), public(2)] if seats else None, public(HOST) if host else None
    )
    for signer in signers:
        record = sign_record(record, key(signer), signer)
    return record


def test_a_record_sealed_and_signed_by_the_host_alone_proves_the_host_s_word() -> None:
    """As a live match without seat keys is: the host signed everything, no seat could."""
    answer = verify(resealed(seats=False, host=True, signers=(HOST,)), {public(HOST)})
    assert list(answer.proven) == [SEAL, HOST_LEVEL]
    assert not answer.verified  # the default, all: the seats have no key
    assert [(f.code, f.seat) for f in answer.findings] == [("NO_KEY", 1), ("NO_KEY", 2)]


def test_a_record_every_signer_signed_proves_every_level() -> None:
    answer = verify(signed("aronda.grn"), {public(0), public(1), public(2)})
    assert list(answer.proven) == [SEAL, HOST_LEVEL, SEATS] and answer.verified


def test_seats_without_a_host_prove_the_seats_level() -> None:
    answer = verify(resealed(seats=True, host=False, signers=(1, 2)))
    assert list(answer.proven) == [SEAL, SEATS] and answer.verified


def test_a_signer_that_did_not_sign_or_is_untrusted_loses_its_level() -> None:
    unsigned_host = verify(resealed(seats=True, host=True, signers=(1, 2)))
    assert list(unsigned_host.proven) == [SEAL, SEATS] and not unsigned_host.verified
    one_seat = verify(resealed(seats=True, host=True, signers=(1, HOST)))
    assert list(one_seat.proven) == [SEAL, HOST_LEVEL]
    stranger = verify(resealed(seats=False, host=True, signers=(HOST,)), {public(1), public(2)})
    assert list(stranger.proven) == [SEAL]
    assert ("UNTRUSTED_KEY", 0) in [(f.code, f.seat) for f in stranger.findings]


def test_a_broken_seal_an_unsealed_record_or_an_illegal_game_prove_nothing() -> None:
    broken = signed("aronda.grn")
    broken.moves[4].aronda.placements[0].index = 1
    assert list(verify(broken).proven) == []
    unsealed = signed("aronda.grn")
    unsealed.ClearField("seal")
    assert list(verify(unsealed).proven) == []
    illegal = signed("aronda.grn")
    illegal.ClearField("seal")
    illegal.moves[3].aronda.placements[0].index = 9
    illegal = seal_record(illegal, [public(1), public(2)], public(HOST))
    for signer in (0, 1, 2):
        illegal = sign_record(illegal, key(signer), signer)
    assert list(verify(illegal).proven) == []


@pytest.mark.parametrize(
    ("require", "exit_code", "headline"),
    [
        ([], 1, "NOT VERIFIED  Aronda"),
        (["--require", "all"], 1, "NOT VERIFIED  Aronda"),
        (["--require", "seal"], 0, "verified (required: seal)  Aronda"),
        (["--require", "host"], 0, "verified (required: host)  Aronda"),
        (["--require", "seats"], 1, "NOT VERIFIED (required: seats)  Aronda"),
    ],
)
def test_the_exit_code_follows_the_level_required(
    tmp_path: Path, require: list[str], exit_code: int, headline: str
) -> None:
    path = tmp_path / "host-only.grn"
    write_records([resealed(seats=False, host=True, signers=(HOST,))], path)
    trust = tmp_path / "trusted"
    trust.mkdir()
    (trust / "host.pub").write_text(openssh_line(public(HOST)) + "\n", encoding="utf-8")
    done = subprocess.run(
        [GAMEREC, "verify", str(path), "--trust", str(trust), *require],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == exit_code, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert lines[0].startswith(f"{path} #1: {headline}")
    assert "  proves  seal yes  host yes  seats no" in lines


def test_an_unknown_level_is_refused() -> None:
    done = subprocess.run(
        [GAMEREC, "verify", "x.grn", "--require", "players"],
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert done.returncode == 2 and "--require" in done.stderr
