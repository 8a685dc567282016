"""A second implementation: a Node.js verifier written from docs/seals.md agrees with gamerec.

``node_verifier.mjs`` uses only Node's built-in crypto. It reads the ProtoJSON that gamerec
writes and must find what ``gamerec.validator.verification`` finds about the seal (status,
each finding's code, ply and seat, each signer's coverage) on sealed records of all four games
and on every kind of tampered one.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from gamerec.recorder.codecs import Encoding, write_records
from gamerec.recorder.ed25519_checks import L
from gamerec.recorder.seal import ply_message, seal_record
from gamerec.recorder.signing import sign_record
from gamerec.v1 import record_pb2 as pb
from gamerec.v1 import seal_pb2 as spb
from gamerec.validator.verification import seal_proof
from tests.sealing import GAME_FIXTURES, TIMEOUT_FIXTURE, key, public, signed
from tests.seals.test_weak_keys import FORGERY, WEAK
from tests.strategies import records

VERIFIER = Path(__file__).with_name("node_verifier.mjs")
NODE = shutil.which("node")
pytestmark = pytest.mark.skipif(NODE is None, reason="Node.js is not installed")
STATUS = {
    spb.SEAL_STATUS_NONE: "NONE",
    spb.SEAL_STATUS_HOLDS: "HOLDS",
    spb.SEAL_STATUS_BROKEN: "BROKEN",
}


def node_answers(records: list[pb.GameRecord], folder: Path) -> list[dict[str, Any]]:
    path = folder / "records.jsonl"
    write_records(records, str(path), Encoding.JSONL)
    assert NODE is not None
    done = subprocess.run(
        [NODE, str(VERIFIER), str(path)], capture_output=True, text=True, timeout=120, check=False
    )
    assert done.returncode == 0, done.stderr
    return [json.loads(line) for line in done.stdout.splitlines()]


def python_answer(record: pb.GameRecord) -> dict[str, Any]:
    proof = seal_proof(record)
    return {
        "status": STATUS[proof.seal],
        "findings": [{"code": f.code, "ply": f.ply, "seat": f.seat} for f in proof.findings],
        "signers": [
            {"signer": s.signer, "through": s.signed_through, "result": s.signed_result}
            for s in proof.signers
        ],
    }


def tampered() -> dict[str, pb.GameRecord]:
    """One record per kind of tampering of issue 17."""
    cases: dict[str, pb.GameRecord] = {}

    def case(name: str, base: str = "one-3p.grn") -> pb.GameRecord:
        cases[name] = signed(base)
        return cases[name]

    case("changed ply").moves[16].one.path[0].index += 1
    swapped, original = case("swapped plies", "oust-side7.grn"), signed("oust-side7.grn")
    swapped.moves[9].CopyFrom(original.moves[10])
    swapped.moves[10].CopyFrom(original.moves[9])
    del case("dropped ply", "ohwahree-2p.grn").moves[4]
    case("appended ply", "aronda.grn").moves.add(seat=1, resign=pb.Resign())
    case("changed result", "aronda.grn").result.scores.values[0] += 1
    case("seat name").seats[0].name = "Mallory"
    keys = case("seat keys swapped").seal.seat_keys
    keys[0], keys[1] = keys[1], keys[0]
    case("variant").rules.one.mirror = pb.ONE_MIRROR_NONE
    wrong = case("wrong key")
    wrong.seal.plies[4].signatures[0].signature = key(100).sign(
        ply_message(5, wrong.seal.plies[4].head)
    )
    copied, other = case("copied signature"), signed("one-3p.grn")
    other.metadata.event = "Another night"
    other = sign_record(seal_record(other), key(1), 1)
    copied.seal.final_signatures[0].signature = other.seal.final_signatures[-1].signature
    unsealed = case("unsealed", "aronda.grn")
    unsealed.ClearField("seal")
    case("malformed", "aronda.grn").seal.version = 2
    return cases


def test_node_agrees_on_sealed_records_of_all_four_games(tmp_path: Path) -> None:
    records = [signed(name) for name in (*GAME_FIXTURES, TIMEOUT_FIXTURE)]
    answers = node_answers(records, tmp_path)
    for record, answer in zip(records, answers, strict=True):
        assert answer == python_answer(record)
        assert answer["status"] == "HOLDS" and answer["findings"] == []


def test_node_agrees_on_every_kind_of_tampering(tmp_path: Path) -> None:
    cases = tampered()
    answers = node_answers(list(cases.values()), tmp_path)
    found = {}
    for (name, record), answer in zip(cases.items(), answers, strict=True):
        assert answer == python_answer(record), name
        found[name] = (answer["findings"][0]["code"], answer["findings"][0]["ply"])
    assert found == {
        "changed ply": ("SEAL_BROKEN", 17),
        "swapped plies": ("SEAL_BROKEN", 10),
        "dropped ply": ("SEAL_BROKEN", 5),
        "appended ply": ("SEAL_BROKEN", 26),
        "changed result": ("SEAL_BROKEN", 0),
        "seat name": ("SEAL_BROKEN", 0),
        "seat keys swapped": ("SEAL_BROKEN", 0),
        "variant": ("SEAL_BROKEN", 0),
        "wrong key": ("SIGNATURE_INVALID", 5),
        "copied signature": ("SIGNATURE_INVALID", 0),
        "unsealed": ("NOT_SEALED", 0),
        "malformed": ("SEAL_MALFORMED", 0),
    }


def test_node_agrees_on_a_record_cut_after_every_ply(tmp_path: Path) -> None:
    full = signed("ohwahree-2p.grn")
    cuts = []
    for kept in range(len(full.moves)):
        cut = pb.GameRecord.FromString(full.SerializeToString())
        del cut.moves[kept:]
        cuts.append(cut)
        prefix = pb.GameRecord.FromString(cut.SerializeToString())
        del prefix.seal.plies[kept:]
        prefix.ClearField("result")
        cuts.append(seal_record(prefix))
    answers = node_answers(cuts, tmp_path)
    for record, answer in zip(cuts, answers, strict=True):
        assert answer == python_answer(record), len(record.moves)


@settings(max_examples=15, deadline=None)
@given(st.lists(records(), min_size=4, max_size=4))
def test_node_agrees_on_any_sealed_record(records_: list[pb.GameRecord]) -> None:
    """Any text, variant, clock, time and result of the schema: the same chain in both."""
    sealed = []
    for record in records_:
        seats = min(len(record.seats), 2)
        one = seal_record(record, [public(seat) for seat in range(1, seats + 1)], public(0))
        for signer in range(seats + 1):
            one = sign_record(one, key(signer), signer)
        sealed.append(one)
    with tempfile.TemporaryDirectory() as folder:
        answers = node_answers(sealed, Path(folder))
    for record, answer in zip(sealed, answers, strict=True):
        assert answer == python_answer(record)
        assert answer["status"] == "HOLDS"


def test_node_refuses_every_weak_key_and_the_s_plus_l_twin_as_gamerec_does(
    tmp_path: Path,
) -> None:
    """docs/seals.md §7 is enough to refuse what gamerec refuses (weak keys, S >= L)."""
    cases: list[pb.GameRecord] = []
    for weak in WEAK:
        record = signed("aronda.grn")
        record.seal.seat_keys[1] = weak
        record.seal.plies[1].ClearField("signatures")
        record.seal.plies[1].signatures.add(signer=2, signature=FORGERY)
        cases.append(record)
    twin = signed("aronda.grn")
    signature = twin.seal.plies[0].signatures[0].signature
    s = int.from_bytes(signature[32:], "little")
    twin.seal.plies[0].signatures[0].signature = signature[:32] + (s + L).to_bytes(32, "little")
    cases.append(twin)
    answers = node_answers(cases, tmp_path)
    expected = [python_answer(record) for record in cases]
    assert answers == expected
    assert all(answer["findings"][0]["code"] == "SEAL_MALFORMED" for answer in answers[:-1])
    assert {"code": "SIGNATURE_INVALID", "ply": 1, "seat": 1} in answers[-1]["findings"]
