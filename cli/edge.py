"""The CLI's edge: library errors become one line on stderr and exit code 2.

Exit codes of every command: 0 done (all valid, no differences); 1 something invalid or
different; 2 the job could not be done (unreadable or malformed input, bad arguments).
"""

from __future__ import annotations

import contextlib
import os
import re
from collections.abc import Iterator
from typing import NoReturn

from gamerec.cli.plain import echo
from gamerec.recorder.atomic import atomic_output
from gamerec.recorder.errors import GamerecError

EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_FAILED = 2


def error_line(message: str) -> str:
    """The one line that reports an error: ``gamerec: error: <message>``."""
    return "gamerec: error: " + " ".join(message.splitlines())


def fail(message: str) -> NoReturn:
    """Report an error on stderr and stop with exit code 2."""
    import typer

    echo(error_line(message), err=True)
    raise typer.Exit(EXIT_FAILED)


#: The temporary file an output is written into before it is renamed over the output
#: (``codecs.write_records``): ``.<name>.<8 random characters>.tmp`` beside it.
_TEMPORARY = re.compile(r"\.(?P<output>.+)\.[a-z0-9_]{8}\.tmp")


def os_error_text(error: OSError) -> str:
    """``<file>: <why>`` for a file that cannot be opened, read or written.

    A fault of the temporary file an output is written into names the output, and the
    folder that is missing when there is one: ``cannot write out/a.pbs: there is no folder
    out``.
    """
    if error.filename is None:
        return str(error)
    name = os.fsdecode(error.filename)
    reason = error.strerror or str(error)
    folder, base = os.path.split(name)
    temporary = _TEMPORARY.fullmatch(base)
    if temporary is None:
        return f"{name}: {reason}"
    output = os.path.join(folder, temporary["output"])
    missing = _missing_folder(folder)
    if isinstance(error, FileNotFoundError) and missing:
        return f"cannot write {output}: there is no folder {missing}"
    return f"cannot write {output}: {reason}"


def _missing_folder(folder: str) -> str:
    """The outermost folder of ``folder`` that does not exist ("" when it exists)."""
    missing = ""
    while folder and not os.path.isdir(folder):
        missing, folder = folder, os.path.dirname(folder)
    return missing


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
        echo(text, nl=False)
        return
    with reported_errors(), atomic_output(output) as stream:
        stream.write(text.encode("utf-8"))
