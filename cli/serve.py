"""``gamerec serve``: the gRPC referee service (validator.service), until SIGTERM or SIGINT."""

from __future__ import annotations

import asyncio
import sys
from typing import Annotated

import typer

from gamerec.cli.edge import reported_errors
from gamerec.validator.service.calls import log_to
from gamerec.validator.service.pool import DEFAULT_INLINE_BYTES
from gamerec.validator.service.processes import serve as serve_forever
from gamerec.validator.service.server import (
    DEFAULT_GRACE_SECONDS,
    DEFAULT_MAX_MESSAGE_BYTES,
    ServeSettings,
)


def serve(
    *,
    host: Annotated[str, typer.Option(help="The address to listen on.")] = "127.0.0.1",
    port: Annotated[
        int, typer.Option(min=0, max=65535, help="The port to listen on; 0 picks a free one.")
    ] = 50051,
    processes: Annotated[
        int,
        typer.Option(min=0, help="Server processes sharing the port; 0 means one per core."),
    ] = 0,
    workers: Annotated[
        int,
        typer.Option(
            "--workers",
            "-j",
            min=0,
            help="Worker processes for large requests, in all (each server process has at "
            "least one); 0 means one per core.",
        ),
    ] = 0,
    inline_bytes: Annotated[
        int,
        typer.Option(
            min=0, help="Judge requests up to this size on the event loop, not in a worker."
        ),
    ] = DEFAULT_INLINE_BYTES,
    max_message_bytes: Annotated[
        int,
        typer.Option(
            min=1024, help="The largest request or response; past it, RESOURCE_EXHAUSTED."
        ),
    ] = DEFAULT_MAX_MESSAGE_BYTES,
    grace: Annotated[
        float,
        typer.Option(min=0, help="Seconds that calls in flight get to finish at shutdown."),
    ] = DEFAULT_GRACE_SECONDS,
) -> None:
    """Serve gamerec.v1.RecordService over gRPC, with health and reflection.

    Validate, Replay, Score, Adjudicate, Diff, Convert and LegalMoves run on all cores: one
    server process per core shares the port, and large requests go to worker processes.
    One JSON line per call goes to stderr (the first line says where the server listens).
    SIGTERM or SIGINT stops it gracefully: calls in flight finish, then it exits 0.
    """
    log_to(sys.stderr)
    settings = ServeSettings(
        host=host,
        port=port,
        workers=workers,
        inline_bytes=inline_bytes,
        max_message_bytes=max_message_bytes,
        grace=grace,
    )
    with reported_errors():
        asyncio.run(serve_forever(settings, processes))
