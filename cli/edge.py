"""The CLI's edge: library errors become one line on stderr and exit code 2.

Exit codes of every command: 0 done (all valid, no differences); 1 something invalid or
different; 2 the job could not be done (unreadable or malformed input, bad arguments).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import NoReturn

import typer

from gamerec.recorder.errors import GamerecError

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_FAILED = 2


def error_line(message: str) -> str:
    """The one line that reports an error: ``gamerec: error: <message>``."""
    return "gamerec: error: " + " ".join(message.splitlines())


def fail(message: str) -> NoReturn:
    """Report an error on stderr and stop with exit code 2."""
    typer.echo(error_line(message), err=True)
    raise typer.Exit(EXIT_FAILED)


def os_error_text(error: OSError) -> str:
    """``<file>: <why>`` for a file that cannot be opened, read or written."""
    if error.filename is not None:
        return f"{error.filename}: {error.strerror or error}"
    return str(error)


@contextlib.contextmanager
def reported_errors() -> Iterator[None]:
    """Turn gamerec's own errors and file errors into :func:`fail`; let bugs show.

    A closed output pipe is left to the command-line framework, which exits quietly.
    """
    try:
        yield
    except GamerecError as error:
        fail(str(error))
    except BrokenPipeError:
        raise  # the reader of our output went away (``| head``): not an error of the job
    except OSError as error:
        fail(os_error_text(error))
