"""Weak Ed25519 keys and non-canonical signatures are refused wherever they enter (issue 38).

With the identity point (or another point of small order) as a seat's key, one fixed 64-byte
string passes Ed25519 verification for every message, so that seat's "signature" proves
nothing. Such keys are refused in key files, trust folders, ``gamerec seal``, ``gamerec match
new``, CreateMatch and Verify's trusted keys, and verify them nowhere; a signature whose S is
the group's order L or more (a second spelling of a valid one) is refused.
"""

from __future__ import annotations

import base64
import hashlib
from pathlib import Path

import pytest
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
from typer.testing import CliRunner

from gamerec.cli.main import app
from gamerec.cli.match import _seats
from gamerec.recorder.ed25519_checks import (
    KEYS_REMEMBERED,
    L,
    key_weakness,
    signature_is_canonical,
)
from gamerec.recorder.errors import EncodingError
from gamerec.recorder.seal import seal_record
from gamerec.recorder.signing import (
    KeyFileError,
    load_public_key,
    openssh_line,
    trusted_keys,
    verifier,
    verify_signature,
)
from gamerec.v1 import seal_pb2 as spb
from gamerec.v1 import service_pb2
from gamerec.validator.live.clocks import ManualClock
from gamerec.validator.live.match import CommandRefusedError, Match, Refusal
from gamerec.validator.service.work import BadFieldError, verify_job
from gamerec.validator.verification import verify
from tests.live.matches import request
from tests.sealing import key, public, signed

ROOT = Path(__file__).resolve().parents[2]
GAME = ROOT / "fixtures" / "games" / "aronda.grn"

#: The 8 points of small order, canonically encoded (the list libsodium refuses, and the
#: "Taming the many EdDSAs" paper's table): orders 1, 2, 4, 4, 8, 8, 8, 8.
SMALL_ORDER = [
    "0100000000000000000000000000000000000000000000000000000000000000",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "0000000000000000000000000000000000000000000000000000000000000000",
    "0000000000000000000000000000000000000000000000000000000000000080",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc05",
    "26e8958fc2b227b045c3f489f2ef98f0d5dfac05d3c63339b13802886d53fc85",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
    "c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac03fa",
]
#: Non-canonical encodings of small-order points: y = p and p + 1 (0 and 1 again), each with
#: both sign bits, and x = 0 with its sign bit set (the identity, and the point of order 2).
NON_CANONICAL = [
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "edffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
    "eeffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
    "0100000000000000000000000000000000000000000000000000000000000080",
    "ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff",
]
WEAK = [bytes.fromhex(text) for text in SMALL_ORDER + NON_CANONICAL]
#: R = the identity, S = 0: with the identity as key, [S]B = R + [k]A holds for every message.
FORGERY = bytes.fromhex(SMALL_ORDER[0]) + bytes(32)


def weak_id(key_bytes: bytes) -> str:
    return key_bytes.hex()[:8] + ("-hi" if key_bytes[31] & 0x80 else "")


@pytest.mark.parametrize("weak", WEAK, ids=weak_id)
def test_every_small_order_point_and_non_canonical_encoding_is_weak(weak: bytes) -> None:
    reason = key_weakness(weak)
    assert reason is not None
    expected = "small order" if weak.hex() in SMALL_ORDER else "non-canonical"
    assert expected in reason


def test_real_keys_are_not_weak() -> None:
    for seed in range(60):
        assert key_weakness(public(seed)) is None


def test_the_identity_key_verifies_a_fixed_string_for_every_message_unless_refused() -> None:
    identity = bytes.fromhex(SMALL_ORDER[0])
    messages = [b"ply 1", b"final", b"anything at all"]
    for message in messages:  # the Ed25519 library alone accepts it: the attack of issue 38
        Ed25519PublicKey.from_public_bytes(identity).verify(FORGERY, message)
    assert not any(verify_signature(identity, message, FORGERY) for message in messages)


def test_a_signature_with_s_plus_l_is_refused() -> None:
    message = b"a message"
    signature = key(1).sign(message)
    s = int.from_bytes(signature[32:], "little")
    twin = signature[:32] + (s + L).to_bytes(32, "little")
    assert verify_signature(public(1), message, signature)
    assert signature_is_canonical(signature) and not signature_is_canonical(twin)
    assert not verify_signature(public(1), message, twin)


def test_a_record_whose_seal_holds_a_weak_key_is_malformed() -> None:
    record = signed("aronda.grn")
    record.seal.seat_keys[1] = WEAK[0]
    record.seal.plies[1].ClearField("signatures")  # nothing signed by the weak key...
    record.seal.plies[1].signatures.add(signer=2, signature=FORGERY)  # ...but the forgery
    answer = verify(record)
    assert not answer.verified
    assert [(finding.code, finding.seat) for finding in answer.findings] == [("SEAL_MALFORMED", 0)]
    assert "seat 2's key is refused: a point of small order" in answer.findings[0].message


def test_sealing_with_a_weak_key_is_refused() -> None:
    record = signed("aronda.grn")
    record.ClearField("seal")
    for weak in WEAK:
        with pytest.raises(EncodingError, match="is refused"):
            seal_record(record, [public(1), weak], public(0))
        with pytest.raises(EncodingError, match="is refused"):
            seal_record(record, [public(1), public(2)], weak)


def _pub_file(folder: Path, name: str, raw: bytes) -> Path:
    path = folder / name
    path.write_text(openssh_line(raw, name) + "\n")
    return path


def _pem_file(folder: Path, name: str, raw: bytes) -> Path:
    der = bytes.fromhex("302a300506032b6570032100") + raw  # SubjectPublicKeyInfo, Ed25519
    text = base64.encodebytes(der).decode()
    path = folder / name
    path.write_text(f"-----BEGIN PUBLIC KEY-----\n{text}-----END PUBLIC KEY-----\n")
    return path


@pytest.mark.parametrize("weak", WEAK, ids=weak_id)
def test_key_files_and_trust_folders_refuse_a_weak_key(weak: bytes, tmp_path: Path) -> None:
    line = _pub_file(tmp_path, "weak.pub", weak)
    with pytest.raises(KeyFileError, match=r"weak\.pub: the key is refused"):
        load_public_key(line)
    folder = tmp_path / "trusted"
    folder.mkdir()
    _pub_file(folder, "good.pub", public(1))
    _pub_file(folder, "bad.pub", weak)
    with pytest.raises(KeyFileError, match=r"bad\.pub: the key is refused"):
        trusted_keys(folder)


def test_a_public_pem_file_with_a_weak_key_is_refused(tmp_path: Path) -> None:
    good = _pem_file(tmp_path, "good.pem", public(1))
    assert load_public_key(good) == public(1)
    with pytest.raises(KeyFileError, match=r"weak\.pem: the key is refused: a point of small"):
        load_public_key(_pem_file(tmp_path, "weak.pem", WEAK[4]))


def test_gamerec_seal_refuses_a_weak_seat_key(tmp_path: Path) -> None:
    weak = _pub_file(tmp_path, "weak.pub", WEAK[0])
    out = tmp_path / "sealed.grn"
    result = CliRunner().invoke(app, ["seal", str(GAME), "-o", str(out), "--key", f"1={weak}"])
    assert result.exit_code == 2
    assert "weak.pub: the key is refused: a point of small order" in result.output
    assert not out.exists()


def test_match_new_refuses_a_weak_seat_key(tmp_path: Path) -> None:
    weak = _pub_file(tmp_path, "weak.pub", WEAK[2])
    with pytest.raises(KeyFileError, match="the key is refused"):
        _seats(["Ana", "Ben"], [f"2={weak}"])


@pytest.mark.parametrize("weak", WEAK, ids=weak_id)
def test_create_match_refuses_a_weak_seat_key(weak: bytes) -> None:
    made = request("ONE", 2)
    made.seats[1].public_key = weak
    with pytest.raises(CommandRefusedError) as error:
        Match.create("m", made, ManualClock().now())
    refused = error.value
    assert refused.refusal is Refusal.INVALID
    assert (refused.field, refused.reason) == ("seats[1].public_key", "BAD_KEY")


def test_verify_refuses_a_weak_trusted_key() -> None:
    made = service_pb2.VerifyRequest(record=signed("aronda.grn"), trusted_keys=[WEAK[0]])
    with pytest.raises(BadFieldError) as error:
        verify_job(made.SerializeToString(), None)
    assert "trusted_keys[0]" in str(error.value)
    assert "refused" in str(error.value)
    assert verify(signed("aronda.grn")).seal == spb.SEAL_STATUS_HOLDS


def test_keys_are_judged_and_loaded_once_each_within_a_bound() -> None:
    # The same few keys seal a whole archive, so their judgement and their loaded verifier
    # are remembered; a flood of distinct keys keeps no more than the bound.
    key_weakness.cache_clear()
    verifier.cache_clear()
    keys = [
        hashlib.sha256(str(number).encode()).digest() for number in range(KEYS_REMEMBERED + 200)
    ]
    judged = [key_weakness(each) for each in keys]
    assert [key_weakness(each) for each in keys[-10:]] == judged[-10:]
    for each in keys:
        verifier(each)
    assert key_weakness.cache_info().currsize == KEYS_REMEMBERED
    assert verifier.cache_info().currsize == KEYS_REMEMBERED
    assert verifier(keys[-1]) is verifier(keys[-1])
