"""The CLI's edge: library errors become one line on stderr and exit code 2.

Exit codes of every command: 0 done (all valid, no differences); 1 something invalid or
different; 2 the job could not be done (unreadable or malformed input, bad arguments).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
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


def write_text(output: str, text: str) -> None:
    """Write ``text`` to standard output (``-``), or atomically to a file (exit 2 when it cannot).

    The file is written beside its target under a temporary name and renamed over it, so a
    failed write leaves no half-written file.
    """
    if output == "-":
        typer.echo(text, nl=False)
        return
    target = Path(output)
    try:
        descriptor, temporary = tempfile.mkstemp(
            dir=target.parent, prefix=f".{target.name}.", suffix=".tmp"
        )
    except OSError as error:  # named by the target, not by the temporary file's name
        fail(f"{output}: {error.strerror or error}")
    with reported_errors():
        try:
            with os.fdopen(descriptor, "w", encoding="utf-8") as stream:
                stream.write(text)
            os.chmod(temporary, 0o644)
            os.replace(temporary, target)
        except BaseException:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(temporary)
            raise
