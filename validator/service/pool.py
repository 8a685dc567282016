"""The worker processes that do the service's CPU-bound work (decode and judge).

The event loop only moves bytes: a job goes to a worker process as the serialized request
(bytes pickle as a plain copy) and comes back as an :class:`~validator.service.work.Answer`
holding serialized responses, so every core serves and nothing large is pickled twice.

The processes come from the ``forkserver`` start method: forking a process that runs gRPC's
threads is unsafe (grpc's fork notes), so the pool is created, and its workers started, before
the gRPC server, and later workers are forked from the clean fork server, never from the
server process. Requests of at most ``inline_bytes`` are judged on the event loop instead:
for a small record the hand-off to a worker costs more than the judging (see the README's
figures).
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from types import TracebackType
from typing import Final

from validator.batch import default_workers
from validator.service import work
from validator.service.work import Answer

#: Requests up to this many bytes are judged on the event loop by default (a binary record of
#: about 100 plies): measured, judging one costs the event loop's process about what handing
#: it to a worker costs (~200 µs), and spends no worker time (see the README's "The service").
DEFAULT_INLINE_BYTES: Final = 1024


class WorkerPool:
    """Worker processes for the jobs of validator.service.work.

    Use it as a context manager, around the server's whole life::

        with WorkerPool(workers=0) as pool:
            server, port = create_server("127.0.0.1:0", pool=pool)
    """

    def __init__(self, workers: int = 0, *, inline_bytes: int = DEFAULT_INLINE_BYTES) -> None:
        """Start ``workers`` processes (0 = one per core) and wait until each is ready.

        Args:
            workers: how many worker processes; 0 means one per core.
            inline_bytes: requests up to this size run on the event loop instead.
        """
        self.workers = workers or default_workers()
        self.inline_bytes = inline_bytes
        context = multiprocessing.get_context("forkserver")
        context.set_forkserver_preload([work.__name__])
        self._executor = ProcessPoolExecutor(
            self.workers,
            mp_context=context,
            initializer=work.watch_server,
            initargs=(os.getpid(),),
        )
        self._warm_up()

    def _warm_up(self) -> None:
        """Start every worker now (they import the library once, before any call)."""
        futures = [self._executor.submit(work.warm_up) for _ in range(self.workers * 2)]
        for future in futures:
            future.result()

    async def unary(self, method: str, request: bytes, deadline: float | None) -> Answer:
        """Run the job of a unary RPC; cancelling the caller cancels a job not yet started."""
        if len(request) <= self.inline_bytes:
            return work.run_unary(method, request, deadline)
        future = self._executor.submit(work.run_unary, method, request, deadline)
        return await asyncio.wrap_future(future)

    async def replay_piece(
        self, request: bytes, deadline: float | None, start: int, count: int
    ) -> Answer:
        """Run one piece of a Replay (frames ``start + 1`` to ``start + count``)."""
        if len(request) <= self.inline_bytes:
            return work.run_replay_piece(request, deadline, start, count)
        future = self._executor.submit(work.run_replay_piece, request, deadline, start, count)
        return await asyncio.wrap_future(future)

    def close(self) -> None:
        """Stop the workers: jobs not yet started are dropped, running ones finish."""
        self._executor.shutdown(wait=True, cancel_futures=True)

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
