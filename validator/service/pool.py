"""The worker processes that do the service's CPU-bound work (decode and judge).

The event loop only moves bytes. Each worker process (gamerec.validator.service.worker) is joined to
the server by a duplex pipe: the loop writes a job (the serialized request, pickled with the
method and deadline: a plain copy of the bytes) and watches the pipe with ``add_reader``; when
the answer arrives the callback reads it and resolves the call's future, then hands the
worker the next waiting job. There is no thread and no queue machinery between the loop and
the workers (``ProcessPoolExecutor`` adds a queue thread and a result thread, and their
wake-ups, to every job).

Each worker runs one job at a time; jobs wait in the pool, in order, for the next idle worker.
A call cancelled while its job waits drops the job; a running job finishes (it checks its
deadline itself) and its answer is discarded. A worker that dies fails the call it was
running (:class:`WorkerLostError`) and is replaced at once. A job that raises (a bug) fails
its call with :class:`JobFailedError`, which carries the worker's traceback.

The processes come from the ``forkserver`` start method: forking a process that runs gRPC's
threads is unsafe (grpc's fork notes), so the pool is created, and its workers started, before
the gRPC server, and later workers are forked from the clean fork server, never from the
server process. Requests of at most ``inline_bytes`` are judged on the event loop instead:
for a short record the hand-off costs the server process about as much as the judging
(measured one job at a time for a 100-ply record: 156 µs of the server's CPU per pooled job,
most of it the event loop waking for the answer, against 167 µs judged inline).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import pickle
from collections import deque
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from multiprocessing.process import BaseProcess
from types import TracebackType
from typing import Final

from gamerec.validator.batch import default_workers
from gamerec.validator.service import work, worker
from gamerec.validator.service.work import Answer
from gamerec.validator.service.worker import REPLAY_PIECE, UNARY, Job, Reply

#: Requests up to this many bytes (a binary record of about 100 plies) are judged on the event
#: loop by default: with one server process per core, judging them where the call arrives is
#: cheaper than any hand-off (see the README's "Performance").
DEFAULT_INLINE_BYTES: Final = 1024
#: Seconds a new worker may take to start and import the library.
START_SECONDS: Final = 60.0
#: Seconds a worker gets to finish its job when the pool closes, before it is terminated.
STOP_SECONDS: Final = 1.0


class WorkerLostError(Exception):
    """A worker process ended while it ran a job (the call fails; the worker is replaced)."""


class JobFailedError(Exception):
    """A job raised in its worker (a bug); the message holds the worker's traceback."""


@dataclass(eq=False)
class _Pending:
    """A job on its way: its pickled form and the future of its answer."""

    payload: bytes
    future: asyncio.Future[Answer]


@dataclass(eq=False)
class _Worker:
    """One worker process, the server's end of its pipe, and the job it runs (if any)."""

    process: BaseProcess
    connection: Connection
    job: _Pending | None = field(default=None)


class WorkerPool:
    """Worker processes for the jobs of gamerec.validator.service.work.

    Use it as a context manager, around the server's whole life::

        with WorkerPool(workers=0) as pool:
            server, port = await create_server("127.0.0.1:0", pool=pool)

    The pool serves the event loop it is first used from.
    """

    def __init__(self, workers: int = 0, *, inline_bytes: int = DEFAULT_INLINE_BYTES) -> None:
        """Start ``workers`` processes (0 = one per core) and wait until each is ready.

        Args:
            workers: how many worker processes; 0 means one per core.
            inline_bytes: requests up to this size run on the event loop instead.

        Raises:
            WorkerLostError: a worker did not start.
        """
        self.workers = workers or default_workers()
        self.inline_bytes = inline_bytes
        self._context = multiprocessing.get_context("forkserver")
        self._context.set_forkserver_preload([worker.__name__])
        self._loop: asyncio.AbstractEventLoop | None = None
        self._waiting: deque[_Pending] = deque()
        self._closed = False
        self._all = [self._spawn() for _ in range(self.workers)]
        for started in self._all:
            _wait_ready(started)
        self._idle = list(self._all)

    @property
    def pids(self) -> tuple[int, ...]:
        """The process ids of the workers now running."""
        return tuple(each.process.pid or 0 for each in self._all)

    @property
    def running(self) -> tuple[int, ...]:
        """The process ids of the workers running a job now."""
        return tuple(each.process.pid or 0 for each in self._all if each.job is not None)

    async def unary(self, method: str, request: bytes, deadline: float | None) -> Answer:
        """Run the job of a unary RPC; cancelling the caller drops a job not yet started.

        Raises:
            WorkerLostError: the worker running the job died.
            JobFailedError: the job raised in its worker.
        """
        if len(request) <= self.inline_bytes:
            return work.run_unary(method, request, deadline)
        return await self._run(Job(UNARY, method, request, deadline))

    async def replay_piece(
        self, request: bytes, deadline: float | None, start: int, count: int
    ) -> Answer:
        """Run one piece of a Replay (frames ``start + 1`` to ``start + count``).

        Raises:
            WorkerLostError: the worker running the job died.
            JobFailedError: the job raised in its worker.
        """
        if len(request) <= self.inline_bytes:
            return work.run_replay_piece(request, deadline, start, count)
        return await self._run(Job(REPLAY_PIECE, "", request, deadline, start, count))

    async def _run(self, job: Job) -> Answer:
        """Send ``job`` to an idle worker, or queue it, and wait for its answer."""
        loop = self._attach()
        pending = _Pending(pickle.dumps(job, pickle.HIGHEST_PROTOCOL), loop.create_future())
        if self._idle:
            self._send(self._idle.pop(), pending)
        else:
            self._waiting.append(pending)
        # A cancelled caller cancels this future: a waiting job is then skipped, a running
        # one's answer discarded.
        return await pending.future

    def _attach(self) -> asyncio.AbstractEventLoop:
        """Watch every worker's pipe from the running loop (once per loop)."""
        loop = asyncio.get_running_loop()
        if self._loop is not loop:
            self._detach()
            for each in self._all:
                loop.add_reader(each.connection.fileno(), self._on_readable, each)
            self._loop = loop
        return loop

    def _detach(self) -> None:
        """Stop watching the pipes from the loop they were watched from."""
        loop, self._loop = self._loop, None
        if loop is None or loop.is_closed():
            return
        for each in self._all:
            if not each.connection.closed:
                loop.remove_reader(each.connection.fileno())

    def _send(self, to: _Worker, pending: _Pending) -> None:
        """Give a job to an idle worker (its pipe is empty, so the write does not wait)."""
        to.job = pending
        try:
            to.connection.send_bytes(pending.payload)
        except OSError:
            self._lost(to)

    def _on_readable(self, source: _Worker) -> None:
        """A worker answered (or its pipe closed): resolve the call, hand out the next job."""
        try:
            data = source.connection.recv_bytes()
        except (EOFError, OSError):
            self._lost(source)
            return
        pending, source.job = source.job, None
        if pending is not None and not pending.future.done():
            reply: Reply = pickle.loads(data)
            if reply.answer is None:
                pending.future.set_exception(JobFailedError(reply.failure))
            else:
                pending.future.set_result(reply.answer)
        self._next_job(source)

    def _next_job(self, idle: _Worker) -> None:
        """Give an idle worker the oldest job still wanted, or mark it idle."""
        while self._waiting:
            pending = self._waiting.popleft()
            if not pending.future.done():
                self._send(idle, pending)
                return
        self._idle.append(idle)

    def _lost(self, dead: _Worker) -> None:
        """A worker's pipe closed: fail its job and start a replacement."""
        if self._loop is not None and not dead.connection.closed:
            self._loop.remove_reader(dead.connection.fileno())
        dead.connection.close()
        dead.process.join(timeout=STOP_SECONDS)
        pending, dead.job = dead.job, None
        if pending is not None and not pending.future.done():
            pending.future.set_exception(
                WorkerLostError(
                    f"worker process {dead.process.pid} ended (exit code "
                    f"{dead.process.exitcode}) while running a job"
                )
            )
        if self._closed:
            return
        replacement = self._spawn()
        _wait_ready(replacement)
        self._all[self._all.index(dead)] = replacement
        if dead in self._idle:
            self._idle.remove(dead)
        if self._loop is not None:
            self._loop.add_reader(replacement.connection.fileno(), self._on_readable, replacement)
        self._next_job(replacement)

    def _spawn(self) -> _Worker:
        """Start one worker process joined by a new pipe."""
        ours, theirs = self._context.Pipe(duplex=True)
        process = self._context.Process(
            target=worker.serve_jobs, args=(theirs,), name="gamerec-worker", daemon=True
        )
        process.start()
        theirs.close()  # the worker's end lives in the worker only: its exit closes the pipe
        return _Worker(process, ours)

    def close(self) -> None:
        """Stop the workers: waiting jobs are dropped, running ones get a moment to finish."""
        if self._closed:
            return
        self._closed = True
        self._waiting.clear()
        self._detach()  # from the loop's thread, or once that loop has stopped
        for each in self._all:
            each.connection.close()
        for each in self._all:
            each.process.join(timeout=STOP_SECONDS)
            if each.process.is_alive():
                each.process.terminate()
                each.process.join()

    def __enter__(self) -> WorkerPool:
        """The pool itself."""
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        """Close the pool."""
        self.close()


def _wait_ready(started: _Worker) -> None:
    """Wait until a new worker says it is ready.

    Raises:
        WorkerLostError: it did not start within START_SECONDS.
    """
    try:
        ready = started.connection.poll(START_SECONDS) and started.connection.recv_bytes()
    except (EOFError, OSError):
        ready = False
    if ready != worker.READY:
        started.process.terminate()
        raise WorkerLostError(f"worker process {started.process.pid} did not start")
