"""``gamerec validate PATH...``: is every record a legal game, and is its claimed result right?"""

from __future__ import annotations

from typing import Annotated

import typer

from gamerec.cli.arguments import LimitOption, encoding_help, limits_of
from gamerec.cli.validating import run_validate
from gamerec.recorder.encoding import Encoding


def validate(
    paths: Annotated[
        list[str],
        typer.Argument(
            metavar="PATH",
            help="Record files, folders of them (searched recursively), .pbs collections, "
            "or - for standard input.",
        ),
    ],
    as_json: Annotated[
        bool,
        typer.Option(
            "--json", help="Print each Verdict as one line of ProtoJSON (every field present)."
        ),
    ] = False,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print only invalid and unreadable records.")
    ] = False,
    workers: Annotated[
        int,
        typer.Option("--workers", "-j", min=0, help="Worker processes; 0 means all cores."),
    ] = 0,
    from_: Annotated[
        Encoding | None,
        typer.Option(
            "--from",
            help=f"Encoding of every input ({encoding_help()}); default: extension, else sniffed.",
        ),
    ] = None,
    *,
    limit: LimitOption = None,
    scheduler: Annotated[
        str | None,
        typer.Option(
            "--scheduler",
            metavar="ADDRESS",
            help="Judge on the Dask cluster of this scheduler (tcp://HOST:8786); the inputs "
            "must be on storage every worker sees.",
        ),
    ] = None,
    cluster: Annotated[
        str | None,
        typer.Option(
            "--cluster",
            metavar="local[:N]",
            help="Judge on an embedded local Dask cluster of N workers (default: all cores).",
        ),
    ] = None,
    out: Annotated[
        str | None,
        typer.Option(
            "--out",
            metavar="FOLDER",
            help="With --scheduler or --cluster: keep each finished shard's verdicts here, "
            "so that the same command resumes where an interrupted run stopped.",
        ),
    ] = None,
    allow_empty: Annotated[
        bool,
        typer.Option(
            "--allow-empty",
            help="Accept a folder that holds no record file (without it: exit code 2).",
        ),
    ] = False,
) -> None:
    """Replay every record under its rules and judge it.

    A record is valid when every ply is legal and its claimed result is the rules' result
    (a record that claims no end is valid and reported unfinished). Exit code 0 when every
    record is valid, 1 when any is invalid, 2 when any input could not be read (the others
    are still validated) or when a folder holds no record file (a wrong path must not pass a
    check; --allow-empty accepts it). A one-line summary goes to stderr.
    """
    if scheduler is None and cluster is None and out is not None:
        raise typer.BadParameter("--out needs --scheduler or --cluster", param_hint="--out")
    if scheduler is not None and cluster is not None:
        raise typer.BadParameter("give --scheduler or --cluster, not both", param_hint="--cluster")
    code = run_validate(
        paths,
        as_json=as_json,
        quiet=quiet,
        workers=workers,
        from_=from_,
        limits=limits_of(limit),
        on_cluster=(scheduler, cluster, out),
        allow_empty=allow_empty,
    )
    raise typer.Exit(code)
