"""The service answers hostile requests within gRPC's limits (issue 21)."""

from __future__ import annotations

import grpc
import pytest

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
