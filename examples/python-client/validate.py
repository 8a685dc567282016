"""Validate a record against a running gamerec server (``gamerec serve``) over gRPC, in Python.

    python examples/python-client/validate.py [--address HOST:PORT] RECORD

The record goes as raw bytes (``data``) and the server tells the encoding from them; the answer
is a ``gamerec.v1.Verdict``, printed as one line for the record and one per finding. A request
the server cannot process is a gRPC error whose ``google.rpc.BadRequest`` detail names the
field. The stubs are gamerec's own (``gamerec.v1``); a client of another project generates
them from ``protos/`` with grpcio-tools. Exit codes, as gamerec's: 0 valid, 1 invalid, 2 the
record could not be validated.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import grpc
from google.rpc import error_details_pb2
from grpc_status import rpc_status

from gamerec.v1 import service_pb2, service_pb2_grpc


def validate(address: str, path: Path) -> int:
    """Send the record, print the verdict; the exit code."""
    request = service_pb2.ValidateRequest(data=path.read_bytes())
    with grpc.insecure_channel(address) as channel:
        stub = service_pb2_grpc.RecordServiceStub(channel)
        try:
            verdict = stub.Validate(request, timeout=30)
        except grpc.RpcError as error:
            print(f"{path}: {error.code().name}: {refusal(error)}", file=sys.stderr)
            return 2
    scores = "-".join(str(score) for score in verdict.result.scores)
    word = "valid" if verdict.valid else "INVALID"
    print(f"{path}: {word}, {verdict.plies_replayed} plies, scores {scores}")
    for finding in verdict.errors:
        print(f"  ply {finding.ply}, seat {finding.seat}: {finding.code}: {finding.message}")
    return 0 if verdict.valid else 1


def refusal(error: grpc.RpcError) -> str:
    """The field and the problem of a refused request, from its BadRequest detail."""
    status = rpc_status.from_call(error)
    for detail in status.details if status is not None else ():
        violations = error_details_pb2.BadRequest()
        if detail.Unpack(violations):
            return "; ".join(f"{v.field}: {v.description}" for v in violations.field_violations)
    return str(error.details())


def main() -> int:
    """Parse the arguments and validate."""
    parser = argparse.ArgumentParser(description="Validate a record over gRPC.")
    parser.add_argument("--address", default="127.0.0.1:50051")
    parser.add_argument("record", type=Path)
    args = parser.parse_args()
    return validate(args.address, args.record)


if __name__ == "__main__":
    sys.exit(main())
