"""The Verify RPC through a real server on 127.0.0.1, and Validate's word on the seal."""

from __future__ import annotations

import time

import grpc
import pytest

from gamerec.recorder.codecs import Encoding, encode_record
from gamerec.v1 import seal_pb2 as spb
from gamerec.v1 import service_pb2 as spb_service
from gamerec.v1 import service_pb2_grpc as sgrpc
from gamerec.validator.judge import validate
from gamerec.validator.service.work import DEADLINE_EXCEEDED, run_unary
from gamerec.validator.verification import verify
from tests.sealing import GAME_FIXTURES, public, signed
from tests.service.test_rpcs import violation


@pytest.mark.parametrize("name", GAME_FIXTURES)
def test_verify_answers_what_the_library_answers(stub: sgrpc.RecordServiceStub, name: str) -> None:
    record = signed(name)
    trusted = [public(n) for n in range(len(record.seats) + 1)]
    data = encode_record(record, Encoding.GRN)
    request = spb_service.VerifyRequest(
        data=data, encoding=spb_service.RECORD_ENCODING_GRN, trusted_keys=trusted
    )
    answer = stub.Verify(request)
    assert answer == verify(record, set(trusted))
    assert answer.verified and all(signer.trusted for signer in answer.signers)


def test_verify_finds_the_break_and_untrusted_keys(stub: sgrpc.RecordServiceStub) -> None:
    record = signed("aronda.grn")
    record.moves[6].seat = 2
    answer = stub.Verify(spb_service.VerifyRequest(record=record, trusted_keys=[public(1)]))
    assert (answer.findings[0].code, answer.findings[0].ply) == ("SEAL_BROKEN", 7)
    assert {(f.code, f.seat) for f in answer.findings if f.code == "UNTRUSTED_KEY"} == {
        ("UNTRUSTED_KEY", 2),
        ("UNTRUSTED_KEY", 0),
    }
    assert not answer.verified and answer.seal == spb.SEAL_STATUS_BROKEN


def test_a_trusted_key_of_the_wrong_length_is_an_invalid_argument(
    stub: sgrpc.RecordServiceStub,
) -> None:
    request = spb_service.VerifyRequest(record=signed("aronda.grn"), trusted_keys=[b"short"])
    with pytest.raises(grpc.RpcError) as raised:
        stub.Verify(request)
    assert violation(raised.value) == (
        "trusted_keys[0]",
        "an Ed25519 public key has 32 bytes, not 5",
    )


def test_validate_says_whether_a_record_is_sealed_and_whether_the_seal_holds(
    stub: sgrpc.RecordServiceStub,
) -> None:
    record = signed("oust-side7.grn")
    holds = stub.Validate(spb_service.ValidateRequest(record=record))
    assert holds.seal == spb.SEAL_STATUS_HOLDS and holds == validate(record)
    record.result.winners[0] = 3 - record.result.winners[0]
    broken = stub.Validate(spb_service.ValidateRequest(record=record))
    assert broken.seal == spb.SEAL_STATUS_BROKEN
    record.ClearField("seal")
    assert stub.Validate(spb_service.ValidateRequest(record=record)).seal == spb.SEAL_STATUS_NONE


def test_verify_stops_at_its_deadline_while_checking_signatures() -> None:
    request = spb_service.VerifyRequest(record=signed("ohwahree-2p.grn")).SerializeToString()
    answer = run_unary("Verify", request, time.monotonic() - 1)
    assert answer.status == DEADLINE_EXCEEDED
    assert "the seal's signatures up to ply 0 were checked" in answer.problem
