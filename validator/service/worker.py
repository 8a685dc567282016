"""A worker process of the service: jobs come in over a pipe, answers go back the same way.

The server (gamerec.validator.service.pool) holds one end of a duplex pipe per worker; the worker
holds the other and runs :func:`serve_jobs`: read one job, run it, write its answer, repeat.
A job is a pickled :class:`Job` (the serialized request travels as bytes, so nothing is
parsed on the way); the answer is a pickled :class:`Reply`. One job at a time per worker:
the server sends the next one only after the last answer came back, so a pipe never holds
more than one request.

A worker ends when its pipe closes (the server shut down or died: reading gives end of
file), and ignores SIGINT, so a Ctrl-C in the server's terminal lets the server shut down
gracefully instead of killing its workers under it. This module never imports grpc.
"""

from __future__ import annotations

import pickle
import signal
import traceback
from multiprocessing.connection import Connection
from typing import Final, NamedTuple

from gamerec.validator.service import work
from gamerec.validator.service.work import Answer

#: The job kinds: a unary RPC, or one piece of a Replay.
UNARY: Final = "unary"
REPLAY_PIECE: Final = "replay-piece"
#: What a worker sends once it has started and imported the library.
READY: Final = b"ready"


class Job(NamedTuple):
    """One job for a worker.

    Attributes:
        kind: :data:`UNARY` or :data:`REPLAY_PIECE`.
        method: the unary RPC's name (``Validate``); empty for a replay piece.
        request: the serialized request.
        deadline: the call's deadline (``time.monotonic()``; system-wide on Linux), or None.
        start: a replay piece's first frame (0-based).
        frames: a replay piece's number of frames.
    """

    kind: str
    method: str
    request: bytes
    deadline: float | None
    start: int = 0
    frames: int = 0


class Reply(NamedTuple):
    """A worker's reply to a job: the answer, or the traceback of a bug.

    Attributes:
        answer: the job's answer (None when the job raised).
        failure: the formatted traceback of an unexpected exception (empty when it answered).
    """

    answer: Answer | None
    failure: str = ""


def run(job: Job) -> Reply:
    """Run one job; an unexpected exception becomes a reply holding its traceback."""
    try:
        if job.kind == UNARY:
            return Reply(work.run_unary(job.method, job.request, job.deadline))
        return Reply(work.run_replay_piece(job.request, job.deadline, job.start, job.frames))
    except Exception:
        return Reply(None, traceback.format_exc())


def serve_jobs(connection: Connection) -> None:
    """The worker's main loop: answer jobs until the pipe closes (the process's target)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    connection.send_bytes(READY)
    while True:
        try:
            payload = connection.recv_bytes()
        except (EOFError, OSError):
            return
        reply = run(pickle.loads(payload))
        try:
            connection.send_bytes(pickle.dumps(reply, pickle.HIGHEST_PROTOCOL))
        except OSError:  # the server is gone
            return
