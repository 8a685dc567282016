"""``gamerec serve``'s processes: one server per core, all listening on the same port.

Python runs one thread of Python at a time, and a gRPC call costs the server process a few
hundred microseconds of it, so one server process saturates one core. :func:`serve` therefore
runs ``processes`` server processes (one per core by default), each a complete server
(gamerec.validator.service.server: RecordService, health, reflection, call log, deadlines, its own
worker processes for large requests) bound to the same port with ``SO_REUSEPORT``: the kernel
spreads incoming connections among them, and each judges its small requests on its own event
loop. Nothing is handed between processes on the way of a call.

::

    supervisor (this process: no gRPC; signals, start-up, shutdown, replacement)
      |- server process 1 -- worker process(es), for requests larger than inline_bytes
      |- server process 2 -- worker process(es)
      ...

- **Start.** The supervisor starts the first server process on the requested port (port 0:
  a free one), learns the port it bound over a pipe, then starts the others on that port. It
  logs ``listening`` once every process serves. Server processes are started with the
  ``spawn`` method (a fresh interpreter: no process ever forks one that runs gRPC), and log
  their calls to the standard error they inherit.
- **Stop.** SIGTERM or SIGINT makes the supervisor log ``stopping`` and send SIGTERM to every
  server process, each of which shuts down gracefully (health ``NOT_SERVING``, calls in
  flight get ``grace`` seconds); then it logs ``stopped``. A server process whose supervisor
  dies (even by SIGKILL) sees its pipe close and shuts down the same way.
- **Failure.** A server process that exits on its own is logged and replaced at once.
- **Reload.** SIGHUP makes every server process read its token files and TLS files again
  (the supervisor passes it on).
- **Metrics.** With a metrics port, the supervisor serves the sum of every server process's
  metrics (gamerec.validator.service.metrics).

One connection always talks to one server process, so a single client with a single channel
uses one core; several clients (or channels) use them all. With ``processes=1`` the server
runs in this process, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import math
import multiprocessing
import os
import signal
import sys
import time
from collections.abc import Iterator
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from typing import Final

from gamerec.recorder.errors import GamerecError, bounded
from gamerec.validator.batch import default_workers
from gamerec.validator.service.calls import LOGGER, log_event, log_to
from gamerec.validator.service.metrics import MetricsEndpoint
from gamerec.validator.service.server import (
    ListenError,
    ServeSettings,
    address_of,
    check_free,
    serve_until,
    stop_on_signals,
)

#: Seconds a server process may take to start and listen.
START_SECONDS: Final = 60.0
#: Seconds past the grace period that a server process gets to exit before it is killed.
EXIT_MARGIN_SECONDS: Final = 5.0


async def serve(settings: ServeSettings, processes: int = 0) -> None:
    """Serve until SIGTERM or SIGINT, then shut down gracefully (see the module docstring).

    Args:
        settings: what to serve and how.
        processes: server processes sharing the port; 0 means one per core.

    Raises:
        ListenError: the address cannot be bound.
    """
    warning = settings.transport.check(settings.host)
    check_free(settings.host, settings.port)
    processes = processes or default_workers()
    with _metrics_endpoint(settings) as endpoint, _web_port(settings, processes) as chosen:
        settings = chosen
        more = settings.log_fields()
        if endpoint is not None:
            more["metrics"] = f"http://{address_of(settings.metrics_host, endpoint.port)}/metrics"
        if settings.web is not None and processes > 1:
            more.update(
                settings.web.log_fields(settings.host, settings.web.port, settings.transport.tls)
            )
        if processes == 1:
            await _serve_alone(settings, more, warning)
        else:
            await Supervisor(settings, processes, endpoint).run(more, warning)


@contextlib.contextmanager
def _metrics_endpoint(settings: ServeSettings) -> Iterator[MetricsEndpoint | None]:
    """The metrics endpoint while the server runs, when the settings ask for one."""
    if settings.metrics_port is None:
        yield None
        return
    endpoint = MetricsEndpoint(settings.metrics_host, settings.metrics_port)
    try:
        yield endpoint
    finally:
        endpoint.close()


@contextlib.contextmanager
def _web_port(settings: ServeSettings, processes: int) -> Iterator[ServeSettings]:
    """The settings with the web door's port chosen, while the server runs.

    Server processes share the web port as they share the gRPC port (``SO_REUSEPORT``); when
    it is 0, a port is picked here and held (bound, never listening) so that every process,
    replacements too, binds the same one.
    """
    if settings.web is None or processes == 1:
        yield settings
        return
    from gamerec.validator.web.serving import bind  # noqa: PLC0415 (only a web door loads it)

    held = bind(settings.host, settings.web.port, reuse_port=True, listen=False)
    try:
        port = int(held.getsockname()[1])
        yield dataclasses.replace(settings, web=dataclasses.replace(settings.web, port=port))
    finally:
        held.close()


def _listening(address: str, processes: int, workers: int, more: dict[str, object],
               warning: str | None) -> None:  # fmt: skip
    """Log that the server listens (and the warning about its transport, if any)."""
    log_event("listening", address=address, processes=processes, workers=workers, **more)
    if warning:
        LOGGER.warning(warning, extra={"fields": {"event": "insecure", "warning": warning}})


async def _serve_alone(
    settings: ServeSettings, more: dict[str, object], warning: str | None
) -> None:
    """One server in this process."""
    stop = asyncio.Event()
    stop_on_signals(stop)

    def listening(port: int, workers: int, web_port: int | None) -> None:
        if settings.web is not None and web_port is not None:
            more.update(settings.web.log_fields(settings.host, web_port, settings.transport.tls))
        _listening(address_of(settings.host, port), 1, workers, more, warning)

    await serve_until(
        settings,
        stop,
        port=settings.port,
        workers=settings.workers,
        reuse_port=False,
        listening=listening,
        stopping=lambda: log_event("stopping", grace_seconds=settings.grace),
    )
    log_event("stopped")


class ServerProcess:
    """One server process under the supervisor, and the pipe it reports on."""

    def __init__(self, settings: ServeSettings, port: int, workers: int) -> None:
        """Start a server process on ``port`` with ``workers`` worker processes."""
        context = multiprocessing.get_context("spawn")
        self.connection, theirs = context.Pipe(duplex=False)
        self.process: BaseProcess = context.Process(
            target=run_server_process,
            args=(settings, port, workers, theirs),
            name="gamerec-server",
        )
        self.process.start()
        theirs.close()

    def wait_listening(self) -> int:
        """The port it listens on, once it does.

        Raises:
            ListenError: it could not listen, or ended or hung before it did.
        """
        try:
            ready = self.connection.poll(START_SECONDS)
            report = self.connection.recv() if ready else ("failed", "did not start in time")
        except (EOFError, OSError):
            report = ("failed", f"server process ended (exit code {self.process.exitcode})")
        kind, value = report
        if kind != "listening":
            self.process.kill()
            raise ListenError(str(value))
        return int(value)


class Supervisor:
    """Starts the server processes, forwards the stop signal, replaces a process that dies."""

    def __init__(
        self, settings: ServeSettings, processes: int, metrics: MetricsEndpoint | None = None
    ) -> None:
        """Plan ``processes`` server processes, splitting the workers among them."""
        self.settings = settings
        self.metrics = metrics
        self.processes = processes
        total = settings.workers or default_workers()
        self.workers_each = max(1, math.ceil(total / processes))
        self.port = settings.port
        self.children: list[ServerProcess] = []
        self.stopping = False

    async def run(self, more: dict[str, object], warning: str | None) -> None:
        """Serve until SIGTERM or SIGINT (see the module docstring)."""
        stop = asyncio.Event()
        stop_on_signals(stop)
        asyncio.get_running_loop().add_signal_handler(signal.SIGHUP, self._hang_up)
        try:
            self._start_all()
            _listening(
                address_of(self.settings.host, self.port),
                self.processes,
                self.workers_each * self.processes,
                more,
                warning,
            )
            await stop.wait()
            self.stopping = True
            log_event("stopping", grace_seconds=self.settings.grace)
        finally:
            self.stopping = True
            await self._stop_all()
        log_event("stopped")

    def _start_all(self) -> None:
        """Start the first process (it picks the port when it is 0), then the rest."""
        first = self._start(self.port)
        self.port = first.wait_listening()
        self._watch(first)
        for _ in range(self.processes - 1):
            child = self._start(self.port)
            child.wait_listening()
            self._watch(child)

    def _hang_up(self) -> None:
        """Pass SIGHUP on to every server process (each reads its files again)."""
        for child in self.children:
            if child.process.is_alive() and child.process.pid is not None:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(child.process.pid, signal.SIGHUP)

    def _start(self, port: int) -> ServerProcess:
        child = ServerProcess(self.settings, port, self.workers_each)
        self.children.append(child)
        return child

    def _watch(self, child: ServerProcess) -> None:
        """Call :meth:`_ended` when the process ends."""
        asyncio.get_running_loop().add_reader(child.process.sentinel, self._ended, child)

    def _ended(self, child: ServerProcess) -> None:
        """A server process ended: expected during shutdown; otherwise replace it."""
        asyncio.get_running_loop().remove_reader(child.process.sentinel)
        if self.stopping:
            return
        child.process.join()
        LOGGER.error(
            "server process ended",
            extra={
                "fields": {
                    "event": "server process ended",
                    "pid": child.process.pid,
                    "exit_code": child.process.exitcode,
                }
            },
        )
        self.children.remove(child)
        child.connection.close()
        if self.metrics is not None and child.process.pid is not None:
            self.metrics.process_ended(child.process.pid)
        replacement = self._start(self.port)
        try:
            replacement.wait_listening()
        except ListenError as error:
            self._not_replaced(replacement, str(error))
            return
        self._watch(replacement)

    def _not_replaced(self, replacement: ServerProcess, why: str) -> None:
        """A replacement that could not start: reaped (no zombie) and reported; serve on."""
        replacement.process.join()
        replacement.connection.close()
        self.children.remove(replacement)
        message = (
            f"a server process could not be replaced ({bounded(why, 300)}); "
            f"{len(self.children)} of {self.processes} server processes serve"
        )
        LOGGER.error(
            message,
            extra={
                "fields": {
                    "event": "server process not replaced",
                    "pid": replacement.process.pid,
                    "exit_code": replacement.process.exitcode,
                    "serving": len(self.children),
                    "message": message,
                }
            },
        )

    async def _stop_all(self) -> None:
        """SIGTERM every server process; wait for them, killing any that outstays the grace."""
        loop = asyncio.get_running_loop()
        for child in self.children:
            loop.remove_reader(child.process.sentinel)
            if child.process.is_alive():
                child.process.terminate()
        limit = self.settings.grace + EXIT_MARGIN_SECONDS
        await asyncio.to_thread(_join_all, [child.process for child in self.children], limit)
        for child in self.children:
            if child.process.is_alive():
                child.process.kill()
                child.process.join()
            child.connection.close()


def _join_all(processes: list[BaseProcess], seconds: float) -> None:
    """Wait until every process has ended, or ``seconds`` have passed."""
    deadline = time.monotonic() + seconds
    for process in processes:
        process.join(max(0.0, deadline - time.monotonic()))


def run_server_process(
    settings: ServeSettings, port: int, workers: int, report: Connection
) -> None:
    """A server process's main: serve on ``port`` (shared) until told to stop.

    It reports ``("listening", port)`` or ``("failed", reason)`` on ``report``, logs its
    calls to its standard error, and stops on SIGTERM, SIGINT or when the supervisor's end of
    ``report`` closes.
    """
    log_to(sys.stderr)
    try:
        asyncio.run(_serve_shared(settings, port, workers, report))
    except GamerecError as error:  # cannot listen; a match store that cannot be opened
        report.send(("failed", str(error)))


async def _serve_shared(
    settings: ServeSettings, port: int, workers: int, report: Connection
) -> None:
    stop = asyncio.Event()
    stop_on_signals(stop)
    # The supervisor never writes: the pipe turns readable only when its end closes.
    asyncio.get_running_loop().add_reader(report.fileno(), stop.set)
    await serve_until(
        settings,
        stop,
        port=port,
        workers=workers,
        reuse_port=True,
        listening=lambda bound, _, __: report.send(("listening", bound)),
        stopping=lambda: None,
    )
