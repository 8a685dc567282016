"""The ``gamerec`` command's entry point: the main job without Typer, everything else with it.

``gamerec validate PATH...`` (with ``-q``/``--quiet``, ``--json`` and ``--workers N``/``-j N``
at most) is the command people run most, often on one file from a script or a hook, where
start-up is most of the time; Typer's import alone was a third of it (issue 39). That plain
form is run here with :func:`gamerec.cli.validating.run_validate`, the very function the
Typer command calls with the same options; any other argument list (another command, another
option, ``--help``, a mistake) goes to the Typer application (:mod:`gamerec.cli.main`), which
reads and answers it as always. tests/cli/test_entry.py holds the two doors to the same
output and exit code.

Imports: the standard library, ``gamerec.cli.validating`` (and ``gamerec.cli.main`` when the
Typer application runs).
"""

from __future__ import annotations

import _thread
import errno
import os
import sys
import time
from collections.abc import Iterator, Sequence
from typing import Any, Final, NamedTuple

#: The flags the plain form takes: each sets one option of ``gamerec validate``.
PLAIN_FLAGS: Final = {"-q": "quiet", "--quiet": "quiet", "--json": "as_json"}
#: The spellings of ``--workers`` whose value is the next word (``--workers=N`` and ``-jN``
#: carry it in the word itself).
WORKERS_OPTIONS: Final = ("--workers", "-j")


class PlainValidate(NamedTuple):
    """A ``gamerec validate`` command line with paths, plain flags and a worker count only.

    ``workers`` is the ``--workers`` value (0, all cores, when it is not given).
    """

    paths: list[str]
    quiet: bool
    as_json: bool
    workers: int = 0


def plain_validate(arguments: Sequence[str]) -> PlainValidate | None:
    """The plain form of ``gamerec validate`` that ``arguments`` spell, or None.

    Plain: the word ``validate``, then at least one path (a word not starting with ``-``,
    or ``-`` for standard input), the flags of :data:`PLAIN_FLAGS` and at most one worker
    count (``--workers N``, ``--workers=N``, ``-j N`` or ``-jN``, N in ASCII digits), in any
    order. Anything else, a worker count given twice or spelled otherwise included, is for
    the Typer command to read (or refuse with its usage error).
    """
    if not arguments or arguments[0] != "validate":
        return None
    paths: list[str] = []
    flags = {"quiet": False, "as_json": False}
    workers: list[int] = []
    words = iter(arguments[1:])
    for word in words:
        if word in PLAIN_FLAGS:
            flags[PLAIN_FLAGS[word]] = True
        elif word == "-" or not word.startswith("-"):
            paths.append(word)
        else:
            value = _workers_value(word, words)
            if value is None:
                return None
            workers.append(value)
    if not paths or len(workers) > 1:
        return None
    return PlainValidate(paths, **flags, workers=workers[0] if workers else 0)


def _workers_value(word: str, following: Iterator[str]) -> int | None:
    """The worker count ``word`` gives (taking its value from ``following`` if need be).

    None when ``word`` is not a spelling of ``--workers`` or its value is not ASCII digits
    (a value Typer refuses or reads otherwise: ``-1``, ``+2``, ``x``, none at all).
    """
    if word in WORKERS_OPTIONS:
        value = next(following, "")
    elif word.startswith("--workers="):
        value = word.removeprefix("--workers=")
    elif word.startswith("-j") and not word.startswith("-j="):
        value = word.removeprefix("-j")
    else:
        return None
    return int(value) if value.isascii() and value.isdigit() else None


def main() -> None:
    """Run the ``gamerec`` command."""
    # gRPC's core logs refused TLS handshakes at its INFO level on stderr, which breaks
    # serve's JSON lines; set before grpc is imported, or it is not read.
    os.environ.setdefault("GRPC_VERBOSITY", "ERROR")
    stop_on_hangup_and_term()
    plain = plain_validate(sys.argv[1:])
    if plain is None:
        from gamerec.cli.main import app

        app(prog_name="gamerec")
        return
    sys.exit(_run_plain(plain))


def _run_plain(plain: PlainValidate) -> int:
    """Run the plain form, ending as the Typer application ends a command."""
    from gamerec.cli.validating import run_validate

    try:
        return run_validate(
            plain.paths, as_json=plain.as_json, quiet=plain.quiet, workers=plain.workers
        )
    except KeyboardInterrupt:
        return 130
    except OSError as error:  # the reader of our output went away (``| head``)
        if error.errno != errno.EPIPE:
            raise
        sys.stdout = _Pacified(sys.stdout)
        sys.stderr = _Pacified(sys.stderr)
        return 1


class _Pacified:
    """A stream whose flush ignores a broken pipe (as click's PacifyFlushWrapper does)."""

    def __init__(self, wrapped: Any) -> None:
        self.wrapped = wrapped

    def flush(self) -> None:
        """Flush, unless the pipe is gone."""
        try:
            self.wrapped.flush()
        except OSError as error:
            if error.errno != errno.EPIPE:
                raise

    def __getattr__(self, name: str) -> Any:
        return getattr(self.wrapped, name)


def stop_on_hangup_and_term() -> None:
    """Make SIGTERM and SIGHUP end the command as Ctrl-C does, so ``finally`` blocks run.

    Their default action kills the process at once, leaving a half-written output's temporary
    file behind; raised as ``SystemExit(128 + signal)`` instead, the atomic writers remove it
    on the way out. A forked child (a worker) keeps the default action. ``serve`` installs its
    own handlers, which take over from these. A stop that Python drops (see
    :func:`_redeliver_lost_stops`) is sent again.
    """
    import signal

    parent = os.getpid()

    def stop(number: int, frame: object) -> None:
        if os.getpid() != parent:  # a forked worker: die as it would have
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
            return
        raise SignalExit(128 + number)

    for name in ("SIGTERM", "SIGHUP"):
        number = getattr(signal, name, None)
        if number is not None and signal.getsignal(number) is signal.SIG_DFL:
            signal.signal(number, stop)
    sys.unraisablehook = _redeliver_lost_stops


class SignalExit(SystemExit):
    """The ``SystemExit(128 + signal)`` a SIGTERM or SIGHUP raises."""


def _redeliver_lost_stops(unraisable: Any) -> None:
    """Send again a stop that Python dropped because it came inside a callback.

    Python runs a signal's handler between any two bytecodes of the main thread, also inside
    a weak reference's callback, a ``__del__`` or the import system's lock callback. An
    exception raised there is printed as "Exception ignored" and dropped, and the command
    went on to its end as if no signal had come (seen: a SIGHUP during an import, and once a
    Ctrl-C). The signal is sent to the main thread again, from a thread of its own a moment
    later: sent from here, its handler could run before this hook returns, and an exception
    of the hook is dropped too. Any other exception is printed as Python prints it.
    """
    import signal

    error = unraisable.exc_value
    if isinstance(error, SignalExit) and isinstance(error.code, int):
        _thread.start_new_thread(_signal_main_thread, (error.code - 128,))
    elif isinstance(error, KeyboardInterrupt) and (
        signal.getsignal(signal.SIGINT) is signal.default_int_handler
    ):
        _thread.start_new_thread(_signal_main_thread, (signal.SIGINT,))
    else:
        sys.__unraisablehook__(unraisable)


def _signal_main_thread(number: int) -> None:
    """Send signal ``number`` to the main thread after a moment (see the caller)."""
    import signal

    time.sleep(_REDELIVERY_DELAY)
    # A forked worker's main thread is the one that forked it, which threading knows.
    threading = sys.modules.get("threading")
    main = threading.main_thread().ident if threading is not None else None
    try:
        signal.pthread_kill(main or _MAIN_THREAD, number)
    except ProcessLookupError:  # the thread has ended: the process is ending already
        return


#: The thread that imported this module (the main thread), when threading is not loaded.
_MAIN_THREAD: Final = _thread.get_ident()

#: Seconds a dropped stop waits before it is sent again; a hook ends in microseconds.
_REDELIVERY_DELAY: Final = 0.01
