"""What a command prints and how a plain run ends, without the command-line framework.

``gamerec validate PATH...``, the main job, runs without importing Typer (about a third of its
start-up, issue 39): :mod:`gamerec.cli.entry` takes the plain form of that command and calls
the same code the Typer command calls. What that code prints goes through :func:`echo`, which
writes as ``typer.echo`` (click's ``echo``) does for text: the line and a newline, flushed.

Imports: the standard library only.
"""

from __future__ import annotations

import sys


def echo(text: str, *, err: bool = False, nl: bool = True) -> None:
    """Write ``text`` (and a newline) to stdout, or stderr with ``err``, and flush."""
    stream = sys.stderr if err else sys.stdout
    stream.write(text + "\n" if nl else text)
    stream.flush()
