"""``gamerec serve``: the gRPC referee service (validator.service), until SIGTERM or SIGINT.

With ``--matches FILE`` it serves MatchService too (live matches, docs/live.md).
"""

from __future__ import annotations

import asyncio
import sys
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.edge import reported_errors
from gamerec.validator.service.access import AccessSettings
from gamerec.validator.service.calls import log_to
from gamerec.validator.service.pool import DEFAULT_INLINE_BYTES
from gamerec.validator.service.processes import serve as serve_forever
from gamerec.validator.service.server import (
    DEFAULT_GRACE_SECONDS,
    DEFAULT_MAX_MESSAGE_BYTES,
    ServeSettings,
)
from gamerec.validator.service.transport import ServerTransport

if TYPE_CHECKING:
    from gamerec.validator.service.match_servicer import MatchSettings


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
    matches: Annotated[
        str,
        typer.Option(
            metavar="FILE",
            help="Serve MatchService (live matches) too, kept in this SQLite file (made if "
            "missing; docs/live.md).",
        ),
    ] = "",
    host_key: Annotated[
        str,
        typer.Option(
            metavar="KEY",
            help="With --matches: the host's Ed25519 private key, which seals and signs every "
            "record (default: FILE.host-key, made if missing).",
        ),
    ] = "",
    admin_tokens: Annotated[
        str,
        typer.Option(
            "--admin-tokens",
            "--admin-token-file",
            metavar="FILE",
            help="The admins' tokens, one 'NAME TOKEN' or 'NAME sha256:HEX' a line (read "
            "again on SIGHUP; docs/operating.md); without it anyone may act as the admin.",
        ),
    ] = "",
    spectator_tokens: Annotated[
        str,
        typer.Option(
            metavar="FILE", help="The spectators' tokens (same form), for watching matches."
        ),
    ] = "",
    record_tokens: Annotated[
        str,
        typer.Option(
            metavar="FILE",
            help="Tokens for RecordService (same form); without it RecordService is open.",
        ),
    ] = "",
    anonymous_watch: Annotated[
        bool,
        typer.Option(
            help="Let anyone watch matches and read them; off, it takes a spectator's, a "
            "seat's or an admin's token."
        ),
    ] = True,
    client_limit: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=N",
            help="Change a limit per client (gamerec limits lists them), e.g. token-rate=50; "
            "repeatable.",
        ),
    ] = None,
    tls_cert: Annotated[
        str,
        typer.Option(metavar="PEM", help="Serve TLS with this certificate (chain)."),
    ] = "",
    tls_key: Annotated[str, typer.Option(metavar="PEM", help="The certificate's key.")] = "",
    client_ca: Annotated[
        str,
        typer.Option(
            metavar="PEM",
            help="Require client certificates signed by this CA (mTLS); their subject can "
            "stand for a token ('NAME subject:CN=...').",
        ),
    ] = "",
    insecure: Annotated[
        bool,
        typer.Option(
            "--insecure",
            help="Allow plain text on an address that is not loopback (tokens travel "
            "unencrypted; a warning is logged).",
        ),
    ] = False,
    metrics_port: Annotated[
        int | None,
        typer.Option(
            min=0,
            max=65535,
            help="Serve Prometheus metrics on this port (/metrics; 0 picks a free one).",
        ),
    ] = None,
    metrics_host: Annotated[
        str, typer.Option(help="The address of the metrics port.")
    ] = "127.0.0.1",
    match_limit: Annotated[
        list[str] | None,
        typer.Option(
            metavar="NAME=N",
            help="With --matches: change a limit of the match service (gamerec limits lists "
            "them), e.g. watchers=100; repeatable.",
        ),
    ] = None,
    test_clock: Annotated[
        str,
        typer.Option(
            metavar="PATH",
            help="With --matches: read the referee's clock from a file of nanoseconds that "
            "tests move forward (docs/live.md, 'Testing a client'), not the system clock.",
        ),
    ] = "",
    abort_after: Annotated[
        float | None,
        typer.Option(
            metavar="SECONDS",
            min=0.001,
            max=86400.0,
            help="With --matches: a seat of a timed match with no scheduled start has this "
            "long for its first ply, which is untimed; then the match is aborted with no "
            "result (default 60; docs/live.md, 'When the clocks start').",
        ),
    ] = None,
) -> None:
    """Serve gamerec.v1.RecordService over gRPC, with health and reflection.

    Validate, Replay, Score, Adjudicate, Diff, Convert and LegalMoves run on all cores: one
    server process per core shares the port, and large requests go to worker processes.
    One JSON line per call goes to stderr (the first line says where the server listens).
    SIGTERM or SIGINT stops it gracefully: calls in flight finish, then it exits 0.
    """
    log_to(sys.stderr)
    with reported_errors():
        access = _access_settings(
            admin_tokens, spectator_tokens, record_tokens, anonymous_watch, client_limit or []
        )
        settings = ServeSettings(
            host=host,
            port=port,
            workers=workers,
            inline_bytes=inline_bytes,
            max_message_bytes=max_message_bytes,
            grace=grace,
            matches=_match_settings(matches, host_key, match_limit or [], test_clock, abort_after),
            access=access,
            transport=ServerTransport(tls_cert, tls_key, client_ca, insecure),
            metrics_host=metrics_host,
            metrics_port=metrics_port,
        )
        asyncio.run(serve_forever(settings, processes))


def _access_settings(
    admin_tokens: str,
    spectator_tokens: str,
    record_tokens: str,
    anonymous_watch: bool,
    limits: list[str],
) -> AccessSettings:
    """Who may do what, from the options; the token files are read once here to check them.

    Raises:
        GamerecError: a token file that cannot be read, or an unknown limit.
    """
    from gamerec.recorder.errors import GamerecError
    from gamerec.validator.service.quotas import ClientLimits
    from gamerec.validator.service.token_files import TokenBook

    try:
        client_limits = ClientLimits().with_settings(limits)
    except ValueError as error:
        raise GamerecError(f"--client-limit: {error}") from None
    access = AccessSettings(
        admin_tokens, spectator_tokens, record_tokens, anonymous_watch, client_limits
    )
    TokenBook(access.files())
    return access


def _match_settings(
    store: str, host_key: str, limits: list[str], test_clock: str, abort_after: float | None
) -> MatchSettings | None:
    """MatchService's settings from the options (None without --matches).

    The host key defaults to ``FILE.host-key``, made (with its ``.pub``) when missing. The
    store is opened once here, so a wrong file or key is reported before the server starts.

    Raises:
        GamerecError: an option without --matches, a key or token file that cannot be read,
            an unknown limit, or a store that cannot be opened.
    """
    from gamerec.recorder.errors import GamerecError

    if not store:
        if host_key or limits or test_clock or abort_after is not None:
            raise GamerecError(
                "--host-key, --match-limit, --test-clock and --abort-after go with --matches FILE"
            )
        return None
    from gamerec.validator.service.match_servicer import (
        DEFAULT_ABORT_AFTER,
        MatchSettings,
        check_store,
        host_key_file,
        match_limits,
    )

    key_file, made = host_key_file(store, host_key)
    settings = MatchSettings(
        store=store,
        host_key=key_file,
        host_key_made=made,
        limits=match_limits(limits),
        test_clock=test_clock,
        abort_after=DEFAULT_ABORT_AFTER if abort_after is None else abort_after,
    )
    asyncio.run(check_store(settings))
    return settings
