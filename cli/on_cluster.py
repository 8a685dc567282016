"""``gamerec validate --scheduler ADDRESS`` / ``--cluster local[:N]``: the run on a Dask cluster.

The work is :class:`gamerec.validator.cluster.ClusterRun`'s; this module connects to the
cluster (or starts an embedded local one), says on stderr what the run is, and turns a lost
or unreachable scheduler into one error line and exit code 2.
"""

from __future__ import annotations

import contextlib
import logging
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING

import typer

from gamerec.cli.edge import EXIT_FAILED, error_line

if TYPE_CHECKING:
    from distributed import Client

    from gamerec.recorder.encoding import Encoding
    from gamerec.recorder.limits import Limits
    from gamerec.validator.batch import Outcome, Render

#: How long to wait for a first worker to join the scheduler (the wait for the scheduler
#: itself is Dask's ``distributed.comm.timeouts.connect``, 30 s unless configured).
WORKER_SECONDS = 60
LOCAL = "local"
#: The embedded cluster's worker settings: no statistical profiler, which samples the judging
#: thread every 10 ms and costs about 7% of a single-threaded worker's throughput
#: (``make bench``; the README says how to start workers of a real cluster so).
WORKER_CONFIG = {"distributed.worker.profile.enabled": False}
_ADDRESS = re.compile(r"(?:(?:tcp|tls)://)?(?:[\w.-]+|\[[0-9a-fA-F:]+\]):\d{1,5}")


def cluster_outcomes(
    paths: list[str],
    render: Render,
    *,
    encoding: Encoding | None,
    limits: Limits,
    scheduler: str | None,
    cluster: str | None,
    out: str | None,
) -> Iterator[Outcome]:
    """Every record's Outcome judged on the cluster, in input order; exit 2 on a cluster fault."""
    from gamerec.validator.cluster import ClusterError, validate_on_cluster

    _quiet_dask()
    try:
        with _client(scheduler, cluster) as (client, where):
            run = validate_on_cluster(
                paths, client, render, encoding=encoding, limits=limits, out=out
            )
            threads = client.nthreads()
            typer.echo(
                f"cluster {where}: {len(threads)} workers, {sum(threads.values())} threads; "
                f"{len(run.shards):,} shard{'s' * (len(run.shards) != 1)}, {run.stored:,} "
                "finished before",
                err=True,
            )
            yield from run
    except ClusterError as error:
        typer.echo(error_line(str(error)), err=True)
        raise typer.Exit(EXIT_FAILED) from None


def _quiet_dask() -> None:
    """Silence Dask's own logging: its warnings and tracebacks are not this command's output.

    What matters reaches the user as gamerec's own lines (a lost scheduler, an unreadable
    record); the workers' and scheduler's logs stay theirs.
    """
    import distributed  # noqa: F401 (configures its loggers, which are then silenced)

    for name in list(logging.root.manager.loggerDict):
        if name == "distributed" or name.startswith("distributed."):
            logging.getLogger(name).setLevel(logging.CRITICAL)


def parse_cluster(value: str) -> int:
    """The worker count of ``local`` (all cores) or ``local:N``.

    Raises:
        typer.BadParameter: anything else.
    """
    from gamerec.validator.batch import default_workers

    name, _, count = value.partition(":")
    if name != LOCAL or (count and not (count.isdigit() and int(count) > 0)):
        raise typer.BadParameter(f"expected local or local:N (N workers), not {value[:100]!r}")
    return int(count) if count else default_workers()


@contextlib.contextmanager
def _no_port_warning() -> Iterator[None]:
    """Silence the warning that the embedded scheduler's HTTP port 8787 is taken.

    That server (on 127.0.0.1, for Dask's own health checks) then takes another port; the
    warning is no concern of this command's user.
    """
    import warnings

    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", "Port 8787 is already in use", UserWarning)
        yield


@contextlib.contextmanager
def _client(scheduler: str | None, cluster: str | None) -> Iterator[tuple[Client, str]]:
    """A client of the scheduler at ``scheduler``, or of a local cluster started for the run."""
    from distributed import Client, LocalCluster

    from gamerec.validator.cluster import ClusterError

    if cluster is not None:
        import dask.config

        workers = parse_cluster(cluster)
        with (
            _no_port_warning(),
            dask.config.set(WORKER_CONFIG),
            LocalCluster(
                n_workers=workers,
                threads_per_worker=1,
                processes=True,
                dashboard_address=None,
                silence_logs=logging.CRITICAL,
            ) as local,
            Client(local, set_as_default=False) as client,
        ):
            yield client, f"local:{workers}"
        return
    address = scheduler or ""
    if not _ADDRESS.fullmatch(address):
        raise typer.BadParameter(
            f"expected tcp://HOST:PORT (or tls://HOST:PORT), not {address[:100]!r}",
            param_hint="--scheduler",
        )
    try:
        client = Client(address, set_as_default=False)
    except (OSError, TimeoutError, ValueError) as error:
        reason = str(error).splitlines()[0][:200] if str(error) else type(error).__name__
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {reason}") from None
    try:
        try:
            client.wait_for_workers(1, timeout=WORKER_SECONDS)
        except TimeoutError:
            raise ClusterError(
                f"no worker joined the Dask scheduler at {address} in {WORKER_SECONDS} s"
            ) from None
        yield client, address
    finally:
        with contextlib.suppress(Exception):
            client.close(timeout=5)
