"""What the commands that read and write records share: their options and their edges.

``find``, ``dedupe``, ``stats`` and ``standings`` (collections), and ``convert``, ``annotate``,
``seal`` and ``sign`` (IN to OUT). Light on purpose (loaded when one of them runs): options,
where records go, and how an input that cannot be read is reported (one line on stderr; the
rest is still read).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import TYPE_CHECKING, Annotated

import typer

from gamerec.cli.arguments import encoding_help
from gamerec.cli.edge import EXIT_FAILED, error_line, fail
from gamerec.recorder.encoding import Encoding, encoding_for_path
from gamerec.recorder.words import plural

if TYPE_CHECKING:
    from gamerec.recorder.inputs import InputFailure
    from gamerec.v1 import record_pb2 as pb

#: ``IN``: the one input of a command that writes what it read (annotate, seal, sign).
InArgument = Annotated[
    str, typer.Argument(metavar="IN", help="The records to read: a file, or - for stdin.")
]
#: ``--from``: the encoding of IN.
InFromOption = Annotated[
    Encoding | None, typer.Option("--from", help=f"Encoding of IN ({encoding_help()}).")
]
#: ``-o OUT`` of such a command: required.
OutOption = Annotated[
    str,
    typer.Option(
        "-o",
        "--output",
        metavar="OUT",
        help="Where to write (replaced only on success), or - for standard output.",
    ),
]
#: ``-o OUT``: where the records go.
OutputOption = Annotated[
    str | None,
    typer.Option(
        "-o",
        "--output",
        metavar="OUT",
        help="Write the records here: a file (its extension gives the encoding; replaced only "
        "when the job is done) or - for standard output (GRN unless --to).",
    ),
]
#: ``--to``: the encoding of OUT.
ToOption = Annotated[
    Encoding | None,
    typer.Option("--to", help=f"Encoding of OUT ({encoding_help()}); default: its extension."),
]
#: ``--workers``: cores to judge on.
WorkersOption = Annotated[
    int, typer.Option("--workers", "-j", min=0, help="Worker processes; 0 means all cores.")
]


def output_encoding(dest: str, to: Encoding | None) -> Encoding:
    """The encoding records are written to ``dest`` in (exit 2 when it cannot be told).

    Writing a Ludii trial needs the rules engines (each move's effects): their registry is
    loaded here.
    """
    encoding = to or (Encoding.GRN if dest == "-" else encoding_for_path(dest))
    if encoding is None:
        fail(f"{dest}: cannot tell the encoding from the extension; use --to")
    if encoding is Encoding.LUDII:
        from gamerec.validator.games.registry import entries

        entries()
    return encoding


class FieldNotes:
    """What a foreign format had no place for, gathered per warning text with its records."""

    def __init__(self) -> None:
        """No warning yet."""
        self._records: dict[str, list[int]] = {}

    def add(self, text: str, record: int) -> None:
        """Note that record number ``record`` (1-based) gave the warning ``text``."""
        self._records.setdefault(text, []).append(record)

    def echo(self, total: int) -> None:
        """One warning line on stderr per text: ``gamerec: warning: 3 of 5 records: ...``."""
        for text, records in self._records.items():
            which = f"record {records[0]}" if len(records) == 1 else f"{len(records)} records"
            if total > 1 and len(records) == total:
                which = f"all {total} records"
            typer.echo(f"gamerec: warning: {which}: {text}", err=True)


class Failures:
    """Counts what cannot be read, reporting each on stderr as it is met."""

    def __init__(self) -> None:
        """No failure yet."""
        self.count = 0

    def report(self, failure: InputFailure) -> None:
        """One line on stderr: the input, the place and the reason."""
        self.count += 1
        place = f"#{failure.number}: " if failure.number else ""
        message = failure.message
        if failure.number and not message.startswith(failure.source):
            message = f"{failure.source} {place}{message}"
        typer.echo(error_line(message), err=True)

    def report_all(self, failures: Iterable[InputFailure]) -> None:
        """Report every failure."""
        for failure in failures:
            self.report(failure)

    def exit_code(self, otherwise: int) -> int:
        """2 when something could not be read, else ``otherwise``."""
        return EXIT_FAILED if self.count else otherwise


class Counted:
    """Records passed through, counted."""

    def __init__(self, records: Iterable[pb.GameRecord]) -> None:
        """Count ``records`` as they are read."""
        self._records = records
        self.count = 0

    def __iter__(self) -> Iterator[pb.GameRecord]:
        """The records."""
        for record in self._records:
            self.count += 1
            yield record


def written_note(count: int, dest: str, encoding: Encoding) -> None:
    """``gamerec: 12 records written to OUT (grn)`` on stderr (nothing for ``-``)."""
    if dest != "-":
        note = f"gamerec: {plural(count, 'record')} written to {dest} ({encoding.value})"
        typer.echo(note, err=True)
