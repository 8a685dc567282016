"""Prometheus metrics of ``gamerec serve --metrics-port PORT`` (prometheus_client).

Every server process counts into files of one folder (prometheus_client's multiprocess
mode); the process that started them (the supervisor, or the one server process) serves
the sum at ``http://HOST:PORT/metrics``. Without a metrics port nothing is counted and
prometheus_client is never imported. docs/operating.md lists the metrics and what to alert on.

- ``gamerec_calls_total{method,status}``: calls ended, by method and status code;
- ``gamerec_call_duration_seconds{method}``: their duration (a histogram; streams too);
- ``gamerec_open_matches``: open matches in the store (every process reads the same);
- ``gamerec_watchers``: Watch streams open;
- ``gamerec_moves_accepted_total``, ``gamerec_flags_fallen_total``: moves and flags stored;
- ``gamerec_store_write_seconds``: how long the store takes to commit an append;
- ``gamerec_limit_refusals_total{limit}``: calls refused by a limit per client.
"""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from gamerec.recorder.errors import GamerecError

if TYPE_CHECKING:
    from gamerec.validator.live.match import Logged

#: The environment variable prometheus_client's multiprocess mode reads.
MULTIPROCESS_DIR: Final = "PROMETHEUS_MULTIPROC_DIR"
#: Call durations' buckets, in seconds: a move's round trip is about a millisecond.
CALL_BUCKETS: Final = (0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
                       5, 10, 30, 60, 300, 3600)  # fmt: skip
STORE_BUCKETS: Final = (0.0002, 0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 1, 5)
_TIMEOUT: Final = 3  # pb.TERMINATION_TIMEOUT


class MetricsError(GamerecError):
    """The metrics port cannot be served."""


class _Metrics:
    """The metrics of this process, made once counting is on."""

    def __init__(self) -> None:
        from prometheus_client import Counter, Gauge, Histogram  # noqa: PLC0415

        self.calls = Counter(
            "gamerec_calls", "Calls ended, by method and status code.", ["method", "status"]
        )
        self.duration = Histogram(
            "gamerec_call_duration_seconds",
            "How long calls took, by method (streams from start to end).",
            ["method"],
            buckets=CALL_BUCKETS,
        )
        self.open_matches = Gauge(
            "gamerec_open_matches", "Open matches in the store.", multiprocess_mode="livemax"
        )
        self.watchers = Gauge(
            "gamerec_watchers", "Watch streams open.", multiprocess_mode="livesum"
        )
        self.moves = Counter("gamerec_moves_accepted", "Moves accepted and stored.")
        self.flags = Counter("gamerec_flags_fallen", "Matches ended by a flag that fell.")
        self.store_writes = Histogram(
            "gamerec_store_write_seconds",
            "How long the match store took to commit an append.",
            buckets=STORE_BUCKETS,
        )
        self.refusals = Counter(
            "gamerec_limit_refusals", "Calls refused by a limit per client.", ["limit"]
        )


_ON: list[_Metrics] = []


def counting() -> bool:
    """Whether this process counts (a metrics port was given)."""
    return bool(_ON)


def start_counting() -> None:
    """Count in this process, into the folder named by the environment (server processes)."""
    if _ON or not os.environ.get(MULTIPROCESS_DIR):
        return
    from prometheus_client import values  # noqa: PLC0415

    # Chosen when prometheus_client is first imported: choose again now the folder is set.
    values.ValueClass = values.get_value_class()  # type: ignore[no-untyped-call]
    _ON.append(_Metrics())


def call_ended(method: str, status: str, seconds: float) -> None:
    """Count a call that ended."""
    if _ON:
        metrics = _ON[0]
        metrics.calls.labels(method, status).inc()
        metrics.duration.labels(method).observe(seconds)


def refused(limit: str) -> None:
    """Count a call refused by a limit per client."""
    if _ON:
        _ON[0].refusals.labels(limit).inc()


def watchers(change: int) -> None:
    """A Watch stream opened (+1) or ended (-1)."""
    if _ON:
        _ON[0].watchers.inc(change)


def open_matches(count: int) -> None:
    """The open matches in the store now."""
    if _ON:
        _ON[0].open_matches.set(count)


def stored(events: Sequence[Logged], seconds: float) -> None:
    """The store committed ``events`` in ``seconds``: count its moves and flags."""
    if not _ON:
        return
    metrics = _ON[0]
    metrics.store_writes.observe(seconds)
    for entry in events:
        event = entry.event
        if event.HasField("move") and not event.move.by_referee:
            metrics.moves.inc()
        elif event.HasField("ended") and event.ended.result.termination == _TIMEOUT:
            metrics.flags.inc()


class MetricsEndpoint:
    """The folder the server processes count into, and the HTTP server that sums it.

    Create it before the server processes start (they inherit the folder's name through
    the environment); :meth:`close` stops serving and removes the folder.

    Args:
        host: the address to serve on.
        port: the port (0 picks a free one).
    """

    def __init__(self, host: str, port: int) -> None:
        """Make the folder and serve ``/metrics``.

        Raises:
            MetricsError: the port cannot be bound.
        """
        self.folder = tempfile.mkdtemp(prefix="gamerec-metrics-")
        os.environ[MULTIPROCESS_DIR] = self.folder
        from prometheus_client import CollectorRegistry, start_http_server  # noqa: PLC0415
        from prometheus_client.multiprocess import MultiProcessCollector  # noqa: PLC0415

        registry = CollectorRegistry()
        MultiProcessCollector(registry, path=self.folder)  # type: ignore[no-untyped-call]
        try:
            self._server, self._thread = start_http_server(port, addr=host, registry=registry)
        except OSError as error:
            shutil.rmtree(self.folder, ignore_errors=True)
            raise MetricsError(
                f"cannot serve metrics on {host}:{port}: {error.strerror or error}"
            ) from None
        self.port: int = self._server.server_address[1]

    def process_ended(self, pid: int) -> None:
        """A server process ended: its live gauges no longer count."""
        from prometheus_client import multiprocess  # noqa: PLC0415

        multiprocess.mark_process_dead(pid, self.folder)  # type: ignore[no-untyped-call]

    def close(self) -> None:
        """Stop serving; remove the folder."""
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(timeout=5)
        shutil.rmtree(self.folder, ignore_errors=True)
        os.environ.pop(MULTIPROCESS_DIR, None)
