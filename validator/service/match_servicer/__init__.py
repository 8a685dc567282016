"""The MatchService servicer: a thin shell over the referee (``gamerec.validator.live``).

Each RPC reads its request (bytes in: the size is checked against the ``request_bytes``
limit before anything is parsed), takes the time it was received, asks the
:class:`~gamerec.validator.live.referee.Referee`, and sends its answer. What cannot be done
ends the call with a status whose google.rpc details name the field (protos/gamerec/v1/
match.proto): INVALID_ARGUMENT (``BadRequest``), FAILED_PRECONDITION (``PreconditionFailure``),
NOT_FOUND (``ResourceInfo``), UNAUTHENTICATED, RESOURCE_EXHAUSTED (``QuotaFailure``) and
UNAVAILABLE when the store fails, each with an ``ErrorInfo`` whose reason is a stable code
and whose metadata ``field`` names the field. Every call writes one log line.

Who may call what was decided before a handler runs, by the gate
(gamerec.validator.service.access): a seat's calls find its seat in the call's principal.

:func:`running_matches` opens the store, starts the referee for one server process and gives
the service to register beside RecordService; ``gamerec serve --matches FILE`` uses it.

The package's modules:

- :mod:`.answering`: handlers built and registered, requests read, errors as statuses (the
  lobby's and the assistant's services use them too);
- :mod:`.rpcs`: :class:`MatchServicer`, the RPCs;
- :mod:`.running`: the settings, the host key's file, the store checked, :func:`running_matches`.

It may import ``grpc``, ``gamerec.recorder``, ``gamerec.v1``, ``gamerec.validator.live`` and
the modules of ``gamerec.validator.service`` it names.
"""

from gamerec.validator.service.match_servicer.answering import (
    DOMAIN,
    MATCH_SERVICE_NAME,
    StatusOf,
    UnaryMethod,
    add_service,
    answering,
    parse_request,
    status_of,
    unary_method,
)
from gamerec.validator.service.match_servicer.rpcs import (
    CONNECTION_WATCHES,
    SIGNATURE_BYTES,
    MatchServicer,
)
from gamerec.validator.service.match_servicer.running import (
    DEFAULT_ABORT_AFTER,
    OPEN_COUNT_SECONDS,
    MatchSettings,
    RunningMatches,
    check_store,
    host_key_file,
    match_limits,
    running_matches,
)

__all__ = [
    "CONNECTION_WATCHES",
    "DEFAULT_ABORT_AFTER",
    "DOMAIN",
    "MATCH_SERVICE_NAME",
    "OPEN_COUNT_SECONDS",
    "SIGNATURE_BYTES",
    "MatchServicer",
    "MatchSettings",
    "RunningMatches",
    "StatusOf",
    "UnaryMethod",
    "add_service",
    "answering",
    "check_store",
    "host_key_file",
    "match_limits",
    "parse_request",
    "running_matches",
    "status_of",
    "unary_method",
]
