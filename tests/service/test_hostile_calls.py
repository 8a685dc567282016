"""The service answers hostile requests within gRPC's limits (issue 21)."""

from __future__ import annotations

from pathlib import Path

import grpc
import pytest

from gamerec.recorder.codecs import Encoding, decode_record
from gamerec.v1 import service_pb2 as spb
from gamerec.v1 import service_pb2_grpc as sgrpc

HOSTILE = {
    # A 5 KB ply number once gave RESOURCE_EXHAUSTED: the status detail echoed it whole.
    "ply-number": (b'[Game "Oust"]\n\n' + b"9" * 5_000 + b". g7 *\n", "expected ply number 1"),
    "token": (b'[Game "Oust"]\n\n1. ' + b"q" * 1_000_000 + b" *\n", "(1,000,000 characters)"),
}


@pytest.mark.parametrize("name", sorted(HOSTILE))
def test_a_huge_bad_input_is_invalid_argument_with_a_short_detail(
    stub: sgrpc.RecordServiceStub, name: str
) -> None:
    data, expected = HOSTILE[name]
    request = spb.ValidateRequest(data=data, encoding=spb.RECORD_ENCODING_GRN)
    with pytest.raises(grpc.RpcError) as raised:
        stub.Validate(request, timeout=60)
    error = raised.value
    assert isinstance(error, grpc.Call)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    details = error.details() or ""
    assert len(details) < 1_200 and expected in details


def test_a_record_with_a_time_out_of_range_is_invalid_argument_naming_the_field(
    stub: sgrpc.RecordServiceStub,
) -> None:
    fixture = Path(__file__).parents[2] / "fixtures" / "games" / "aronda-timeout.grn"
    record = decode_record(fixture.read_bytes(), Encoding.GRN)
    record.moves[4].clock.seconds = 10**13
    with pytest.raises(grpc.RpcError) as raised:
        stub.Validate(spb.ValidateRequest(record=record), timeout=60)
    error = raised.value
    assert isinstance(error, grpc.Call)
    assert error.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "moves[4].clock: 10000000000000 seconds is outside 10,000 years" in (
        error.details() or ""
    )
