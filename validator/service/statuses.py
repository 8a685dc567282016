"""Error statuses with google.rpc details: the one way the services build them.

Every refused call carries a ``google.rpc.ErrorInfo`` whose reason is a stable code and
whose metadata ``field`` names the field at fault (empty: the call as a whole), after the
detail its code calls for (``BadRequest``, ``PreconditionFailure``, ``QuotaFailure`` and
``RetryInfo``, ...).
"""

from __future__ import annotations

from collections.abc import Sequence

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.protobuf.message import Message
from google.rpc import code_pb2, error_details_pb2, status_pb2  # type: ignore[import-untyped]
from grpc_status import rpc_status

from gamerec.recorder.errors import bounded


def status_with(
    code: int,
    message: str,
    *,
    reason: str,
    domain: str,
    field_name: str,
    details: Sequence[Message] = (),
    metadata: dict[str, str] | None = None,
) -> grpc.Status:
    """A status with ``details`` and an ``ErrorInfo`` naming the reason and the field.

    An INVALID_ARGUMENT's message starts with the field's name.
    """
    message = bounded(message)
    info = error_details_pb2.ErrorInfo(
        reason=reason, domain=domain, metadata={"field": field_name, **(metadata or {})}
    )
    packed = []
    for part in (*details, info):
        value = any_pb2.Any()
        value.Pack(part)
        packed.append(value)
    if field_name and code == code_pb2.INVALID_ARGUMENT:
        message = f"{field_name}: {message}"
    return rpc_status.to_status(status_pb2.Status(code=code, message=message, details=packed))


def retry_info(seconds: float) -> Message:
    """A ``google.rpc.RetryInfo`` asking to wait ``seconds`` (to the millisecond, at least 1)."""
    delay = duration_pb2.Duration()
    delay.FromMilliseconds(max(1, round(seconds * 1000)))
    return error_details_pb2.RetryInfo(retry_delay=delay)  # type: ignore[no-any-return]


def quota_failure(subject: str, description: str) -> Message:
    """A ``google.rpc.QuotaFailure`` with one violation."""
    violation = error_details_pb2.QuotaFailure.Violation(
        subject=subject, description=bounded(description)
    )
    return error_details_pb2.QuotaFailure(violations=[violation])  # type: ignore[no-any-return]
